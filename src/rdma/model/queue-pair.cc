#include "rdma/model/queue-pair.h"

#include "core/model/ns3-compat.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "rdma/model/go-back-n-retransmission.h"
#include "rdma/model/rdma-nic.h"
#include "rdma/model/selective-retransmission.h"
#include "wire/model/bth-header.h"
#include "wire/model/reth-header.h"
#include "wire/model/skip-header.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QueuePair");
NS_OBJECT_ENSURE_REGISTERED(QueuePair);

namespace
{
/// Remote buffers are modelled as one registered region per QP starting here.
constexpr uint64_t REMOTE_BASE_ADDRESS = 0x7F0000000000ULL;

/// The BTH opcode of a data packet: its operation, and where in its message it is.
uint8_t
DataOpcode(RdmaOperation op, bool first, bool last)
{
    if (op == RdmaOperation::WRITE)
    {
        return first ? (last ? BthHeader::RC_WRITE_ONLY : BthHeader::RC_WRITE_FIRST)
                     : (last ? BthHeader::RC_WRITE_LAST : BthHeader::RC_WRITE_MIDDLE);
    }
    return first ? (last ? BthHeader::RC_SEND_ONLY : BthHeader::RC_SEND_FIRST)
                 : (last ? BthHeader::RC_SEND_LAST : BthHeader::RC_SEND_MIDDLE);
}
} // namespace

TypeId
QueuePair::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::QueuePair")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<QueuePair>()
              .AddTraceSource("MessageComplete",
                              "A posted message was fully acknowledged (message id, bytes)",
                              MakeTraceSourceAccessor(&QueuePair::m_completeTrace),
                              "ns3::QueuePair::CompleteTracedCallback")
              .AddTraceSource("GoBackN",
                              "The requester went back to a PSN, or (tolerant NIC) resends one "
                              "(NAK or timeout)",
                              MakeTraceSourceAccessor(&QueuePair::m_retransmitTrace),
                              "ns3::TracedValueCallback::Uint64");
    return tid;
}

QueuePair::QueuePair()
{
}

void
QueuePair::DoDispose()
{
    m_timer.Cancel();
    m_holeTimer.Cancel();
    if (m_cc)
    {
        m_cc->Dispose();
        m_cc = nullptr;
    }
    m_steering = nullptr;
    m_nic = nullptr;
    m_multicast.reset();
    m_messages.clear();
    Object::DoDispose();
}

void
QueuePair::Setup(Ptr<RdmaNic> nic, uint32_t qpn, uint32_t remoteHost, uint16_t srcPort)
{
    m_nic = nic;
    m_qpn = qpn;
    m_remoteHost = remoteHost;
    m_srcPort = srcPort;
    m_mtu = nic->GetMtu();
    m_rx.SetAckEvery(nic->GetAckEvery());
    m_rto = nic->GetRto();
    m_retx = nic->IsReorderTolerant()
                 ? static_cast<const RetransmissionPolicy*>(&SelectiveRetransmission::Get())
                 : &GoBackNRetransmission::Get();
}

void
QueuePair::SetRemoteQpn(uint32_t qpn)
{
    m_remoteQpn = qpn;
}

void
QueuePair::SetCompletionCallback(CompletionCallback cb)
{
    m_completion = cb;
}

void
QueuePair::SetReceiveCallback(ReceiveCallback cb)
{
    m_receive = cb;
}

uint32_t
QueuePair::GetQpn() const
{
    return m_qpn;
}

Ptr<RdmaNic>
QueuePair::GetNic() const
{
    return m_nic;
}

uint32_t
QueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

uint32_t
QueuePair::GetRemoteHost() const
{
    return m_remoteHost;
}

uint16_t
QueuePair::GetSourcePort() const
{
    return m_srcPort;
}

void
QueuePair::SetSourcePort(uint16_t port)
{
    m_srcPort = port;
}

void
QueuePair::SetOwner(uint8_t owner)
{
    m_owner = owner;
}

uint8_t
QueuePair::GetOwner() const
{
    return m_owner;
}

void
QueuePair::SetPriority(uint8_t priority)
{
    m_priority = priority;
}

uint64_t
QueuePair::Post(RdmaOperation op, uint64_t bytes, uint32_t tag)
{
    return Enqueue(op, bytes, P2mpEncapsulator::Target(), tag);
}

