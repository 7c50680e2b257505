/*
 * Bytes on demand for frames that their fields describe completely.
 */
#ifndef MCAST4AI_FRAME_BUILDER_H
#define MCAST4AI_FRAME_BUILDER_H

#include "ns3/packet.h"
#include "wire/model/frame-info.h"

namespace ns3
{

/**
 * \brief Writes the bytes of a frame from its fields, when something reads them.
 *
 * Forwarding and the NICs decide on a frame's FrameInfo alone. An ACK is nothing but those
 * fields and its source MAC, and a 1,024-host broadcast makes eight million of them; most
 * wait for ms in PFC-paused queues. Built eagerly, each one costs a packet, a buffer, a
 * header serialisation and a free, and gigabytes of memory at once. A frame made by a
 * FrameBuilder (FabricFrame::Deferred) carries only its fields; pcap, traces and the drop
 * filter get real bytes through FabricFrame::GetPacket, which calls BuildFrame once.
 */
class FrameBuilder
{
public:
    virtual ~FrameBuilder() = default;

    /**
     * \param info the frame's fields
     * \return a packet that FrameInfo::Parse reads back as exactly info
     */
    virtual Ptr<Packet> BuildFrame(const FrameInfo& info) const = 0;
};

} // namespace ns3

#endif /* MCAST4AI_FRAME_BUILDER_H */
