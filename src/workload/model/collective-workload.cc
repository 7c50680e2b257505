#include "workload/model/collective-workload.h"

#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "rdma/model/rdma-nic.h"
#include "workload/model/plane-spread.h"

#include <algorithm>
#include <sstream>

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
    for (auto* set : {&m_channels, &m_tolerantChannels})
    {
        for (Ptr<P2mpChannel>& c : *set)
        {
            if (c)
            {
                c->Dispose();
            }
        }
        set->clear();
    }
    m_pairQp.clear();
    m_pairRemote.clear();
    m_pairOfReceiver.clear();
    m_receive.Nullify();
    m_active.clear();
    if (m_spread)
    {
        m_spread->Dispose();
        m_spread = nullptr;
    }
    Workload::DoDispose();
}

const CollectiveSchedule&
CollectiveWorkload::GetSchedule() const
{
    return m_first->schedule;
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

bool
CollectiveWorkload::VariesByIteration() const
{
    return false;
}

CollectiveSchedule
CollectiveWorkload::BuildIterationSchedule(uint32_t ranks, uint32_t iteration)
{
    NS_ABORT_MSG("BuildIterationSchedule of a workload whose iterations share one graph");
}

CollectiveWorkload::Plan::Plan(CollectiveSchedule s)
    : schedule(std::move(s))
{
}

void
CollectiveWorkload::DoInstall()
{
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
    // Every port of a rank's XPU is the rank's (a multi-plane fabric's deliveries name ports).
    m_rankOfHost.assign(m_context.nics.size(), -1);
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint32_t p = 0; p < m_context.planes; ++p)
        {
            m_rankOfHost[PlanePort(m_hosts[r], p)] = r;
        }
    }
    m_bytes = m_config.bytes;
    m_iterations = IterationCount();
    m_compute = Time::FromDouble(m_config.computeUs, Time::US);
    m_barrier = m_config.barrier;
    const uint64_t chunk = m_config.chunkBytes;
    m_channels.assign(std::size_t{n} * m_context.planes, nullptr);
    m_computing.assign(n, false);
    if (m_context.messenger)
    {
        // Spread over processes: those that simulate ranks each send a part per iteration.
        std::vector<bool> simulates(ProcessRanks::GetSize(), false);
        for (uint32_t h : m_hosts)
        {
            simulates[ProcessOf(h)] = true;
        }
        m_spread = CreateObject<CollectiveSpread>();
        m_spread->Install(m_context.messenger,
                          std::count(simulates.begin(), simulates.end(), true),
                          MakeCallback(&CollectiveWorkload::RemotePosted, this),
                          MakeCallback(&CollectiveWorkload::Complete, this));
    }
    m_first = MakePlan(BuildSchedule(n, m_bytes, chunk));
    NS_LOG_INFO("collective over " << n << " ranks: " << m_first->schedule.GetTransferCount()
                                   << " transfers in iteration 0, depth " << m_first->steps);

    const CollectiveSchedule& s = m_first->schedule;
    for (uint32_t i = 0; i < m_iterations; ++i)
    {
        Metrics::OpRecord rec;
        rec.op = i;
        rec.iteration = i;
        rec.bytes = m_bytes;
        rec.receivers = n;
        DescribeOp(rec);
        // Recorded where its first rank is simulated: it spans every rank.
        const uint64_t handle = AddOp(rec, m_hosts.front());
        m_handles.push_back(handle);
        // Its phases now, so that their tags (the frames' counters) are the same on every
        // process, whenever each makes the iteration; sizes from the graph they run.
        for (std::size_t p = 0; p < s.GetPhases().size(); ++p)
        {
            Metrics::PhaseRecord phase;
            phase.handle = handle;
            phase.name = s.GetPhases()[p];
            phase.bytes = m_first->phaseBytes[p];
            phase.receivers = m_first->phaseReceivers[p];
            m_context.metrics->AddPhase(phase);
        }
    }
    Time start = Time::FromDouble(m_config.startUs, Time::US);
    for (uint32_t r = 0; r < n; ++r)
    {
        if (ActsFor(m_hosts[r]))
        {
            Simulator::Schedule(start, &CollectiveWorkload::StartRank, this, r, 0u);
        }
    }
}

