#include "workload/model/chakra-trace.h"

#include "chakra-et.pb.h"
#include "rdma/model/rdma-limits.h"

#include <algorithm>
#include <deque>
#include <fcntl.h>
#include <fstream>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <map>
#include <nlohmann/json.hpp>
#include <queue>
#include <unistd.h>
#include <unordered_map>

namespace ns3
{

namespace
{

namespace pb = mcast4ai::chakra;

/// Any integer-valued attribute (Chakra's tools write comm_size as int64 or uint64, peers as
/// int32); nullopt for another value type.
std::optional<int64_t>
IntOf(const pb::AttributeProto& a)
{
    switch (a.value_case())
    {
        case pb::AttributeProto::kInt32Val:
            return a.int32_val();
        case pb::AttributeProto::kInt64Val:
            return a.int64_val();
        case pb::AttributeProto::kUint32Val:
            return a.uint32_val();
        case pb::AttributeProto::kUint64Val:
            return a.uint64_val() > static_cast<uint64_t>(INT64_MAX)
                       ? std::nullopt
                       : std::optional<int64_t>(static_cast<int64_t>(a.uint64_val()));
        case pb::AttributeProto::kSint32Val:
            return a.sint32_val();
        case pb::AttributeProto::kSint64Val:
            return a.sint64_val();
        case pb::AttributeProto::kFixed32Val:
            return a.fixed32_val();
        case pb::AttributeProto::kFixed64Val:
            return a.fixed64_val() > static_cast<uint64_t>(INT64_MAX)
                       ? std::nullopt
                       : std::optional<int64_t>(static_cast<int64_t>(a.fixed64_val()));
        case pb::AttributeProto::kSfixed32Val:
            return a.sfixed32_val();
        case pb::AttributeProto::kSfixed64Val:
            return a.sfixed64_val();
        default:
            return std::nullopt;
    }
}

/// The node's attribute `name`: absent, an integer, or an error text.
struct IntAttr
{
    bool present{false};
    int64_t value{0};
    std::optional<std::string> error;
};

IntAttr
FindInt(const pb::Node& n, const std::string& name)
{
    IntAttr out;
    for (const pb::AttributeProto& a : n.attr())
    {
        if (a.name() != name)
        {
            continue;
        }
        out.present = true;
        if (auto v = IntOf(a))
        {
            out.value = *v;
        }
        else
        {
            out.error = "attribute " + name + " is not an integer";
        }
        return out;
    }
    return out;
}

/// A file descriptor closed on every path out.
struct FileDescriptor
{
    int fd;
    ~FileDescriptor()
    {
        if (fd >= 0)
        {
            close(fd);
        }
    }
};

} // namespace

const char*
ChakraTrace::CollectiveName(Collective c)
{
    switch (c)
    {
        case Collective::ALL_REDUCE:
            return "ALL_REDUCE";
        case Collective::ALL_GATHER:
            return "ALL_GATHER";
        case Collective::REDUCE_SCATTER:
            return "REDUCE_SCATTER";
        case Collective::BROADCAST:
            return "BROADCAST";
        case Collective::ALL_TO_ALL:
            return "ALL_TO_ALL";
    }
    return "?";
}

std::optional<std::string>
ChakraTrace::ReadGroups(const std::string& path, uint32_t ranks, Groups& out)
{
    std::ifstream in(path);
    if (!in)
    {
        return path + ": cannot read";
    }
    nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.empty())
    {
        return path + ": not a JSON object of process group name -> list of ranks";
    }
    out.clear();
    for (const auto& [name, list] : doc.items())
    {
        const std::string at = path + ": group \"" + name + "\"";
        if (!list.is_array() || list.size() < 2)
        {
            return at + ": not a list of at least 2 ranks";
        }
        std::vector<uint32_t> members;
        for (const nlohmann::json& r : list)
        {
            if (!r.is_number_unsigned() || r.get<uint64_t>() >= ranks)
            {
                return at + ": " + r.dump() + " is not a rank of the trace's "
                       + std::to_string(ranks);
            }
            members.push_back(r.get<uint32_t>());
        }
        std::vector<uint32_t> sorted = members;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        {
            return at + ": a rank listed twice";
        }
        out[name] = std::move(members);
    }
    return std::nullopt;
}

const std::vector<uint32_t>&
ChakraTrace::MembersOf(const Node& n) const
{
    return n.group.empty() ? m_world : m_groups.at(n.group);
}

