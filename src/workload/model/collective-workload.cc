#include "workload/model/collective-workload.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "rdma/model/rdma-nic.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveWorkload");
NS_OBJECT_ENSURE_REGISTERED(CollectiveWorkload);

TypeId
CollectiveWorkload::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::CollectiveWorkload").SetParent<Workload>().SetGroupName("Mcast4ai");
    return tid;
}

void
CollectiveWorkload::DoDispose()
{
    for (Ptr<P2mpChannel>& c : m_channels)
    {
        if (c)
        {
            c->Dispose();
        }
    }
    m_channels.clear();
    m_pairQp.clear();
    m_pairRemote.clear();
    m_active.clear();
    Workload::DoDispose();
}

const CollectiveSchedule&
CollectiveWorkload::GetSchedule() const
{
    return *m_schedule;
}

const std::vector<uint32_t>&
CollectiveWorkload::GetRanks() const
{
    return m_hosts;
}

Time
CollectiveWorkload::ComputeTime(uint32_t rank, uint32_t iteration) const
{
    Time t = m_compute;
    for (const Ptr<Straggler>& s : m_context.stragglers)
    {
        t = s->AdjustCompute(m_context.index, m_hosts[rank], iteration, t);
    }
    return t;
}

uint16_t
CollectiveWorkload::Entropy()
{
    return EntropyPort(m_rng());
}

void
CollectiveWorkload::DoInstall()
{
    const nlohmann::json& spec = m_config.spec;
    m_rng.seed(WorkloadSeed());
    m_hosts = m_config.ranks;
    if (m_hosts.empty())
    {
        for (uint32_t h = 0; h < GetHostCount(); ++h)
        {
            m_hosts.push_back(h);
        }
    }
    const uint32_t n = static_cast<uint32_t>(m_hosts.size());
    m_rankOfHost.assign(GetHostCount(), -1);
    for (uint32_t r = 0; r < n; ++r)
    {
        m_rankOfHost[m_hosts[r]] = r;
    }
    m_bytes = m_config.bytes;
    m_iterations = spec.value("iterations", 1u);
    m_compute = Time::FromDouble(spec.value("compute_us", 0.0), Time::US);
    m_barrier = spec.value("barrier", true);
    uint64_t chunk = spec.value("chunk_bytes", uint64_t{0});
    m_schedule = std::make_unique<CollectiveSchedule>(BuildSchedule(n, m_bytes, chunk));
    const CollectiveSchedule& s = *m_schedule;
    NS_LOG_INFO("collective over " << n << " ranks: " << s.GetTransferCount()
                                   << " transfers per iteration, depth " << s.GetDepth());

    // Queue pairs per (src, dst) pair the graph uses, P2MP channels per sending rank.
    m_roots.assign(n, {});
    m_pairOf.assign(s.GetTransferCount(), 0);
    std::vector<bool> multicastSender(n, false);
    for (uint32_t t = 0; t < s.GetTransferCount(); ++t)
    {
        const CollectiveSchedule::Transfer& tr = s.GetTransfer(t);
        if (tr.waitsFor == 0)
        {
            m_roots[tr.src].push_back(t);
        }
        if (tr.receivers)
        {
            multicastSender[tr.src] = true;
            auto& hosts = m_hostSets[tr.receivers.get()];
            if (!hosts)
            {
                std::vector<uint32_t> h;
                for (uint32_t r : *tr.receivers)
                {
                    h.push_back(m_hosts[r]);
                }
                std::sort(h.begin(), h.end());
                hosts = std::make_shared<const std::vector<uint32_t>>(std::move(h));
            }
            continue;
        }
        auto key = std::make_pair(tr.src, tr.dst);
        auto it = m_pairIndex.find(key);
        if (it == m_pairIndex.end())
        {
            uint32_t index = static_cast<uint32_t>(m_pairQp.size());
            it = m_pairIndex.emplace(key, index).first;
            Ptr<QueuePair> a = m_context.nics[m_hosts[tr.src]]->CreateQp(
                m_hosts[tr.dst], Entropy(), m_context.owner);
            Ptr<QueuePair> b = m_context.nics[m_hosts[tr.dst]]->CreateQp(
                m_hosts[tr.src], Entropy(), m_context.owner);
            RdmaNic::Connect(a, b);
            b->SetReceiveCallback(MakeCallback(&CollectiveWorkload::UnicastReceived, this, index));
            m_pairQp.push_back(a);
            m_pairRemote.push_back(b);
            m_inFlight.emplace_back();
        }
        m_pairOf[t] = it->second;
    }
    // A transfer's step is its depth in the graph: 0 for those that wait for nothing, else
    // one more than the deepest it waits for (Kahn's order), whatever the algorithm numbers.
    m_stepOf.assign(s.GetTransferCount(), 0);
    std::vector<uint32_t> waiting(s.GetTransferCount());
    std::vector<uint32_t> order;
    for (uint32_t t = 0; t < s.GetTransferCount(); ++t)
    {
        waiting[t] = s.GetTransfer(t).waitsFor;
        if (waiting[t] == 0)
        {
            order.push_back(t);
        }
    }
    for (std::size_t k = 0; k < order.size(); ++k)
    {
        uint32_t t = order[k];
        m_steps = std::max(m_steps, m_stepOf[t] + 1);
        for (uint32_t d : s.GetDependents(t))
        {
            m_stepOf[d] = std::max(m_stepOf[d], m_stepOf[t] + 1);
            if (--waiting[d] == 0)
            {
                order.push_back(d);
            }
        }
    }
    m_channels.assign(n, nullptr);
    for (uint32_t r = 0; r < n; ++r)
    {
        if (!multicastSender[r])
        {
            continue;
        }
        std::vector<uint32_t> others;
        for (uint32_t o = 0; o < n; ++o)
        {
            if (o != r)
            {
                others.push_back(m_hosts[o]);
            }
        }
        std::sort(others.begin(), others.end());
        // One group QPN per sending rank, within the workload's range of 4096.
        m_channels[r]
            = m_context.delivery->CreateChannel(m_hosts[r],
                                                others,
                                                GroupQpnBase() + r,
                                                MakeCallback(&CollectiveWorkload::Entropy, this),
                                                m_context.owner);
        m_channels[r]->SetDeliveredCallback(
            MakeCallback(&CollectiveWorkload::MulticastDelivered, this));
    }

    for (uint32_t i = 0; i < m_iterations; ++i)
    {
        Metrics::OpRecord rec;
        rec.op = i;
        rec.iteration = i;
        rec.bytes = m_bytes;
        rec.receivers = n;
        DescribeOp(rec);
        m_handles.push_back(AddOp(rec));
    }
    Time start = Time::FromDouble(m_config.startUs, Time::US);
    for (uint32_t r = 0; r < n; ++r)
    {
        Simulator::Schedule(start, &CollectiveWorkload::StartRank, this, r, 0u);
    }
}

