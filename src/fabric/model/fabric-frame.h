/*
 * A frame as the fabric moves it: the packet and the header fields read from it.
 */
#ifndef MCAST4AI_FABRIC_FRAME_H
#define MCAST4AI_FABRIC_FRAME_H

#include "fabric/model/frame-info.h"
#include "ns3/packet.h"

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
 */
class FabricFrame
{
public:
    FabricFrame() = default;
    /// A frame of packet p whose fields are info.
    FabricFrame(Ptr<Packet> p, const FrameInfo& fields)
        : info(fields),
          m_packet(PeekPointer(p))
    {
        if (m_packet)
        {
            m_packet->Ref();
        }
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

    FabricFrame(FabricFrame&& o) noexcept
        : info(o.info),
          m_packet(o.m_packet)
    {
        o.m_packet = nullptr;
    }

    FabricFrame& operator=(FabricFrame&& o) noexcept
    {
        if (this != &o)
        {
            Release();
            info = o.info;
            m_packet = o.m_packet;
            o.m_packet = nullptr;
        }
        return *this;
    }

    /// Copies share the packet (a delayed event may hold a frame).
    FabricFrame(const FabricFrame& o)
        : FabricFrame(Ptr<Packet>(o.m_packet), o.info)
    {
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

    /// The packet (this reads it: for code that changes or writes out the bytes).
    Ptr<Packet> GetPacket() const
    {
        return Ptr<Packet>(m_packet);
    }

    /// Whether there is a frame (a dequeue with nothing eligible returns none).
    bool IsEmpty() const
    {
        return m_packet == nullptr;
    }

    FrameInfo info; ///< the fields of the packet, as FrameInfo::Parse reads them

private:
    void Release()
    {
        if (m_packet)
        {
            m_packet->Unref();
            m_packet = nullptr;
        }
    }

    Packet* m_packet{nullptr};
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_FRAME_H */
