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

#include <algorithm>
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

    /**
     * Tolerant NIC: when the hole at the expected PSN is next due a look (a NAK, or giving it
     * up), whether or not anything else arrives; for a responder that watches its tails
     * (WatchTails), also when a message it is inside of has had nothing new for the reorder
     * timeout; Time::Max() when nothing is owed. Without this a hole with nothing arriving
     * behind it, or a lost tail, would wait for the requester's retransmission timeout.
     */
    Time NextHoleCheck(const RdmaNic* nic) const;
    /// The hole check is due (NextHoleCheck): NAK the hole, or give it up; or NAK the tail.
    template<typename Complete>
    void CheckHoleNow(RdmaNic* nic, const Peer& peer, uint32_t localQpn, Complete&& complete)
    {
        if (m_reorder && m_reorder->GetHeld() > 0)
        {
            if (CheckHole(nic, peer, localQpn))
            {
                GiveUpHoles(nic, peer, localQpn, complete);
            }
        }
        else if (m_watchTail)
        {
            CheckTail(nic, peer, localQpn);
        }
    }

    /**
     * P2MP receiver on a tolerant NIC: a message whose first packet arrived and whose rest
     * stops arriving (its tail was lost, with nothing behind it to reveal a hole) is NAKed at
     * its next expected PSN once no packet past all it has seen has arrived for the reorder
     * timeout, and again every timeout while it stays missing. The message's first packet
     * says it is unfinished; resends that fill holes (for it or for other receivers of the
     * group) are not the message coming on.
     */
    void WatchTails(bool watch)
    {
        m_watchTail = watch;
    }

    /// Packets received in order so far (the next expected PSN).
    uint64_t GetExpected() const
    {
        return m_expected;
    }

    /**
     * Loss-tolerant data (QueuePair::SetMaxRetransmissions, agreed by both ends of the
     * connection): on a reorder-tolerant NIC, a hole inside a WRITE message that is still open
     * after maxRetransmissions selective NAKs and one more reorder timeout is given up on here:
     * the message completes without its bytes, and the ACK moves past it. Holes it cannot
     * size (a message's first packet, a SEND) are NAKed as ever, and the requester sends a
     * PSN skip once its own budget is spent.
     */
    void SetMaxRetransmissions(uint8_t n)
    {
        m_maxRetx = n;
    }

