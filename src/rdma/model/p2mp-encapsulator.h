/*
 * What a P2MP requester queue pair needs of a multicast mechanism: the frames one RoCEv2
 * packet becomes when it leaves the NIC for a set of receivers. The RDMA layer knows only
 * this interface; BIER, the XPU-ID list and the new protocol's shim implement it above.
 */
#ifndef MCAST4AI_P2MP_ENCAPSULATOR_H
#define MCAST4AI_P2MP_ENCAPSULATOR_H

#include "ns3/mac48-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \brief Turns one packet of a P2MP message into the frames that leave the sending NIC.
 */
class P2mpEncapsulator : public Object
{
public:
    static TypeId GetTypeId();

    /// One message's receivers and, for mechanisms with installed groups, its group.
    struct Target
    {
        std::shared_ptr<const std::vector<uint32_t>> receivers; ///< host indices, ascending
        uint32_t groupId{0};
    };

    /**
     * Frames for one packet: `inner` is the UDP/IPv4-wrapped RoCEv2 packet. `first` marks the
     * message's first packet. Frames are appended to out; the last reuses `inner`.
     */
    virtual void Encapsulate(Ptr<Packet> inner,
                             const Target& target,
                             bool first,
                             Mac48Address srcMac,
                             std::vector<Ptr<Packet>>& out)
        = 0;
    /// Copies that leave the source for one packet of this target.
    virtual uint32_t CopiesFor(const Target& target) = 0;
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_ENCAPSULATOR_H */
