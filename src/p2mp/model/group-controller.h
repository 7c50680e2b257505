/*
 * The new protocol's controller: computes a tree per (source, receiver set), installs its
 * entries in the switches on the tree, and reports the group ready after the installation
 * latency. Switch tables are finite: a full table evicts its least recently used idle group,
 * and when nothing can be evicted the request falls back to unicast.
 */
#ifndef MCAST4AI_GROUP_CONTROLLER_H
#define MCAST4AI_GROUP_CONTROLLER_H

#include "fabric/model/rank-messenger.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "p2mp/model/group-table.h"

#include <map>
#include <memory>
#include <vector>

namespace ns3
{

class MulticastTree;
class PackedBytes;
class TopologyGraph;

/**
 * \brief Group installation for the new P2MP protocol.
 */
class GroupController : public Object
{
public:
    static TypeId GetTypeId();

    /// Group id passed to a ReadyCallback when the group could not be installed.
    static constexpr uint32_t FALLBACK = 0xFFFFFFFF;
    typedef Callback<void, uint32_t> ReadyCallback;

    /// tables[i] belongs to switch node graph.HostCount() + i.
    void Setup(const TopologyGraph* graph, std::vector<Ptr<GroupTable>> tables);

    /**
     * The group for this source and receiver set: ready(id) once installed (at once if it
     * already is), or ready(FALLBACK). Requests for a group being installed wait for it.
     */
    void Request(uint32_t source,
                 std::shared_ptr<const std::vector<uint32_t>> receivers,
                 ReadyCallback ready);
    /// Messages in flight pin their group: it is not evicted until released.
    void Acquire(uint32_t groupId);
    void Release(uint32_t groupId);

    /**
     * The routes changed (a link failed or came back): recompute the tree of every installed
     * group and install it afresh, as the controller of a real fabric would once it learns of
     * the change. A group with a receiver the failure cut off keeps its old tree, whose branch
     * beyond the failure loses what it carries until the routes return.
     */
    void Reconverge();
    /// Installed groups whose trees Reconverge() installed again.
    uint64_t GetReinstalls() const;

    uint64_t GetInstalls() const;
    uint64_t GetEvictions() const;
    /// Groups torn down after IdleTeardown of idleness.
    uint64_t GetTeardowns() const;
    /// Switch entries installed, torn down and evicted: one controller message to a switch
    /// each (a group spans the switches of its tree).
    uint64_t GetEntryInstalls() const;
    uint64_t GetEntryTeardowns() const;
    uint64_t GetEntryEvictions() const;
    uint64_t GetFallbacks() const;
    uint64_t GetGroups() const;
    /// Mean time from a request that needed an installation to the group being ready.
    double GetMeanInstallUs() const;

    /**
     * A run spread over processes. The controller runs where the groups' source is simulated
     * (requests from two processes are an error: their group ids would collide); each switch
     * entry it writes or removes is sent to the other processes, which apply it one message
     * delay later, before the group can be used: InstallLatency must be at least that delay.
     * An install that needs a full table's room is an error there: evicting picks the least
     * recently used entry, which only the switch's own process knows (and falling back to
     * unicast makes queue pairs at first use).
     */
    void SetMessenger(Ptr<RankMessenger> messenger);
    /// Its counters, for a distributed run's merge (summed; only one process has any).
    void Pack(PackedBytes& out) const;
    void MergeFrom(PackedBytes& in);

protected:
    void DoDispose() override;

private:
    struct Group
    {
        uint32_t source{0};
        std::shared_ptr<const std::vector<uint32_t>> receivers;
        std::vector<uint32_t> switches; ///< switch indices holding an entry
        bool installed{false};
        bool installing{false};
        uint32_t refs{0};
        std::vector<ReadyCallback> waiting;
        EventId teardown; ///< pending while idle, with IdleTeardown set
    };

    bool Install(uint32_t id);
    /// Install group id along tree (room first: nothing is installed if it does not fit).
    bool Install(uint32_t id, const MulticastTree& tree);
    void Uninstall(uint32_t id);
    void Installed(uint32_t id, Time requested);
    /// When the entries of group id, just written into the tables, become usable: after the
    /// controller has served the request and each switch of the tree its entry write (each a
    /// single server at its rate, FIFO; rate 0 is instantaneous), plus InstallLatency.
    Time InstallDone(uint32_t id);
    /// Tell the group's switches whether it may be evicted (see GroupTable::SetIdle).
    void UpdateIdle(uint32_t id);
    void TearDown(uint32_t id);
    /// Remove group id's entry from switch index s, and tell the other processes.
    void RemoveEntry(uint32_t id, uint32_t s);
    /// Entries written or removed by the controller of another process.
    void RemoteWrite(PackedBytes& message);

    const TopologyGraph* m_graph{nullptr};
    std::vector<Ptr<GroupTable>> m_tables;
    Time m_installLatency;
    double m_controllerRate{0};     ///< group installs per second; 0: no limit
    double m_switchRate{0};         ///< entry writes per second and switch; 0: no limit
    Time m_controllerFree;          ///< when the controller has served its queue
    std::vector<Time> m_switchFree; ///< per switch index, when it has written its queue
    bool m_evict;
    Time m_idleTeardown;
    std::map<std::pair<uint32_t, std::vector<uint32_t>>, uint32_t> m_ids;
    std::vector<Group> m_groups;
    uint64_t m_installs{0};
    uint64_t m_evictions{0};
    uint64_t m_teardowns{0};
    uint64_t m_entryInstalls{0};
    uint64_t m_entryTeardowns{0};
    uint64_t m_entryEvictions{0};
    uint64_t m_fallbacks{0};
    uint64_t m_reinstalls{0};
    Time m_installTotal; ///< install delays summed (a Time: merged sums are exact)
    Ptr<RankMessenger> m_messenger;
    uint32_t m_handler{0};
    int64_t m_remoteSource{-1}; ///< the process whose controller wrote here; -1: none
};

} // namespace ns3

#endif /* MCAST4AI_GROUP_CONTROLLER_H */
