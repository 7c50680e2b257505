#include "p2mp/model/group-controller.h"

#include "core/model/packed-bytes.h"
#include "core/model/process-ranks.h"
#include "fabric/model/rank-messenger.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "topology/model/multicast-tree.h"
#include "topology/model/topology-graph.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GroupController");
NS_OBJECT_ENSURE_REGISTERED(GroupController);

TypeId
GroupController::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::GroupController")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<GroupController>()
              .AddAttribute("InstallLatency",
                            "From a request for a new group to its entries being usable",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&GroupController::m_installLatency),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ControllerRate",
                            "Group installations the controller serves per second, one at a "
                            "time in request order (0: no limit)",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&GroupController::m_controllerRate),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("SwitchWriteRate",
                            "Group-table entry writes each switch makes per second, one at a "
                            "time in arrival order (0: no limit)",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&GroupController::m_switchRate),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("IdleTeardown",
                            "Tear a group's entries down once it has been idle (no message in "
                            "flight) this long; the next message installs it again. "
                            "Time::Max (the default): never",
                            TimeValue(Time::Max()),
                            MakeTimeAccessor(&GroupController::m_idleTeardown),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("EvictLru",
                            "A full switch table evicts its least recently used idle group; "
                            "false: the request falls back to unicast instead",
                            BooleanValue(true),
                            MakeBooleanAccessor(&GroupController::m_evict),
                            MakeBooleanChecker());
    return tid;
}

void
GroupController::Setup(const TopologyGraph* graph, std::vector<Ptr<GroupTable>> tables)
{
    m_graph = graph;
    m_tables = std::move(tables);
}

void
GroupController::Request(uint32_t source,
                         std::shared_ptr<const std::vector<uint32_t>> receivers,
                         ReadyCallback ready)
{
    NS_ABORT_MSG_IF(m_remoteSource >= 0,
                    "GroupController: groups requested by two processes of a distributed run ("
                        << m_remoteSource << " and " << ProcessRanks::GetRank()
                        << "): P2MP sources with installed groups must be on one process");
    auto key = std::make_pair(source, *receivers);
    auto it = m_ids.find(key);
    uint32_t id;
    if (it == m_ids.end())
    {
        id = m_groups.size();
        m_ids.emplace(std::move(key), id);
        m_groups.emplace_back();
        m_groups[id].source = source;
        m_groups[id].receivers = receivers;
    }
    else
    {
        id = it->second;
    }
    Group& g = m_groups[id];
    if (g.installed)
    {
        ready(id);
        return;
    }
    g.waiting.push_back(ready);
    if (g.installing)
    {
        return;
    }
    if (!Install(id))
    {
        ++m_fallbacks;
        std::vector<ReadyCallback> waiting;
        waiting.swap(m_groups[id].waiting);
        for (auto& cb : waiting)
        {
            cb(FALLBACK);
        }
        return;
    }
    m_groups[id].installing = true;
    Simulator::Schedule(InstallDone(id) - Simulator::Now(),
                        &GroupController::Installed,
                        this,
                        id,
                        Simulator::Now());
}

Time
GroupController::InstallDone(uint32_t id)
{
    const Time now = Simulator::Now();
    Time served = now;
    if (m_controllerRate > 0)
    {
        m_controllerFree = std::max(m_controllerFree, now) + Seconds(1.0 / m_controllerRate);
        served = m_controllerFree;
    }
    Time written = served;
    if (m_switchRate > 0)
    {
        m_switchFree.resize(m_tables.size());
        for (uint32_t s : m_groups[id].switches)
        {
            m_switchFree[s] = std::max(m_switchFree[s], served) + Seconds(1.0 / m_switchRate);
            written = std::max(written, m_switchFree[s]);
        }
    }
    NS_LOG_LOGIC("group " << id << ": controller done at " << served << ", entries written at "
                          << written);
    return written + m_installLatency;
}

bool
GroupController::Install(uint32_t id)
{
    Group& g = m_groups[id];
    // Equal-cost branches are chosen per source, not per group: every tree of one sender then
    // reaches a given receiver along the same path, so FIFO links keep that receiver's messages
    // in order even when successive messages use different groups (a receiver cannot tell a
    // message that overtook another from one that skipped it). Different sources still spread.
    return Install(id, MulticastTree::Compute(*m_graph, g.source, *g.receivers, g.source));
}

