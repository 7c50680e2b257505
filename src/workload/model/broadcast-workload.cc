#include "workload/model/broadcast-workload.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "p2mp/model/p2mp-sender.h"
#include "rdma/model/ack-aggregator.h"
#include "scenario/model/topology-builder.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BroadcastWorkload");
NS_OBJECT_ENSURE_REGISTERED(BroadcastWorkload);

namespace
{
constexpr uint16_t ENTROPY_PORT_BASE = 49152;
/// Group QPNs live above every connected QPN: 0x800000 + 4096 per workload.
constexpr uint32_t GROUP_QPN_BASE = 0x800000;
} // namespace

TypeId
BroadcastWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BroadcastWorkload")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<BroadcastWorkload>();
    return tid;
}

void
BroadcastWorkload::DoDispose()
{
    m_mcastQp = nullptr;
    m_uniQp.clear();
    m_metrics = nullptr;
    m_controller = nullptr;
    Object::DoDispose();
}

uint16_t
BroadcastWorkload::Entropy()
{
    return static_cast<uint16_t>(ENTROPY_PORT_BASE + m_rng() % 16384);
}

void
BroadcastWorkload::Install(const WorkloadConfig& w,
                           uint32_t workloadIndex,
                           TopologyBuilder& fabric,
                           const ScenarioConfig& config,
                           Ptr<Metrics> metrics,
                           uint64_t seed)
{
    m_w = w;
    m_index = workloadIndex;
    m_fabric = &fabric;
    m_metrics = metrics;
    m_mtu = config.nic.mtuBytes;
    m_rng.seed(seed * 0x9E3779B97F4A7C15ULL + workloadIndex + 1);
    for (uint32_t r : w.ranks)
    {
        if (r != w.root)
        {
            m_others.push_back(r);
        }
    }
    std::sort(m_others.begin(), m_others.end());
    m_everyone = std::make_shared<const std::vector<uint32_t>>(m_others);
    m_uniQp.resize(fabric.GetHostCount());
    m_uniSent.resize(fabric.GetHostCount());
    m_uniReceived.resize(fabric.GetHostCount());

    const P2mpConfig& pc = config.p2mp;
    m_multicast = pc.mechanism != "unicast";
    m_controller = fabric.GetGroupController();
    if (m_multicast)
    {
        bool ackFree = pc.ackMode == "ack-free";
        m_ackFree = ackFree;
        P2mpSender::Mechanism mech = pc.mechanism == "bier"            ? P2mpSender::BIER
                                     : pc.mechanism == "bier-xpu-list" ? P2mpSender::XPU_LIST
                                                                       : P2mpSender::NEW_PROTOCOL;
        Ptr<P2mpSender> sender = CreateObject<P2mpSender>();
        sender->Setup(mech, w.root, pc.bier.bslBits, Entropy());
        sender->SetAddressList(pc.addressMapping == "per-receiver-list");
        sender->SetShimFlags(pc.ackAggregation == "source-tor" || pc.ackAggregation == "hop-by-hop",
                             ackFree);
        // Without in-network aggregation every receiver's ACK reaches the root's NIC, which
        // must reduce them itself.
        bool inNetwork = pc.ackAggregation == "source-tor" || pc.ackAggregation == "hop-by-hop";
        Ptr<AckAggregator> local = (ackFree || inNetwork) ? nullptr : CreateObject<AckAggregator>();
        m_groupQpn = GROUP_QPN_BASE + workloadIndex * 4096;
        m_mcastQp = fabric.GetNic(w.root)->CreateMulticastQp(
            m_groupQpn, sender, local, ackFree, Entropy());
        m_mcastQp->SetCompletionCallback(MakeCallback(&BroadcastWorkload::MulticastDone, this));
        m_mcastQp->SetAggregateCnps(pc.ackAggregation == "sender-nic");
        uint32_t ackEvery = pc.ackMode == "per-packet" ? 1
                            : pc.ackMode == "every-n"  ? pc.ackEvery
                                                       : 0;
        for (uint32_t r : m_others)
        {
            Ptr<QueuePair> qp = fabric.GetNic(r)->CreateGroupResponder(
                m_groupQpn, w.root, m_groupQpn, Entropy(), ackEvery, ackFree);
            qp->SetReceiveCallback(MakeCallback(&BroadcastWorkload::MulticastReceived, this));
        }
    }

    m_msgs.resize(w.messages);
    for (uint64_t m = 0; m < w.messages; ++m)
    {
        Metrics::OpRecord r;
        r.workload = workloadIndex;
        r.op = m;
        r.rank = w.root;
        r.src = w.root;
        r.bytes = w.bytes;
        r.receivers = w.receiversPerMessage ? w.receiversPerMessage : m_others.size();
        m_msgs[m].handle = metrics->AddOp(r);
    }
    Simulator::Schedule(Time::FromDouble(w.startUs, Time::US), &BroadcastWorkload::StartNext, this);
}

std::shared_ptr<const std::vector<uint32_t>>
BroadcastWorkload::DrawReceivers()
{
    uint32_t k = m_w.receiversPerMessage;
    if (k == 0 || k == m_others.size())
    {
        return m_everyone;
    }
    // Partial Fisher-Yates with our own draws: the same sets on every C++ library.
    std::vector<uint32_t> pool = m_others;
    for (uint32_t i = 0; i < k; ++i)
    {
        uint32_t j = i + static_cast<uint32_t>(m_rng() % (pool.size() - i));
        std::swap(pool[i], pool[j]);
    }
    pool.resize(k);
    std::sort(pool.begin(), pool.end());
    return std::make_shared<const std::vector<uint32_t>>(std::move(pool));
}

