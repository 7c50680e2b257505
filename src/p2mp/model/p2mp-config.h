/*
 * The P2MP mechanism and the parameters every mechanism has, as a scenario's `p2mp` section
 * gives them (declared in p2mp-schema.cc); a mechanism's own keys are declared with it and
 * kept in `spec`. Plain data; each key sets the delivery attribute it names.
 */
#ifndef MCAST4AI_P2MP_CONFIG_H
#define MCAST4AI_P2MP_CONFIG_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

struct P2mpConfig
{
    std::string mechanism{"unicast"};
    std::string ackAggregation{"none"}; // default: "source-tor" for new-protocol, else "none"
    std::string ackMode{"per-packet"};  // "every-n", "per-message", "ack-free"
    uint32_t ackEvery{8};               // N of "every-n"
    bool ackValidation{true};           // aggregation points refuse forged ACKs
    double receiverTimeoutUs{-1};       // drop a silent receiver after this long; < 0: never
    std::string onReceiverTimeout{"drop"};
    std::string addressMapping{"group-region"}; // or "per-receiver-list"
    nlohmann::json spec; // the whole section, each mechanism's own keys included (p2mp.bier)
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_CONFIG_H */
