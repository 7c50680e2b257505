/*
 * Full-duplex point-to-point link between two FabricNetDevices.
 */
#ifndef MCAST4AI_FABRIC_CHANNEL_H
#define MCAST4AI_FABRIC_CHANNEL_H

#include "fabric/model/fabric-frame.h"
#include "fabric/model/quad-heap-scheduler.h"
#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"

#include <deque>

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
     * Start sending a frame from src; the peer receives the last bit after txTime + delay
     * (store-and-forward), plus the peer's own receive-processing latency.
     */
    void Transmit(const FabricNetDevice* src, FabricFrame frame, Time txTime);

    /// Re-read the devices' node and receive latency, which arrivals use from the cache.
    void DeviceChanged();

    Time GetDelay() const;
    /// Set the propagation delay (also the Delay attribute); not while frames are in flight.
    void SetDelay(Time delay);
    Ptr<FabricNetDevice> GetPeer(Ptr<const FabricNetDevice> self) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

protected:
    void DoDispose() override;

private:
    /// The next frame in flight towards device `to` has arrived.
    void Deliver(std::size_t to);

    Time m_delay;
    Ptr<FabricNetDevice> m_devices[2];
    std::size_t m_nDevices{0};
    // Per direction, indexed by the receiving device:
    uint32_t m_lanes[2]{QuadHeapScheduler::NO_LANE, QuadHeapScheduler::NO_LANE}; ///< of arrivals
    std::deque<FabricFrame> m_inFlight[2]; ///< frames on the wire, oldest first
    Ptr<EventImpl> m_arrival[2];           ///< one event object for every arrival
    uint32_t m_context[2]{0, 0};           ///< the receiver's node id
    Time m_rxLatency[2];                   ///< the receiver's RxLatency
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_CHANNEL_H */
