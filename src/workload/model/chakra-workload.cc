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
    std::string commGroups;
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

/// A phase name for ops.csv, unique per collective: the node's name, its id (unique on its
/// rank) and its process group (which names the ranks), "<name>#<id>[@<group>]"; characters
/// that CSV or a shell would need quoted become '_'.
std::string
PhaseName(const ChakraTrace::Node& n)
{
    std::string name = (n.name.empty() ? ChakraTrace::CollectiveName(n.collective) : n.name) + "#"
                       + std::to_string(n.id) + (n.group.empty() ? "" : "@" + n.group);
    for (char& c : name)
    {
        if (!std::isalnum(static_cast<unsigned char>(c))
            && std::string("_-.:#@").find(c) == std::string::npos)
        {
            c = '_';
        }
    }
    return name;
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
    w.String("comm_groups")
        .Doc("a JSON file of process groups, as ASTRA-sim's --comm-group-configuration takes "
             "it: {\"<pg_name>\": [ranks, in ring order], ...}, relative to the working "
             "directory; a collective node whose `pg_name` names a group runs over its ranks, "
             "one without over every rank. Without the file every collective spans every "
             "rank")
        .Bind(&ChakraKeys::commGroups);
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
        {"trace", "ranks", "algorithm", "chunk_bytes", "comm_groups"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* trace = v.Get("trace");
            const uint32_t ranks = static_cast<uint32_t>(WorkloadSchemaKeys::RankCount(v));
            if (!trace || ranks < 2)
            {
                return std::nullopt;
            }
            ChakraTrace::Groups groups;
            if (const json* file = v.Get("comm_groups");
                file && ChakraTrace::ReadGroups(file->get<std::string>(), ranks, groups))
            {
                return std::nullopt; // the comm_groups rule says why
            }
            ChakraTrace t;
            if (auto e = ChakraTrace::Load(trace->get<std::string>(), ranks, groups, t))
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
                const ChakraTrace::Node& n = t.GetNodes(s.ranks[0])[s.nodes[0]];
                const std::string at = t.FileOf(s.ranks[0]) + ": node " + std::to_string(n.id);
                const uint32_t size = static_cast<uint32_t>(s.ranks.size());
                if (LargestMessage(n, size, multicast, chunk) > RdmaLimits::MAX_MESSAGE_BYTES)
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
    w.Rule(
        "comm_groups",
        {"comm_groups", "ranks"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* file = v.Get("comm_groups");
            const uint32_t ranks = static_cast<uint32_t>(WorkloadSchemaKeys::RankCount(v));
            ChakraTrace::Groups groups;
            return file && ranks >= 2
                       ? ChakraTrace::ReadGroups(file->get<std::string>(), ranks, groups)
                       : std::nullopt;
        },
        "a JSON object of group name -> at least 2 distinct ranks of the workload");
}

void
ChakraWorkload::DoInstall()
{
    const ChakraKeys keys = ReadKeys<ChakraKeys>();
    const uint32_t ranks
        = static_cast<uint32_t>(m_config.ranks.empty() ? GetHostCount() : m_config.ranks.size());
    // Checked when the scenario was loaded; a file changed since is a plain error.
    ChakraTrace::Groups groups;
    std::optional<std::string> e;
    if (!keys.commGroups.empty())
    {
        e = ChakraTrace::ReadGroups(keys.commGroups, ranks, groups);
    }
    if (!e)
    {
        e = ChakraTrace::Load(keys.trace, ranks, groups, m_trace);
    }
    NS_ABORT_MSG_IF(e, "chakra workload: " << *e);
    m_traceBytes = 0;
    for (const ChakraTrace::Step& s : m_trace.GetSteps())
    {
        if (s.kind == ChakraTrace::Kind::COLLECTIVE)
        {
            m_traceBytes += m_trace.GetNodes(s.ranks[0])[s.nodes[0]].bytes;
        }
        else if (s.kind == ChakraTrace::Kind::SEND)
        {
            m_traceBytes += m_trace.GetNodes(s.rank)[s.node].bytes;
        }
    }
    CollectiveWorkload::DoInstall();
}

std::vector<Workload::Warning>
ChakraWorkload::GetWarnings() const
{
    bool collectives = false;
    bool multicastable = false;
    for (const ChakraTrace::Step& s : m_trace.GetSteps())
    {
        if (s.kind == ChakraTrace::Kind::COLLECTIVE)
        {
            collectives = true;
            const ChakraTrace::Collective c = m_trace.GetNodes(s.ranks[0])[s.nodes[0]].collective;
            multicastable |= c == ChakraTrace::Collective::ALL_REDUCE
                             || c == ChakraTrace::Collective::ALL_GATHER
                             || c == ChakraTrace::Collective::BROADCAST;
        }
    }
    std::vector<Warning> out;
    if (m_config.algorithm == CollectiveAlgorithm::MULTICAST && !multicastable)
    {
        out.push_back({"algorithm",
                       "'multicast' has no effect: the trace has no ALL_REDUCE, ALL_GATHER or "
                       "BROADCAST"});
    }
    if (m_config.chunkBytes > 0 && !collectives)
    {
        out.push_back({"chunk_bytes", "has no effect: the trace has no collectives"});
    }
    return out;
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
                // Done once posted: the send waits for the node's dependencies, what follows
                // the node on this rank waits for the send to be posted only.
                t = schedule.AddLocal(s.rank, 0, 0);
                break;
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
        if (s.kind == ChakraTrace::Kind::SEND)
        {
            sent[i] = schedule.AddUnicast(s.rank, n.peer, n.bytes, 0);
            schedule.AddDependency(sent[i], t);
        }
    }
    return schedule;
}

