#include "scenario/model/run-watchdog.h"

#include "fabric/model/fabric-channel.h"
#include "fabric/model/fabric-net-device.h"
#include "fabric/model/fabric-switch.h"
#include "fabric/model/op-ledger.h"
#include "fabric/model/switch-mmu.h"
#include "fabric/model/traffic-ledger.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "rdma/model/queue-pair.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/topology-builder.h"
#include "workload/model/metrics.h"

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RunWatchdog");
NS_OBJECT_ENSURE_REGISTERED(RunWatchdog);

TypeId
RunWatchdog::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RunWatchdog")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<RunWatchdog>()
              .AddAttribute("Timeout",
                            "Simulated time without progress, while data is outstanding, after "
                            "which the run is stalled",
                            TimeValue(MilliSeconds(10)),
                            MakeTimeAccessor(&RunWatchdog::m_timeout),
                            MakeTimeChecker(Time(1)))
              .AddTraceSource("Stalled",
                              "The run made no progress for Timeout: the last progress and the "
                              "number of queue pairs with data outstanding",
                              MakeTraceSourceAccessor(&RunWatchdog::m_stalledTrace),
                              "ns3::RunWatchdog::StalledTracedCallback");
    return tid;
}

RunWatchdog::RunWatchdog() = default;

void
RunWatchdog::Attach(const TopologyBuilder& fabric, Ptr<Metrics> metrics)
{
    m_fabric = &fabric;
    m_metrics = metrics;
}

Time
RunWatchdog::GetTimeout() const
{
    return m_timeout;
}

const RunWatchdog::Report&
RunWatchdog::GetReport() const
{
    return m_report;
}

uint64_t
RunWatchdog::ProgressSignature(bool& outstanding) const
{
    // Acknowledged PSNs and completions only grow, so their sum moves iff something moved.
    uint64_t sum = m_metrics ? m_metrics->GetCompleted() : 0;
    outstanding = false;
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        for (uint32_t q = 0; q < nic->GetNQps(); ++q)
        {
            Ptr<QueuePair> qp = nic->GetQpByIndex(q);
            sum += qp->GetUnackedPsn();
            outstanding = outstanding || qp->GetOutstandingMessages() > 0;
        }
    }
    return sum;
}

bool
RunWatchdog::Check(bool nothingScheduled)
{
    NS_ASSERT_MSG(m_fabric, "RunWatchdog::Check before Attach");
    const Time now = Simulator::Now();
    bool outstanding = false;
    const uint64_t signature = ProgressSignature(outstanding);
    if (nothingScheduled && m_metrics && m_metrics->GetPending() > 0)
    {
        NS_LOG_INFO("nothing left to simulate, " << m_metrics->GetPending()
                                                 << " operations unfinished");
        if (!m_started || signature != m_signature)
        {
            m_lastProgress = now;
        }
        BuildReport(true);
        m_stalledTrace(m_lastProgress, m_report.stuckQueuePairs);
        return true;
    }
    if (!m_started || signature != m_signature || !outstanding)
    {
        // Nothing outstanding (compute, think time) is not a stall either.
        m_started = true;
        m_signature = signature;
        m_lastProgress = now;
        return false;
    }
    if (now - m_lastProgress < m_timeout)
    {
        return false;
    }
    NS_LOG_INFO("no progress since " << m_lastProgress.As(Time::US) << " (watchdog "
                                     << m_timeout.As(Time::US) << ")");
    BuildReport(false);
    m_stalledTrace(m_lastProgress, m_report.stuckQueuePairs);
    return true;
}

