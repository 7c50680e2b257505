/*
 * The P2MP mechanism and its parameters, as a scenario's `p2mp` section gives them (declared
 * in p2mp-schema.cc); plain data, mapped to the delivery's attributes.
 */
#ifndef MCAST4AI_P2MP_CONFIG_H
#define MCAST4AI_P2MP_CONFIG_H

#include <cstdint>
#include <string>

namespace ns3
{

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
    double controllerInstallsPerS{0};     // controller throughput; 0: no limit
    double switchWritesPerS{0};           // entry writes per second and switch; 0: no limit
    uint32_t tableEntries{4096};          // group-table capacity of every switch
    std::string onTableFull{"evict-lru"}; // or "fallback-unicast"
    double idleTeardownUs{-1};            // tear idle groups down after this; -1: never
};

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
    BierConfig bier;
    XpuListConfig xpuList;
    NewProtocolConfig newProtocol;
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_CONFIG_H */
