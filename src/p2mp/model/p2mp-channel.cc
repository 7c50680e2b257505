#include "p2mp/model/p2mp-channel.h"

#include "core/model/packed-bytes.h"
#include "core/model/process-ranks.h"
#include "fabric/model/op-ledger.h"
#include "fabric/model/rank-messenger.h"
#include "fabric/model/traffic-ledger.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "p2mp/model/group-controller.h"
#include "p2mp/model/p2mp-delivery.h"
#include "rdma/model/ack-aggregator.h"
#include "rdma/model/rdma-nic.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("P2mpChannel");
NS_OBJECT_ENSURE_REGISTERED(P2mpChannel);

TypeId
P2mpChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::P2mpChannel")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<P2mpChannel>();
    return tid;
}

void
P2mpChannel::DoDispose()
{
    if (m_delivery && m_mcastQp)
    {
        m_delivery->UnregisterChannel(AckAggregator::FlowKey(m_root, m_groupQpn));
        m_delivery->UnregisterChannel(AckAggregator::FlowKey(m_root, m_mcastQp->GetQpn()));
    }
    m_delivery = nullptr;
    m_controller = nullptr;
    m_messenger = nullptr;
    m_mcastQp = nullptr;
    m_uni.clear();
    m_entropy = Callback<uint16_t>();
    m_done = DoneCallback();
    m_delivered = DeliveredCallback();
    m_droppedCb = DroppedCallback();
    Object::DoDispose();
}

void
P2mpChannel::Setup(Ptr<P2mpDelivery> delivery,
                   uint32_t root,
                   const std::vector<uint32_t>& ranks,
                   uint32_t groupQpn,
                   Callback<uint16_t> entropy,
                   uint8_t owner,
                   uint8_t maxRetransmissions)
{
    m_maxRetx = maxRetransmissions;
    m_delivery = delivery;
    m_root = root;
    m_ranks = ranks.size();
    m_entropy = entropy;
    m_owner = owner;
    const std::vector<Ptr<RdmaNic>>& nics = delivery->GetNics();
    m_mtu = nics[root]->GetMtu();
    m_multicast = delivery->IsMulticast();
    m_controller = delivery->GetGroupController();
    if (!m_multicast)
    {
        return; // unicast queue pairs are created as receivers are first sent to
    }
    m_ackFree = delivery->IsAckFree();
    m_messenger = delivery->GetMessenger();
    if (m_messenger)
    {
        // Known by its group QPN: a later MoE layer may make a channel while the run goes,
        // when each process reaches the layer.
        m_handler = m_messenger->AddHandler(MakeCallback(&P2mpChannel::FromRoot, this), groupQpn);
    }
    Ptr<P2mpEncapsulator> encap = delivery->CreateEncapsulator(root, m_entropy());
    // Without in-network aggregation every receiver's ACK reaches the root's NIC, which must
    // reduce them itself.
    Ptr<AckAggregator> local
        = (m_ackFree || delivery->AggregatesInNetwork()) ? nullptr : CreateObject<AckAggregator>();
    if (local)
    {
        delivery->ConfigureAckAggregator(local, nics[root]->IsReorderTolerant());
    }
    m_groupQpn = groupQpn;
    m_mcastQp
        = nics[root]->CreateMulticastQp(m_groupQpn, encap, local, m_ackFree, m_entropy(), m_owner);
    m_mcastQp->SetCompletionCallback(MakeCallback(&P2mpChannel::MulticastDone, this));
    if (delivery->TimesOutReceivers() && !m_ackFree)
    {
        // ACKs name the group's QPN in the switches, the queue pair's own at the root's NIC.
        delivery->RegisterChannel(AckAggregator::FlowKey(root, m_groupQpn), this);
        delivery->RegisterChannel(AckAggregator::FlowKey(root, m_mcastQp->GetQpn()), this);
    }
    m_mcastQp->SetAckSource(delivery->AckSourceOf(root));
    if (m_maxRetx != QueuePair::RELIABLE)
    {
        m_mcastQp->SetMaxRetransmissions(m_maxRetx);
    }
    m_mcastQp->SetAggregateCnps(delivery->GetAckAggregation()
                                == P2mpDelivery::AGGREGATE_SENDER_NIC);
    uint32_t ackEvery = delivery->GetResponderAckEvery();
    // One callback shared by every receiver's responder.
    RdmaNic::GroupReceiveCallback received = MakeCallback(&P2mpChannel::MulticastReceived, this);
    for (uint32_t r : ranks)
    {
        nics[r]->CreateGroupResponder(
            m_groupQpn, root, m_groupQpn, m_entropy(), ackEvery, m_ackFree, received, m_owner);
        if (m_maxRetx != QueuePair::RELIABLE)
        {
            nics[r]->SetGroupMaxRetransmissions(m_groupQpn, m_maxRetx);
        }
    }
}

