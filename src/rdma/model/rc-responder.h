/*
 * The responder half of a reliable RoCEv2 flow: in-order acceptance, ACK coalescing, one NAK
 * per gap, and the CNPs of the notification point. A queue pair has one; a P2MP receiver has
 * one per group it receives, without a requester half or a rate controller, which is what
 * keeps a 1,024-rank multicast AllGather's million (receiver, sender) responders small.
 */
#ifndef MCAST4AI_RC_RESPONDER_H
#define MCAST4AI_RC_RESPONDER_H

#include "ns3/nstime.h"
#include "wire/model/bth-header.h"
#include "wire/model/frame-info.h"

#include <cstdint>

namespace ns3
{

class RdmaNic;

/**
 * \brief The responder half of a reliable flow.
 *
 * It accepts only the expected PSN, acknowledges every AckEvery in-order packets and every
 * message's last packet, NAKs a gap once, re-acknowledges duplicates and, as the notification
 * point, sends at most one CNP per CNP interval. A QueuePair has one; a P2MP receiver has one
 * per group it receives (RdmaNic::CreateGroupResponder), without a requester half or a rate
 * controller.
 */
class RcResponder
{
public:
    /// The requester its ACKs, NAKs and CNPs go to.
    struct Peer
    {
        uint32_t host{0};
        uint32_t qpn{0};
        uint16_t srcPort{0}; ///< UDP source port (ECMP entropy) of what the responder sends
        uint8_t owner{0};    ///< whose traffic its ACKs and CNPs are (FrameInfo::owner)
    };

    void SetAckEvery(uint32_t ackEvery);
    /// P2MP: a message's first packet may skip the PSNs of messages this receiver was not
    /// part of. ackEvery 0 = acknowledge only message ends; silent = never acknowledge.
    void SetMulticast(uint32_t ackEvery, bool silent);

    /**
     * One data packet for this flow. complete(msn, bytes, lastPsn) is called when the packet
     * ends a message in order, before the packet is acknowledged. localQpn names the responder
     * in logs.
     */
    template<typename Complete>
    void Receive(RdmaNic* nic,
                 const Peer& peer,
                 uint32_t localQpn,
                 const FrameInfo& fi,
                 Complete&& complete);

    /// Packets received in order so far (the next expected PSN).
    uint64_t GetExpected() const
    {
        return m_expected;
    }

private:
    /// A CE-marked arrival: a CNP to the peer unless one went less than an interval ago.
    void CongestionExperienced(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    /// A gap at the expected PSN: NAK it, once.
    void Gap(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    void SendAck(RdmaNic* nic, const Peer& peer, uint64_t psn, bool nak) const;

    Time m_lastCnp;
    uint64_t m_expected{0};
    uint64_t m_msn{0};
    uint64_t m_msgBytes{0};
    uint32_t m_sinceAck{0};
    uint32_t m_ackEvery{1};
    bool m_cnpSent{false};
    bool m_nakSent{false};
    bool m_multicast{false};
    bool m_silent{false};
};

template<typename Complete>
void
RcResponder::Receive(
    RdmaNic* nic, const Peer& peer, uint32_t localQpn, const FrameInfo& fi, Complete&& complete)
{
    if (fi.ecn == 0x3)
    {
        CongestionExperienced(nic, peer, localQpn);
    }
    uint64_t psn = BthHeader::UnwrapPsn(fi.psn, m_expected);
    if (m_multicast && psn > m_expected && BthHeader::IsFirst(fi.opcode))
    {
        // Messages in between went to other receivers of this P2MP flow.
        m_expected = psn;
    }
    if (psn == m_expected)
    {
        ++m_expected;
        m_nakSent = false;
        m_msgBytes += fi.PayloadBytes();
        bool last = BthHeader::IsLast(fi.opcode);
        if (last)
        {
            uint64_t msn = m_msn++;
            complete(msn, m_msgBytes, psn);
            m_msgBytes = 0;
        }
        if (++m_sinceAck >= m_ackEvery || fi.ackRequest || last)
        {
            m_sinceAck = 0;
            SendAck(nic, peer, m_expected - 1, false);
        }
    }
    else if (psn > m_expected)
    {
        Gap(nic, peer, localQpn);
    }
    else
    {
        // Duplicate after a retransmission: re-acknowledge so the requester moves on.
        SendAck(nic, peer, m_expected - 1, false);
    }
}

} // namespace ns3

#endif /* MCAST4AI_RC_RESPONDER_H */
