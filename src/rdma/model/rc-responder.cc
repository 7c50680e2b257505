#include "rdma/model/rc-responder.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "rdma/model/rdma-nic.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RcResponder");

void
RcResponder::SetAckEvery(uint32_t ackEvery)
{
    m_ackEvery = ackEvery;
}

void
RcResponder::SetMulticast(uint32_t ackEvery, bool silent)
{
    m_multicast = true;
    // 0: only the last packet of each message (it carries AckReq) is acknowledged.
    m_ackEvery = ackEvery == 0 ? UINT32_MAX : ackEvery;
    m_silent = silent;
}

void
RcResponder::CongestionExperienced(RdmaNic* nic, const Peer& peer, uint32_t localQpn)
{
    // Notification point: a CE mark asks the requester to slow down, at most once per
    // CNP interval per flow.
    if (!nic->IsNotificationPoint())
    {
        return;
    }
    Time now = Simulator::Now();
    if (!m_cnpSent || now - m_lastCnp >= nic->GetCnpInterval())
    {
        m_cnpSent = true;
        m_lastCnp = now;
        NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": CE, CNP sent");
        nic->SendCnp(peer);
    }
}

void
RcResponder::Gap(RdmaNic* nic, const Peer& peer, uint32_t localQpn)
{
    // Ask once for go-back-N from the first missing PSN.
    if (!m_nakSent)
    {
        NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": gap at PSN "
                           << m_expected << ", NAK");
        m_nakSent = true;
        SendAck(nic, peer, m_expected, true);
    }
}

bool
RcResponder::IsTolerant(const RdmaNic* nic)
{
    return nic->IsReorderTolerant();
}

bool
RcResponder::Early(
    RdmaNic* nic, const Peer& peer, uint32_t localQpn, const FrameInfo& fi, uint64_t psn)
{
    uint64_t ahead = psn - m_expected;
    nic->GetCounters().RecordDisplacement(ahead);
    if (!m_reorder)
    {
        m_reorder = std::make_unique<ReorderBuffer>();
    }
    const bool skip = fi.opcode == BthHeader::RC_SKIP;
    ReorderBuffer::Slot packet = SlotOf(fi);
    packet.arrival = Simulator::Now();
    switch (m_reorder->Hold(ahead, nic->GetReorderWindow(), packet))
    {
        case ReorderBuffer::HELD:
            if (skip)
            {
                Skipped(nic, fi, localQpn, psn);
            }
            break;
        case ReorderBuffer::DUPLICATE:
            if (!skip)
            {
                Duplicate(nic);
            }
            break;
        case ReorderBuffer::BEYOND:
            NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": PSN " << psn
                               << " is " << ahead << " ahead, past the reorder window: dropped");
            ++nic->GetCounters().reorderDrops;
            break;
    }
    return CheckHole(nic, peer, localQpn);
}

Time
RcResponder::NextHoleCheck(const RdmaNic* nic) const
{
    Time timeout = nic->GetReorderTimeout();
    if (!m_reorder || m_reorder->GetHeld() == 0)
    {
        if (!m_watchTail || !m_inMessage || timeout.IsZero())
        {
            return Time::Max();
        }
        // A tail: nothing new for a timeout, and a timeout after its last NAK.
        Time due = m_lastArrival + timeout;
        if (m_nakSent && m_reorder)
        {
            due = std::max(due, m_reorder->lastNak + timeout);
        }
        return due;
    }
    Time due = m_reorder->GetHoleSince() + timeout;
    if (m_nakSent && !timeout.IsZero())
    {
        due = std::max(due, m_reorder->lastNak + timeout);
    }
    else if (m_nakSent)
    {
        return Time::Max(); // NAKed once, never again (timeout 0)
    }
    return due;
}

uint32_t
RcResponder::MtuOf(const RdmaNic* nic)
{
    return nic->GetMtu();
}

Time
RcResponder::HoleTimeout(const RdmaNic* nic)
{
    return nic->GetReorderTimeout();
}

bool
RcResponder::MayGiveUp(const RdmaNic* nic, uint64_t psn) const
{
    // Only inside a WRITE whose first packet (and so its extent) arrived: there the bytes of
    // a missing PSN are known, and no message boundary can hide in the hole.
    if (m_maxRetx == 0xFF || m_holeNaks < m_maxRetx || !m_reorder)
    {
        return false;
    }
    Time timeout = nic->GetReorderTimeout();
    if (m_nakSent && (timeout.IsZero() || Simulator::Now() - m_reorder->lastNak < timeout))
    {
        return false; // the answer to its last NAK has a timeout to arrive
    }
    const ReorderBuffer::Message& m = m_reorder->message;
    uint32_t mtu = nic->GetMtu();
    return m.bytes > 0 && psn > m.firstPsn && psn < m.firstPsn + (m.bytes + mtu - 1) / mtu;
}