uint32_t
CollectiveWorkload::ProcessOf(uint32_t host) const
{
    return m_context.nics[host]->GetDevice()->GetNode()->GetSystemId();
}

Workload::Refusal
CollectiveWorkload::SpreadRefusal(const WorkloadConfig& w, Time lookahead) const
{
    if (w.lossTolerant)
    {
        return {"loss_tolerant",
                "its loss-tolerant connections are made at first use, by the sender's process "
                "alone"};
    }
    if (w.barrier && w.iterations > 1 && Time::FromDouble(w.computeUs, Time::US) <= lookahead)
    {
        std::ostringstream why;
        why << "compute_us (" << w.computeUs << ") must exceed topology.fabric_link.delay_us ("
            << lookahead.ToDouble(Time::US)
            << " µs): with barrier, a process hears that an iteration completed on another "
               "one cut cable's delay later";
        return {"compute_us", why.str()};
    }
    if (!w.barrier && w.iterations > 1 && VariesByIteration())
    {
        // Every process makes an iteration's graph (and its P2MP channels) when the previous
        // one completes; without barrier, a rank may send in it before another process has.
        return {"barrier",
                "each iteration has a graph of its own, which every process makes as the "
                "previous iteration completes: barrier must be true"};
    }
    return {};
}

std::string
CollectiveWorkload::MultiPlaneRefusal() const
{
    return "";
}

Workload::P2mpRoots
CollectiveWorkload::GetP2mpRoots() const
{
    // A later iteration's graph may make any rank a sender.
    const bool any = VariesByIteration() && !m_first->hostSets.empty();
    P2mpRoots roots{"ranks", {}};
    for (uint32_t r = 0; r < m_hosts.size(); ++r)
    {
        bool sends = any;
        for (uint32_t p = 0; p < m_context.planes; ++p)
        {
            sends = sends || m_channels[ChannelIndex(r, p)];
        }
        if (sends)
        {
            roots.hosts.push_back(m_hosts[r]);
        }
    }
    return roots;
}

void
CollectiveWorkload::PackOwn(PackedBytes& out) const
{
    out.Put<uint64_t>(m_deliveredByStep.size());
    for (uint64_t b : m_deliveredByStep)
    {
        out.Put(b);
    }
    out.Put(GetP2mpCopies() - m_mergedCopies);
    out.Put(GetP2mpMessagesViaUnicast() - m_mergedViaUnicast);
}

void
CollectiveWorkload::MergeFrom(PackedBytes& in)
{
    const auto steps = in.Take<uint64_t>();
    if (m_deliveredByStep.size() < steps)
    {
        m_deliveredByStep.resize(steps, 0);
    }
    for (uint64_t k = 0; k < steps; ++k)
    {
        m_deliveredByStep[k] += in.Take<uint64_t>();
    }
    m_mergedCopies += in.Take<double>();
    m_mergedViaUnicast += in.Take<uint64_t>();
}

void
CollectiveWorkload::RemotePosted(uint32_t pair, uint32_t i, uint32_t t)
{
    NS_LOG_LOGIC("pair " << pair << " carries transfer " << t << " of iteration " << i);
    m_inFlight[pair].push_back({i, t});
}

