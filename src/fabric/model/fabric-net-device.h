/*
 * One Ethernet port of a NIC or a switch: serialises frames at line rate, honours and sends
 * IEEE 802.1Qbb priority flow control, and writes pcaps. What to send next is decided by the
 * owner (NIC scheduler or switch egress queues), which the port pulls from through
 * FabricPortOwner, so the port never holds more than the frame on the wire.
 */
#ifndef MCAST4AI_FABRIC_NET_DEVICE_H
#define MCAST4AI_FABRIC_NET_DEVICE_H

#include "core/model/fabric-simulator-impl.h"
#include "core/model/ring-queue.h"
#include "fabric/model/fabric-channel.h"
#include "fabric/model/fabric-port-owner.h"
#include "fabric/model/traffic-ledger.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/traced-callback.h"
#include "wire/model/fabric-frame.h"

#include <deque>
#include <vector>

namespace ns3
{

class CounterSet;
class FabricChannel;
class Node;

/**
 * \brief Full-duplex Ethernet port with PFC.
 */
class FabricNetDevice : public NetDevice
{
public:
    static TypeId GetTypeId();
    FabricNetDevice();
    ~FabricNetDevice() override;

    /// Signature of the PfcSent/PfcReceived traces: priority, pause quanta (0 = resume).
    typedef void (*PfcTracedCallback)(uint8_t priority, uint16_t quanta);

    void Attach(Ptr<FabricChannel> channel);
    /// The NIC or switch this port belongs to (it outlives the port; null detaches it).
    void SetOwner(FabricPortOwner* owner);

    /// Start transmitting if idle and the owner has an eligible frame.
    void TryTransmit();
    /// Called by the channel when the last bit of the frame has arrived (and rx latency elapsed).
    void Receive(FabricFrame frame);

    /// Send a PFC frame for one priority: quanta 0 resumes, otherwise pauses the peer.
    void SendPfc(uint8_t priority, uint16_t quanta);
    /// Mask of priorities the peer has paused on this port's transmitter at now (the time
    /// the caller has read).
    uint8_t GetPausedMask(Time now) const;

    void EnablePcap(const std::string& filename);

    DataRate GetDataRate() const;
    /// Set the line rate (also the DataRate attribute).
    void SetDataRate(DataRate rate);
    /// Wire bytes per frame beyond the packet (preamble, SFD, FCS, inter-frame gap).
    uint32_t GetFramingBytes() const;
    Time GetRxLatency() const;
    /// Set the receive latency (also the RxLatency attribute); the channel caches it.
    void SetRxLatency(Time latency);
    Ptr<FabricChannel> GetFabricChannel() const;
    /// Bytes its owner holds for this port to send (a switch's egress queues; 0 for a NIC).
    uint64_t GetQueuedBytes() const;
    bool IsBusy() const;
    /// Wire time of a frame of this size, including preamble, SFD, FCS and inter-frame gap.
    Time FrameTime(uint32_t frameBytes) const;
    /**
     * Where the frame this port sends next probably is (a slot of its owner's queue), and up
     * to two lines of the owner's state its next DequeueFrame reads first (the queue that
     * slot is in, its bookkeeping), for the port's transmit-complete event to start loading
     * one event ahead. Hints: the owner may still hand out another frame, or none.
     */
    void HintNextFrame(const void* slot, const void* state = nullptr, const void* queue = nullptr)
    {
        m_txComplete->nextFrame = slot;
        m_txComplete->ownerState = state;
        m_txComplete->ownerQueue = queue;
    }

    /// Start loading the fields a transmission or a reception reads first (a hint: see
    /// PrefetchingEvent).
    void Prefetch() const
    {
        const char* hot = reinterpret_cast<const char*>(&m_owner);
        const char* end = reinterpret_cast<const char*>(&m_rate);
        for (; hot < end; hot += 64)
        {
            __builtin_prefetch(hot);
        }
    }

    // Plain counters, read by the metrics at the end of a run.
    /// Report them to the run's summary (link bytes, hops, PFC, losses).
    void AddCounters(CounterSet& counters) const;
    uint64_t GetTxBytes() const;
    uint64_t GetTxFrames() const;
    /// Frames (and their bytes) that reached this port from its cable, lost ones included:
    /// the peer's transmissions less what is still on the cable (RunInvariants).
    uint64_t GetArrivedFrames() const;
    uint64_t GetArrivedBytes() const;
    /// The fabric's per-owner counters this port adds its frames to (none: not counted).
    void SetTrafficLedger(Ptr<TrafficLedger> ledger);
    Ptr<TrafficLedger> GetTrafficLedger() const;
    /// This port's link in the fabric's OpLedger (OpLedger::AddLink), for per-operation paths.
    void SetOpLink(uint32_t link);
    uint32_t GetOpLink() const;
    /**
     * How long the peer had kept priority paused on this port from the start of the run until
     * t (at most now): the time a queued frame of that class sat paused is the difference of
     * two readings. Past times are read from the last PAUSE_HISTORY pause periods of the
     * class; a reading before them counts none of the older ones.
     */
    Time GetPausedTime(uint8_t priority, Time t) const
    {
        if (!m_everPaused)
        {
            return Time(); // the common case, without reading the pause history
        }
        return PausedTimeFromHistory(priority, t);
    }

