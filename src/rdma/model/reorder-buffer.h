/*
 * The receive bitmap of a reorder-tolerant RoCE responder: packets that arrive ahead of the
 * next expected PSN are placed (a WRITE carries where its bytes go) and remembered here until
 * the hole before them fills, so that completions and cumulative ACKs stay in PSN order.
 */
#ifndef MCAST4AI_REORDER_BUFFER_H
#define MCAST4AI_REORDER_BUFFER_H

#include "core/model/ring-queue.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The packets a tolerant responder holds beyond its next expected PSN.
 *
 * Slot i stands for PSN expected + i; slot 0 is always the hole (a packet at the expected PSN
 * is taken in order and never held). A responder allocates one only when a packet first
 * arrives ahead of a hole, so flows that see no reordering pay nothing for it.
 */
class ReorderBuffer
{
public:
    /// What a held packet contributes once the hole before it fills.
    struct Slot
    {
        Time arrival;        ///< when it arrived; for a missing PSN, when the hole was first seen
        uint32_t bytes{0};   ///< payload bytes
        bool present{false}; ///< a packet is held here
        bool last{false};    ///< it ends a message
        bool ackRequest{false};
        bool first{false};     ///< it starts a message
        uint32_t dmaLength{0}; ///< a WRITE's first packet: the message's bytes (RETH)
        uint32_t op{0};        ///< its operation tag (FrameInfo::op)
    };

    /// Loss-tolerant responders: the WRITE message being received, from its first packet's
    /// RETH, so that a hole inside it can be given up on with its exact bytes.
    struct Message
    {
        uint64_t firstPsn{0};
        uint32_t bytes{0}; ///< 0: none known (a SEND, or nothing received yet)
        uint32_t op{0};
    };

    /// The message the responder is inside of (valid while message.bytes > 0).
    Message message;

    /// Outcome of Hold().
    enum Result : uint8_t
    {
        HELD,      ///< placed; it waits for the hole
        DUPLICATE, ///< this PSN is held already: a spurious retransmission
        BEYOND     ///< past the window: dropped, as a NIC without bitmap space must
    };

    /**
     * Hold a packet that arrived `ahead` PSNs past the expected one (ahead >= 1); window is
     * the bitmap size in packets (slots 0 .. window - 1).
     */
    Result Hold(uint64_t ahead, uint32_t window, const Slot& packet);

    /**
     * The expected PSN arrived (and was taken in order by the caller): slot 0 goes. Returns
     * whether the new slot 0 holds a packet; if so it is copied to next and removed too, and
     * the caller takes it in order and calls Advance() again.
     */
    bool Advance(Slot& next);

    /// Packets held (0: no hole is open).
    uint32_t GetHeld() const
    {
        return m_held;
    }

    /// PSNs past the expected one the bitmap spans: one past the furthest packet held.
    std::size_t GetSpan() const
    {
        return m_slots.size();
    }

    /// When the first packet held behind the current hole arrived (valid while GetHeld() > 0).
    Time GetHoleSince() const
    {
        return m_holeSince;
    }

    /**
     * A hole past the first (slot i > 0, PSN expected + i) that was first seen before
     * olderThan and is not yet NAKed, or 0 if none: it is then NAKed. Scans at most maxScan
     * slots from where the last call stopped, so a call costs little however wide the
     * bitmap.
     */
    uint64_t NextHoleToNak(Time olderThan, uint32_t maxScan);

    /// When the responder last NAKed the current hole (a lost NAK or resend is NAKed again).
    Time lastNak;

private:
    RingQueue<Slot> m_slots;
    uint32_t m_held{0};
    Time m_holeSince;
    std::size_t m_nakFrontier{1}; // slots below it (past slot 0) are present or NAKed
};

} // namespace ns3

#endif /* MCAST4AI_REORDER_BUFFER_H */