void
BroadcastWorkload::StartNext()
{
    while (m_inFlight < m_w.window && m_next < m_msgs.size())
    {
        ++m_inFlight;
        Begin(m_next++);
    }
}

void
BroadcastWorkload::Begin(uint32_t m)
{
    Message& msg = m_msgs[m];
    msg.receivers = DrawReceivers();
    msg.start = Simulator::Now();
    m_metrics->StartOp(msg.handle);
    if (!m_multicast)
    {
        m_copies += msg.receivers->size();
        SendUnicast(m);
    }
    else if (m_controller)
    {
        // The group must be installed (or found installed) before the first packet leaves.
        m_controller->Request(
            m_w.root, msg.receivers, MakeCallback(&BroadcastWorkload::GroupReady, this, m));
    }
    else
    {
        SendMulticast(m);
    }
}

void
BroadcastWorkload::GroupReady(uint32_t m, uint32_t groupId)
{
    if (groupId == GroupController::FALLBACK)
    {
        ++m_viaUnicast;
        m_copies += m_msgs[m].receivers->size();
        SendUnicast(m);
        return;
    }
    m_msgs[m].groupId = groupId;
    m_controller->Acquire(groupId);
    SendMulticast(m);
}

void
BroadcastWorkload::SendMulticast(uint32_t m)
{
    Message& msg = m_msgs[m];
    P2mpSender::Target target;
    target.receivers = msg.receivers;
    target.groupId = msg.groupId == NO_GROUP ? 0 : msg.groupId;
    m_copies += m_mcastQp->GetP2mpEncapsulator()->CopiesFor(target);
    uint64_t packets = std::max<uint64_t>(1, (m_w.bytes + m_mtu - 1) / m_mtu);
    m_byLastPsn[m_mcastQp->GetNextPostPsn() + packets - 1] = m;
    m_mcastOrder.push_back(m);
    m_mcastQp->PostMulticast(m_w.bytes, target);
}

Ptr<QueuePair>
BroadcastWorkload::UnicastQp(uint32_t receiver)
{
    if (!m_uniQp[receiver])
    {
        Ptr<QueuePair> a = m_fabric->GetNic(m_w.root)->CreateQp(receiver, Entropy());
        Ptr<QueuePair> b = m_fabric->GetNic(receiver)->CreateQp(m_w.root, Entropy());
        RdmaNic::Connect(a, b);
        a->SetCompletionCallback(MakeCallback(&BroadcastWorkload::UnicastDone, this, receiver));
        b->SetReceiveCallback(MakeCallback(&BroadcastWorkload::UnicastReceived, this, receiver));
        m_uniQp[receiver] = a;
    }
    return m_uniQp[receiver];
}

void
BroadcastWorkload::SendUnicast(uint32_t m)
{
    Message& msg = m_msgs[m];
    msg.unicastPending = msg.receivers->size();
    for (uint32_t r : *msg.receivers)
    {
        Ptr<QueuePair> qp = UnicastQp(r);
        m_uniSent[r].push_back(m);
        m_uniReceived[r].push_back(m);
        qp->Post(QueuePair::WRITE, m_w.bytes);
    }
}

void
BroadcastWorkload::MulticastDone(Ptr<QueuePair> qp, const QueuePair::Message& done)
{
    uint32_t m = m_mcastOrder.front();
    m_mcastOrder.pop_front();
    if (!m_ackFree)
    {
        Finish(m);
    }
    // Ack-free: the root only knows it sent everything; the operation ends when the last
    // receiver has the data (as the collective above would observe it).
}

void
BroadcastWorkload::UnicastDone(uint32_t receiver, Ptr<QueuePair> qp, const QueuePair::Message& done)
{
    uint32_t m = m_uniSent[receiver].front();
    m_uniSent[receiver].pop_front();
    if (--m_msgs[m].unicastPending == 0)
    {
        Finish(m);
    }
}

void
BroadcastWorkload::MulticastReceived(Ptr<QueuePair> qp,
                                     uint64_t msn,
                                     uint64_t bytes,
                                     uint64_t lastPsn)
{
    auto it = m_byLastPsn.find(lastPsn);
    if (it == m_byLastPsn.end())
    {
        return;
    }
    Message& msg = m_msgs[it->second];
    m_metrics->AddReceiverCompletion(m_index,
                                     (Simulator::Now() - msg.start).GetNanoSeconds() / 1000.0);
    if (m_ackFree && ++msg.delivered == msg.receivers->size())
    {
        Finish(it->second);
    }
}

void
BroadcastWorkload::UnicastReceived(
    uint32_t receiver, Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t lastPsn)
{
    uint32_t m = m_uniReceived[receiver].front();
    m_uniReceived[receiver].pop_front();
    m_metrics->AddReceiverCompletion(
        m_index, (Simulator::Now() - m_msgs[m].start).GetNanoSeconds() / 1000.0);
}

void
BroadcastWorkload::Finish(uint32_t m)
{
    Message& msg = m_msgs[m];
    if (msg.groupId != NO_GROUP)
    {
        m_controller->Release(msg.groupId);
    }
    m_metrics->CompleteOp(msg.handle);
    --m_inFlight;
    m_metrics->SetExtra(m_index, "copies_from_source", m_copies / static_cast<double>(m_next));
    m_metrics->SetExtra(m_index, "messages_via_unicast", static_cast<double>(m_viaUnicast));
    if (m_ackFree)
    {
        m_metrics->SetExtra(m_index, "relies_on_lossless_delivery", 1);
    }
    StartNext();
}

Ptr<QueuePair>
BroadcastWorkload::GetMulticastQp() const
{
    return m_mcastQp;
}

uint32_t
BroadcastWorkload::GetGroupQpn() const
{
    return m_groupQpn;
}

} // namespace ns3