private:
    /// A CE-marked arrival: a CNP to the peer unless one went less than an interval ago.
    void CongestionExperienced(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    /// Whether the NIC places packets out of order (RdmaNic is incomplete here).
    static bool IsTolerant(const RdmaNic* nic);
    /// A gap at the expected PSN: NAK it, once.
    void Gap(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    /// Tolerant NIC: a packet `psn` ahead of the hole at the expected PSN; hold it. Returns
    /// CheckHole's answer.
    bool Early(
        RdmaNic* nic, const Peer& peer, uint32_t localQpn, const FrameInfo& fi, uint64_t psn);
    /// Tolerant NIC: NAK the hole at the expected PSN if it has been open long enough; returns
    /// true instead if it is loss-tolerant data whose budget is spent (GiveUpHoles is due).
    bool CheckHole(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    /// WatchTails: NAK the expected PSN if the message has stalled for the reorder timeout.
    void CheckTail(RdmaNic* nic, const Peer& peer, uint32_t localQpn);
    /// Whether a later hole, at psn, is in the current message (budget 0 only).
    bool MayGiveUpLater(const RdmaNic* nic, uint64_t psn) const;
    /// Whether the (timed-out) hole at the expected PSN may be given up on here.
    bool MayGiveUp(const RdmaNic* nic, uint64_t psn) const;
    /// The payload bytes of psn, inside the current message.
    uint32_t BytesOf(const RdmaNic* nic, uint64_t psn) const;
    /// Give up on the hole at the expected PSN, and on each one after it that is as old and
    /// as tolerant; acknowledge what that completes.
    template<typename Complete>
    void GiveUpHoles(RdmaNic* nic, const Peer& peer, uint32_t localQpn, Complete& complete);
    /// A slot describing packet fi (a PSN skip: the packet it stands in for, no bytes).
    static ReorderBuffer::Slot SlotOf(const FrameInfo& fi);
    /// A packet received twice (a retransmission it did not need).
    void Duplicate(RdmaNic* nic) const;
    /// A PSN skip was accepted in the place of psn: its bytes are lost.
    static void Skipped(RdmaNic* nic, const FrameInfo& fi, uint32_t localQpn, uint64_t psn);
    /// The responder gave up on psn (bytes of operation op) itself.
    static void GaveUp(RdmaNic* nic,
                       const Peer& peer,
                       uint32_t localQpn,
                       uint64_t psn,
                       uint32_t bytes,
                       uint32_t op);
    /// The NIC's MTU and reorder timeout (RdmaNic is incomplete here).
    static uint32_t MtuOf(const RdmaNic* nic);
    static Time HoleTimeout(const RdmaNic* nic);
    void SendAck(RdmaNic* nic, const Peer& peer, uint64_t psn, bool nak) const;
    /// Take the expected PSN in order; returns whether an ACK is due.
    template<typename Complete>
    bool Take(const ReorderBuffer::Slot& packet, Complete& complete);

    Time m_lastCnp;
    Time m_lastArrival; // WatchTails: when a packet past all it had seen last arrived
    std::unique_ptr<ReorderBuffer> m_reorder; // tolerant NIC, once a packet came early
    uint64_t m_expected{0};
    uint64_t m_msn{0};
    uint64_t m_msgBytes{0};
    uint64_t m_jumpLimit{UINT64_MAX}; // P2MP: the furthest a first packet may skip to
    uint32_t m_sinceAck{0};
    uint32_t m_ackEvery{1};
    bool m_cnpSent{false};
    bool m_nakSent{false};
    bool m_multicast{false};
    bool m_inMessage{false}; // taken a message's first packet and not yet its last
    bool m_silent{false};
    uint8_t m_maxRetx{0xFF}; // QueuePair::RELIABLE
    uint8_t m_holeNaks{0};   // selective NAKs of the hole at the expected PSN
    bool m_watchTail{false};
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
    if (m_watchTail && psn >= m_expected + (m_reorder ? m_reorder->GetSpan() : 0)
        && !(psn == m_expected && m_nakSent))
    {
        // Past all it has seen: the message is still coming. (A resend that fills a hole, or
        // answers its NAK, is no sign of that.)
        m_lastArrival = Simulator::Now();
    }
    // A PSN skip stands in for a packet its requester gave up on: it takes that packet's
    // place in its message, with no bytes.
    const bool skip = fi.opcode == BthHeader::RC_SKIP;
    const uint8_t opcode = skip ? fi.syndrome : fi.opcode;
    if (m_multicast && !m_inMessage && psn > m_expected && !IsTolerant(nic))
    {
        if (!BthHeader::IsFirst(opcode))
        {
            // A message of this receiver's includes psn; its first packet is at or before it.
            m_jumpLimit = std::min(m_jumpLimit, psn);
        }
        else if (psn <= m_jumpLimit)
        {
            // Messages in between went to other receivers of this P2MP flow. Only between
            // messages: inside one, a later first packet means this message's tail was lost;
            // and never past a packet seen of a message whose start was lost (m_jumpLimit).
            // (A message of its own lost whole looks the same as one sent to others;
            // RunInvariants reports that case. A tolerant NIC could not tell skipped PSNs from
            // late packets: P2mpChannel refuses that combination.)
            m_expected = psn;
        }
    }
    bool giveUp = false;
    if (psn == m_expected)
    {
        if (skip)
        {
            Skipped(nic, fi, localQpn, psn);
        }
        bool ackDue = Take(SlotOf(fi), complete);
        if (m_reorder)
        {
            // The hole filled: take what was held behind it, and acknowledge once.
            ReorderBuffer::Slot next;
            while (m_reorder->Advance(next))
            {
                ackDue |= Take(next, complete);
            }
        }
        if (ackDue)
        {
            m_sinceAck = 0;
            SendAck(nic, peer, m_expected - 1, false);
        }
        if (m_reorder && m_reorder->GetHeld() > 0)
        {
            giveUp = CheckHole(nic, peer, localQpn);
        }
    }
    else if (psn > m_expected)
    {
        if (IsTolerant(nic))
        {
            giveUp = Early(nic, peer, localQpn, fi, psn);
        }
        else
        {
            Gap(nic, peer, localQpn);
        }
    }
    else
    {
        // Duplicate after a retransmission: re-acknowledge so the requester moves on. (A skip
        // of a packet that arrived after all is no retransmission: the data is here.)
        if (!skip)
        {
            Duplicate(nic);
        }
        SendAck(nic, peer, m_expected - 1, false);
    }
    if (giveUp)
    {
        GiveUpHoles(nic, peer, localQpn, complete);
    }
}

template<typename Complete>
void
RcResponder::GiveUpHoles(RdmaNic* nic, const Peer& peer, uint32_t localQpn, Complete& complete)
{
    bool ackDue = false;
    do
    {
        const ReorderBuffer::Message& m = m_reorder->message;
        ReorderBuffer::Slot lost;
        lost.last = m_expected + 1 == m.firstPsn + ((m.bytes + MtuOf(nic) - 1) / MtuOf(nic));
        GaveUp(nic, peer, localQpn, m_expected, BytesOf(nic, m_expected), m.op);
        ackDue |= Take(lost, complete);
        ReorderBuffer::Slot next;
        while (m_reorder->Advance(next))
        {
            ackDue |= Take(next, complete);
        }
    } while (m_reorder->GetHeld() > 0
             && Simulator::Now() - m_reorder->GetHoleSince() >= HoleTimeout(nic)
             && MayGiveUp(nic, m_expected));
    if (ackDue)
    {
        m_sinceAck = 0;
        SendAck(nic, peer, m_expected - 1, false);
    }
}

template<typename Complete>
bool
RcResponder::Take(const ReorderBuffer::Slot& packet, Complete& complete)
{
    if (packet.first && m_maxRetx != 0xFF)
    {
        // Loss-tolerant: remember the message's extent, in case a hole inside it is given up.
        if (!m_reorder)
        {
            m_reorder = std::make_unique<ReorderBuffer>();
        }
        m_reorder->message.firstPsn = m_expected;
        m_reorder->message.bytes = packet.dmaLength;
        m_reorder->message.op = packet.op;
    }
    if (++m_expected > m_jumpLimit)
    {
        m_jumpLimit = UINT64_MAX;
    }
    m_inMessage = !packet.last;
    m_nakSent = false;
    m_holeNaks = 0;
    m_msgBytes += packet.bytes;
    if (packet.last)
    {
        uint64_t msn = m_msn++;
        complete(msn, m_msgBytes, m_expected - 1);
        m_msgBytes = 0;
    }
    return ++m_sinceAck >= m_ackEvery || packet.ackRequest || packet.last;
}

inline ReorderBuffer::Slot
RcResponder::SlotOf(const FrameInfo& fi)
{
    const bool skip = fi.opcode == BthHeader::RC_SKIP;
    const uint8_t opcode = skip ? fi.syndrome : fi.opcode;
    ReorderBuffer::Slot s;
    s.bytes = skip ? 0 : fi.PayloadBytes();
    s.last = BthHeader::IsLast(opcode);
    s.first = BthHeader::IsFirst(opcode);
    s.ackRequest = fi.ackRequest;
    s.dmaLength = BthHeader::CarriesReth(opcode) ? fi.dmaLength : 0;
    s.op = fi.op;
    return s;
}

} // namespace ns3

#endif /* MCAST4AI_RC_RESPONDER_H */