uint64_t
QueuePair::Enqueue(RdmaOperation op,
                   uint64_t bytes,
                   const P2mpEncapsulator::Target& target,
                   uint32_t tag)
{
    MakeCongestionControl();
    if (!HasPacketToSend())
    {
        // Idle until now: a pause before this message held nothing of it back.
        m_pauseReading = m_nic->GetPausedTime(m_priority);
    }
    Message m;
    m.id = m_nextMessageId++;
    m.op = op;
    m.bytes = bytes;
    m.firstPsn = m_psnEnd;
    m.packets = std::max<uint64_t>(1, (bytes + m_mtu - 1) / m_mtu);
    m.posted = Simulator::Now();
    m.target = target;
    m.tag = tag <= FrameInfo::MAX_OP_TAG ? tag : 0;
    m.port = m_srcPort;
    m.maxRetransmissions = m_maxRetx;
    m_psnEnd += m.packets;
    uint64_t id = m.id;
    m_messages.push_back(std::move(m));
    // Last: the NIC may build the first packet right away.
    m_nic->NotifyReady(this);
    return id;
}

uint64_t
QueuePair::GetNextPostPsn() const
{
    return m_psnEnd;
}

void
QueuePair::SetPathSteering(Ptr<PathSteering> steering)
{
    m_steering = steering;
}

Ptr<PathSteering>
QueuePair::GetPathSteering() const
{
    return m_steering;
}

void
QueuePair::SetCongestionControl(Ptr<RdmaCongestionControl> cc)
{
    m_cc = cc;
    m_ccMade = true;
    if (cc)
    {
        cc->SetPacingListener(this);
    }
    m_telemetry = cc && cc->UsesTelemetry();
    m_windowed = cc && cc->GetWindowBytes() > 0;
}

void
QueuePair::MakeCongestionControl()
{
    if (!m_ccMade && m_nic)
    {
        SetCongestionControl(m_nic->CreateCongestionControl());
    }
}

Ptr<RdmaCongestionControl>
QueuePair::GetCongestionControl()
{
    MakeCongestionControl();
    return m_cc;
}

void
QueuePair::SetMulticast(Ptr<P2mpEncapsulator> sender,
                        uint32_t groupQpn,
                        Ptr<AckAggregator> localAgg,
                        bool ackFree)
{
    NS_ABORT_MSG_UNLESS(sender, "a P2MP queue pair needs an encapsulator");
    m_multicast = std::make_unique<MulticastRequester>(
        sender, groupQpn, localAgg, ackFree, AckAggregator::FlowKey(m_nic->GetHost(), m_qpn));
}

void
QueuePair::SetAckSource(uint32_t address)
{
    NS_ABORT_MSG_UNLESS(m_multicast, "SetAckSource on a unicast QP");
    m_multicast->SetAckSource(address);
}

uint64_t
QueuePair::PostMulticast(uint64_t bytes, const P2mpEncapsulator::Target& target, uint32_t tag)
{
    NS_ASSERT_MSG(m_multicast, "PostMulticast on a unicast QP");
    return Enqueue(RdmaOperation::WRITE, bytes, target, tag);
}

bool
QueuePair::IsMulticast() const
{
    return m_multicast != nullptr;
}

uint32_t
QueuePair::GetGroupQpn() const
{
    return m_multicast ? m_multicast->GetGroupQpn() : 0;
}

Ptr<P2mpEncapsulator>
QueuePair::GetP2mpEncapsulator() const
{
    return m_multicast ? m_multicast->GetEncapsulator() : nullptr;
}

const QueuePair::Message&
QueuePair::GetLastBuiltMessage() const
{
    return m_messages[m_lastBuilt];
}

bool
QueuePair::LastBuiltWasFirst() const
{
    return m_lastBuiltFirst;
}

bool
QueuePair::HasPacketToSend() const
{
    return !m_resend.empty()
           || (m_sndNxt < m_psnEnd && !(m_steering && WaitsToRepath())
               && !(m_windowed && WindowFull()));
}

bool
QueuePair::WindowFull() const
{
    // Ack-free data is acknowledged by nobody: no window applies (P2mpChannel, ack-free).
    return !(m_multicast && m_multicast->IsAckFree())
           && (m_sndNxt - m_sndUna) * m_mtu >= m_cc->GetWindowBytes();
}

