/*
 * A frame as the fabric moves it: the packet and the header fields read from it.
 */
#ifndef MCAST4AI_FABRIC_FRAME_H
#define MCAST4AI_FABRIC_FRAME_H

#include "fabric/model/frame-info.h"
#include "ns3/packet.h"

#include <utility>

namespace ns3
{

/**
 * \brief A packet and its parsed header fields, carried together from port to port.
 *
 * A frame is parsed once, where it is built, and its fields travel with it through cables
 * and queues. Forwarding then never reads a packet that has gone cold in a queue (on a
 * 1,024-host fabric millions of them wait at once); only code that changes the bytes
 * (replication, ECN marking) or writes them out (pcap, traces) touches the packet, and it
 * keeps the fields in step. The packet is moved, never copied, so that its reference count
 * is not touched either.
 */
struct FabricFrame
{
    Ptr<Packet> packet; ///< null: no frame
    FrameInfo info;     ///< the fields of packet, as Parse reads them

    /// A frame from a packet just built (its bytes are still in cache).
    static FabricFrame From(Ptr<Packet> p)
    {
        FabricFrame f;
        if (p)
        {
            f.info.Parse(p);
            f.packet = std::move(p);
        }
        return f;
    }
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_FRAME_H */