std::shared_ptr<const CollectiveWorkload::Plan>
CollectiveWorkload::MakePlan(CollectiveSchedule schedule)
{
    auto plan = std::make_shared<Plan>(
        m_context.planes > 1
            ? PlaneSpread::Apply(schedule, m_context.planes, m_context.spread, WorkloadSeed())
            : std::move(schedule));
    const CollectiveSchedule& s = plan->schedule;
    const uint32_t n = s.GetRanks();
    // Queue pairs per (src, dst) pair the graph uses, P2MP channels per sending rank; both
    // outlive the plan, so later iterations reuse them.
    plan->roots.assign(n, {});
    plan->pairOf.assign(s.GetTransferCount(), 0);
    std::vector<bool> multicastSender(std::size_t{n} * m_context.planes, false); // by channel
    for (uint32_t t = 0; t < s.GetTransferCount(); ++t)
    {
        const CollectiveSchedule::Transfer& tr = s.GetTransfer(t);
        if (tr.waitsFor == 0)
        {
            plan->roots[tr.src].push_back(t);
        }
        if (tr.local)
        {
            continue;
        }
        if (tr.receivers)
        {
            multicastSender[ChannelIndex(tr.src, tr.plane)] = true;
            auto& hosts = plan->hostSets[{tr.receivers.get(), tr.plane}];
            if (!hosts)
            {
                std::vector<uint32_t> h;
                for (uint32_t r : *tr.receivers)
                {
                    h.push_back(PlanePort(m_hosts[r], tr.plane));
                }
                std::sort(h.begin(), h.end());
                hosts = std::make_shared<const std::vector<uint32_t>>(std::move(h));
            }
            continue;
        }
        auto key = std::make_tuple(tr.src, tr.dst, tr.plane);
        auto it = m_pairIndex.find(key);
        if (it == m_pairIndex.end())
        {
            const uint32_t index = static_cast<uint32_t>(m_pairQp.size());
            // An RC connection carries both directions, so the reverse of a connected
            // direction posts on that connection's far end: one queue pair per rank pair and
            // end, as a collective library connects its peers.
            auto reverse = m_pairIndex.find(std::make_tuple(tr.dst, tr.src, tr.plane));
            if (reverse != m_pairIndex.end())
            {
                NS_LOG_LOGIC("rank " << tr.src << " -> " << tr.dst << " on plane " << tr.plane
                                     << " shares the connection of its reverse");
                AddPair(m_pairRemote[reverse->second], m_pairQp[reverse->second]);
            }
            else
            {
                AddPair(m_context.nics[PlanePort(m_hosts[tr.src], tr.plane)],
                        m_context.nics[PlanePort(m_hosts[tr.dst], tr.plane)]);
            }
            it = m_pairIndex.emplace(key, index).first;
        }
        plan->pairOf[t] = it->second;
    }
    // A transfer's step is its depth in the graph: 0 for those that wait for nothing, else
    // one more than the deepest it waits for (Kahn's order), whatever the algorithm numbers.
    plan->stepOf.assign(s.GetTransferCount(), 0);
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
        plan->steps = std::max(plan->steps, plan->stepOf[t] + 1);
        for (uint32_t d : s.GetDependents(t))
        {
            plan->stepOf[d] = std::max(plan->stepOf[d], plan->stepOf[t] + 1);
            if (--waiting[d] == 0)
            {
                order.push_back(d);
            }
        }
    }
    // What each phase moves, for its ops.csv row: bytes once per transfer, ranks receiving.
    const std::size_t phases = s.GetPhases().size();
    plan->phaseBytes.assign(phases, 0);
    plan->phaseReceivers.assign(phases, 0);
    std::vector<std::vector<bool>> receives(phases, std::vector<bool>(n, false));
    for (uint32_t t = 0; t < s.GetTransferCount(); ++t)
    {
        const CollectiveSchedule::Transfer& tr = s.GetTransfer(t);
        if (tr.phase == CollectiveSchedule::NO_PHASE || tr.local)
        {
            continue;
        }
        plan->phaseBytes[tr.phase] += tr.bytes;
        auto mark = [&](uint32_t r)
        {
            if (!receives[tr.phase][r])
            {
                receives[tr.phase][r] = true;
                ++plan->phaseReceivers[tr.phase];
            }
        };
        if (tr.receivers)
        {
            std::for_each(tr.receivers->begin(), tr.receivers->end(), mark);
        }
        else
        {
            mark(tr.dst);
        }
    }
    for (uint32_t c = 0; c < m_channels.size(); ++c)
    {
        if (!multicastSender[c] || m_channels[c])
        {
            continue;
        }
        const uint32_t r = c % n;
        const uint32_t plane = c / n;
        // One group QPN per sending rank, within the workload's range of 4096; a rank's
        // channels on other planes share it, from other ports.
        m_channels[c]
            = m_context.delivery->CreateChannel(PlanePort(m_hosts[r], plane),
                                                OtherPorts(r, plane),
                                                GroupQpnBase() + r,
                                                MakeCallback(&CollectiveWorkload::Entropy, this),
                                                m_context.p2mpOwner);
        m_channels[c]->SetDeliveredCallback(
            MakeCallback(&CollectiveWorkload::MulticastDelivered, this));
    }
    return plan;
}

