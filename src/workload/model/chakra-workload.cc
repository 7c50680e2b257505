#include "workload/model/chakra-workload.h"

#include "core/model/config-schema-object.h"
#include "ns3/abort.h"
#include "ns3/log.h"
#include "rdma/model/rdma-limits.h"
#include "workload/model/collective-algorithms.h"
#include "workload/model/workload-schema-keys.h"
#include "workload/model/workload-type-registry.h"

#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraWorkload");
NS_OBJECT_ENSURE_REGISTERED(ChakraWorkload);
MCAST4AI_REGISTER_WORKLOAD("chakra",
                           ChakraWorkload,
                           &ChakraWorkload::Declare,
                           "MLCommons Chakra execution traces, one file per rank: compute nodes "
                           "as compute time, collectives through the collective engine (their "
                           "multicast steps through p2mp.mechanism), sends and receives as RDMA "
                           "WRITEs, every dependency honoured; one operation per iteration.");

namespace
{

using json = nlohmann::json;
constexpr uint32_t NONE = CollectiveAlgorithms::NONE;
/// Most chunks one collective is cut into, as for the collective types.
constexpr uint64_t MAX_CHUNKS = uint64_t{1} << 24;

/// The keys of a chakra entry of its own (the rest are the CollectiveWorkload's).
struct ChakraKeys
{
    std::string trace;
};

/// The largest message collective node n is sent in, under `algorithm` and chunk_bytes.
uint64_t
LargestMessage(const ChakraTrace::Node& n, uint32_t ranks, bool multicast, uint64_t chunk)
{
    if (chunk > 0)
    {
        return std::min(chunk, n.bytes);
    }
    if (n.collective == ChakraTrace::Collective::BROADCAST && multicast)
    {
        return n.bytes; // one P2MP message of the whole buffer
    }
    return (n.bytes + ranks - 1) / ranks;
}

/// A phase name for ops.csv from a node's name: characters that CSV or a shell would need
/// quoted become '_'.
std::string
PhaseName(const ChakraTrace::Node& n)
{
    std::string name = n.name.empty() ? ChakraTrace::CollectiveName(n.collective) : n.name;
    for (char& c : name)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.'
            && c != ':')
        {
            c = '_';
        }
    }
    return name + "#" + std::to_string(n.id);
}

} // namespace

TypeId
ChakraWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ChakraWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<ChakraWorkload>();
    return tid;
}

void
ChakraWorkload::Declare(ConfigSchemaObject& w)
{
    w.BindStruct<ChakraKeys>();
    w.String("trace")
        .Required()
        .Doc("the traces' path prefix, relative to the working directory: rank r's file is "
             "<trace>.<r>.et (Chakra's naming), plain or gzip-compressed")
        .Bind(&ChakraKeys::trace);
    WorkloadSchemaKeys::Ranks(w)
        .MinItems(2)
        .AllOrCount()
        .Doc("the hosts that run the trace's ranks 0, 1, ... (and the ring order of its "
             "collectives); \"all\" or a count n, the first n hosts; the trace must have a "
             "file for each")
        .Bind(&WorkloadConfig::ranks);
    w.Enum("algorithm", {"ring", "multicast"}, {"ring", "multicast"})
        .Default("ring")
        .Doc("ring: every collective around the ring (a broadcast as a pipelined chain from its "
             "root); multicast: an AllReduce's all-gather, an AllGather and a Broadcast as P2MP "
             "messages through p2mp.mechanism, the rest as with ring; ALL_TO_ALL is always "
             "direct, a message from every rank to every other")
        .Bind(&WorkloadConfig::algorithm);
    WorkloadSchemaKeys::ChunkBytes(w)
        .Note("0 = a collective's comm_size / ranks, one loop")
        .Doc("as for the collective types: each collective is sent in loops of ranks x "
             "chunk_bytes (a multicast broadcast and an ALL_TO_ALL in messages of chunk_bytes)");
    WorkloadSchemaKeys::Iterations(w, 1).Doc(
        "runs of the whole trace, one after the other; each is one row of ops.csv");
    WorkloadSchemaKeys::ComputeUs(w).Doc(
        "compute time of every rank between one run of the trace and the next (the trace's own "
        "compute nodes are its own)");
    WorkloadSchemaKeys::Barrier(w).Doc(
        "true: run i+1 starts on every rank when run i is done on all ranks; false: each rank "
        "starts it once its own nodes of run i are done");
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when every rank starts the first run")
        .Bind(&WorkloadConfig::startUs);
    w.Rule(
        "trace",
        {"trace", "ranks", "algorithm", "chunk_bytes"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* trace = v.Get("trace");
            const uint32_t ranks = static_cast<uint32_t>(WorkloadSchemaKeys::RankCount(v));
            if (!trace || ranks < 2)
            {
                return std::nullopt;
            }
            ChakraTrace t;
            if (auto e = ChakraTrace::Load(trace->get<std::string>(), ranks, t))
            {
                return *e;
            }
            const json* algorithm = v.Get("algorithm");
            const bool multicast = algorithm && *algorithm == "multicast";
            const json* chunkKey = v.Get("chunk_bytes");
            const uint64_t chunk = chunkKey ? chunkKey->get<uint64_t>() : 0;
            for (const ChakraTrace::Step& s : t.GetSteps())
            {
                if (s.kind != ChakraTrace::Kind::COLLECTIVE)
                {
                    continue;
                }
                const ChakraTrace::Node& n = t.GetNodes(0)[s.nodes[0]];
                const std::string at = t.FileOf(0) + ": node " + std::to_string(n.id);
                if (LargestMessage(n, ranks, multicast, chunk) > RdmaLimits::MAX_MESSAGE_BYTES)
                {
                    return at + ": comm_size " + std::to_string(n.bytes)
                           + " is sent in messages above RDMA's 2^31 bytes; set "
                           + v.Path("chunk_bytes") + " to split it";
                }
                if (chunk > 0 && n.bytes / chunk > MAX_CHUNKS)
                {
                    return at + ": comm_size " + std::to_string(n.bytes) + " would be "
                           + std::to_string(n.bytes / chunk) + " chunks of " + v.Path("chunk_bytes")
                           + ", more than the " + std::to_string(MAX_CHUNKS) + " a schedule holds";
                }
            }
            return std::nullopt;
        },
        "a readable trace with a file per rank, every node supported, its collectives and "
        "sends matched; every message <= 2^31 bytes");
}

