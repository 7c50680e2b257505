#include "workload/model/broadcast-workload-schema.h"

#include "core/model/config-schema.h"
#include "ns3/log.h"
#include "workload/model/workload-config.h"
#include "workload/model/workload-schema-keys.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BroadcastWorkloadSchema");

const char* const BroadcastWorkloadSchema::DOC
    = "A root sends messages of `bytes` to the other ranks, through `p2mp.mechanism` "
      "(multicast) or relayed in chunks by the ranks (ring, tree); one operation per message.";

namespace
{

using json = nlohmann::json;

bool
Contains(const json& array, const json& value)
{
    for (const json& e : array)
    {
        if (e == value)
        {
            return true;
        }
    }
    return false;
}

} // namespace

void
BroadcastWorkloadSchema::Declare(ConfigSchemaObject& w)
{
    NS_LOG_FUNCTION_NOARGS();
    w.Enum("algorithm", {"multicast", "ring", "tree"})
        .Default("multicast")
        .Doc("multicast: every message through p2mp.mechanism; ring: the ranks relay it in "
             "chunks along a chain from the root (RDMA WRITEs); tree: the same down a binary "
             "tree rooted at the root")
        .Bind(&WorkloadConfig::algorithm);
    w.Integer("root")
        .Default(0)
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Doc("the sending host")
        .Bind(&WorkloadConfig::root);
    WorkloadSchemaKeys::Ranks(w)
        .Doc("the hosts taking part, the root included")
        .Bind(&WorkloadConfig::ranks);
    w.Integer("bytes", 1)
        .Required()
        .Unit("bytes")
        .Doc("size of every message")
        .Bind(&WorkloadConfig::bytes);
    w.Integer("messages", 1, 100000000)
        .Default(1)
        .Doc("messages the root sends, one after the other within the window")
        .Bind(&WorkloadConfig::messages);
    w.Integer("receivers_per_message", 0, 65535)
        .Default(0)
        .Note("0 = every rank but the root")
        .Doc("0: every rank but the root; else a random subset of that size per message")
        .Bind(&WorkloadConfig::receiversPerMessage);
    w.Integer("window", 1, 65536)
        .Default(1)
        .Doc("messages in flight at once")
        .Bind(&WorkloadConfig::window);
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when the first message is posted")
        .Bind(&WorkloadConfig::startUs);
    // Filled for ring and tree only, so that a multicast entry keeps its keys.
    w.Integer("chunk_bytes", 0)
        .Unit("bytes")
        .Note("0 = bytes / ranks")
        .Doc("ring, tree: bytes of one chunk (0: bytes / ranks); a rank forwards a chunk as soon "
             "as it has arrived")
        .Bind(&WorkloadConfig::chunkBytes, uint64_t{0});
    for (const char* relay : {"ring", "tree"})
    {
        w.Preset("algorithm",
                 relay,
                 {{"chunk_bytes", 0}},
                 "chunks of bytes / ranks unless chunk_bytes says otherwise");
    }

    w.Rule(
        "root",
        {"root", "ranks"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* root = v.Get("root");
            const json* ranks = v.Get("ranks");
            if (!root || !ranks || Contains(*ranks, *root))
            {
                return std::nullopt;
            }
            return "must be one of " + v.Path("ranks") + "; host " + root->dump() + " is not";
        },
        "the root is one of the ranks");
    w.Rule(
        "ranks",
        {"root", "ranks"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* root = v.Get("root");
            const json* ranks = v.Get("ranks");
            if (!root || !ranks || !Contains(*ranks, *root) || ranks->size() >= 2)
            {
                return std::nullopt;
            }
            return "needs at least one rank besides the root (" + v.Path("root") + " = "
                   + root->dump() + ")";
        },
        "at least one rank besides the root");
    w.Rule(
        "receivers_per_message",
        {"receivers_per_message", "ranks", "root"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* n = v.Get("receivers_per_message");
            const json* ranks = v.Get("ranks");
            if (!n || !ranks || ranks->empty() || n->get<uint64_t>() + 1 <= ranks->size())
            {
                return std::nullopt;
            }
            return "must be at most the " + std::to_string(ranks->size() - 1) + " ranks of "
                   + v.Path("ranks") + " other than the root, got " + n->dump();
        },
        "receivers_per_message <= the number of ranks - 1");
    w.Rule(
        "chunk_bytes",
        {"chunk_bytes", "algorithm"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* algorithm = v.Get("algorithm");
            if (!v.Get("chunk_bytes") || !algorithm || *algorithm != "multicast")
            {
                return std::nullopt;
            }
            return "applies to the ring and tree algorithms only, not to " + v.Path("algorithm")
                   + " " + ConfigSchema::Quote("multicast");
        },
        "`chunk_bytes` with `algorithm` ring or tree only");
    // The relayed algorithms send every message to every rank, one after the other.
    for (const char* key : {"receivers_per_message", "window"})
    {
        const uint64_t keep = std::string(key) == "window" ? 1 : 0;
        w.Rule(
            key,
            {key, "algorithm"},
            [key, keep](const ConfigSchemaView& v) -> std::optional<std::string>
            {
                const json* value = v.Get(key);
                const json* algorithm = v.Get("algorithm");
                if (!value || !algorithm || *algorithm == "multicast"
                    || value->get<uint64_t>() == keep)
                {
                    return std::nullopt;
                }
                return "must be " + std::to_string(keep) + " with " + v.Path("algorithm") + " "
                       + ConfigSchema::Quote(algorithm->get<std::string>()) + ", got "
                       + value->dump()
                       + ": ring and tree send every message to every rank, one after the other";
            },
            "`algorithm` ring or tree allows only `" + std::string(key)
                + "` = " + std::to_string(keep));
    }
}

} // namespace ns3