    /// Pause periods of a class kept for GetPausedTime (a period lasts as long as the peer
    /// renews the pause).
    static constexpr uint32_t PAUSE_HISTORY = 8;
    /// PFC pause frames (non-zero pause time) sent and received; resumes are not counted.
    uint64_t GetPfcSent() const;
    uint64_t GetPfcReceived() const;
    /// Frames this port lost on arrival to its link's random loss (LossRate).
    uint64_t GetLinkLosses() const;
    /**
     * Carrier lost (up = false) or back: the physical side of a link failure, called on both
     * ends by FabricChannel::SetLinkUp. While down, every frame reaching this port is lost; so
     * is every frame on the cable at either transition (cut in flight, or sent into a dead
     * link). Losing the carrier also ends any pause the peer had set: no resume can arrive.
     */
    void SetLinkUp(bool up, uint32_t framesOnCable);
    /// Frames this port lost on arrival because its link was down (SetLinkUp).
    uint64_t GetLinkDownLosses() const;
    Time GetBusyTime() const;
    /// Start of the first and end of the last transmission (for utilisation checks).
    Time GetFirstTxStart() const;
    Time GetLastTxEnd() const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

protected:
    void DoDispose() override;

private:
    /**
     * The port's transmit-complete event: one object, scheduled again for every frame sent
     * and never freed by running. Besides the port it knows the cable direction the port
     * sends into and the hinted next frame, so that Prefetch() asks for all three at once
     * instead of one after the other.
     */
    class TransmitDoneEvent : public PrefetchingEvent
    {
    public:
        explicit TransmitDoneEvent(FabricNetDevice* port)
            : device(port)
        {
        }

        void Prefetch() const override;

        FabricNetDevice* device;
        const FabricChannel::Direction* tx{nullptr};
        const void* nextFrame{nullptr};
        const void* ownerState{nullptr};
        const void* ownerQueue{nullptr};

    protected:
        void Notify() override;
    };

    void TransmitComplete();
    /// Schedule the reserved end of the frame on the wire (m_end) into its place.
    void ScheduleEnd(FabricSimulatorImpl* engine);
    void HandlePfc(Ptr<Packet> p);
    Time PausedTimeFromHistory(uint8_t priority, Time t) const;
    /// A pause of priority begins now, the class not being paused before.
    void StartPausePeriod(uint8_t priority, Time now);
    void PauseExpired(uint8_t priority);

    // What every transmission and reception reads comes first, in three cache lines: on a
    // large fabric thousands of ports take turns, and a port is cold each time.
    FabricPortOwner* m_owner{nullptr};
    Ptr<FabricChannel::Direction> m_tx; ///< the cable direction this port sends into
    Ptr<TransmitDoneEvent> m_txComplete;
    Ptr<PcapFileWrapper> m_pcap;
    Ptr<TrafficLedger> m_ledger;
    uint32_t m_ifIndex{0};
    uint32_t m_framingBytes;
    bool m_busy{false};
    bool m_everPaused{false};      // read with m_busy, in the same line, on every tagged frame
    bool m_endScheduled{false};    ///< m_busy's end is in the event set, not only m_end
    uint32_t m_opLink{UINT32_MAX}; // fits the padding after m_busy
    /// Where the end of the frame on the wire sits in the event order, when it is reserved
    /// rather than scheduled (nothing was queued behind the frame).
    FabricSimulatorImpl::Reservation m_end;
    double m_psPerByte{0};                  ///< wire time of a byte at m_rate
    Time m_pauseEnd;                        ///< the latest of m_pausedUntil: no pause after it
    RingQueue<FabricFrame> m_controlFrames; // PFC frames: never paused, sent first
    uint64_t m_txBytes{0};
    uint64_t m_txFrames{0};
    Time m_busyTime;
    Time m_firstTxStart{Time::Max()};
    Time m_lastTxEnd;
    TracedCallback<Ptr<const Packet>> m_txTrace;
    TracedCallback<Ptr<const Packet>> m_rxTrace;
    double m_lossRate{0};    // a frame arriving is lost with this probability (next to what
                             // Receive reads anyway)
    uint32_t m_lostAhead{0}; // frames on the cable that a link failure already doomed
    bool m_linkDown{false};
    DataRate m_rate;

    Ptr<FabricChannel> m_channel;
    Time m_pausedUntil[8];
    /// The last pause periods of one class: when each began and the paused time before it;
    /// the newest ends at m_pausedUntil, an older one where the next one's total says.
    struct PauseHistory
    {
        Time start[PAUSE_HISTORY];
        Time before[PAUSE_HISTORY];
        uint32_t count{0}; ///< periods so far; the newest is (count - 1) % PAUSE_HISTORY
    };

    std::vector<PauseHistory> m_pauseHistory; ///< per class, from the first pause on
    EventId m_pauseExpiry[8];
    Time m_rxLatency;
    uint16_t m_mtu;
    Ptr<Node> m_node;
    Mac48Address m_address;
    uint64_t m_pfcSent{0};
    uint64_t m_pfcReceived{0};
    uint64_t m_lossSeed{0}; // seeds the draws: the same scenario and seed lose the same frames
    uint64_t m_lossDraws{0};
    uint64_t m_linkLosses{0};
    uint64_t m_linkDownLosses{0};
    std::vector<Callback<void>> m_linkChangeCallbacks;
    uint64_t m_arrivedFrames{0};
    uint64_t m_arrivedBytes{0};
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_NET_DEVICE_H */