bool
QueuePair::WaitsToRepath() const
{
    if (m_sndUna >= m_sndNxt || m_sndNxt < m_maxSent || !m_steering->DrainsBeforeRepath())
    {
        return false; // nothing in flight, or a resend: it keeps its message's port
    }
    std::size_t i = m_buildIndex;
    while (i < m_messages.size() && m_messages[i].firstPsn + m_messages[i].packets <= m_sndNxt)
    {
        ++i;
    }
    return i < m_messages.size() && m_messages[i].firstPsn == m_sndNxt
           && m_steering->WantsRepath(m_srcPort);
}

Time
QueuePair::GetNextSendTime() const
{
    return m_nextSend;
}

void
QueuePair::PacingChanged()
{
    if (m_lastWire == 0)
    {
        return; // nothing sent yet: the first frame goes at once whatever the rate
    }
    // As a NIC's rate limiter (and HPCC's simulator, rdma-hw.cc ChangeRate): the next frame
    // goes one frame time at the new rate after the last one started, so a cut holds it back
    // and a raise lets it go sooner.
    const Time next = m_lastSent + m_cc->PacingDelay(m_lastWire);
    const bool sooner = next < m_nextSend;
    m_nextSend = next;
    if (sooner && HasPacketToSend())
    {
        // Not NotifyReady: this may run inside the ACK that changed the rate.
        m_nic->WakeAt(std::max(next, Simulator::Now()));
    }
}

void
QueuePair::PacketSent(uint32_t wireBytes)
{
    if (m_cc)
    {
        m_cc->BytesSent(wireBytes);
        m_nextSend = Simulator::Now() + m_cc->PacingDelay(wireBytes);
        m_lastSent = Simulator::Now();
        m_lastWire = wireBytes;
    }
}

void
QueuePair::SetAggregateCnps(bool aggregate)
{
    NS_ABORT_MSG_UNLESS(m_multicast, "SetAggregateCnps on a unicast QP");
    m_multicast->SetAggregateCnps(aggregate);
}

void
QueuePair::ReceiveCnp()
{
    ++m_cnps;
    if (!m_cc)
    {
        return;
    }
    if (m_multicast && !m_multicast->PassesCnp(m_nic->GetCnpInterval()))
    {
        return;
    }
    m_cc->ReceiveCnp();
}

Ptr<Packet>
QueuePair::BuildNextPacket(uint32_t& payloadBytes)
{
    NS_ASSERT(HasPacketToSend());
    if (!m_resend.empty())
    {
        // Selective repeat: PSNs a tolerant responder asked for go before new data.
        uint64_t psn = m_resend.front();
        m_resend.pop_front();
        return BuildPacket(psn, MessageOf(psn), payloadBytes);
    }
    while (m_sndNxt >= m_messages[m_buildIndex].firstPsn + m_messages[m_buildIndex].packets)
    {
        ++m_buildIndex;
    }
    Ptr<Packet> p = BuildPacket(m_sndNxt, m_buildIndex, payloadBytes);
    ++m_sndNxt;
    m_maxSent = std::max(m_maxSent, m_sndNxt);
    return p;
}

std::size_t
QueuePair::MessageOf(uint64_t psn) const
{
    // Messages are in PSN order: the last one starting at or before psn holds it.
    std::size_t lo = 0;
    std::size_t hi = m_messages.size();
    while (hi - lo > 1)
    {
        std::size_t mid = (lo + hi) / 2;
        (m_messages[mid].firstPsn <= psn ? lo : hi) = mid;
    }
    return lo;
}

void
QueuePair::NamedLost(uint64_t psn)
{
    if (!m_loss || psn < m_sndUna || psn >= m_maxSent)
    {
        return;
    }
    const Message& m = m_messages[MessageOf(psn)];
    if (m.maxRetransmissions == RELIABLE)
    {
        return;
    }
    uint64_t offset = (psn - m.firstPsn) * m_mtu;
    uint32_t bytes = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, m.bytes - offset));
    if (m_loss->NamedLost(psn, m.firstPsn, m.maxRetransmissions, bytes))
    {
        NS_LOG_LOGIC("QP " << m_qpn << " at host " << m_nic->GetHost() << ": PSN " << psn
                           << " given up on (" << bytes << " bytes)");
    }
}

inline void
QueuePair::SteerMessage(Message& m, bool first, bool last)
{
    // A message's port is chosen once, when it first goes: steering never changes the path
    // inside a message, and its resends keep the port too. What steering learns from the
    // message is recorded only for it.
    if (first)
    {
        m_srcPort = m_steering->NextPort(m_srcPort);
        m.port = m_srcPort;
        m.firstSent = Simulator::Now();
        m.cnps = m_cnps;
    }
    if (last)
    {
        m.lastSent = Simulator::Now();
    }
}