bool
CollectiveWorkload::IsLossTolerantIteration(uint32_t i) const
{
    return false;
}

uint8_t
CollectiveWorkload::LayerMaxRetransmissions() const
{
    return static_cast<uint8_t>(std::max<int16_t>(0, m_config.maxRetransmissions));
}

uint32_t
CollectiveWorkload::TolerantPair(uint32_t pair)
{
    auto it = m_tolerantPair.find(pair);
    if (it != m_tolerantPair.end())
    {
        return it->second;
    }
    // Both ends agree on the budget when the connection is set up: a twin connection per
    // reliability class, as a memory region registered for loss-tolerant data would be.
    // Loss-tolerant runs are not spread (SpreadRefusal), so both ends are made here.
    Ptr<QueuePair> a0 = m_pairQp[pair];
    Ptr<QueuePair> b0 = m_pairRemote[pair];
    NS_ASSERT_MSG(a0 && b0, "a loss-tolerant pair with an end on another process");
    const uint32_t index = static_cast<uint32_t>(m_pairQp.size());
    // The reverse direction's twin, if it has one, carries this direction as well: its pair
    // is the one whose receiver is this pair's sender.
    auto reverse = m_pairOfReceiver.find(PeekPointer(a0));
    auto twin = reverse == m_pairOfReceiver.end() ? m_tolerantPair.end()
                                                  : m_tolerantPair.find(reverse->second);
    if (twin != m_tolerantPair.end())
    {
        NS_LOG_LOGIC("loss-tolerant pair " << pair << " shares its reverse's twin");
        AddPair(m_pairRemote[twin->second], m_pairQp[twin->second]);
    }
    else
    {
        AddPair(a0->GetNic(), b0->GetNic());
        m_pairQp[index]->SetMaxRetransmissions(LayerMaxRetransmissions());
        m_pairRemote[index]->SetMaxRetransmissions(LayerMaxRetransmissions());
    }
    m_tolerantPair.emplace(pair, index);
    return index;
}

void
CollectiveWorkload::AddPair(Ptr<RdmaNic> src, Ptr<RdmaNic> dst)
{
    // Ports drawn in turn, whichever ends this process makes, so every process draws alike.
    const uint16_t portA = Entropy();
    const uint16_t portB = Entropy();
    auto [a, b] = RdmaNic::CreateConnection(src, dst, portA, portB, m_context.owner);
    AddPair(a, b);
}

void
CollectiveWorkload::AddPair(Ptr<QueuePair> a, Ptr<QueuePair> b)
{
    if (b)
    {
        Received(b, static_cast<uint32_t>(m_pairQp.size()));
    }
    m_pairQp.push_back(a);
    m_pairRemote.push_back(b);
    m_inFlight.emplace_back();
}

std::vector<uint32_t>
CollectiveWorkload::OtherPorts(uint32_t r, uint32_t plane) const
{
    std::vector<uint32_t> others;
    for (uint32_t o = 0; o < m_hosts.size(); ++o)
    {
        if (o != r)
        {
            others.push_back(PlanePort(m_hosts[o], plane));
        }
    }
    std::sort(others.begin(), others.end());
    return others;
}

