/*
 * One entry of a scenario's workloads[] as the loader validated it: the keys of the built-in
 * workload types as typed fields, and the whole entry, defaults filled in, as JSON (spec) for
 * workload types that read their own keys.
 */
#ifndef MCAST4AI_WORKLOAD_CONFIG_H
#define MCAST4AI_WORKLOAD_CONFIG_H

#include "core/model/enum-names.h"
#include "rdma/model/rdma-operation.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/// How a flows workload pairs its hosts (`pattern`); NONE: not a flows workload.
enum class FlowPattern : uint8_t
{
    NONE,
    LIST,
    PERMUTATION,
    INCAST
};

MCAST4AI_ENUM_NAMES(FlowPattern,
                    {{FlowPattern::NONE, ""},
                     {FlowPattern::LIST, "list"},
                     {FlowPattern::PERMUTATION, "permutation"},
                     {FlowPattern::INCAST, "incast"}});

/// How a collective (or a broadcast) moves its data (`algorithm`); each workload type
/// implements some of them.
enum class CollectiveAlgorithm : uint8_t
{
    MULTICAST,
    RING,
    TREE,
    UNICAST
};

MCAST4AI_ENUM_NAMES(CollectiveAlgorithm,
                    {{CollectiveAlgorithm::MULTICAST, "multicast"},
                     {CollectiveAlgorithm::RING, "ring"},
                     {CollectiveAlgorithm::TREE, "tree"},
                     {CollectiveAlgorithm::UNICAST, "unicast"}});

struct FlowSpec
{
    uint32_t src{0};
    uint32_t dst{0};
    uint64_t bytes{0};
    double startUs{0};
};

struct WorkloadConfig
{
    std::string type;  // "flows"
    std::string label; // optional user label; defaults to "<type>-<index>"
    FlowPattern pattern{FlowPattern::NONE};
    RdmaOperation op{RdmaOperation::WRITE};
    uint64_t bytes{0};
    double startUs{0};
    uint32_t senders{0};          // incast
    uint32_t receiver{0};         // incast
    uint32_t qpsPerConnection{1}; // flows: queue pairs each flow is split over
    // broadcast
    CollectiveAlgorithm algorithm{CollectiveAlgorithm::MULTICAST};
    uint32_t root{0};
    std::vector<uint32_t> ranks; // empty: every host
    uint64_t messages{1};
    uint32_t receiversPerMessage{0}; // 0: every rank but the root; else a random subset
    uint32_t window{1};              // messages in flight at once
    // collectives (and the workloads built on CollectiveWorkload)
    uint32_t iterations{0}; // operations, one after the other; 0: the type's default
    double computeUs{0};    // compute of every rank between iterations
    bool barrier{true};     // iteration i+1 waits for iteration i on every rank
    uint64_t chunkBytes{0}; // ring, tree, multicast: bytes of a chunk; 0: bytes / ranks
    // every type
    int32_t priority{-1};           // PFC class of its data; -1: nic.data_priority
    bool lossTolerant{false};       // its data may lose bytes
    int16_t maxRetransmissions{-1}; // loss-tolerant: resends of a lost packet before giving up;
                                    // -1: not given (0)
    std::vector<FlowSpec> flows;    // list (permutation/incast are expanded here by the runner)
    nlohmann::json spec;            // the entry as validated, every default filled in
};

} // namespace ns3

#endif /* MCAST4AI_WORKLOAD_CONFIG_H */
