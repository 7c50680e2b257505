/*
 * The receive path of a NIC as a server of finite packet rate: every frame the port delivers
 * (data, ACK, NAK, CNP, probe) holds the pipeline for 1 / PacketRate, and frames that find it
 * busy wait in the NIC's receive buffer in arrival order. A full buffer pauses the link peer
 * with PFC, as a lossless ConnectX receive buffer does. Without it (the NIC's default) a
 * frame costs the NIC nothing, and an ACK implosion cannot load the sender's NIC.
 */
#ifndef MCAST4AI_NIC_RECEIVE_PIPELINE_H
#define MCAST4AI_NIC_RECEIVE_PIPELINE_H

#include "core/model/ring-queue.h"
#include "fabric/model/fabric-net-device.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "wire/model/fabric-frame.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \brief A NIC's receive path: packets per second, a buffer, and PFC when it fills.
 *
 * A frame that arrives while the pipeline is idle is handed on at once; otherwise it waits
 * until every frame ahead of it has had its 1 / PacketRate. With PauseThreshold set, the
 * buffer pausing works as the mlx5 driver sets it up: XOFF when the bytes waiting reach the
 * threshold, XON when they fall to the threshold less one MTU-sized frame. Each class of the
 * waiting frames is paused, and the pause is refreshed while the buffer stays above XON. The
 * frames in flight after XOFF still enter (the headroom is not bounded).
 */
class NicReceivePipeline : public Object
{
public:
    static TypeId GetTypeId();
    NicReceivePipeline();

    /// Where a frame goes when its turn comes (the NIC's demultiplexer).
    typedef Callback<void, uint32_t, FabricFrame&> DeliverCallback;

    /// The port it serves (whose peer it pauses) and where frames go.
    void Setup(Ptr<FabricNetDevice> device, DeliverCallback deliver);
    /// A frame arrived on port: handed on now, or queued behind the frames waiting.
    void Receive(uint32_t port, FabricFrame& frame);

    /// Frames handed on, and those of them that had to wait.
    uint64_t GetPackets() const;
    uint64_t GetDelayedPackets() const;
    /// The largest backlog seen, in frames and bytes.
    uint32_t GetMaxBacklogPackets() const;
    uint64_t GetMaxBacklogBytes() const;
    /// The longest and the total wait of a frame in the buffer.
    Time GetMaxWait() const;
    Time GetTotalWait() const;
    /// XOFF events (a refresh of a pause already on is not counted).
    uint64_t GetPauses() const;
    /// The rate in packets per second.
    double GetPacketRate() const;

protected:
    void DoDispose() override;

private:
    struct Waiting
    {
        FabricFrame frame;
        uint32_t port;
        Time arrived;
    };

    /// Hand on the frame at the head of the buffer and schedule the next.
    void Serve();
    void Deliver(uint32_t port, FabricFrame& frame, Time now);
    void Pause();
    /// A PFC frame with these quanta for each paused class.
    void SendPfc(uint16_t quanta);
    void RefreshPause();
    void MaybeResume();

    double m_packetRate;
    uint32_t m_pauseThreshold;
    uint32_t m_resumeGap;
    uint16_t m_pauseQuanta;

    Ptr<FabricNetDevice> m_device;
    DeliverCallback m_deliver;
    Time m_interval;
    Time m_nextFree;
    RingQueue<Waiting> m_waiting;
    uint64_t m_waitingBytes{0};
    EventId m_serve;
    uint8_t m_waitingClasses{0}; // classes of the frames waiting since the last XON
    uint8_t m_pausedClasses{0};
    EventId m_refresh;

    uint64_t m_packets{0};
    uint64_t m_delayed{0};
    uint32_t m_maxBacklogPackets{0};
    uint64_t m_maxBacklogBytes{0};
    Time m_maxWait;
    Time m_totalWait;
    uint64_t m_pauses{0};

    TracedCallback<uint32_t> m_backlogTrace; // frames waiting, at each change
};

} // namespace ns3

#endif /* MCAST4AI_NIC_RECEIVE_PIPELINE_H */