inline Ptr<Packet>
QueuePair::BuildFrame(
    const Message& m, uint64_t psn, uint32_t len, bool first, bool last, bool skip)
{
    uint8_t opcode = DataOpcode(m.op, first, last);
    Ptr<Packet> p;
    uint8_t pad = 0;
    if (skip)
    {
        // Given up on: the skip tells the responder what it stands in for, and asks for an
        // ACK at once, so that the message (if it ends here) completes without waiting.
        SkipHeader sk;
        sk.SetSkippedOpcode(opcode);
        sk.SetSkippedBytes(len);
        p = Create<Packet>(0);
        p->AddHeader(sk);
        opcode = BthHeader::RC_SKIP;
        m_loss->SkipSent();
    }
    else
    {
        // The BTH pad count keeps the payload a multiple of four bytes.
        pad = static_cast<uint8_t>((4 - len % 4) % 4);
        p = Create<Packet>(len + pad);
    }
    if (BthHeader::CarriesReth(opcode))
    {
        RethHeader reth;
        reth.SetVirtualAddress(REMOTE_BASE_ADDRESS);
        reth.SetRkey(m_remoteQpn);
        reth.SetDmaLength(static_cast<uint32_t>(std::min<uint64_t>(m.bytes, UINT32_MAX)));
        p->AddHeader(reth);
    }
    BthHeader bth;
    if (m_telemetry && !m_multicast)
    {
        // Room for every switch on the path to write its record; the ACK brings it back.
        IoamTraceHeader trace;
        trace.SetNamespaceId(m_nic->GetTelemetryNamespace());
        trace.Allocate(m_nic->GetTelemetryHops(), IoamTraceHeader::INT_TRACE_TYPE);
        p->AddHeader(trace);
        bth.SetTelemetry(true);
    }
    bth.SetOpcode(opcode);
    bth.SetPadCount(pad);
    bth.SetDestQp(m_multicast ? m_multicast->GetGroupQpn() : m_remoteQpn);
    bth.SetAckRequest(last || skip);
    bth.SetPsn(static_cast<uint32_t>(psn & BthHeader::PSN_MASK));
    p->AddHeader(bth);
    return p;
}

inline void
QueuePair::NoteBuilt(const Message& m, uint64_t psn, bool first, bool last, bool skip)
{
    if (m_multicast)
    {
        m_multicast->Built(psn, first, m.target, m.firstPsn, m.firstPsn + m.packets - 1);
    }
    const bool ackFree = m_multicast && m_multicast->IsAckFree();
    if (!ackFree)
    {
        if (m_sndUna == m_maxSent)
        {
            m_lastProgress = Simulator::Now(); // first packet in flight: the timer starts now
        }
        if (psn < m_maxSent && !skip)
        {
            ++m_retransmissions;
            if (m.tag)
            {
                Ptr<TrafficLedger> ledger = m_nic->GetTrafficLedger();
                if (ledger && ledger->GetOpLedger())
                {
                    ledger->GetOpLedger()->Retransmitted(m.tag);
                }
            }
        }
    }
    ++m_packetsSent;
    if (!ackFree)
    {
        ArmTimer();
    }
    else if (last)
    {
        // Nobody will acknowledge: the message is done once its last packet is on its way.
        Simulator::ScheduleNow(&QueuePair::Acknowledge, this, psn);
    }
}

Ptr<Packet>
QueuePair::BuildPacket(uint64_t psn, std::size_t messageIndex, uint32_t& payloadBytes)
{
    Message& m = m_messages[messageIndex];
    const uint64_t index = psn - m.firstPsn;
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, m.bytes - index * m_mtu));
    const bool first = index == 0;
    const bool last = index + 1 == m.packets;
    if (m_steering && psn >= m_maxSent)
    {
        SteerMessage(m, first, last);
    }
    m_builtPort = m.port;
    const bool skip = IsAbandoned(m, psn);
    Ptr<Packet> p = BuildFrame(m, psn, len, first, last, skip);
    payloadBytes = skip ? 0 : len;
    m_lastBuilt = messageIndex;
    m_lastBuiltFirst = first;
    NoteBuilt(m, psn, first, last, skip);
    return p;
}

