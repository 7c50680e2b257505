/*
 * A frame as the fabric moves it: the packet and the header fields read from it.
 */
#ifndef MCAST4AI_FABRIC_FRAME_H
#define MCAST4AI_FABRIC_FRAME_H

#include "ns3/packet.h"
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
            Hold(reinterpret_cast<Packet*>(o.m_ref));
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
            const auto* builder = reinterpret_cast<const FrameBuilder*>(m_ref & ~DEFERRED);
            m_ref = 0;
            Hold(PeekPointer(builder->BuildFrame(info)));
        }
        return Ptr<Packet>(reinterpret_cast<Packet*>(m_ref));
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

    FrameInfo info; ///< the fields of the packet, as FrameInfo::Parse reads them

private:
    /// Tag of m_ref when it holds a FrameBuilder rather than a Packet (both are aligned).
    static constexpr uintptr_t DEFERRED = 1;

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
            reinterpret_cast<Packet*>(m_ref)->Unref();
        }
        m_ref = 0;
    }

    uintptr_t m_ref{0}; ///< a Packet* holding one reference, or a FrameBuilder* | DEFERRED
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_FRAME_H */