bool
GroupController::Install(uint32_t id, const MulticastTree& tree)
{
    Group& g = m_groups[id];
    uint32_t hosts = m_graph->HostCount();
    uint32_t sourceTor = m_graph->LeafOf(g.source);
    // Room first: every switch on the tree needs a slot, or nothing is installed.
    for (const auto& [node, ports] : tree.OutPorts())
    {
        Ptr<GroupTable> t = m_tables[node - hosts];
        if (!t->IsFull() || t->Contains(id))
        {
            continue;
        }
        NS_ABORT_MSG_IF(m_messenger,
                        "GroupController: switch "
                            << node << "'s group table is full (" << t->GetCapacity()
                            << " entries) in a run spread over processes, which cannot evict "
                               "or fall back yet: run it in one process, or give the tables "
                               "room (GroupTable::Capacity)");
        uint32_t victim = 0;
        if (!m_evict || !t->LeastRecentlyUsedIdle(victim))
        {
            NS_LOG_LOGIC("group " << id << ": switch " << node << " full, nothing idle");
            return false;
        }
        NS_LOG_LOGIC("group " << id << ": switch " << node << " evicts group " << victim);
        m_entryEvictions += m_groups[victim].switches.size();
        Uninstall(victim);
        ++m_evictions;
    }
    g.switches.clear();
    m_entryInstalls += tree.OutPorts().size(); // one install message per switch
    PackedBytes remote;
    if (m_messenger)
    {
        remote.Put(ProcessRanks::GetRank());
        remote.Put<uint8_t>(true);
        remote.Put(id);
        remote.Put<uint32_t>(tree.OutPorts().size());
    }
    for (const auto& [node, ports] : tree.OutPorts())
    {
        GroupTable::Entry e;
        e.ports = ports;
        if (node == sourceTor)
        {
            e.receivers = *g.receivers; // the source ToR aggregates their ACKs
        }
        if (m_messenger)
        {
            remote.Put(node - hosts);
            remote.Put<uint32_t>(e.ports.size());
            for (uint16_t p : e.ports)
            {
                remote.Put(p);
            }
            remote.Put<uint32_t>(e.receivers.size());
            for (uint32_t r : e.receivers)
            {
                remote.Put(r);
            }
        }
        m_tables[node - hosts]->Install(id, std::move(e));
        g.switches.push_back(node - hosts);
    }
    if (m_messenger)
    {
        m_messenger->SendToOthers(m_handler, remote);
    }
    ++m_installs;
    return true;
}

void
GroupController::Uninstall(uint32_t id)
{
    Group& g = m_groups[id];
    for (uint32_t s : g.switches)
    {
        RemoveEntry(id, s);
    }
    g.switches.clear();
    g.installed = false;
    g.teardown.Cancel();
}

void
GroupController::RemoveEntry(uint32_t id, uint32_t s)
{
    m_tables[s]->Remove(id);
    if (m_messenger)
    {
        PackedBytes remote;
        remote.Put(ProcessRanks::GetRank());
        remote.Put<uint8_t>(false);
        remote.Put(id);
        remote.Put(s);
        m_messenger->SendToOthers(m_handler, remote);
    }
}

void
GroupController::SetMessenger(Ptr<RankMessenger> messenger)
{
    m_messenger = messenger;
    if (!messenger)
    {
        return;
    }
    // A group must not be usable before every process has its entries.
    if (m_installLatency < messenger->GetDelay())
    {
        std::ostringstream what;
        what << "GroupController::InstallLatency (" << m_installLatency.As(Time::US)
             << ") is shorter than a message between processes takes ("
             << messenger->GetDelay().As(Time::US)
             << "): a run spread over processes cannot install its groups in time";
        throw std::invalid_argument(what.str());
    }
    m_handler = messenger->AddHandler(MakeCallback(&GroupController::RemoteWrite, this));
}

void
GroupController::RemoteWrite(PackedBytes& message)
{
    const auto from = message.Take<uint32_t>();
    NS_ABORT_MSG_IF(!m_groups.empty() || (m_remoteSource >= 0 && m_remoteSource != from),
                    "GroupController: groups requested by two processes of a distributed run: "
                    "P2MP sources with installed groups must be on one process");
    m_remoteSource = from;
    const bool install = message.Take<uint8_t>();
    const auto id = message.Take<uint32_t>();
    if (!install)
    {
        m_tables.at(message.Take<uint32_t>())->Remove(id);
        return;
    }
    const auto switches = message.Take<uint32_t>();
    for (uint32_t i = 0; i < switches; ++i)
    {
        const auto s = message.Take<uint32_t>();
        GroupTable::Entry e;
        e.ports.resize(message.Take<uint32_t>());
        for (uint16_t& p : e.ports)
        {
            p = message.Take<uint16_t>();
        }
        e.receivers.resize(message.Take<uint32_t>());
        for (uint32_t& r : e.receivers)
        {
            r = message.Take<uint32_t>();
        }
        NS_LOG_LOGIC("group " << id << " installed at switch " << s << " by process " << from);
        m_tables.at(s)->Install(id, std::move(e));
    }
}