Ptr<P2mpChannel>
CollectiveWorkload::TolerantChannel(uint32_t r, uint32_t plane)
{
    const uint32_t n = static_cast<uint32_t>(m_hosts.size());
    if (m_tolerantChannels.empty())
    {
        m_tolerantChannels.assign(m_channels.size(), nullptr);
    }
    Ptr<P2mpChannel>& channel = m_tolerantChannels[ChannelIndex(r, plane)];
    if (!channel)
    {
        // Above the reliable channels' QPNs, within the workload's range (the schema keeps
        // 2 n <= 4096).
        channel
            = m_context.delivery->CreateChannel(PlanePort(m_hosts[r], plane),
                                                OtherPorts(r, plane),
                                                GroupQpnBase() + n + r,
                                                MakeCallback(&CollectiveWorkload::Entropy, this),
                                                m_context.p2mpOwner,
                                                LayerMaxRetransmissions());
        channel->SetDeliveredCallback(MakeCallback(&CollectiveWorkload::MulticastDelivered, this));
    }
    return channel;
}

CollectiveWorkload::Iteration&
CollectiveWorkload::GetIteration(uint32_t i)
{
    auto it = m_active.find(i);
    if (it != m_active.end())
    {
        return it->second;
    }
    // One process makes them in order; another may first hear of a later one (a part, an
    // arrival): the ones before it are made first, as there.
    while (m_made < i)
    {
        MakeIteration(m_made);
    }
    return MakeIteration(i);
}

CollectiveWorkload::Iteration&
CollectiveWorkload::MakeIteration(uint32_t i)
{
    m_made = std::max(m_made, i + 1);
    std::shared_ptr<const Plan> plan = m_first;
    if (i > 0 && VariesByIteration())
    {
        plan = MakePlan(BuildIterationSchedule(m_first->schedule.GetRanks(), i));
    }
    const CollectiveSchedule& s = plan->schedule;
    const uint32_t n = s.GetRanks();
    Iteration& it2 = m_active[i];
    it2.handle = m_handles[i];
    it2.plan = plan;
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
        if (ActsFor(m_hosts[r]))
        {
            ++it2.ranks;
            it2.arrivals += s.GetInbound()[r];
        }
    }
    it2.arrivalsLeft = it2.arrivals;
    it2.steps.resize(plan->steps);
    it2.stepArrived.assign(plan->steps, false);
    for (uint32_t k = 0; k < plan->steps; ++k)
    {
        it2.steps[k].handle = it2.handle;
        it2.steps[k].step = k;
    }
    const Metrics::OpRecord& op = m_context.metrics->GetOps()[it2.handle];
    NS_ABORT_MSG_IF(op.phases != s.GetPhases().size(),
                    "iteration " << i << " has " << s.GetPhases().size() << " phases, iteration 0 "
                                 << op.phases);
    for (std::size_t p = 0; p < s.GetPhases().size(); ++p)
    {
        it2.phases.push_back(op.firstPhase + p);
        if (plan != m_first)
        {
            m_context.metrics->SetPhaseSize(
                op.firstPhase + p, plan->phaseBytes[p], plan->phaseReceivers[p]);
        }
    }
    it2.phaseStarted.assign(s.GetPhases().size(), false);
    it2.phaseStart.assign(s.GetPhases().size(), Time());
    it2.phaseEnd.assign(s.GetPhases().size(), Time());
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
        it.firstStart = Simulator::Now();
        StartOp(it.handle);
    }
    it.lastStart = Simulator::Now();
    it.rankStarted[rank] = true;
    if (IsTimed())
    {
        if (m_computing[rank])
        {
            m_computing[rank] = false;
            Activity(m_hosts[rank], HostActivity::COMPUTE, -1);
        }
        Activity(m_hosts[rank], HostActivity::WAIT, +1);
    }
    std::vector<uint32_t> now = it.plan->roots[rank];
    now.insert(now.end(), it.ready[rank].begin(), it.ready[rank].end());
    it.ready[rank].clear();
    for (uint32_t t : now)
    {
        Post(i, t);
    }
    MaybeRankDone(i, rank);
    // With nothing to receive (every MoE token stayed on its rank), its ranks are done with
    // the iteration as the last of them starts it.
    if (++it.ranksStarted == it.ranks && it.arrivalsLeft == 0)
    {
        PartDone(i);
    }
}

