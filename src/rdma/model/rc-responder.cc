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
