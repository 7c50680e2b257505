/*
 * A frame as the fabric moves it: the packet and the header fields read from it.
 */
#ifndef MCAST4AI_FABRIC_FRAME_H
#define MCAST4AI_FABRIC_FRAME_H

#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "wire/model/ecn-rewrite.h"
#include "wire/model/frame-builder.h"
#include "wire/model/frame-info.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief A packet and its parsed header fields, carried together from port to port.
 *
 * A frame is parsed once, where it is built, and its fields travel with it through cables
 * and queues. Forwarding then never reads a packet that has gone cold in a queue (on a
 * 1,024-host fabric millions of them wait at once); only code that changes the bytes
 * (replication, ECN marking) or writes them out (pcap, traces) touches the packet, and it
 * keeps the fields in step.
 *
 * The frame owns one reference to its packet and moves it without touching the packet:
 * ns-3's Ptr has no move constructor, so a Ptr "moved" from queue to queue increments and
 * decrements the count inside the packet at every step, a cache miss per hop.
 *
 * A frame made by a FrameBuilder has no packet until something asks for its bytes.
 */
class FabricFrame
{
public:
    FabricFrame() = default;
    /// A frame of packet p whose fields are info.
    FabricFrame(Ptr<Packet> p, const FrameInfo& fields)
        : info(fields)
    {
        Hold(PeekPointer(p));
    }

    /// A frame from a packet just built (its bytes are still in cache), parsed here.
    static FabricFrame From(Ptr<Packet> p)
    {
        FrameInfo fields;
        if (p)
        {
            fields.Parse(p);
        }
        return FabricFrame(p, fields);
    }

    /// A frame without bytes yet: builder writes them from fields if anything reads them.
    static FabricFrame Deferred(const FrameBuilder* builder, const FrameInfo& fields)
    {
        FabricFrame f;
        f.info = fields;
        f.m_ref = reinterpret_cast<uintptr_t>(builder) | DEFERRED;
        return f;
    }

    FabricFrame(FabricFrame&& o) noexcept
        : info(o.info),
          m_ref(o.m_ref)
    {
        o.m_ref = 0;
    }

    FabricFrame& operator=(FabricFrame&& o) noexcept
    {
        if (this != &o)
        {
            Release();
            info = o.info;
            m_ref = o.m_ref;
            o.m_ref = 0;
        }
        return *this;
    }

    /// Copies share the packet, or the builder (a delayed event may hold a frame).
    FabricFrame(const FabricFrame& o)
        : info(o.info)
    {
        if (o.m_ref & DEFERRED)
        {
            m_ref = o.m_ref;
        }
        else
        {
            Hold(o.PacketPointer());
            m_ref |= o.m_ref & CE_PENDING;
        }
    }

    FabricFrame& operator=(const FabricFrame& o)
    {
        if (this != &o)
        {
            *this = FabricFrame(o);
        }
        return *this;
    }

    ~FabricFrame()
    {
        Release();
    }

    /**
     * The packet (this reads it: for code that changes or writes out the bytes). A deferred
     * frame has its bytes built here, once; the frame keeps them from then on.
     */
    Ptr<Packet> GetPacket()
    {
        if (m_ref & DEFERRED)
        {
            // Built from the fields, a pending CE mark included.
            const auto* builder = reinterpret_cast<const FrameBuilder*>(m_ref & ~TAGS);
            m_ref = 0;
            Hold(PeekPointer(builder->BuildFrame(info)));
        }
        else if (m_ref & CE_PENDING)
        {
            ApplyCe();
        }
        return Ptr<Packet>(PacketPointer());
    }

    /**
     * The packet, for code that changes its bytes in place: a packet other frames share
     * (the copies of a replicated frame) is copied first, so that they keep theirs.
     */
    Ptr<Packet> GetWritablePacket()
    {
        GetPacket();
        Unshare();
        return Ptr<Packet>(PacketPointer());
    }

    /**
     * Mark the frame CE. The fields say so at once; the bytes are rewritten only when
     * something reads them (GetPacket): on a congested fabric most marked frames are never
     * read, and rewriting a replicated frame's shared bytes would copy them.
     */
    void MarkCe()
    {
        info.ecn = Ipv4Header::ECN_CE;
        if (m_ref && !(m_ref & DEFERRED))
        {
            m_ref |= CE_PENDING;
        }
    }

    /// Whether there is a frame (a dequeue with nothing eligible returns none).
    bool IsEmpty() const
    {
        return m_ref == 0;
    }

    /// Whether the frame's bytes exist yet (false for a deferred frame until GetPacket).
    bool HasBytes() const
    {
        return m_ref != 0 && !(m_ref & DEFERRED);
    }

    /// Whether a CE mark is in the fields but not yet in the bytes.
    bool HasPendingCe() const
    {
        return m_ref & CE_PENDING;
    }

    /// A deferred frame's builder; nullptr for a frame with bytes.
    const FrameBuilder* GetBuilder() const
    {
        return m_ref & DEFERRED ? reinterpret_cast<const FrameBuilder*>(m_ref & ~TAGS) : nullptr;
    }

    /// The bytes as they are, without a pending CE mark (HasPendingCe); nullptr for a deferred
    /// frame. For code that copies them elsewhere and marks the copy (RemoteFrameRecord).
    Ptr<const Packet> PeekBytes() const
    {
        return HasBytes() ? Ptr<const Packet>(PacketPointer()) : nullptr;
    }

    FrameInfo info; ///< the fields of the packet, as FrameInfo::Parse reads them

private:
    /// Tag of m_ref when it holds a FrameBuilder rather than a Packet (both are aligned).
    static constexpr uintptr_t DEFERRED = 1;
    /// Tag of a packet whose bytes still lack the CE mark its fields have.
    static constexpr uintptr_t CE_PENDING = 2;
    static constexpr uintptr_t TAGS = DEFERRED | CE_PENDING;

    Packet* PacketPointer() const
    {
        return reinterpret_cast<Packet*>(m_ref & ~TAGS);
    }

    /// Hold a packet of this frame's own: a copy if other frames share it (they keep theirs).
    /// Clears CE_PENDING: the caller writes the bytes next.
    void Unshare()
    {
        Packet* p = PacketPointer();
        if (p && p->GetReferenceCount() > 1)
        {
            Ptr<Packet> own = p->Copy();
            Release();
            Hold(PeekPointer(own));
        }
        m_ref &= ~CE_PENDING;
    }

    /// Write the pending CE mark into bytes of this frame's own.
    void ApplyCe()
    {
        Unshare();
        RewriteCe(Ptr<Packet>(PacketPointer()), info.p2mp);
    }

    void Hold(Packet* p)
    {
        m_ref = reinterpret_cast<uintptr_t>(p);
        if (p)
        {
            p->Ref();
        }
    }

    void Release()
    {
        if (m_ref && !(m_ref & DEFERRED))
        {
            PacketPointer()->Unref();
        }
        m_ref = 0;
    }

    /// A Packet* holding one reference (| CE_PENDING), or a FrameBuilder* | DEFERRED.
    uintptr_t m_ref{0};
};

// Queues hold millions of frames on a large fabric: a frame and its fields are one cache line.
static_assert(sizeof(FabricFrame) == 64, "a FabricFrame should fill one cache line");

} // namespace ns3

#endif /* MCAST4AI_FABRIC_FRAME_H */