void
P2mpChannel::SetDoneCallback(DoneCallback cb)
{
    m_done = cb;
}

void
P2mpChannel::SetDeliveredCallback(DeliveredCallback cb)
{
    m_delivered = cb;
}

void
P2mpChannel::SetDroppedCallback(DroppedCallback cb)
{
    m_droppedCb = cb;
}

const std::vector<uint32_t>&
P2mpChannel::GetDroppedReceivers() const
{
    return m_dropped;
}

void
P2mpChannel::DropReceiver(uint32_t host)
{
    if (IsDropped(host))
    {
        return; // another aggregation point of the flow dropped it already
    }
    NS_LOG_INFO("root " << m_root << ": receiver " << host << " dropped at "
                        << Simulator::Now().As(Time::US));
    m_dropped.push_back(host);
    auto had = m_lastDelivered.find(host);
    const uint64_t has = had == m_lastDelivered.end() ? 0 : had->second;
    for (auto& [tag, msg] : m_msgs)
    {
        if (msg.unicastPending > 0 || msg.seq < has
            || !std::binary_search(msg.receivers->begin(), msg.receivers->end(), host))
        {
            continue; // sent by unicast (no aggregator), already had, or not its receiver
        }
        ++msg.dropped;
        ReportDropped(tag, host, msg.bytes, msg.opTag);
    }
}

bool
P2mpChannel::IsDropped(uint32_t host) const
{
    return !m_dropped.empty()
           && std::find(m_dropped.begin(), m_dropped.end(), host) != m_dropped.end();
}

void
P2mpChannel::ReportDropped(uint64_t tag, uint32_t host, uint64_t bytes, uint32_t opTag)
{
    Ptr<TrafficLedger> ledger
        = m_mcastQp ? m_mcastQp->GetNic()->GetDevice()->GetTrafficLedger() : nullptr;
    if (ledger && ledger->GetOpLedger() && opTag)
    {
        ledger->GetOpLedger()->Lost(opTag, bytes);
        if (m_delivery->FailsOnReceiverTimeout())
        {
            // The policy makes a receiver short of the message a failure of its operation
            // (however many receivers it lacked: the operation fails once).
            ledger->GetOpLedger()->Failed(opTag);
        }
    }
    if (!m_droppedCb.IsNull())
    {
        m_droppedCb(tag, host, bytes);
    }
}

void
P2mpChannel::Send(uint64_t tag, Receivers receivers, uint64_t bytes, uint32_t opTag)
{
    NS_ASSERT_MSG(!m_msgs.count(tag), "message tag " << tag << " is in flight already");
    uint32_t excluded = 0;
    if (!m_dropped.empty())
    {
        // Dropped receivers are out of the set: the root leaves them out of the message (a
        // reorder-tolerant NIC's flow must keep every rank: the aggregators skip them).
        const bool leaveOut = m_multicast && !m_mcastQp->GetNic()->IsReorderTolerant();
        auto kept = std::make_shared<std::vector<uint32_t>>();
        for (uint32_t r : *receivers)
        {
            const bool out = IsDropped(r);
            if (out)
            {
                ReportDropped(tag, r, bytes, opTag);
                excluded += !leaveOut;
            }
            if (!out || !leaveOut)
            {
                kept->push_back(r);
            }
        }
        receivers = kept;
    }
    Message& msg = m_msgs[tag];
    msg.receivers = receivers;
    msg.bytes = bytes;
    msg.opTag = opTag;
    msg.seq = m_nextSeq++;
    msg.dropped = excluded;
    if (receivers->empty())
    {
        // Every receiver it was for is dropped: done, with nothing to send.
        Simulator::ScheduleNow(&P2mpChannel::Finish, this, tag);
        return;
    }
    if (!m_multicast)
    {
        m_copies += receivers->size();
        SendUnicast(tag);
    }
    else if (receivers->size() != m_ranks && m_mcastQp->GetNic()->IsReorderTolerant())
    {
        // A go-back-N responder skips the PSNs of messages it is not a receiver of when a
        // message's first packet arrives; a tolerant one cannot tell those from late packets.
        throw std::invalid_argument(
            "a reorder-tolerant NIC cannot receive P2MP messages sent to a subset of a flow's "
            "receivers (host "
            + std::to_string(m_root) + " sent one to " + std::to_string(receivers->size()) + " of "
            + std::to_string(m_ranks)
            + "); use reorder go-back-n, or a unicast mechanism or workload");
    }
    else if (m_controller)
    {
        // The group must be installed (or found installed) before the first packet leaves.
        m_controller->Request(m_root, receivers, MakeCallback(&P2mpChannel::GroupReady, this, tag));
    }
    else
    {
        SendMulticast(tag);
    }
}