void
ChakraWorkload::AddCollective(CollectiveSchedule& schedule,
                              const ChakraTrace::Step& s,
                              uint64_t chunkBytes,
                              std::vector<std::vector<uint32_t>>& done) const
{
    const std::vector<uint32_t>& members = s.ranks; // position p is rank members[p]
    const uint32_t size = static_cast<uint32_t>(members.size());
    const ChakraTrace::Node& first = m_trace.GetNodes(members[0])[s.nodes[0]];
    NS_LOG_LOGIC("collective " << PhaseName(first) << " over " << size << " ranks, " << first.bytes
                               << " bytes");

    // A rank starts its part once its node's dependencies are done (one transfer joins them).
    std::vector<uint32_t> entry(size, NONE);
    for (uint32_t p = 0; p < size; ++p)
    {
        const uint32_t r = members[p];
        const std::vector<uint32_t>& deps = m_trace.GetNodes(r)[s.nodes[p]].deps;
        if (deps.size() == 1)
        {
            entry[p] = done[r][deps[0]];
        }
        else if (deps.size() > 1)
        {
            entry[p] = schedule.AddLocal(r, 0, 0);
            for (uint32_t d : deps)
            {
                schedule.AddDependency(entry[p], done[r][d]);
            }
        }
    }

    // The collective over the group's positions, then into the trace's graph by rank.
    const uint32_t begin = schedule.GetTransferCount();
    schedule.SetPhase(PhaseName(first));
    Append(schedule, BuildCollective(first, size, chunkBytes, s), members);
    schedule.SetPhase("");
    const uint32_t end = schedule.GetTransferCount();

    // Each rank's sends wait for its entry; its node is done when all that arrives there has.
    std::vector<uint32_t> position(schedule.GetRanks(), NONE);
    for (uint32_t p = 0; p < size; ++p)
    {
        position[members[p]] = p;
    }
    std::vector<std::vector<uint32_t>> arrivals(size);
    for (uint32_t t = begin; t < end; ++t)
    {
        const CollectiveSchedule::Transfer& tr = schedule.GetTransfer(t);
        if (entry[position[tr.src]] != NONE)
        {
            schedule.AddDependency(t, entry[position[tr.src]]);
        }
        if (tr.receivers)
        {
            for (uint32_t r : *tr.receivers)
            {
                arrivals[position[r]].push_back(t);
            }
        }
        else
        {
            arrivals[position[tr.dst]].push_back(t);
        }
    }
    for (uint32_t p = 0; p < size; ++p)
    {
        uint32_t t = schedule.AddLocal(members[p], 0, 0);
        for (uint32_t a : arrivals[p])
        {
            schedule.AddDependency(t, a);
        }
        if (arrivals[p].empty() && entry[p] != NONE)
        {
            schedule.AddDependency(t, entry[p]); // a broadcast's root: done once it has sent
        }
        done[members[p]][s.nodes[p]] = t;
    }
}