void
GroupController::Pack(PackedBytes& out) const
{
    for (uint64_t v : {m_installs,
                       m_evictions,
                       m_teardowns,
                       m_entryInstalls,
                       m_entryTeardowns,
                       m_entryEvictions,
                       m_fallbacks,
                       m_reinstalls})
    {
        out.Put(v);
    }
    out.Put(m_installTotal.GetTimeStep());
}

void
GroupController::MergeFrom(PackedBytes& in)
{
    for (uint64_t* v : {&m_installs,
                        &m_evictions,
                        &m_teardowns,
                        &m_entryInstalls,
                        &m_entryTeardowns,
                        &m_entryEvictions,
                        &m_fallbacks,
                        &m_reinstalls})
    {
        *v += in.Take<uint64_t>();
    }
    m_installTotal += TimeStep(in.Take<int64_t>());
}

void
GroupController::DoDispose()
{
    m_messenger = nullptr;
    m_tables.clear();
    Object::DoDispose();
}

void
GroupController::Installed(uint32_t id, Time requested)
{
    Group& g = m_groups[id];
    g.installing = false;
    g.installed = true;
    UpdateIdle(id);
    m_installTotal += Simulator::Now() - requested;
    std::vector<ReadyCallback> waiting;
    waiting.swap(g.waiting);
    for (auto& cb : waiting)
    {
        cb(id);
    }
}

void
GroupController::Acquire(uint32_t groupId)
{
    if (m_groups[groupId].refs++ == 0)
    {
        UpdateIdle(groupId);
    }
}

void
GroupController::Release(uint32_t groupId)
{
    if (--m_groups[groupId].refs == 0)
    {
        UpdateIdle(groupId);
    }
}

void
GroupController::UpdateIdle(uint32_t id)
{
    Group& g = m_groups[id];
    // As the eviction rule says: no message in flight and not being installed.
    bool idle = g.refs == 0 && !g.installing;
    for (uint32_t s : g.switches)
    {
        m_tables[s]->SetIdle(id, idle);
    }
    if (m_idleTeardown == Time::Max())
    {
        return;
    }
    g.teardown.Cancel();
    if (idle && g.installed)
    {
        g.teardown = Simulator::Schedule(m_idleTeardown, &GroupController::TearDown, this, id);
    }
}

void
GroupController::TearDown(uint32_t id)
{
    const Group& g = m_groups[id];
    NS_LOG_LOGIC("group " << id << " idle for " << m_idleTeardown.As(Time::US) << ": torn down at "
                          << g.switches.size() << " switches");
    ++m_teardowns;
    m_entryTeardowns += g.switches.size(); // one teardown message per switch
    Uninstall(id);
}

void
GroupController::Reconverge()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t id = 0; id < m_groups.size(); ++id)
    {
        Group& g = m_groups[id];
        if (!g.installed && !g.installing)
        {
            continue;
        }
        std::optional<MulticastTree> tree;
        try
        {
            tree = MulticastTree::Compute(*m_graph, g.source, *g.receivers, g.source);
        }
        catch (const std::logic_error& e)
        {
            NS_LOG_LOGIC("group " << id << " keeps its tree: " << e.what());
            continue;
        }
        // Install overwrites the entries on the new tree; the old tree's other switches let go.
        const std::vector<uint32_t> before = g.switches;
        if (!Install(id, *tree))
        {
            NS_LOG_LOGIC("group " << id << ": the new tree does not fit, the old one stays");
            continue;
        }
        for (uint32_t s : before)
        {
            if (std::find(g.switches.begin(), g.switches.end(), s) == g.switches.end())
            {
                RemoveEntry(id, s);
            }
        }
        --m_installs; // counted as a reinstall, not as a group installed for a request
        ++m_reinstalls;
        UpdateIdle(id);
    }
}

uint64_t
GroupController::GetReinstalls() const
{
    return m_reinstalls;
}

uint64_t
GroupController::GetInstalls() const
{
    return m_installs;
}

uint64_t
GroupController::GetEvictions() const
{
    return m_evictions;
}

uint64_t
GroupController::GetTeardowns() const
{
    return m_teardowns;
}

uint64_t
GroupController::GetEntryInstalls() const
{
    return m_entryInstalls;
}

uint64_t
GroupController::GetEntryTeardowns() const
{
    return m_entryTeardowns;
}

uint64_t
GroupController::GetEntryEvictions() const
{
    return m_entryEvictions;
}

uint64_t
GroupController::GetFallbacks() const
{
    return m_fallbacks;
}

uint64_t
GroupController::GetGroups() const
{
    return m_groups.size();
}

double
GroupController::GetMeanInstallUs() const
{
    return m_installs ? m_installTotal.ToDouble(Time::US) / m_installs : 0.0;
}

} // namespace ns3