void
P2mpChannel::GroupReady(uint64_t tag, uint32_t groupId)
{
    Message& msg = m_msgs.at(tag);
    if (groupId == GroupController::FALLBACK)
    {
        NS_LOG_LOGIC("root " << m_root << ": no group for message " << tag << ", unicast");
        ++m_viaUnicast;
        m_copies += msg.receivers->size();
        SendUnicast(tag);
        return;
    }
    msg.groupId = groupId;
    m_controller->Acquire(groupId);
    SendMulticast(tag);
}

void
P2mpChannel::SendMulticast(uint64_t tag)
{
    Message& msg = m_msgs.at(tag);
    P2mpEncapsulator::Target target;
    target.receivers = msg.receivers;
    target.groupId = msg.groupId == NO_GROUP ? 0 : msg.groupId;
    m_copies += m_mcastQp->GetP2mpEncapsulator()->CopiesFor(target);
    uint64_t packets = std::max<uint64_t>(1, (msg.bytes + m_mtu - 1) / m_mtu);
    msg.lastPsn = m_mcastQp->GetNextPostPsn() + packets - 1;
    m_byLastPsn[msg.lastPsn] = tag;
    msg.here = msg.receivers->size();
    if (m_messenger)
    {
        // The receivers' processes learn which message this last PSN ends before its first
        // packet can reach them: at least a cut cable away, whose delay a message takes.
        const uint32_t me = ProcessRanks::GetRank();
        std::vector<uint32_t> byRank(ProcessRanks::GetSize(), 0);
        const std::vector<Ptr<RdmaNic>>& nics = m_delivery->GetNics();
        for (uint32_t r : *msg.receivers)
        {
            ++byRank[nics[r]->GetDevice()->GetNode()->GetSystemId()];
        }
        msg.here = byRank[me];
        for (uint32_t rank = 0; rank < byRank.size(); ++rank)
        {
            if (rank == me || byRank[rank] == 0)
            {
                continue;
            }
            PackedBytes remote;
            remote.Put(tag);
            remote.Put(msg.lastPsn);
            remote.Put(byRank[rank]);
            m_messenger->Send(rank, m_handler, remote);
        }
    }
    m_mcastOrder.push_back(tag);
    m_mcastQp->PostMulticast(msg.bytes, target, msg.opTag);
}

P2mpChannel::Unicast&
P2mpChannel::UnicastTo(uint32_t receiver)
{
    Unicast& u = m_uni[receiver];
    if (!u.qp)
    {
        const std::vector<Ptr<RdmaNic>>& nics = m_delivery->GetNics();
        Ptr<QueuePair> a = nics[m_root]->CreateQp(receiver, m_entropy(), m_owner);
        Ptr<QueuePair> b = nics[receiver]->CreateQp(m_root, m_entropy(), m_owner);
        RdmaNic::Connect(a, b);
        if (m_maxRetx != QueuePair::RELIABLE)
        {
            a->SetMaxRetransmissions(m_maxRetx);
            b->SetMaxRetransmissions(m_maxRetx);
        }
        a->SetCompletionCallback(MakeCallback(&P2mpChannel::UnicastDone, this, receiver));
        b->SetReceiveCallback(MakeCallback(&P2mpChannel::UnicastReceived, this, receiver));
        u.qp = a;
    }
    return u;
}

void
P2mpChannel::SendUnicast(uint64_t tag)
{
    Message& msg = m_msgs.at(tag);
    msg.unicastPending = msg.receivers->size();
    for (uint32_t r : *msg.receivers)
    {
        Unicast& u = UnicastTo(r);
        u.sent.push_back(tag);
        u.received.push_back(tag);
        u.qp->Post(RdmaOperation::WRITE, msg.bytes, msg.opTag);
    }
}

