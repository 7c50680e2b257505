/*
 * Full-duplex point-to-point link between two FabricNetDevices.
 */
#ifndef MCAST4AI_FABRIC_CHANNEL_H
#define MCAST4AI_FABRIC_CHANNEL_H

#include "core/model/prefetching-event.h"
#include "core/model/quad-heap-scheduler.h"
#include "core/model/ring-queue.h"
#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "wire/model/fabric-frame.h"

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
    virtual void Attach(Ptr<FabricNetDevice> device);

    /**
     * One direction of the cable: the frames on the wire towards one device, and the event
     * that delivers them. A cable delivers in the order it sends, so one FIFO and one event
     * object serve every frame in flight, and the arrivals form one sorted scheduler lane.
     * Everything an arrival or a transmission reads is in this object's first cache line.
     * The sending port keeps a reference to its direction and transmits into it directly.
     */
    class alignas(64) Direction : public PrefetchingEvent
    {
    public:
        /// The frame that arrives next and the receiving port's fields.
        void Prefetch() const override;
        /// The cable's delay plus the receiver's RxLatency changed (set up, not in flight).
        virtual void SetLatency(Time t);

        FabricNetDevice* receiver{nullptr}; ///< the channel holds the reference
        Time latency;                       ///< delay + the receiver's RxLatency
        uint32_t context{0};                ///< the receiver's node id
        uint32_t lane{QuadHeapScheduler::NO_LANE};
        RingQueue<FabricFrame> inFlight; ///< frames on the wire, oldest first

    protected:
        void Notify() override;
    };

    /// The direction src transmits into (src must be attached).
    Ptr<Direction> GetTransmitDirection(const FabricNetDevice* src) const;

    /**
     * Start sending a frame into d; the far end receives the last bit after txTime + delay
     * (store-and-forward), plus that device's own receive-processing latency.
     */
    static void Transmit(Direction& d, FabricFrame frame, Time txTime);

    /// Re-read the devices' node and receive latency, which arrivals use from the cache.
    void DeviceChanged();

    /**
     * Fail (up = false) or restore the cable, both directions at once: frames on it are lost,
     * and so is everything sent while it is down (FabricNetDevice::SetLinkUp). The ports keep
     * serialising what their owners give them, as a port does until it is told otherwise.
     */
    void SetLinkUp(bool up);
    bool IsLinkUp() const;

    Time GetDelay() const;
    /// Set the propagation delay (also the Delay attribute); not while frames are in flight.
    void SetDelay(Time delay);
    Ptr<FabricNetDevice> GetPeer(Ptr<const FabricNetDevice> self) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

protected:
    void DoDispose() override;
    /// Put d in place of the direction towards device `to` (before anything is attached).
    void SetDirection(std::size_t to, Ptr<Direction> d);

private:
    /// Give both directions the cable's delay plus their receiver's RxLatency.
    void UpdateLatencies();

    Ptr<Direction> m_towards[2]; ///< indexed by the receiving device
    Ptr<FabricNetDevice> m_devices[2];
    std::size_t m_nDevices{0};
    Time m_delay;
    Time m_rxLatency[2]; ///< the devices' RxLatency, as cached
    bool m_up{true};
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_CHANNEL_H */
