/*
 * Full-duplex point-to-point link between two FabricNetDevices.
 */
#ifndef MCAST4AI_FABRIC_CHANNEL_H
#define MCAST4AI_FABRIC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

namespace ns3
{

class FabricNetDevice;

/**
 * \brief A cable: propagation delay only; serialisation is the transmitting device's job.
 */
class FabricChannel : public Channel
{
public:
    static TypeId GetTypeId();
    FabricChannel();

    /// Connect the two ends; a channel takes exactly two devices.
    void Attach(Ptr<FabricNetDevice> device);

    /**
     * Start sending p from src; the peer receives the last bit after txTime + delay
     * (store-and-forward), plus the peer's own receive-processing latency.
     */
    void Transmit(Ptr<FabricNetDevice> src, Ptr<Packet> p, Time txTime) const;

    Time GetDelay() const;
    Ptr<FabricNetDevice> GetPeer(Ptr<const FabricNetDevice> self) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

private:
    Time m_delay;
    Ptr<FabricNetDevice> m_devices[2];
    std::size_t m_nDevices{0};
    uint32_t m_lanes[2]; ///< scheduler lane of the frames arriving at each device
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_CHANNEL_H */