void
CollectiveWorkload::Unblocked(uint32_t i, uint32_t t)
{
    Iteration& it = m_active.at(i);
    uint32_t src = it.plan->schedule.GetTransfer(t).src;
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
    Iteration& it = m_active.at(i);
    const Plan& plan = *it.plan;
    const CollectiveSchedule::Transfer& tr = plan.schedule.GetTransfer(t);
    --it.outboundLeft[tr.src];
    ++m_transfersPosted;
    Metrics::StepRecord& step = it.steps[plan.stepOf[t]];
    if (step.transfers++ == 0)
    {
        step.start = Simulator::Now();
    }
    const uint16_t phase = tr.phase;
    if (phase != CollectiveSchedule::NO_PHASE && !it.phaseStarted[phase])
    {
        it.phaseStarted[phase] = true;
        it.phaseStart[phase] = Simulator::Now();
        m_context.metrics->StartPhase(it.phases[phase]);
    }
    if (IsTimed() && (!tr.local || tr.delayNs > 0))
    {
        Activity(m_hosts[tr.src],
                 tr.local ? HostActivity::COMPUTE : HostActivity::SEND,
                 tr.receivers ? static_cast<int32_t>(tr.receivers->size()) : 1);
    }
    if (tr.local)
    {
        Simulator::Schedule(
            NanoSeconds(tr.delayNs), &CollectiveWorkload::Arrived, this, i, t, tr.src, uint64_t{0});
    }
    else if (tr.receivers)
    {
        uint64_t tag = (static_cast<uint64_t>(i) << 32) | t;
        Ptr<P2mpChannel> channel = IsLossTolerantIteration(i)
                                       ? TolerantChannel(tr.src, tr.plane)
                                       : m_channels[ChannelIndex(tr.src, tr.plane)];
        channel->Send(
            tag, plan.hostSets.at({tr.receivers.get(), tr.plane}), tr.bytes, TagOf(it, t));
    }
    else
    {
        uint32_t pair = IsLossTolerantIteration(i) ? TolerantPair(plan.pairOf[t]) : plan.pairOf[t];
        const uint32_t dst = PlanePort(m_hosts[tr.dst], tr.plane);
        if (ActsFor(dst))
        {
            m_inFlight[pair].push_back({i, t});
        }
        else
        {
            m_spread->Posted(ProcessOf(dst), pair, i, t);
        }
        m_pairQp[pair]->Post(RdmaOperation::WRITE, tr.bytes, TagOf(it, t));
    }
}

uint32_t
CollectiveWorkload::TagOf(const Iteration& it, uint32_t t) const
{
    const uint16_t phase = it.plan->schedule.GetTransfer(t).phase;
    const uint32_t tag
        = phase == CollectiveSchedule::NO_PHASE ? 0 : Metrics::PhaseTag(it.phases[phase]);
    return tag ? tag : OpTag(it.handle); // past the phase tags: counted with its operation
}

void
CollectiveWorkload::Received(Ptr<QueuePair> qp, uint32_t pair)
{
    // One Callback for every receiving queue pair (copies share it) and the pair by its queue
    // pair: a Callback bound to each pair's index is a few hundred bytes per queue pair.
    if (m_receive.IsNull())
    {
        m_receive = MakeCallback(&CollectiveWorkload::UnicastReceived, this);
    }
    qp->SetReceiveCallback(m_receive);
    m_pairOfReceiver.emplace(PeekPointer(qp), pair);
}

