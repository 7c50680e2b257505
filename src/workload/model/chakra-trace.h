/*
 * MLCommons Chakra execution traces (one file per rank, <prefix>.<rank>.et) as the `chakra`
 * workload runs them: read with Debian's protobuf, checked, and put in an order in which a
 * CollectiveSchedule can take them (a transfer only waits for transfers added before it, and a
 * collective's transfers are added for all ranks at once).
 */
#ifndef MCAST4AI_CHAKRA_TRACE_H
#define MCAST4AI_CHAKRA_TRACE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Every rank's nodes of a Chakra trace, and the order to run them in.
 *
 * Node types run: COMP_NODE (its duration_micros of compute), COMM_COLL_NODE (ALL_REDUCE,
 * ALL_GATHER, REDUCE_SCATTER, BROADCAST, ALL_TO_ALL of comm_size bytes), COMM_SEND_NODE and
 * COMM_RECV_NODE (comm_size bytes to comm_dst / from comm_src, matched by comm_tag in order)
 * and METADATA_NODE (nothing). A node starts when its data_deps and ctrl_deps on its rank are
 * done. The k-th collective node of every rank's dependency order is one collective over all
 * ranks: they must agree on its type, size and root. Anything else is an error naming the file
 * and the node.
 */
class ChakraTrace
{
public:
    enum class Kind : uint8_t
    {
        COMPUTE, ///< also a METADATA_NODE, with no duration
        SEND,
        RECV,
        COLLECTIVE,
    };
    enum class Collective : uint8_t
    {
        ALL_REDUCE,
        ALL_GATHER,
        REDUCE_SCATTER,
        BROADCAST,
        ALL_TO_ALL,
    };

    struct Node
    {
        uint64_t id{0};
        std::string name;
        Kind kind{Kind::COMPUTE};
        Collective collective{Collective::ALL_REDUCE};
        uint64_t durationNs{0};     ///< COMPUTE
        uint64_t bytes{0};          ///< comm_size
        uint32_t peer{0};           ///< SEND: comm_dst, RECV: comm_src
        int64_t tag{0};             ///< SEND, RECV: comm_tag (0 if absent)
        uint32_t root{0};           ///< BROADCAST: attribute `root` (its group's first if absent)
        std::string group;          ///< COLLECTIVE: attribute `pg_name` ("": every rank)
        std::vector<uint32_t> deps; ///< indices into the rank's nodes
    };

    /// One entry of the run order.
    struct Step
    {
        Kind kind{Kind::COMPUTE};
        uint32_t rank{0};            ///< COMPUTE, SEND, RECV
        uint32_t node{0};            ///< COMPUTE, SEND, RECV: index into the rank's nodes
        uint32_t send{0};            ///< RECV: the step of its matching send
        std::vector<uint32_t> ranks; ///< COLLECTIVE: its group's ranks, in ring order
        std::vector<uint32_t> nodes; ///< COLLECTIVE: per rank of `ranks`, its node
    };

    /// Process groups by name (a collective's `pg_name`): the ranks of each, in ring order.
    using Groups = std::map<std::string, std::vector<uint32_t>>;

    /**
     * Read `<prefix>.<r>.et` for r = 0..ranks-1 and order them; `groups` are the process
     * groups a collective's `pg_name` names (empty: every collective spans every rank).
     * \return an error ("FILE: node ID (\"NAME\"): reason" where a node is at fault), or
     *         nullopt with the trace in `out`
     */
    static std::optional<std::string> Load(const std::string& prefix,
                                           uint32_t ranks,
                                           const Groups& groups,
                                           ChakraTrace& out);
    /**
     * Read a process-group file, as ASTRA-sim's --comm-group-configuration takes it: a JSON
     * object of group name -> list of ranks.
     * \return an error naming the file, or nullopt with the groups in `out`
     */
    static std::optional<std::string> ReadGroups(const std::string& path,
                                                 uint32_t ranks,
                                                 Groups& out);

    uint32_t GetRanks() const;
    const std::vector<Node>& GetNodes(uint32_t rank) const;
    /// Every node once, each after the nodes it depends on and a receive after its send.
    const std::vector<Step>& GetSteps() const;
    /// The file of a rank, for messages.
    std::string FileOf(uint32_t rank) const;
    /// "ALL_REDUCE", ...: Chakra's names.
    static const char* CollectiveName(Collective c);
    /// The ranks a collective node spans: its group's, or every rank.
    const std::vector<uint32_t>& MembersOf(const Node& n) const;

private:
    std::optional<std::string> ReadRank(uint32_t rank);
    std::optional<std::string> Order();
    /// "FILE: node ID (\"NAME\")".
    std::string Where(uint32_t rank, uint32_t node) const;
    /// "process group \"NAME\"", or "every rank".
    static std::string GroupName(const std::string& group);

    std::string m_prefix;
    std::vector<std::vector<Node>> m_nodes; ///< per rank, in dependency order
    std::vector<Step> m_steps;
    Groups m_groups;
    std::vector<uint32_t> m_world; ///< 0 .. ranks-1
};

} // namespace ns3

#endif /* MCAST4AI_CHAKRA_TRACE_H */