void
ChakraWorkload::DoInstall()
{
    const ChakraKeys keys = ReadKeys<ChakraKeys>();
    const uint32_t ranks
        = static_cast<uint32_t>(m_config.ranks.empty() ? GetHostCount() : m_config.ranks.size());
    // Checked when the scenario was loaded; a file changed since is a plain error.
    auto e = ChakraTrace::Load(keys.trace, ranks, m_trace);
    NS_ABORT_MSG_IF(e, "chakra workload: " << *e);
    m_traceBytes = 0;
    for (const ChakraTrace::Step& s : m_trace.GetSteps())
    {
        if (s.kind == ChakraTrace::Kind::COLLECTIVE)
        {
            m_traceBytes += m_trace.GetNodes(0)[s.nodes[0]].bytes;
        }
        else if (s.kind == ChakraTrace::Kind::SEND)
        {
            m_traceBytes += m_trace.GetNodes(s.rank)[s.node].bytes;
        }
    }
    CollectiveWorkload::DoInstall();
}

void
ChakraWorkload::DescribeOp(Metrics::OpRecord& record) const
{
    record.bytes = m_traceBytes;
}

CollectiveSchedule
ChakraWorkload::BuildSchedule(uint32_t ranks, uint64_t /* bytes */, uint64_t chunkBytes) const
{
    NS_LOG_FUNCTION(this << ranks << chunkBytes);
    CollectiveSchedule schedule(ranks);
    // Per rank and node: a transfer that arrives at the rank when the node is done.
    std::vector<std::vector<uint32_t>> done(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        done[r].assign(m_trace.GetNodes(r).size(), NONE);
    }
    std::vector<uint32_t> sent(m_trace.GetSteps().size(), NONE); ///< a SEND step's transfer
    for (uint32_t i = 0; i < m_trace.GetSteps().size(); ++i)
    {
        const ChakraTrace::Step& s = m_trace.GetSteps()[i];
        if (s.kind == ChakraTrace::Kind::COLLECTIVE)
        {
            AddCollective(schedule, s, chunkBytes, done);
            continue;
        }
        const ChakraTrace::Node& n = m_trace.GetNodes(s.rank)[s.node];
        uint32_t t = NONE;
        switch (s.kind)
        {
            case ChakraTrace::Kind::COMPUTE:
                t = schedule.AddLocal(s.rank, n.durationNs, 0);
                break;
            case ChakraTrace::Kind::SEND:
            {
                // Done once posted: the send waits for the node's dependencies, what follows the
                // node on this rank waits for the send to be posted only.
                t = schedule.AddLocal(s.rank, 0, 0);
                for (uint32_t d : n.deps)
                {
                    schedule.AddDependency(t, done[s.rank][d]);
                }
                sent[i] = schedule.AddUnicast(s.rank, n.peer, n.bytes, 0);
                schedule.AddDependency(sent[i], t);
                done[s.rank][s.node] = t;
                continue;
            }
            case ChakraTrace::Kind::RECV:
                t = schedule.AddLocal(s.rank, 0, 0);
                schedule.AddDependency(t, sent[s.send]);
                break;
            case ChakraTrace::Kind::COLLECTIVE:
                break;
        }
        for (uint32_t d : n.deps)
        {
            schedule.AddDependency(t, done[s.rank][d]);
        }
        done[s.rank][s.node] = t;
    }
    return schedule;
}