void
CollectiveWorkload::UnicastReceived(Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t psn)
{
    const uint32_t pair = m_pairOfReceiver.at(PeekPointer(qp));
    // A queue pair delivers its messages in the order they were posted.
    NS_ABORT_MSG_IF(m_inFlight[pair].empty(), "a message nobody posted arrived");
    auto [i, t] = m_inFlight[pair].front();
    m_inFlight[pair].pop_front();
    Arrived(i, t, GetIteration(i).plan->schedule.GetTransfer(t).dst, bytes);
}

void
CollectiveWorkload::MulticastDelivered(uint64_t tag, uint32_t host, uint64_t bytes)
{
    Arrived(static_cast<uint32_t>(tag >> 32),
            static_cast<uint32_t>(tag & 0xFFFFFFFF),
            static_cast<uint32_t>(m_rankOfHost[host]),
            bytes);
}

const std::vector<uint64_t>&
CollectiveWorkload::GetDeliveredBytesByStep() const
{
    return m_deliveredByStep;
}

void
CollectiveWorkload::Arrived(uint32_t i, uint32_t t, uint32_t rank, uint64_t bytes)
{
    Iteration& it = GetIteration(i);
    const CollectiveSchedule& s = it.plan->schedule;
    const uint32_t k = it.plan->stepOf[t];
    if (IsTimed() && (!s.GetTransfer(t).local || s.GetTransfer(t).delayNs > 0))
    {
        Activity(m_hosts[s.GetTransfer(t).src],
                 s.GetTransfer(t).local ? HostActivity::COMPUTE : HostActivity::SEND,
                 -1);
    }
    if (m_deliveredByStep.size() <= k)
    {
        m_deliveredByStep.resize(k + 1, 0);
    }
    m_deliveredByStep[k] += bytes;
    // Arrivals come in time order: the latest one so far is the step's last.
    Metrics::StepRecord& step = it.steps[k];
    step.end = Simulator::Now();
    step.lastSrc = m_hosts[s.GetTransfer(t).src];
    step.lastDst = m_hosts[rank];
    it.stepArrived[k] = true;
    it.lastArrival = Simulator::Now();
    if (s.GetTransfer(t).phase != CollectiveSchedule::NO_PHASE)
    {
        it.phaseEnd[s.GetTransfer(t).phase] = Simulator::Now();
    }
    for (uint32_t d : s.GetDependents(t))
    {
        if (s.GetTransfer(d).src == rank && --it.waiting[d] == 0)
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
        PartDone(i);
    }
}

void
CollectiveWorkload::PartDone(uint32_t i)
{
    Iteration& it = m_active.at(i);
    if (it.partDone)
    {
        return;
    }
    it.partDone = true;
    CollectiveSpread::Part part;
    part.arrivals = it.arrivals > 0;
    part.last = part.arrivals ? it.lastArrival : it.lastStart;
    part.firstStart = it.firstStart;
    part.steps.resize(it.steps.size());
    for (std::size_t k = 0; k < it.steps.size(); ++k)
    {
        const Metrics::StepRecord& st = it.steps[k];
        part.steps[k] = {st.transfers, st.start, it.stepArrived[k], st.end, st.lastSrc, st.lastDst};
    }
    part.phaseStarted = it.phaseStarted;
    part.phaseStart = it.phaseStart;
    part.phaseEnd = it.phaseEnd;
    if (m_spread)
    {
        m_spread->PartDone(i, part); // Complete when every process's part is in
    }
    else
    {
        Complete(i, part);
    }
}