CollectiveWorkload::Iteration&
CollectiveWorkload::GetIteration(uint32_t i)
{
    auto it = m_active.find(i);
    if (it != m_active.end())
    {
        return it->second;
    }
    const CollectiveSchedule& s = *m_schedule;
    const uint32_t n = s.GetRanks();
    Iteration& it2 = m_active[i];
    it2.handle = m_handles[i];
    it2.waiting.resize(s.GetTransferCount());
    for (uint32_t t = 0; t < s.GetTransferCount(); ++t)
    {
        it2.waiting[t] = s.GetTransfer(t).waitsFor;
    }
    it2.inboundLeft = s.GetInbound();
    it2.outboundLeft = s.GetOutbound();
    it2.rankStarted.assign(n, false);
    it2.rankDone.assign(n, false);
    it2.ready.assign(n, {});
    for (uint32_t r = 0; r < n; ++r)
    {
        it2.arrivalsLeft += s.GetInbound()[r];
    }
    it2.steps.resize(m_steps);
    for (uint32_t k = 0; k < m_steps; ++k)
    {
        it2.steps[k].handle = it2.handle;
        it2.steps[k].step = k;
    }
    return it2;
}

void
CollectiveWorkload::StartRank(uint32_t rank, uint32_t i)
{
    Iteration& it = GetIteration(i);
    NS_LOG_LOGIC("rank " << rank << " starts iteration " << i);
    if (!it.started)
    {
        it.started = true;
        StartOp(it.handle);
    }
    it.rankStarted[rank] = true;
    std::vector<uint32_t> now = m_roots[rank];
    now.insert(now.end(), it.ready[rank].begin(), it.ready[rank].end());
    it.ready[rank].clear();
    for (uint32_t t : now)
    {
        Post(i, t);
    }
    MaybeRankDone(i, rank);
}

void
CollectiveWorkload::Unblocked(uint32_t i, uint32_t t)
{
    Iteration& it = m_active.at(i);
    uint32_t src = m_schedule->GetTransfer(t).src;
    if (it.rankStarted[src])
    {
        Post(i, t);
    }
    else
    {
        it.ready[src].push_back(t);
    }
}