bool
RcResponder::MayGiveUpLater(const RdmaNic* nic, uint64_t psn) const
{
    // As MayGiveUp, for a hole behind the front one, with no NAK to spend on it.
    const ReorderBuffer::Message& m = m_reorder->message;
    uint32_t mtu = nic->GetMtu();
    return m_maxRetx == 0 && m.bytes > 0 && psn > m.firstPsn
           && psn < m.firstPsn + (m.bytes + mtu - 1) / mtu;
}

uint32_t
RcResponder::BytesOf(const RdmaNic* nic, uint64_t psn) const
{
    const ReorderBuffer::Message& m = m_reorder->message;
    uint64_t offset = (psn - m.firstPsn) * nic->GetMtu();
    return static_cast<uint32_t>(std::min<uint64_t>(nic->GetMtu(), m.bytes - offset));
}

void
RcResponder::GaveUp(
    RdmaNic* nic, const Peer& peer, uint32_t localQpn, uint64_t psn, uint32_t bytes, uint32_t op)
{
    NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": hole at PSN " << psn
                       << " given up on (loss-tolerant), " << bytes << " bytes lost");
    nic->GetCounters().RecordLost(peer.owner, op, bytes);
}

bool
RcResponder::CheckHole(RdmaNic* nic, const Peer& peer, uint32_t localQpn)
{
    // Reordering under spraying fills a hole within a path-delay difference; a hole older
    // than the reorder timeout is taken for a loss and asked for by its PSN alone, again
    // every reorder timeout while it stays open (the NAK or the resend may be lost too;
    // with a timeout of 0, once).
    Time now = Simulator::Now();
    Time timeout = nic->GetReorderTimeout();
    if (!m_multicast)
    {
        // Later holes too, each once (an SACK's worth of NAKs): without them each hole would
        // wait for the one before it to fill, a round trip each. Not for P2MP receivers: an
        // aggregator reads a NAK's PSN as everything below it received.
        while (uint64_t i = m_reorder->NextHoleToNak(now - timeout + TimeStep(1), 64))
        {
            // Loss-tolerant data with no retransmission to spend: this hole will be given up
            // on here when it comes to the front; asking for it would only bring a skip.
            if (!MayGiveUpLater(nic, m_expected + i))
            {
                SendAck(nic, peer, m_expected + i, true);
            }
        }
    }
    if (m_reorder->GetHeld() == 0 || now - m_reorder->GetHoleSince() < timeout)
    {
        return false;
    }
    if (m_nakSent && (timeout.IsZero() || now - m_reorder->lastNak < timeout))
    {
        return false; // the answer to the last NAK has a timeout to arrive
    }
    if (MayGiveUp(nic, m_expected))
    {
        return true;
    }
    m_reorder->lastNak = now;
    m_holeNaks += m_holeNaks < 0xFF ? 1 : 0;
    NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": hole at PSN "
                       << m_expected << " open since " << m_reorder->GetHoleSince().As(Time::US)
                       << ", selective NAK");
    m_nakSent = true;
    SendAck(nic, peer, m_expected, true);
    return false;
}

void
RcResponder::CheckTail(RdmaNic* nic, const Peer& peer, uint32_t localQpn)
{
    // With a zero timeout nothing tells a lost tail from the next packet on its way.
    Time now = Simulator::Now();
    Time timeout = nic->GetReorderTimeout();
    if (!m_inMessage || timeout.IsZero() || now - m_lastArrival < timeout)
    {
        return;
    }
    if (!m_reorder)
    {
        m_reorder = std::make_unique<ReorderBuffer>(); // for lastNak; only ever after a loss
    }
    if (m_nakSent && now - m_reorder->lastNak < timeout)
    {
        return; // the answer to the last NAK has a timeout to arrive
    }
    m_reorder->lastNak = now;
    m_holeNaks += m_holeNaks < 0xFF ? 1 : 0;
    NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": message stalled at PSN "
                       << m_expected << ", nothing new since " << m_lastArrival.As(Time::US)
                       << ", selective NAK of its tail");
    m_nakSent = true;
    SendAck(nic, peer, m_expected, true);
}

void
RcResponder::Skipped(RdmaNic* nic, const FrameInfo& fi, uint32_t localQpn, uint64_t psn)
{
    NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": PSN " << psn
                       << " skipped by its requester, " << fi.msn << " bytes lost");
    nic->GetCounters().RecordLost(fi.owner, fi.op, fi.msn);
}

void
RcResponder::Duplicate(RdmaNic* nic) const
{
    nic->GetCounters().RecordDuplicate();
}

void
RcResponder::SendAck(RdmaNic* nic, const Peer& peer, uint64_t psn, bool nak) const
{
    if (m_silent)
    {
        return;
    }
    nic->SendAck(
        peer, static_cast<uint32_t>(psn & BthHeader::PSN_MASK), nak, static_cast<uint32_t>(m_msn));
}

} // namespace ns3