void
CollectiveWorkload::Complete(uint32_t i, const CollectiveSpread::Part& all)
{
    Iteration& it = GetIteration(i);
    const Time end = all.last;
    NS_LOG_LOGIC("iteration " << i << " complete at " << end.As(Time::US));
    if (ActsFor(m_hosts.front()))
    {
        // This process records the operation.
        for (std::size_t k = 0; k < it.steps.size(); ++k)
        {
            Metrics::StepRecord step = it.steps[k];
            const CollectiveSpread::Step& s = all.steps[k];
            step.transfers = s.transfers;
            step.start = s.start;
            step.end = s.end;
            step.lastSrc = s.lastSrc;
            step.lastDst = s.lastDst;
            m_context.metrics->AddStep(step);
        }
        for (std::size_t p = 0; p < it.phases.size(); ++p)
        {
            if (all.phaseStarted[p])
            {
                m_context.metrics->StartPhaseAt(it.phases[p], all.phaseStart[p]);
            }
            // A phase nothing was posted in (every token stayed home) ends with its operation.
            m_context.metrics->CompletePhase(it.phases[p],
                                             all.phaseEnd[p].IsZero() ? end : all.phaseEnd[p]);
        }
        m_context.metrics->StartOpAt(it.handle, all.firstStart);
        CompleteOpAt(it.handle, end);
    }
    m_active.erase(i);
    if (m_barrier && i + 1 < m_iterations)
    {
        // The training step's synchronisation point: every rank computes from the last
        // arrival. Another process's ranks hear of it one message delay later (compute_us
        // exceeds it: SpreadRefusal) and start as if told at that instant.
        const Time now = Simulator::Now();
        Time from = end;
        if (m_spread)
        {
            GetIteration(i + 1); // its graph before any of its messages can come
            from = m_spread->BarrierFrom(all);
        }
        for (uint32_t r = 0; r < m_hosts.size(); ++r)
        {
            if (!ActsFor(m_hosts[r]))
            {
                continue;
            }
            const Time compute = ComputeTime(r, i + 1);
            NS_ABORT_MSG_IF(from + compute < now,
                            "iteration " << i + 1 << " would start before this process heard "
                                         << "that iteration " << i << " completed");
            if (now > from)
            {
                QuadHeapScheduler::SetNextRemote(compute.GetTimeStep(), ProcessRanks::NextTie());
            }
            ComputeBegins(r, compute);
            Simulator::Schedule(
                from + compute - now, &CollectiveWorkload::StartRank, this, r, i + 1);
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
    if (IsTimed())
    {
        Activity(m_hosts[rank], HostActivity::WAIT, -1);
    }
    if (!m_barrier && i + 1 < m_iterations)
    {
        const Time compute = ComputeTime(rank, i + 1);
        ComputeBegins(rank, compute);
        Simulator::Schedule(compute, &CollectiveWorkload::StartRank, this, rank, i + 1);
    }
}

void
CollectiveWorkload::ComputeBegins(uint32_t rank, Time compute)
{
    if (IsTimed() && compute.IsStrictlyPositive())
    {
        m_computing[rank] = true; // StartRank ends it
        Activity(m_hosts[rank], HostActivity::COMPUTE, +1);
    }
}

double
CollectiveWorkload::GetP2mpCopies() const
{
    double copies = m_mergedCopies;
    for (const auto* set : {&m_channels, &m_tolerantChannels})
    {
        for (const Ptr<P2mpChannel>& c : *set)
        {
            copies += c ? c->GetCopies() : 0.0;
        }
    }
    return copies;
}

uint64_t
CollectiveWorkload::GetP2mpMessagesViaUnicast() const
{
    uint64_t n = m_mergedViaUnicast;
    for (const auto* set : {&m_channels, &m_tolerantChannels})
    {
        for (const Ptr<P2mpChannel>& c : *set)
        {
            n += c ? c->GetMessagesViaUnicast() : 0;
        }
    }
    return n;
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
    if (!m_first)
    {
        return;
    }
    const CollectiveSchedule& s = m_first->schedule;
    figures["transfers_per_iteration"] = s.GetTransferCount();
    figures["dependent_steps"] = s.GetDepth();
    uint64_t sent = 0;
    for (uint32_t r = 0; r < s.GetRanks(); ++r)
    {
        sent = std::max(sent, s.GetBytesSent(r));
    }
    figures["max_rank_bytes_sent_per_iteration"] = static_cast<double>(sent);
}

} // namespace ns3
