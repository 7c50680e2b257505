#include "rdma/model/rc-responder.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "rdma/model/rdma-nic.h"

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

void
RcResponder::Early(
    RdmaNic* nic, const Peer& peer, uint32_t localQpn, const FrameInfo& fi, uint64_t psn)
{
    uint64_t ahead = psn - m_expected;
    nic->RecordDisplacement(ahead);
    if (!m_reorder)
    {
        m_reorder = std::make_unique<ReorderBuffer>();
    }
    ReorderBuffer::Slot packet;
    packet.arrival = Simulator::Now();
    packet.bytes = fi.PayloadBytes();
    packet.last = BthHeader::IsLast(fi.opcode);
    packet.ackRequest = fi.ackRequest;
    switch (m_reorder->Hold(ahead, nic->GetReorderWindow(), packet))
    {
        case ReorderBuffer::HELD:
            break;
        case ReorderBuffer::DUPLICATE:
            Duplicate(nic);
            break;
        case ReorderBuffer::BEYOND:
            NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": PSN " << psn
                               << " is " << ahead << " ahead, past the reorder window: dropped");
            nic->CountReorderDrop();
            break;
    }
    CheckHole(nic, peer, localQpn);
}

void
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
            SendAck(nic, peer, m_expected + i, true);
        }
    }
    if (m_reorder->GetHeld() == 0 || now - m_reorder->GetHoleSince() < timeout
        || (m_nakSent && (timeout.IsZero() || now - m_reorder->lastNak < timeout)))
    {
        return;
    }
    m_reorder->lastNak = now;
    NS_LOG_LOGIC("QP " << localQpn << " at host " << nic->GetHost() << ": hole at PSN "
                       << m_expected << " open since " << m_reorder->GetHoleSince().As(Time::US)
                       << ", selective NAK");
    m_nakSent = true;
    SendAck(nic, peer, m_expected, true);
}

void
RcResponder::Duplicate(RdmaNic* nic) const
{
    nic->CountSpuriousRetransmission();
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