void
CollectiveWorkload::Post(uint32_t i, uint32_t t)
{
    const CollectiveSchedule::Transfer& tr = m_schedule->GetTransfer(t);
    Iteration& it = m_active.at(i);
    --it.outboundLeft[tr.src];
    ++m_transfersPosted;
    Metrics::StepRecord& step = it.steps[m_stepOf[t]];
    if (step.transfers++ == 0)
    {
        step.start = Simulator::Now();
    }
    if (tr.receivers)
    {
        uint64_t tag = static_cast<uint64_t>(i) * m_schedule->GetTransferCount() + t;
        m_channels[tr.src]->Send(tag, m_hostSets.at(tr.receivers.get()), tr.bytes);
    }
    else
    {
        uint32_t pair = m_pairOf[t];
        m_inFlight[pair].emplace_back(i, t);
        m_pairQp[pair]->Post(QueuePair::WRITE, tr.bytes);
    }
}

void
CollectiveWorkload::UnicastReceived(
    uint32_t pair, Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t psn)
{
    // A queue pair delivers its messages in the order they were posted.
    NS_ABORT_MSG_IF(m_inFlight[pair].empty(), "a message nobody posted arrived");
    auto [i, t] = m_inFlight[pair].front();
    m_inFlight[pair].pop_front();
    Arrived(i, t, m_schedule->GetTransfer(t).dst);
}

void
CollectiveWorkload::MulticastDelivered(uint64_t tag, uint32_t host)
{
    uint32_t count = m_schedule->GetTransferCount();
    Arrived(static_cast<uint32_t>(tag / count),
            static_cast<uint32_t>(tag % count),
            static_cast<uint32_t>(m_rankOfHost[host]));
}

void
CollectiveWorkload::Arrived(uint32_t i, uint32_t t, uint32_t rank)
{
    Iteration& it = m_active.at(i);
    // Arrivals come in time order: the latest one so far is the step's last.
    Metrics::StepRecord& step = it.steps[m_stepOf[t]];
    step.end = Simulator::Now();
    step.lastSrc = m_hosts[m_schedule->GetTransfer(t).src];
    step.lastDst = m_hosts[rank];
    for (uint32_t d : m_schedule->GetDependents(t))
    {
        if (m_schedule->GetTransfer(d).src == rank && --it.waiting[d] == 0)
        {
            Unblocked(i, d);
        }
    }
    if (--it.inboundLeft[rank] == 0)
    {
        m_context.metrics->AddReceiverCompletion(it.handle, m_hosts[rank]);
    }
    --it.arrivalsLeft;
    MaybeRankDone(i, rank);
    if (it.arrivalsLeft == 0)
    {
        NS_LOG_LOGIC("iteration " << i << " complete");
        for (const Metrics::StepRecord& step : it.steps)
        {
            m_context.metrics->AddStep(step);
        }
        CompleteOp(it.handle);
        m_active.erase(i);
        if (m_barrier && i + 1 < m_iterations)
        {
            // The training step's synchronisation point: every rank computes from here.
            for (uint32_t r = 0; r < m_hosts.size(); ++r)
            {
                Simulator::Schedule(
                    ComputeTime(r, i + 1), &CollectiveWorkload::StartRank, this, r, i + 1);
            }
        }
    }
}

void
CollectiveWorkload::MaybeRankDone(uint32_t i, uint32_t rank)
{
    Iteration& it = m_active.at(i);
    if (!it.rankStarted[rank] || it.rankDone[rank] || it.inboundLeft[rank] != 0
        || it.outboundLeft[rank] != 0)
    {
        return;
    }
    it.rankDone[rank] = true;
    if (!m_barrier && i + 1 < m_iterations)
    {
        Simulator::Schedule(
            ComputeTime(rank, i + 1), &CollectiveWorkload::StartRank, this, rank, i + 1);
    }
}

void
CollectiveWorkload::DescribeOp(Metrics::OpRecord& record) const
{
}

void
CollectiveWorkload::DescribeFirstRankAsSource(Metrics::OpRecord& record) const
{
    record.rank = m_hosts.front();
    record.src = m_hosts.front();
    record.receivers = static_cast<uint32_t>(m_hosts.size() - 1);
}

void
CollectiveWorkload::Report(std::map<std::string, double>& figures) const
{
    if (!m_schedule)
    {
        return;
    }
    figures["transfers_per_iteration"] = m_schedule->GetTransferCount();
    figures["dependent_steps"] = m_schedule->GetDepth();
    uint64_t sent = 0;
    for (uint32_t r = 0; r < m_schedule->GetRanks(); ++r)
    {
        sent = std::max(sent, m_schedule->GetBytesSent(r));
    }
    figures["max_rank_bytes_sent_per_iteration"] = static_cast<double>(sent);
}

} // namespace ns3