void
P2mpChannel::MulticastDone(Ptr<QueuePair> qp, const QueuePair::Message& done)
{
    uint64_t tag = m_mcastOrder.front();
    m_mcastOrder.pop_front();
    if (!m_ackFree)
    {
        Finish(tag);
    }
    // Ack-free: the root only knows it sent everything; the message is done when the last
    // receiver has the data (as the collective above would observe it).
}

void
P2mpChannel::UnicastDone(uint32_t receiver, Ptr<QueuePair> qp, const QueuePair::Message& done)
{
    std::deque<uint64_t>& sent = m_uni.at(receiver).sent;
    uint64_t tag = sent.front();
    sent.pop_front();
    if (--m_msgs.at(tag).unicastPending == 0)
    {
        Finish(tag);
    }
}

void
P2mpChannel::FromRoot(PackedBytes& message)
{
    const auto tag = message.Take<uint64_t>();
    Message& msg = m_msgs[tag];
    msg.fromRoot = true;
    msg.lastPsn = message.Take<uint64_t>();
    msg.here = message.Take<uint32_t>();
    NS_LOG_LOGIC("root " << m_root << ": message " << tag << " ends at PSN " << msg.lastPsn
                         << ", for " << msg.here << " receivers here");
    m_byLastPsn[msg.lastPsn] = tag;
}

void
P2mpChannel::MulticastReceived(uint32_t receiver, uint64_t msn, uint64_t bytes, uint64_t lastPsn)
{
    auto it = m_byLastPsn.find(lastPsn);
    if (it == m_byLastPsn.end())
    {
        return;
    }
    uint64_t tag = it->second;
    Message& msg = m_msgs.at(tag); // a message is done only once every receiver has it
    if (IsDropped(receiver))
    {
        return; // out of the set: what it gets now is no delivery
    }
    if (m_delivery->TimesOutReceivers())
    {
        m_lastDelivered[receiver] = msg.seq + 1;
    }
    if (!m_delivered.IsNull())
    {
        m_delivered(tag, receiver, bytes);
    }
    ++msg.delivered;
    if (msg.fromRoot)
    {
        // Another process's root: this one forgets the message once its receivers have it.
        if (msg.delivered == msg.here)
        {
            m_byLastPsn.erase(lastPsn);
            m_msgs.erase(tag);
        }
        return;
    }
    if (msg.delivered == msg.receivers->size() && m_ackFree)
    {
        Finish(tag);
    }
}

void
P2mpChannel::UnicastReceived(
    uint32_t receiver, Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t lastPsn)
{
    std::deque<uint64_t>& received = m_uni.at(receiver).received;
    uint64_t tag = received.front();
    received.pop_front();
    ++m_msgs.at(tag).delivered; // before the ACK that lets the message finish
    if (!m_delivered.IsNull())
    {
        m_delivered(tag, receiver, bytes);
    }
}

void
P2mpChannel::Finish(uint64_t tag)
{
    auto it = m_msgs.find(tag);
    const Message& msg = it->second;
    // Every receiver acknowledged the message, and each delivers before it acknowledges: one
    // missing here was acknowledged for data it does not have. (In a distributed run, those
    // of this process.)
    const uint32_t here = msg.lastPsn == UINT64_MAX ? msg.receivers->size() : msg.here;
    if (msg.delivered + msg.dropped < here)
    {
        const uint64_t packets = std::max<uint64_t>(1, (msg.bytes + m_mtu - 1) / m_mtu);
        const uint64_t last = msg.lastPsn == UINT64_MAX ? 0 : msg.lastPsn;
        m_delivery->ReportUndelivered(m_root,
                                      last + 1 - std::min(last + 1, packets),
                                      last,
                                      here - msg.delivered - msg.dropped,
                                      msg.receivers->size());
    }
    if (it->second.groupId != NO_GROUP)
    {
        m_controller->Release(it->second.groupId);
    }
    m_byLastPsn.erase(it->second.lastPsn);
    m_msgs.erase(it);
    if (!m_done.IsNull())
    {
        m_done(tag);
    }
}

double
P2mpChannel::GetCopies() const
{
    return m_copies;
}

uint64_t
P2mpChannel::GetMessagesViaUnicast() const
{
    return m_viaUnicast;
}

bool
P2mpChannel::IsAckFree() const
{
    return m_ackFree;
}

Ptr<QueuePair>
P2mpChannel::GetMulticastQp() const
{
    return m_mcastQp;
}

uint32_t
P2mpChannel::GetGroupQpn() const
{
    return m_groupQpn;
}

} // namespace ns3