void
RunWatchdog::BuildReport(bool nothingScheduled)
{
    m_report = Report();
    m_report.stalledSince = m_lastProgress;
    m_report.detectedAt = Simulator::Now();
    m_report.nothingScheduled = nothingScheduled;
    std::set<uint64_t> ops;
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        for (uint32_t q = 0; q < nic->GetNQps(); ++q)
        {
            const QueuePair::Message* m = nic->GetQpByIndex(q)->GetOldestMessage();
            if (!m)
            {
                continue;
            }
            ++m_report.stuckQueuePairs;
            if (const int64_t h = m_metrics ? m_metrics->HandleOfTag(m->tag) : -1; h >= 0)
            {
                ops.insert(h);
            }
        }
    }
    if (ops.empty() && m_metrics)
    {
        // Nothing outstanding on the wire: the operations are waiting on each other.
        const auto& all = m_metrics->GetOps();
        for (uint64_t h = 0; h < all.size(); ++h)
        {
            if (all[h].started && !all[h].done && !all[h].background)
            {
                ops.insert(h);
            }
        }
    }
    m_report.stuckOps.assign(ops.begin(), ops.end());

    // Every port, by the device that transmits on it.
    const Time now = Simulator::Now();
    const OpLedger* ledger = m_fabric->GetTrafficLedger()->GetOpLedger();
    auto name = [ledger](Ptr<const FabricNetDevice> dev, const std::string& fallback)
    {
        return ledger && dev->GetOpLink() != OpLedger::NO_LINK ? ledger->LinkName(dev->GetOpLink())
                                                               : fallback;
    };
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        Ptr<FabricNetDevice> dev = m_fabric->GetNic(h)->GetDevice();
        const uint8_t mask = dev->GetPausedMask(now);
        for (uint8_t c = 0; c < 8; ++c)
        {
            if (mask & (1u << c))
            {
                m_report.pausedPorts.emplace_back(name(dev, "host" + std::to_string(h) + ">?"), c);
            }
        }
    }
    // Wait-for graph over (switch port, class) pairs whose transmitter is paused and holds
    // frames of that class: A->B waits for B->C when B has paused A (its ingress from A is
    // over XOFF) and B->C is itself paused with frames queued.
    std::map<const FabricNetDevice*, std::pair<uint32_t, uint32_t>> where; // switch, port
    for (uint32_t s = 0; s < m_fabric->GetSwitchCount(); ++s)
    {
        Ptr<FabricSwitch> sw = m_fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            where[PeekPointer(sw->GetPort(p))] = {s, p};
        }
    }
    struct Vertex
    {
        uint32_t sw;
        uint32_t port;
        uint8_t prio;
    };
    std::vector<Vertex> vertices;
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint32_t> index;
    for (uint32_t s = 0; s < m_fabric->GetSwitchCount(); ++s)
    {
        Ptr<FabricSwitch> sw = m_fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<FabricNetDevice> dev = sw->GetPort(p);
            const uint8_t mask = dev->GetPausedMask(now);
            for (uint8_t c = 0; c < 8; ++c)
            {
                if (!(mask & (1u << c)))
                {
                    continue;
                }
                m_report.pausedPorts.emplace_back(
                    name(dev, "switch" + std::to_string(s) + ":" + std::to_string(p)), c);
                if (sw->GetMmu()->GetEgressBytes(p, c) > 0)
                {
                    index[{s, p, c}] = vertices.size();
                    vertices.push_back({s, p, c});
                }
            }
        }
    }
    std::vector<std::vector<uint32_t>> edges(vertices.size());
    for (uint32_t v = 0; v < vertices.size(); ++v)
    {
        const Vertex& a = vertices[v];
        Ptr<FabricNetDevice> dev = m_fabric->GetSwitch(a.sw)->GetPort(a.port);
        Ptr<FabricChannel> channel = dev->GetFabricChannel();
        Ptr<FabricNetDevice> peer = channel ? channel->GetPeer(dev) : nullptr;
        auto it = peer ? where.find(PeekPointer(peer)) : where.end();
        if (it == where.end())
        {
            continue; // a host: it pauses nobody's onward traffic
        }
        const auto [b, inPort] = it->second;
        Ptr<FabricSwitch> next = m_fabric->GetSwitch(b);
        if (!next->GetMmu()->IsPaused(inPort, a.prio))
        {
            continue;
        }
        for (uint32_t q = 0; q < next->GetNPorts(); ++q)
        {
            auto w = index.find({b, q, a.prio});
            if (q != inPort && w != index.end())
            {
                edges[v].push_back(w->second);
            }
        }
    }
    for (uint32_t v : FindCycle(edges))
    {
        const Vertex& a = vertices[v];
        m_report.pauseCycle.push_back(
            name(m_fabric->GetSwitch(a.sw)->GetPort(a.port),
                 "switch" + std::to_string(a.sw) + ":" + std::to_string(a.port)));
    }
    NS_LOG_INFO(m_report.stuckQueuePairs << " queue pairs stuck, " << m_report.pausedPorts.size()
                                         << " paused ports, cycle of "
                                         << m_report.pauseCycle.size());
}

std::vector<uint32_t>
RunWatchdog::FindCycle(const std::vector<std::vector<uint32_t>>& edges)
{
    // Iterative colouring DFS: 0 unvisited, 1 on the stack, 2 done.
    const uint32_t n = edges.size();
    std::vector<uint8_t> colour(n, 0);
    std::vector<uint32_t> stack;
    std::vector<std::size_t> next; // per stack entry: the next successor to try
    for (uint32_t root = 0; root < n; ++root)
    {
        if (colour[root] != 0)
        {
            continue;
        }
        stack.assign(1, root);
        next.assign(1, 0);
        colour[root] = 1;
        while (!stack.empty())
        {
            const uint32_t v = stack.back();
            if (next.back() == edges[v].size())
            {
                colour[v] = 2;
                stack.pop_back();
                next.pop_back();
                continue;
            }
            const uint32_t w = edges[v][next.back()++];
            if (colour[w] == 1)
            {
                // w is on the stack: the cycle is the stack from w up.
                std::vector<uint32_t> cycle;
                for (std::size_t i = 0; i < stack.size(); ++i)
                {
                    if (!cycle.empty() || stack[i] == w)
                    {
                        cycle.push_back(stack[i]);
                    }
                }
                return cycle;
            }
            if (colour[w] == 0)
            {
                colour[w] = 1;
                stack.push_back(w);
                next.push_back(0);
            }
        }
    }
    return {};
}

} // namespace ns3