CollectiveSchedule
ChakraWorkload::BuildCollective(const ChakraTrace::Node& n,
                                uint32_t size,
                                uint64_t chunkBytes,
                                const ChakraTrace::Step& s) const
{
    const bool multicast = m_config.algorithm == CollectiveAlgorithm::MULTICAST;
    CollectiveSchedule group(size);
    CollectiveAlgorithms::Slicing slicing{size, n.bytes, chunkBytes};
    const uint32_t root = static_cast<uint32_t>(std::find(s.ranks.begin(), s.ranks.end(), n.root)
                                                - s.ranks.begin());
    switch (n.collective)
    {
        case ChakraTrace::Collective::ALL_REDUCE:
        {
            auto reduced = CollectiveAlgorithms::RingReduceScatter(group, slicing, {});
            if (multicast)
            {
                CollectiveAlgorithms::MulticastAllGather(group, slicing, 1, reduced);
            }
            else
            {
                CollectiveAlgorithms::RingAllGather(group, slicing, 1, reduced);
            }
            break;
        }
        case ChakraTrace::Collective::ALL_GATHER:
            if (multicast)
            {
                CollectiveAlgorithms::MulticastAllGather(group, slicing, 0, {});
            }
            else
            {
                CollectiveAlgorithms::RingAllGather(group, slicing, 0, {});
            }
            break;
        case ChakraTrace::Collective::REDUCE_SCATTER:
            CollectiveAlgorithms::RingReduceScatter(group, slicing, {});
            break;
        case ChakraTrace::Collective::BROADCAST:
            if (multicast)
            {
                auto receivers = std::make_shared<std::vector<uint32_t>>();
                for (uint32_t p = 0; p < size; ++p)
                {
                    if (p != root)
                    {
                        receivers->push_back(p);
                    }
                }
                const uint64_t chunk = chunkBytes > 0 ? chunkBytes : n.bytes;
                for (uint64_t c : CollectiveAlgorithms::Chunks(n.bytes, chunk))
                {
                    group.AddMulticast(root, receivers, c, 0);
                }
            }
            else
            {
                // The chain from the root around the ring: root -> root+1 -> ... -> root-1.
                CollectiveAlgorithms::Tree chain;
                chain.root = root;
                chain.parent.assign(size, NONE);
                chain.children.assign(size, {});
                for (uint32_t k = 1; k < size; ++k)
                {
                    const uint32_t p = (root + k) % size;
                    const uint32_t up = (root + k - 1) % size;
                    chain.parent[p] = up;
                    chain.children[up].push_back(p);
                }
                CollectiveAlgorithms::TreeBroadcast(group, chain, n.bytes, chunkBytes);
            }
            break;
        case ChakraTrace::Collective::ALL_TO_ALL:
            // Position q sends shard p of its buffer to every other position p, directly.
            for (uint32_t q = 0; q < size; ++q)
            {
                for (uint32_t p = 0; p < size; ++p)
                {
                    const uint64_t shard = slicing.ShardBytes(0, p);
                    if (p == q || shard == 0)
                    {
                        continue;
                    }
                    const uint64_t chunk = chunkBytes > 0 ? chunkBytes : shard;
                    for (uint64_t c : CollectiveAlgorithms::Chunks(shard, chunk))
                    {
                        group.AddUnicast(q, p, c, 0);
                    }
                }
            }
            break;
    }
    return group;
}

void
ChakraWorkload::Append(CollectiveSchedule& into,
                       const CollectiveSchedule& from,
                       const std::vector<uint32_t>& ranks)
{
    const uint32_t base = into.GetTransferCount();
    // A P2MP transfer's receivers as ranks, ascending (AddDependency searches them), one set
    // per set of positions.
    std::map<const std::vector<uint32_t>*, CollectiveSchedule::RankSet> sets;
    for (uint32_t t = 0; t < from.GetTransferCount(); ++t)
    {
        const CollectiveSchedule::Transfer& tr = from.GetTransfer(t);
        if (tr.local)
        {
            into.AddLocal(ranks[tr.src], tr.delayNs, tr.step);
        }
        else if (tr.receivers)
        {
            CollectiveSchedule::RankSet& set = sets[tr.receivers.get()];
            if (!set)
            {
                auto mapped = std::make_shared<std::vector<uint32_t>>();
                for (uint32_t p : *tr.receivers)
                {
                    mapped->push_back(ranks[p]);
                }
                std::sort(mapped->begin(), mapped->end());
                set = mapped;
            }
            into.AddMulticast(ranks[tr.src], set, tr.bytes, tr.step);
        }
        else
        {
            into.AddUnicast(ranks[tr.src], ranks[tr.dst], tr.bytes, tr.step);
        }
    }
    for (uint32_t t = 0; t < from.GetTransferCount(); ++t)
    {
        for (uint32_t d : from.GetDependents(t))
        {
            into.AddDependency(base + d, base + t);
        }
    }
}

} // namespace ns3