std::string
ChakraTrace::GroupName(const std::string& group)
{
    return group.empty() ? "every rank" : "process group \"" + group + "\"";
}

std::optional<std::string>
ChakraTrace::Load(const std::string& prefix, uint32_t ranks, const Groups& groups, ChakraTrace& out)
{
    out = ChakraTrace();
    out.m_prefix = prefix;
    out.m_groups = groups;
    out.m_nodes.resize(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        out.m_world.push_back(r);
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (auto e = out.ReadRank(r))
        {
            return e;
        }
    }
    // A file for a rank beyond the workload's is most likely a trace of another size.
    if (access(out.FileOf(ranks).c_str(), F_OK) == 0)
    {
        return out.FileOf(ranks) + ": the trace has more ranks than the workload's "
               + std::to_string(ranks);
    }
    return out.Order();
}

uint32_t
ChakraTrace::GetRanks() const
{
    return static_cast<uint32_t>(m_nodes.size());
}

const std::vector<ChakraTrace::Node>&
ChakraTrace::GetNodes(uint32_t rank) const
{
    return m_nodes.at(rank);
}

const std::vector<ChakraTrace::Step>&
ChakraTrace::GetSteps() const
{
    return m_steps;
}

std::string
ChakraTrace::FileOf(uint32_t rank) const
{
    return m_prefix + "." + std::to_string(rank) + ".et";
}

std::string
ChakraTrace::Where(uint32_t rank, uint32_t node) const
{
    const Node& n = m_nodes[rank][node];
    return FileOf(rank) + ": node " + std::to_string(n.id) + " (\"" + n.name + "\")";
}

