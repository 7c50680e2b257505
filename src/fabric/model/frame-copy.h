/*
 * One copy of a replicated frame and the port it leaves by.
 */
#ifndef MCAST4AI_FRAME_COPY_H
#define MCAST4AI_FRAME_COPY_H

#include "wire/model/fabric-frame.h"

#include <cstdint>

namespace ns3
{

/// A replica of a frame, with its own fields, for one egress port.
struct FrameCopy
{
    uint32_t port;
    FabricFrame frame;
};

} // namespace ns3

#endif /* MCAST4AI_FRAME_COPY_H */
