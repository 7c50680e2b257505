/*
 * What a port asks of the NIC or switch it belongs to.
 */
#ifndef MCAST4AI_FABRIC_PORT_OWNER_H
#define MCAST4AI_FABRIC_PORT_OWNER_H

#include "ns3/nstime.h"
#include "wire/model/fabric-frame.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The NIC or switch behind a FabricNetDevice: it queues what the port sends and takes
 * what the port receives.
 *
 * A port calls its owner twice per frame. A plain virtual call reaches the owner in one
 * step; an ns-3 Callback goes through its implementation object, a std::function and the
 * function object that holds the bound arguments, each a pointer to chase, and on a
 * 1,024-host fabric the thousands of ports do not keep those objects in cache.
 */
class FabricPortOwner
{
public:
    virtual ~FabricPortOwner() = default;

    /**
     * The next frame port may send, taken off the owner's queues.
     * \param port the port's index in its owner (its ifIndex)
     * \param pausedMask the priorities the peer has paused
     * \param now Simulator::Now(), which the port has read already
     * \return the frame; a null packet if nothing is eligible
     */
    virtual FabricFrame DequeueFrame(uint32_t port, uint8_t pausedMask, Time now) = 0;

    /**
     * Whether DequeueFrame(port, ...) may give a frame before the owner next calls the port's
     * TryTransmit: false only if every frame it will give port later is announced by such a
     * call. Asked after each frame port takes; false lets the port leave out the event at the
     * end of that frame (FabricSimulatorImpl::Reserve). True, always asking, by default.
     */
    virtual bool MayDequeue(uint32_t port) const
    {
        return true;
    }
    /// A frame (not PFC) arrived on port; the owner may move it away.
    virtual void ReceiveFrame(uint32_t port, FabricFrame& frame) = 0;
    /// Bytes waiting to leave port, for what a workload may observe of the fabric (a
    /// switch's egress queues). 0 by default: a NIC's backlog is its queue pairs'.
    virtual uint64_t GetQueuedBytes(uint32_t port) const
    {
        return 0;
    }
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_PORT_OWNER_H */