std::optional<std::string>
ChakraTrace::ReadRank(uint32_t rank)
{
    namespace io = google::protobuf::io;
    const std::string file = FileOf(rank);
    FileDescriptor fd{open(file.c_str(), O_RDONLY)};
    if (fd.fd < 0)
    {
        return file + ": cannot read; the workload's " + std::to_string(GetRanks()) + " ranks read "
               + FileOf(0) + " to " + FileOf(GetRanks() - 1) + " (workloads[].ranks sets how many)";
    }
    unsigned char magic[2] = {0, 0};
    const bool gzipped = pread(fd.fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    io::FileInputStream raw(fd.fd);
    io::GzipInputStream unzipped(&raw, io::GzipInputStream::GZIP);
    io::ZeroCopyInputStream* in = gzipped ? static_cast<io::ZeroCopyInputStream*>(&unzipped)
                                          : static_cast<io::ZeroCopyInputStream*>(&raw);

    // Varint-length-prefixed messages: a GlobalMetadata, then the nodes.
    std::vector<pb::Node> nodes;
    bool metadata = false;
    for (uint64_t message = 0;; ++message)
    {
        io::CodedInputStream coded(in);
        uint32_t size = 0;
        if (!coded.ReadVarint32(&size))
        {
            if (!metadata)
            {
                return file + ": empty or not a Chakra trace (no GlobalMetadata message)";
            }
            break; // end of file
        }
        const auto limit = coded.PushLimit(static_cast<int>(size));
        bool ok;
        if (!metadata)
        {
            pb::GlobalMetadata m;
            ok = m.ParseFromCodedStream(&coded);
            metadata = true;
        }
        else
        {
            nodes.emplace_back();
            ok = nodes.back().ParseFromCodedStream(&coded);
        }
        if (!ok || coded.BytesUntilLimit() != 0)
        {
            return file + ": message " + std::to_string(message) + " (" + std::to_string(size)
                   + " bytes) is truncated or not a Chakra "
                   + (message == 0 ? "GlobalMetadata" : "Node");
        }
        coded.PopLimit(limit);
    }
    if (nodes.empty())
    {
        return file + ": the trace has no nodes";
    }

    std::vector<Node>& out = m_nodes[rank];
    std::unordered_map<uint64_t, uint32_t> indexOf;
    for (const pb::Node& n : nodes)
    {
        Node node;
        node.id = n.id();
        node.name = n.name();
        out.push_back(node);
        const uint32_t i = static_cast<uint32_t>(out.size() - 1);
        if (!indexOf.emplace(n.id(), i).second)
        {
            return Where(rank, i) + ": a second node with this id";
        }
    }
    const uint32_t ranks = GetRanks();
    for (uint32_t i = 0; i < out.size(); ++i)
    {
        const pb::Node& n = nodes[i];
        Node& node = out[i];
        const std::string at = Where(rank, i);
        auto required = [&](const std::string& key, int64_t lo, int64_t hi, int64_t& v)
            -> std::optional<std::string>
        {
            IntAttr a = FindInt(n, key);
            if (a.error)
            {
                return at + ": " + *a.error;
            }
            if (!a.present)
            {
                return at + ": " + pb::NodeType_Name(n.type()) + " needs attribute " + key;
            }
            if (a.value < lo || a.value > hi)
            {
                return at + ": attribute " + key + " = " + std::to_string(a.value) + " is outside ["
                       + std::to_string(lo) + ", " + std::to_string(hi) + "]";
            }
            v = a.value;
            return std::nullopt;
        };
        int64_t v = 0;
        switch (n.type())
        {
            case pb::METADATA_NODE:
                node.kind = Kind::COMPUTE;
                break;
            case pb::COMP_NODE:
                node.kind = Kind::COMPUTE;
                if (n.duration_micros() > UINT64_MAX / 1000)
                {
                    return at + ": duration_micros " + std::to_string(n.duration_micros())
                           + " is too long";
                }
                node.durationNs = n.duration_micros() * 1000;
                break;
            case pb::COMM_SEND_NODE:
            case pb::COMM_RECV_NODE:
            {
                const bool send = n.type() == pb::COMM_SEND_NODE;
                node.kind = send ? Kind::SEND : Kind::RECV;
                const std::string peerKey = send ? "comm_dst" : "comm_src";
                if (auto e = required(peerKey, 0, ranks - 1, v))
                {
                    return e;
                }
                if (v == rank)
                {
                    return at + ": " + peerKey + " is the node's own rank";
                }
                node.peer = static_cast<uint32_t>(v);
                if (auto e = required("comm_size", 1, RdmaLimits::MAX_MESSAGE_BYTES, v))
                {
                    return e;
                }
                node.bytes = static_cast<uint64_t>(v);
                IntAttr tag = FindInt(n, "comm_tag");
                if (tag.error)
                {
                    return at + ": " + *tag.error;
                }
                node.tag = tag.value;
                break;
            }
            case pb::COMM_COLL_NODE:
            {
                node.kind = Kind::COLLECTIVE;
                if (auto e = required("comm_type", 0, INT32_MAX, v))
                {
                    return e;
                }
                switch (v)
                {
                    case pb::ALL_REDUCE:
                        node.collective = Collective::ALL_REDUCE;
                        break;
                    case pb::ALL_GATHER:
                        node.collective = Collective::ALL_GATHER;
                        break;
                    case pb::REDUCE_SCATTER:
                        node.collective = Collective::REDUCE_SCATTER;
                        break;
                    case pb::BROADCAST:
                        node.collective = Collective::BROADCAST;
                        break;
                    case pb::ALL_TO_ALL:
                        node.collective = Collective::ALL_TO_ALL;
                        break;
                    default:
                    {
                        const std::string name = pb::CollectiveCommType_IsValid(static_cast<int>(v))
                                                     ? pb::CollectiveCommType_Name(
                                                         static_cast<pb::CollectiveCommType>(v))
                                                     : "comm_type " + std::to_string(v);
                        return at + ": collective " + name
                               + " is not supported (ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, "
                                 "BROADCAST, "
                                 "ALL_TO_ALL are)";
                    }
                }
                if (auto e = required("comm_size", 1, INT64_MAX, v))
                {
                    return e;
                }
                node.bytes = static_cast<uint64_t>(v);
                // Its process group, when the workload has a group file (else every rank).
                if (!m_groups.empty())
                {
                    for (const pb::AttributeProto& a : n.attr())
                    {
                        if (a.name() != "pg_name")
                        {
                            continue;
                        }
                        if (a.value_case() == pb::AttributeProto::kStringVal)
                        {
                            node.group = a.string_val();
                        }
                        else if (auto g = IntOf(a))
                        {
                            node.group = std::to_string(*g);
                        }
                        else
                        {
                            return at + ": attribute pg_name is neither a string nor an integer";
                        }
                    }
                    if (!node.group.empty() && !m_groups.count(node.group))
                    {
                        return at + ": pg_name \"" + node.group
                               + "\" is not a group of the workload's comm_groups file";
                    }
                }
                const std::vector<uint32_t>& members = MembersOf(node);
                if (std::find(members.begin(), members.end(), rank) == members.end())
                {
                    return at + ": rank " + std::to_string(rank) + " is not in its "
                           + GroupName(node.group);
                }
                // Every rank of the group takes a share of the buffer, at least a byte.
                if (node.bytes < members.size())
                {
                    return at + ": comm_size " + std::to_string(node.bytes) + " is below its "
                           + std::to_string(members.size()) + " ranks (a byte each)";
                }
                IntAttr root = FindInt(n, "root");
                if (root.error)
                {
                    return at + ": " + *root.error;
                }
                node.root = root.present ? static_cast<uint32_t>(root.value) : members.front();
                if (root.present
                    && (root.value < 0
                        || std::find(members.begin(), members.end(), root.value) == members.end()))
                {
                    return at + ": attribute root = " + std::to_string(root.value)
                           + " is not a rank of its " + GroupName(node.group);
                }
                break;
            }
            default:
                return at + ": "
                       + (pb::NodeType_IsValid(n.type()) ? pb::NodeType_Name(n.type())
                                                         : "node type " + std::to_string(n.type()))
                       + " is not supported (COMP_NODE, COMM_COLL_NODE, COMM_SEND_NODE, "
                         "COMM_RECV_NODE, METADATA_NODE are)";
        }
        for (const auto* deps : {&n.data_deps(), &n.ctrl_deps()})
        {
            for (uint64_t d : *deps)
            {
                auto it = indexOf.find(d);
                if (it == indexOf.end())
                {
                    return at + ": depends on node " + std::to_string(d)
                           + ", which the file does not have";
                }
                if (it->second == i)
                {
                    return at + ": depends on itself";
                }
                node.deps.push_back(it->second);
            }
        }
        std::sort(node.deps.begin(), node.deps.end());
        node.deps.erase(std::unique(node.deps.begin(), node.deps.end()), node.deps.end());
    }

    // Dependency order, file order among the ready (Kahn's, smallest index first).
    const uint32_t count = static_cast<uint32_t>(out.size());
    std::vector<uint32_t> waiting(count, 0);
    std::vector<std::vector<uint32_t>> dependents(count);
    for (uint32_t i = 0; i < count; ++i)
    {
        waiting[i] = static_cast<uint32_t>(out[i].deps.size());
        for (uint32_t d : out[i].deps)
        {
            dependents[d].push_back(i);
        }
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < count; ++i)
    {
        if (waiting[i] == 0)
        {
            ready.push(i);
        }
    }
    std::vector<uint32_t> order;
    while (!ready.empty())
    {
        const uint32_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (uint32_t d : dependents[i])
        {
            if (--waiting[d] == 0)
            {
                ready.push(d);
            }
        }
    }
    if (order.size() < count)
    {
        for (uint32_t i = 0; i < count; ++i)
        {
            if (waiting[i] > 0)
            {
                return Where(rank, i) + ": its dependencies form a cycle";
            }
        }
    }
    std::vector<uint32_t> position(count);
    for (uint32_t p = 0; p < count; ++p)
    {
        position[order[p]] = p;
    }
    std::vector<Node> sorted;
    sorted.reserve(count);
    for (uint32_t i : order)
    {
        sorted.push_back(std::move(out[i]));
        for (uint32_t& d : sorted.back().deps)
        {
            d = position[d];
        }
    }
    out = std::move(sorted);
    return std::nullopt;
}

std::optional<std::string>
ChakraTrace::Order()
{
    const uint32_t ranks = GetRanks();
    std::vector<uint32_t> cursor(ranks, 0);
    // Sends not yet received, by (source, destination, tag), in order.
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::deque<uint32_t>> unreceived;
    std::map<std::string, uint32_t> collectives; ///< by group: how many ran
    for (;;)
    {
        bool progress = false;
        for (uint32_t r = 0; r < ranks; ++r)
        {
            const std::vector<Node>& nodes = m_nodes[r];
            while (cursor[r] < nodes.size())
            {
                const Node& n = nodes[cursor[r]];
                Step s;
                s.kind = n.kind;
                s.rank = r;
                s.node = cursor[r];
                if (n.kind == Kind::COLLECTIVE)
                {
                    break; // until every rank is at its next collective
                }
                if (n.kind == Kind::SEND)
                {
                    unreceived[{r, n.peer, n.tag}].push_back(static_cast<uint32_t>(m_steps.size()));
                }
                else if (n.kind == Kind::RECV)
                {
                    auto it = unreceived.find({n.peer, r, n.tag});
                    if (it == unreceived.end() || it->second.empty())
                    {
                        break; // until its send is in
                    }
                    s.send = it->second.front();
                    it->second.pop_front();
                    const Step& send = m_steps[s.send];
                    const Node& sent = m_nodes[send.rank][send.node];
                    if (sent.bytes != n.bytes)
                    {
                        return Where(r, cursor[r]) + ": receives comm_size "
                               + std::to_string(n.bytes) + " but its send, "
                               + Where(send.rank, send.node) + ", sends "
                               + std::to_string(sent.bytes);
                    }
                }
                m_steps.push_back(std::move(s));
                ++cursor[r];
                progress = true;
            }
        }
        uint32_t finished = 0;
        for (uint32_t r = 0; r < ranks; ++r)
        {
            finished += cursor[r] == m_nodes[r].size();
        }
        if (finished == ranks)
        {
            break;
        }
        // A collective runs once every rank of its group is at it (at its next collective,
        // of that group): the k-th of a group on each of its ranks is one collective.
        auto at = [&](uint32_t q) -> const Node*
        {
            return cursor[q] < m_nodes[q].size() ? &m_nodes[q][cursor[q]] : nullptr;
        };
        auto readyFor = [&](const Node& n, uint32_t q)
        {
            const Node* m = at(q);
            return m && m->kind == Kind::COLLECTIVE && m->group == n.group;
        };
        bool fired = false;
        for (uint32_t r = 0; r < ranks && !fired; ++r)
        {
            const Node* n = at(r);
            if (!n || n->kind != Kind::COLLECTIVE)
            {
                continue;
            }
            const std::vector<uint32_t>& members = MembersOf(*n);
            if (!std::all_of(members.begin(),
                             members.end(),
                             [&](uint32_t q)
                             {
                                 return readyFor(*n, q);
                             }))
            {
                continue;
            }
            Step s;
            s.kind = Kind::COLLECTIVE;
            s.ranks = members;
            const uint32_t first = members.front();
            const Node& f = *at(first);
            const uint32_t k = collectives[n->group]++;
            for (uint32_t q : members)
            {
                const Node& m = *at(q);
                if (m.collective != f.collective || m.bytes != f.bytes || m.root != f.root)
                {
                    return Where(q, cursor[q]) + ": collective " + std::to_string(k) + " (over "
                           + GroupName(n->group) + ") is " + CollectiveName(m.collective) + " of "
                           + std::to_string(m.bytes) + " bytes (root " + std::to_string(m.root)
                           + ") here but " + CollectiveName(f.collective) + " of "
                           + std::to_string(f.bytes) + " bytes (root " + std::to_string(f.root)
                           + ") at " + Where(first, cursor[first]);
                }
            }
            for (uint32_t q : members)
            {
                s.nodes.push_back(cursor[q]++);
            }
            m_steps.push_back(std::move(s));
            fired = true;
        }
        if (fired || progress)
        {
            continue;
        }
        // Stuck: name a rank that waits for something that never comes.
        for (uint32_t r = 0; r < ranks; ++r)
        {
            const Node* n = at(r);
            if (n && n->kind == Kind::RECV)
            {
                return Where(r, cursor[r]) + ": no send from rank " + std::to_string(n->peer)
                       + " with comm_tag " + std::to_string(n->tag)
                       + " can reach it (it is missing, or waits for this rank)";
            }
        }
        for (uint32_t r = 0; r < ranks; ++r)
        {
            const Node* n = at(r);
            if (!n)
            {
                continue;
            }
            for (uint32_t q : MembersOf(*n))
            {
                const Node* m = at(q);
                if (!m)
                {
                    return Where(r, cursor[r]) + ": collective "
                           + std::to_string(collectives[n->group]) + " (over " + GroupName(n->group)
                           + "), but " + FileOf(q) + " has only "
                           + std::to_string(collectives[n->group]) + " of its collectives";
                }
                if (!readyFor(*n, q))
                {
                    return Where(r, cursor[r]) + ": its collective (" + GroupName(n->group)
                           + ") waits for rank " + std::to_string(q) + ", whose next is "
                           + Where(q, cursor[q]) + " (" + GroupName(m->group)
                           + "): the ranks order their collectives differently";
                }
            }
        }
        return FileOf(0) + ": the ranks' nodes cannot be ordered";
    }
    for (const auto& [key, sends] : unreceived)
    {
        if (!sends.empty())
        {
            const Step& s = m_steps[sends.front()];
            return Where(s.rank, s.node) + ": no receive on rank "
                   + std::to_string(std::get<1>(key)) + " matches it (comm_tag "
                   + std::to_string(std::get<2>(key)) + ")";
        }
    }
    return std::nullopt;
}

} // namespace ns3
