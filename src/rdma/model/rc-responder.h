/*
 * The responder half of a reliable RoCEv2 flow: in-order acceptance (go-back-N) or placement
 * out of order with a selective NAK (a tolerant NIC), ACK coalescing, and the CNPs of the
 * notification point. A queue pair has one; a P2MP receiver has
 * one per group it receives, without a requester half or a rate controller, which is what
 * keeps a 1,024-rank multicast AllGather's million (receiver, sender) responders small.
 */
#ifndef MCAST4AI_RC_RESPONDER_H
#define MCAST4AI_RC_RESPONDER_H

#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "rdma/model/reorder-buffer.h"
#include "wire/model/bth-header.h"
#include "wire/model/frame-info.h"

#include <cstdint>
#include <memory>

namespace ns3
{

class RdmaNic;

/**
 * \brief The responder half of a reliable flow.
 *
 * A go-back-N responder (the classic RoCE NIC) accepts only the expected PSN and NAKs a gap
 * once. On a reorder-tolerant NIC (RdmaNic::IsReorderTolerant) a packet ahead of a hole is
 * placed and held in a ReorderBuffer; the hole is NAKed selectively (the requester resends
 * that PSN only) once it has been open for the NIC's reorder timeout. Either way it
 * acknowledges every AckEvery in-order packets and every message's last packet, re-acknowledges
 * duplicates and, as the notification point, sends at most one CNP per CNP interval. A QueuePair
 * has one; a P2MP receiver has one per group it receives (RdmaNic::CreateGroupResponder), without a
 * requester half or a rate controller.
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
    /// Whether the NIC places packets out of order (RdmaNic is incomplete here).
    static bool IsTolerant(const RdmaNic* nic);
    /// A gap at the expected PSN: NAK it, once.
    void Gap(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    /// Tolerant NIC: a packet `psn` ahead of the hole at the expected PSN; hold it.
    void Early(
        RdmaNic* nic, const Peer& peer, uint32_t localQpn, const FrameInfo& fi, uint64_t psn);
    /// Tolerant NIC: NAK the hole at the expected PSN if it has been open long enough.
    void CheckHole(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    /// A packet received twice (a retransmission it did not need).
    void Duplicate(RdmaNic* nic) const;
    void SendAck(RdmaNic* nic, const Peer& peer, uint64_t psn, bool nak) const;
    /// Take the expected PSN in order; returns whether an ACK is due.
    template<typename Complete>
    bool Take(uint32_t bytes, bool last, bool ackRequest, Complete& complete);

    Time m_lastCnp;
    std::unique_ptr<ReorderBuffer> m_reorder; // tolerant NIC, once a packet came early
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
    if (m_multicast && psn > m_expected && BthHeader::IsFirst(fi.opcode) && !IsTolerant(nic))
    {
        // Messages in between went to other receivers of this P2MP flow. (A tolerant NIC
        // could not tell them from late packets: P2mpChannel refuses that combination.)
        m_expected = psn;
    }
    if (psn == m_expected)
    {
        bool ackDue
            = Take(fi.PayloadBytes(), BthHeader::IsLast(fi.opcode), fi.ackRequest, complete);
        if (m_reorder)
        {
            // The hole filled: take what was held behind it, and acknowledge once.
            ReorderBuffer::Slot next;
            while (m_reorder->Advance(next))
            {
                ackDue |= Take(next.bytes, next.last, next.ackRequest, complete);
            }
        }
        if (ackDue)
        {
            m_sinceAck = 0;
            SendAck(nic, peer, m_expected - 1, false);
        }
        if (m_reorder && m_reorder->GetHeld() > 0)
        {
            CheckHole(nic, peer, localQpn);
        }
    }
    else if (psn > m_expected)
    {
        if (IsTolerant(nic))
        {
            Early(nic, peer, localQpn, fi, psn);
        }
        else
        {
            Gap(nic, peer, localQpn);
        }
    }
    else
    {
        // Duplicate after a retransmission: re-acknowledge so the requester moves on.
        Duplicate(nic);
        SendAck(nic, peer, m_expected - 1, false);
    }
}

template<typename Complete>
bool
RcResponder::Take(uint32_t bytes, bool last, bool ackRequest, Complete& complete)
{
    ++m_expected;
    m_nakSent = false;
    m_msgBytes += bytes;
    if (last)
    {
        uint64_t msn = m_msn++;
        complete(msn, m_msgBytes, m_expected - 1);
        m_msgBytes = 0;
    }
    return ++m_sinceAck >= m_ackEvery || ackRequest || last;
}

} // namespace ns3

#endif /* MCAST4AI_RC_RESPONDER_H */
