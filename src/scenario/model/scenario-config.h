/*
 * Typed, validated form of a scenario JSON file (version 1). The keys, their defaults and their
 * bindings to these fields are declared once, in the scenario schema (scenario-schema.cc and the
 * *-schema.cc section files); the initialisers below are the same defaults for programs that
 * build a config in C++ (a unit test checks they agree). Scenario::Load fills every field and
 * rejects anything else.
 */
#ifndef MCAST4AI_SCENARIO_CONFIG_H
#define MCAST4AI_SCENARIO_CONFIG_H

#include "topology/model/topology-config.h"
#include "workload/model/workload-config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

struct DcqcnConfig
{
    bool enabled{true};
    std::string preset{"paper"}; // where the defaults below come from ("paper", "nvidia-cx6")
    double cnpIntervalUs{50};    // notification point: at most one CNP per QP per interval
    double g{1.0 / 256};         // alpha gain
    double alphaUpdateUs{55};    // K: alpha decays every K without a CNP
    double rateIncreaseUs{55};   // T: rate-increase timer
    uint64_t byteCounterBytes{10485760}; // B: bytes per byte-counter stage
    uint32_t fastRecoverySteps{5};       // F
    double rateAiMbps{40};
    double rateHaiMbps{200};
    double minRateMbps{100};
    double rateOnFirstCnpMbps{0}; // 0: the first CNP decreases like any other
    double initialAlpha{1.0};
    bool clampTargetRate{true}; // every CNP sets target = current rate (the paper)
    bool rateTrace{false};      // write dcqcn-rates.csv into the result directory
};

struct NicConfig
{
    uint32_t mtuBytes{1024};  // RDMA path MTU: payload bytes per packet
    uint32_t ackEvery{1};     // coalesce: one ACK per N in-order packets (and at message end)
    double rtoUs{1000.0};     // retransmission timeout
    uint32_t dataPriority{3}; // PFC priority class of RDMA data
    uint32_t ctrlPriority{6}; // class of ACK/NAK/CNP, served before data
    DcqcnConfig dcqcn;
};

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
    double bufferMb{32};
    double latencyNs{500};
    double reserveKb{4}; // guaranteed per ingress (port, priority)
    double alpha{1.0};   // dynamic threshold: a queue may use alpha x free shared buffer
    PfcConfig pfc;
    EcnConfig ecn;
};

struct LoadBalancingConfig
{
    std::string mode{"ecmp"};
};

struct BierConfig
{
    uint32_t bslBits{256};
};

struct XpuListConfig
{
    double lookupNsPerId{0}; // switch forwarding time per listed receiver ID
};

struct NewProtocolConfig
{
    double installUs{10};                 // controller: request to group entries usable
    uint32_t tableEntries{4096};          // group-table capacity of every switch
    std::string onTableFull{"evict-lru"}; // or "fallback-unicast"
};

struct P2mpConfig
{
    std::string mechanism{"unicast"};
    std::string ackAggregation{"none"}; // default: "source-tor" for new-protocol, else "none"
    std::string ackMode{"per-packet"};  // "every-n", "per-message", "ack-free"
    uint32_t ackEvery{8};               // N of "every-n"
    std::string addressMapping{"group-region"}; // or "per-receiver-list"
    BierConfig bier;
    XpuListConfig xpuList;
    NewProtocolConfig newProtocol;
};

struct OutputConfig
{
    std::string dir; // default "results/<name>"
    bool pcap{false};
};

struct ScenarioConfig
{
    std::string file; // path it was loaded from (for messages)
    std::string name;
    uint64_t seed{1};
    double stopTimeMs{100};
    TopologyConfig topology;
    NicConfig nic;
    SwitchConfig sw;
    LoadBalancingConfig loadBalancing;
    P2mpConfig p2mp;
    std::vector<WorkloadConfig> workloads;
    OutputConfig output;

    uint32_t HostCount() const
    {
        if (topology.kind == "fat-tree")
        {
            return topology.k * topology.k * topology.k / 4;
        }
        return topology.leaves * topology.hostsPerLeaf;
    }
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_CONFIG_H */
