/*
 * The settings of every switch (buffer, PFC, ECN) and of the path choice, as a scenario's
 * `switch` and `load_balancing` sections give them (declared in switch-schema.cc and
 * load-balancing-schema.cc); plain data, read by the fabric helper. A model's own keys
 * (switch.dwrr, spray-adaptive's tie_break) are declared with it and kept in `spec`.
 */
#ifndef MCAST4AI_SWITCH_CONFIG_H
#define MCAST4AI_SWITCH_CONFIG_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

struct PfcConfig
{
    bool enabled{true};
    double headroomKb{-1};   // < 0: sized from the link BDP plus MTUs
    double hysteresisKb{-1}; // < 0: two max-size frames below the XOFF threshold
};

struct EcnConfig
{
    bool enabled{true};
    double kminKb{-1}; // < 0: 4 KB per Gb/s of the port (100 KB at 25G, 400 KB at 100G)
    double kmaxKb{-1}; // < 0: 16 KB per Gb/s of the port
    double pmax{0.2};
};

struct SwitchConfig
{
    std::string scheduling{"strict"}; // how an egress port picks its next class
    double bufferMb{32};
    double latencyNs{500};
    double reserveKb{4};          // guaranteed per ingress (port, priority)
    double alpha{1.0};            // dynamic threshold: a queue may use alpha x free shared buffer
    bool sourceValidation{false}; // host ports refuse frames with another host's source
    PfcConfig pfc;
    EcnConfig ecn;
    nlohmann::json spec; // the whole section, each scheduler's own keys included (switch.dwrr)
};

struct LoadBalancingConfig
{
    std::string mode{"ecmp"};
    bool endpointSteering{false}; ///< senders steer their source port (mode steering)
    bool allowSteeringWithSpraying{false};
    double minRepathIntervalUs{100}; ///< steering: at most one repath per QP per interval
    uint64_t messageBytes{262144};   ///< steering: transfers are posted in messages this size
    bool telemetry{false};           ///< steering from IOAM traces in probes, too
    std::string steeringModel;       ///< the path-steering model's name; "": by `telemetry`
    uint32_t probePorts{8};          ///< telemetry: new source ports per probing round
    double probeIntervalUs{25};      ///< telemetry: at most one probe of a kind per interval
    double telemetryWindowUs{5};     ///< telemetry: switches' utilisation time constant
    nlohmann::json spec; ///< the whole section, each mode's own keys included (tie_break)
};

} // namespace ns3

#endif /* MCAST4AI_SWITCH_CONFIG_H */
