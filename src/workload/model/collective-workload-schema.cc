#include "workload/model/collective-workload-schema.h"

#include "rdma/model/rdma-limits.h"
#include "workload/model/workload-config.h"
#include "workload/model/workload-schema-keys.h"

namespace ns3
{

const char* const CollectiveWorkloadSchema::ALLREDUCE_DOC
    = "Every rank ends with the sum of all ranks' `bytes`-byte buffers; one operation per "
      "iteration.";
const char* const CollectiveWorkloadSchema::ALLGATHER_DOC
    = "Every rank contributes `bytes` / ranks and ends with the whole `bytes`; one operation per "
      "iteration.";
const char* const CollectiveWorkloadSchema::REDUCESCATTER_DOC
    = "Every rank ends with the sum of one `bytes` / ranks shard of all ranks' buffers; one "
      "operation per iteration.";

const char* const CollectiveWorkloadSchema::CHECKPOINT_DOC
    = "The first rank delivers `bytes` to every other rank in messages of `chunk_bytes`, "
      "through p2mp.mechanism (multicast) or as a copy per target (unicast); one operation "
      "per iteration.";

namespace
{

using json = nlohmann::json;

/// Largest buffer S: 1 TiB (counters and ledgers count bytes in 64 bits; this keeps sums of
/// many operations far from wrapping).
constexpr uint64_t MAX_BUFFER_BYTES = uint64_t{1} << 40;
/// Most chunks one buffer is cut into: the schedule holds every chunk's steps in memory.
constexpr uint64_t MAX_CHUNKS = uint64_t{1} << 24;

} // namespace

void
CollectiveWorkloadSchema::DeclareCommon(ConfigSchemaObject& w)
{
    WorkloadSchemaKeys::Ranks(w)
        .MinItems(2)
        .AllOrCount()
        .Doc("the hosts taking part, in ring order (rank r sends to rank r+1; the tree "
             "algorithm's positions); \"all\" or a count n, the first n hosts")
        .Bind(&WorkloadConfig::ranks);
    // The buffer is sent as messages of chunk_bytes or S / ranks (each at most RDMA's 2^31
    // bytes, see the rule below), so S itself may be larger than one message.
    w.Integer("bytes", 1, MAX_BUFFER_BYTES)
        .Required()
        .Unit("bytes")
        .Note("1 TiB; each message it is sent in is at most 2^31 bytes")
        .Doc("the buffer S: what each rank reduces (allreduce, reducescatter) or ends with "
             "(allgather), as nccl-tests count it")
        .Bind(&WorkloadConfig::bytes);
    WorkloadSchemaKeys::ChunkBytes(w)
        .Note("0 = bytes / ranks, one loop")
        .Doc("ring, multicast: bytes of one shard per loop, the buffer is sent in loops of "
             "ranks x chunk_bytes, which pipeline through the ring; tree: bytes of one chunk, "
             "each tree's half of the buffer pipelines through it in such chunks; checkpoint: "
             "bytes of each message the source sends");
    WorkloadSchemaKeys::Iterations(w, 1).Doc(
        "operations, one after the other; each is one row of ops.csv");
    WorkloadSchemaKeys::ComputeUs(w).Doc(
        "compute time of every rank between one iteration and the next");
    WorkloadSchemaKeys::Barrier(w).Doc(
        "true: iteration i+1 starts, with its compute, on every rank when iteration i has "
        "completed on all ranks (a training step's synchronisation point); false: each "
        "rank goes on as soon as its own part of iteration i is done, so ranks drift "
        "apart");
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when every rank starts the first iteration")
        .Bind(&WorkloadConfig::startUs);
    w.Rule(
        "bytes",
        {"bytes", "ranks"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* bytes = v.Get("bytes");
            std::size_t n = WorkloadSchemaKeys::RankCount(v);
            if (!bytes || n == 0 || bytes->get<uint64_t>() >= n)
            {
                return std::nullopt;
            }
            return "must be at least one byte per rank (" + std::to_string(n) + "), got "
                   + bytes->dump();
        },
        "bytes >= the number of ranks");
    w.Rule(
        "bytes",
        {"bytes", "ranks", "chunk_bytes"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* bytes = v.Get("bytes");
            const json* chunk = v.Get("chunk_bytes");
            std::size_t n = WorkloadSchemaKeys::RankCount(v);
            if (!bytes || !chunk || n == 0)
            {
                return std::nullopt;
            }
            const uint64_t s = bytes->get<uint64_t>();
            const uint64_t c = chunk->get<uint64_t>();
            if (c == 0 && (s + n - 1) / n > RdmaLimits::MAX_MESSAGE_BYTES)
            {
                return "sent as messages of bytes / ranks = " + std::to_string((s + n - 1) / n)
                       + ", above RDMA's limit of 2^31 bytes per message; set "
                       + v.Path("chunk_bytes") + " to split it";
            }
            if (c > 0 && s / c > MAX_CHUNKS)
            {
                return "would be " + std::to_string(s / c) + " chunks of " + v.Path("chunk_bytes")
                       + " = " + std::to_string(c) + ", more than the " + std::to_string(MAX_CHUNKS)
                       + " a schedule holds; use larger chunks";
            }
            return std::nullopt;
        },
        "every message <= 2^31 bytes, at most 2^24 chunks");
    w.Rule(
        "ranks",
        {"ranks", "algorithm"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* algorithm = v.Get("algorithm");
            std::size_t n = WorkloadSchemaKeys::RankCount(v);
            if (!algorithm || *algorithm != "multicast" || n <= MAX_MULTICAST_RANKS)
            {
                return std::nullopt;
            }
            return "the multicast algorithm takes at most " + std::to_string(MAX_MULTICAST_RANKS)
                   + " ranks, got " + std::to_string(n);
        },
        "multicast: at most 4096 ranks");
}

void
CollectiveWorkloadSchema::DeclareAllreduce(ConfigSchemaObject& w)
{
    w.Enum("algorithm", {"ring", "tree", "multicast"})
        .Default("ring")
        .Doc("ring: reduce-scatter then all-gather around the ring, 2(N-1) steps; tree: NCCL's "
             "double binary tree, each tree reduces half the buffer to its root and broadcasts "
             "it back, pipelined in chunks, 2 ceil(log2 N) steps; multicast: the reduce-scatter "
             "by ring, then every rank sends its reduced shard to all others as one P2MP "
             "message")
        .Bind(&WorkloadConfig::algorithm);
    DeclareCommon(w);
}

void
CollectiveWorkloadSchema::DeclareAllgather(ConfigSchemaObject& w)
{
    w.Enum("algorithm", {"ring", "multicast"}, {"ring", "multicast"})
        .Default("ring")
        .Doc("ring: N-1 steps around the ring; multicast: every rank sends its shard to all "
             "others as one P2MP message")
        .Bind(&WorkloadConfig::algorithm);
    DeclareCommon(w);
}

void
CollectiveWorkloadSchema::DeclareReducescatter(ConfigSchemaObject& w)
{
    w.Enum("algorithm", {"ring"}, {"ring"})
        .Default("ring")
        .Doc("ring: N-1 steps around the ring")
        .Bind(&WorkloadConfig::algorithm);
    DeclareCommon(w);
}

void
CollectiveWorkloadSchema::DeclareCheckpoint(ConfigSchemaObject& w)
{
    w.Enum("algorithm", {"multicast", "unicast"})
        .Default("multicast")
        .Doc("multicast: each message once from the source, through p2mp.mechanism; unicast: "
             "a copy of each message to every target over RDMA WRITEs, whatever the mechanism; "
             "the source is the first rank")
        .Bind(&WorkloadConfig::algorithm);
    DeclareCommon(w);
}

} // namespace ns3