void
ChakraWorkload::AddCollective(CollectiveSchedule& schedule,
                              const ChakraTrace::Step& s,
                              uint64_t chunkBytes,
                              std::vector<std::vector<uint32_t>>& done) const
{
    const uint32_t ranks = schedule.GetRanks();
    const ChakraTrace::Node& first = m_trace.GetNodes(0)[s.nodes[0]];
    const bool multicast = m_config.algorithm == CollectiveAlgorithm::MULTICAST;
    NS_LOG_LOGIC("collective " << PhaseName(first) << " " << first.bytes << " bytes");

    // A rank starts its part once its node's dependencies are done (one transfer joins them).
    std::vector<uint32_t> entry(ranks, NONE);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        const std::vector<uint32_t>& deps = m_trace.GetNodes(r)[s.nodes[r]].deps;
        if (deps.size() == 1)
        {
            entry[r] = done[r][deps[0]];
        }
        else if (deps.size() > 1)
        {
            entry[r] = schedule.AddLocal(r, 0, 0);
            for (uint32_t d : deps)
            {
                schedule.AddDependency(entry[r], done[r][d]);
            }
        }
    }

    const uint32_t begin = schedule.GetTransferCount();
    schedule.SetPhase(PhaseName(first));
    CollectiveAlgorithms::Slicing slicing{ranks, first.bytes, chunkBytes};
    switch (first.collective)
    {
        case ChakraTrace::Collective::ALL_REDUCE:
        {
            auto reduced = CollectiveAlgorithms::RingReduceScatter(schedule, slicing, {});
            if (multicast)
            {
                CollectiveAlgorithms::MulticastAllGather(schedule, slicing, 1, reduced);
            }
            else
            {
                CollectiveAlgorithms::RingAllGather(schedule, slicing, 1, reduced);
            }
            break;
        }
        case ChakraTrace::Collective::ALL_GATHER:
            if (multicast)
            {
                CollectiveAlgorithms::MulticastAllGather(schedule, slicing, 0, {});
            }
            else
            {
                CollectiveAlgorithms::RingAllGather(schedule, slicing, 0, {});
            }
            break;
        case ChakraTrace::Collective::REDUCE_SCATTER:
            CollectiveAlgorithms::RingReduceScatter(schedule, slicing, {});
            break;
        case ChakraTrace::Collective::BROADCAST:
            if (multicast)
            {
                auto receivers = std::make_shared<std::vector<uint32_t>>();
                for (uint32_t r = 0; r < ranks; ++r)
                {
                    if (r != first.root)
                    {
                        receivers->push_back(r);
                    }
                }
                const uint64_t chunk = chunkBytes > 0 ? chunkBytes : first.bytes;
                for (uint64_t c : CollectiveAlgorithms::Chunks(first.bytes, chunk))
                {
                    schedule.AddMulticast(first.root, receivers, c, 0);
                }
            }
            else
            {
                // The chain from the root around the ring: root -> root+1 -> ... -> root-1.
                CollectiveAlgorithms::Tree chain;
                chain.root = first.root;
                chain.parent.assign(ranks, NONE);
                chain.children.assign(ranks, {});
                for (uint32_t k = 1; k < ranks; ++k)
                {
                    const uint32_t r = (first.root + k) % ranks;
                    const uint32_t up = (first.root + k - 1) % ranks;
                    chain.parent[r] = up;
                    chain.children[up].push_back(r);
                }
                CollectiveAlgorithms::TreeBroadcast(schedule, chain, first.bytes, chunkBytes);
            }
            break;
        case ChakraTrace::Collective::ALL_TO_ALL:
            // Rank r sends shard p of its buffer to every other rank p, directly.
            for (uint32_t r = 0; r < ranks; ++r)
            {
                for (uint32_t p = 0; p < ranks; ++p)
                {
                    const uint64_t shard = slicing.ShardBytes(0, p);
                    if (p == r || shard == 0)
                    {
                        continue;
                    }
                    const uint64_t chunk = chunkBytes > 0 ? chunkBytes : shard;
                    for (uint64_t c : CollectiveAlgorithms::Chunks(shard, chunk))
                    {
                        schedule.AddUnicast(r, p, c, 0);
                    }
                }
            }
            break;
    }
    schedule.SetPhase("");
    const uint32_t end = schedule.GetTransferCount();

    // Each rank's sends wait for its entry; its node is done when all that arrives there has.
    std::vector<std::vector<uint32_t>> arrivals(ranks);
    for (uint32_t t = begin; t < end; ++t)
    {
        const CollectiveSchedule::Transfer& tr = schedule.GetTransfer(t);
        if (entry[tr.src] != NONE)
        {
            schedule.AddDependency(t, entry[tr.src]);
        }
        if (tr.receivers)
        {
            for (uint32_t r : *tr.receivers)
            {
                arrivals[r].push_back(t);
            }
        }
        else
        {
            arrivals[tr.dst].push_back(t);
        }
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        uint32_t t = schedule.AddLocal(r, 0, 0);
        for (uint32_t a : arrivals[r])
        {
            schedule.AddDependency(t, a);
        }
        if (arrivals[r].empty() && entry[r] != NONE)
        {
            schedule.AddDependency(t, entry[r]); // a broadcast's root: done once it has sent
        }
        done[r][s.nodes[r]] = t;
    }
}

} // namespace ns3