void
QueuePair::ReceiveAck(const FrameInfo& fi, const IoamTraceHeader* trace)
{
    uint8_t kind = (fi.syndrome >> 5) & 0x3;
    if (m_multicast && m_multicast->Refuses(fi.srcIp))
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": ACK from " << fi.srcIp
                           << ", not its aggregation point: refused");
        ++m_nic->GetCounters().acksRefused;
        return;
    }
    if (m_multicast && m_multicast->GetLocalAggregator())
    {
        // Every receiver's ACK reaches this NIC: reduce them to the minimum here.
        AckAggregator::Action a = m_multicast->ReceiveAck(fi.SrcHost(), fi.psn, kind == 3);
        if (a.kind == AckAggregator::Action::ACK && a.psn >= m_maxSent)
        {
            ++m_nic->GetCounters().acksBeyondSent;
        }
        if (a.kind == AckAggregator::Action::ACK && a.psn >= m_sndUna && a.psn < m_maxSent)
        {
            Acknowledge(a.psn);
        }
        else if (a.kind == AckAggregator::Action::NAK)
        {
            m_retx->Nak(*this, a.psn);
        }
        if (m_windowed && HasPacketToSend())
        {
            m_nic->NotifyReady(this); // the window may have opened
        }
        return;
    }
    uint64_t psn = BthHeader::UnwrapPsn(fi.psn, m_sndUna);
    if (trace && m_cc)
    {
        // Before the ACK moves anything. A NAK expecting psn acknowledges up to psn - 1.
        const uint64_t acked = kind == 3 ? (psn > 0 ? psn - 1 : 0) : psn;
        m_cc->ReceiveTelemetry(*trace, acked, m_sndNxt);
    }
    if (kind == 0) // ACK: everything up to and including psn arrived
    {
        if (psn >= m_sndUna && psn < m_maxSent)
        {
            Acknowledge(psn);
        }
        else if (psn >= m_maxSent)
        {
            NS_LOG_WARN("QP " << m_qpn << ": ACK of PSN " << psn << ", never sent (sent up to "
                              << m_maxSent << "): ignored");
            ++m_nic->GetCounters().acksBeyondSent;
        }
    }
    else if (kind == 3) // NAK: the responder expects psn
    {
        m_retx->Nak(*this, psn);
    }
    // RNR NAKs are not generated: receive queues are modelled as never empty.
    if (m_windowed && HasPacketToSend())
    {
        m_nic->NotifyReady(this); // the window may have opened
    }
}

void
QueuePair::Resend(uint64_t psn)
{
    if (psn < m_sndUna || psn >= m_maxSent)
    {
        return; // acknowledged meanwhile, or never sent
    }
    for (std::size_t i = 0; i < m_resend.size(); ++i)
    {
        if (m_resend[i] == psn)
        {
            return; // asked for again (another receiver of the group) before it went
        }
    }
    NS_LOG_LOGIC("QP " << m_qpn << " at host " << m_nic->GetHost() << ": resend PSN " << psn);
    NamedLost(psn);
    m_resend.push_back(uint64_t{psn});
    m_retransmitTrace(psn);
    m_nic->NotifyReady(this);
}

void
QueuePair::Acknowledge(uint64_t ackedPsn)
{
    m_sndUna = ackedPsn + 1;
    m_lastProgress = Simulator::Now();
    if (m_sndNxt < m_sndUna)
    {
        m_sndNxt = m_sndUna;
    }
    if (!m_resend.empty())
    {
        // Resends the cumulative ACK made moot go (the message they belong to may go too).
        std::size_t n = m_resend.size();
        for (std::size_t i = 0; i < n; ++i)
        {
            uint64_t psn = m_resend.front();
            m_resend.pop_front();
            if (psn >= m_sndUna)
            {
                m_resend.push_back(std::move(psn));
            }
        }
    }
    if (m_loss)
    {
        m_loss->AcknowledgedBelow(m_sndUna);
    }
    if (m_recovering)
    {
        m_retx->AcknowledgedWhileRecovering(*this);
    }
    while (!m_messages.empty()
           && m_messages.front().firstPsn + m_messages.front().packets <= m_sndUna)
    {
        Message done = m_messages.front();
        m_messages.pop_front();
        if (m_steering)
        {
            m_steering->MessageDone(
                done.port, done.bytes, done.firstSent, done.lastSent, m_cnps - done.cnps);
        }
        m_buildIndex = m_buildIndex > 0 ? m_buildIndex - 1 : 0;
        m_completeTrace(done.id, done.bytes);
        if (!m_completion.IsNull())
        {
            m_completion(this, done);
        }
    }
    if (m_steering && m_sndUna == m_sndNxt && m_sndNxt < m_psnEnd)
    {
        // A queue pair that waited for its old path to drain (WaitsToRepath) may go on, with
        // what the last messages taught its steering.
        m_nic->NotifyReady(this);
    }
}

void
QueuePair::GoBackN(uint64_t fromPsn)
{
    if (fromPsn >= m_sndNxt)
    {
        return;
    }
    NS_LOG_LOGIC("QP " << m_qpn << " at host " << m_nic->GetHost() << ": go back to PSN " << fromPsn
                       << " from " << m_sndNxt);
    NamedLost(fromPsn);
    m_sndNxt = fromPsn;
    m_buildIndex = 0;
    m_retransmitTrace(fromPsn);
    m_nic->NotifyReady(this);
}

void
QueuePair::ArmTimer()
{
    if (m_timer.IsExpired())
    {
        QuadHeapScheduler::SetNextLane(m_nic->GetTimerLane());
        m_timer = Simulator::Schedule(m_rto, &QueuePair::TimerExpired, this);
    }
}

void
QueuePair::TimerExpired()
{
    if (m_sndUna >= m_maxSent)
    {
        return; // nothing outstanding; the next send re-arms
    }
    // One lazily re-armed event per QP instead of a reschedule per ACK.
    Time idle = Simulator::Now() - m_lastProgress;
    if (idle < m_rto)
    {
        m_timer = Simulator::Schedule(m_rto - idle, &QueuePair::TimerExpired, this);
        return;
    }
    if (m_multicast)
    {
        // A receiver silent past the timeout may be all that holds the flow: no other ACK
        // comes to check it (the only receiver of the message), so the timer does.
        AckAggregator::Action a = m_multicast->CheckSilent();
        if (a.kind == AckAggregator::Action::ACK && a.psn >= m_sndUna && a.psn < m_maxSent)
        {
            Acknowledge(a.psn); // progress: no resend, the timer runs again if still owed
            ArmTimer();
            return;
        }
    }
    ++m_timeouts;
    NS_LOG_LOGIC("QP " << m_qpn << " at host " << m_nic->GetHost() << ": timeout, back to PSN "
                       << m_sndUna);
    m_lastProgress = Simulator::Now();
    m_retx->Timeout(*this);
    QuadHeapScheduler::SetNextLane(m_nic->GetTimerLane());
    m_timer = Simulator::Schedule(m_rto, &QueuePair::TimerExpired, this);
}

RcResponder::Peer
QueuePair::GetPeer() const
{
    RcResponder::Peer peer;
    peer.host = m_remoteHost;
    peer.qpn = m_remoteQpn;
    peer.srcPort = m_srcPort;
    peer.owner = m_owner;
    return peer;
}

void
QueuePair::ReceiveData(const FrameInfo& fi)
{
    m_rx.Receive(PeekPointer(m_nic),
                 GetPeer(),
                 m_qpn,
                 fi,
                 [this](uint64_t msn, uint64_t bytes, uint64_t lastPsn)
                 {
                     if (!m_receive.IsNull())
                     {
                         m_receive(this, msn, bytes, lastPsn);
                     }
                 });
    if (m_nic->IsReorderTolerant() && !IsPending(m_holeTimer))
    {
        ArmHoleTimer();
    }
}

void
QueuePair::ArmHoleTimer()
{
    Time due = m_rx.NextHoleCheck(PeekPointer(m_nic));
    if (due != Time::Max())
    {
        Time now = Simulator::Now();
        QuadHeapScheduler::SetNextLane(m_nic->GetTimerLane());
        m_holeTimer = Simulator::Schedule(
            due > now ? due - now : Time(0), &QueuePair::HoleTimerExpired, this);
    }
}

void
QueuePair::HoleTimerExpired()
{
    m_rx.CheckHoleNow(PeekPointer(m_nic),
                      GetPeer(),
                      m_qpn,
                      [this](uint64_t msn, uint64_t bytes, uint64_t lastPsn)
                      {
                          if (!m_receive.IsNull())
                          {
                              m_receive(this, msn, bytes, lastPsn);
                          }
                      });
    ArmHoleTimer();
}

uint64_t
QueuePair::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
QueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
QueuePair::GetOutstandingMessages() const
{
    return m_messages.size();
}

uint64_t
QueuePair::GetPacketsSent() const
{
    return m_packetsSent;
}

uint64_t
QueuePair::GetReceivedPackets() const
{
    return m_rx.GetExpected();
}

} // namespace ns3
