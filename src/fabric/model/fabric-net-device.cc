#include "fabric/model/fabric-net-device.h"

#include "core/model/counter-set.h"
#include "core/model/mix64.h"
#include "fabric/model/fabric-channel.h"
#include "ns3/double.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"
#include "wire/model/pfc-header.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricNetDevice");
NS_OBJECT_ENSURE_REGISTERED(FabricNetDevice);

namespace
{
/// pcap link type of Ethernet frames (IANA LINKTYPE_ETHERNET, libpcap's DLT_EN10MB); ns-3 names
/// it differently from release to release.
constexpr uint32_t LINKTYPE_ETHERNET = 1;
} // namespace

TypeId
FabricNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FabricNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<FabricNetDevice>()
              .AddAttribute("DataRate",
                            "Line rate of the port",
                            DataRateValue(DataRate("100Gbps")),
                            MakeDataRateAccessor(&FabricNetDevice::SetDataRate,
                                                 &FabricNetDevice::GetDataRate),
                            MakeDataRateChecker())
              .AddAttribute("FramingBytes",
                            "Per-frame wire overhead not stored in the packet: preamble and SFD "
                            "(8), FCS (4) and the minimum inter-frame gap (12)",
                            UintegerValue(24),
                            MakeUintegerAccessor(&FabricNetDevice::m_framingBytes),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute(
                  "RxLatency",
                  "Processing latency between the last bit arriving and the frame "
                  "being handed to the owner (a switch's pipeline latency)",
                  TimeValue(Seconds(0)),
                  MakeTimeAccessor(&FabricNetDevice::SetRxLatency, &FabricNetDevice::GetRxLatency),
                  MakeTimeChecker(Seconds(0)))
              .AddAttribute("Mtu",
                            "Largest frame payload accepted (Ethernet MTU)",
                            UintegerValue(9000),
                            MakeUintegerAccessor(&FabricNetDevice::m_mtu),
                            MakeUintegerChecker<uint16_t>())
              .AddAttribute("LossRate",
                            "Probability that a frame arriving on this port is lost (bit errors "
                            "on its link: the frame fails its FCS and is dropped), each frame "
                            "independently",
                            DoubleValue(0),
                            MakeDoubleAccessor(&FabricNetDevice::m_lossRate),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("LossSeed",
                            "Seeds the port's loss draws (a counter hashed with it)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&FabricNetDevice::m_lossSeed),
                            MakeUintegerChecker<uint64_t>())
              .AddTraceSource("PhyRxDrop",
                              "A frame was lost on arrival to the link's random loss",
                              MakeTraceSourceAccessor(&FabricNetDevice::m_phyRxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Tx",
                              "A frame starts serialisation",
                              MakeTraceSourceAccessor(&FabricNetDevice::m_txTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Rx",
                              "A frame has been received",
                              MakeTraceSourceAccessor(&FabricNetDevice::m_rxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PfcSent",
                              "A PFC frame was sent (priority, pause quanta; 0 = resume)",
                              MakeTraceSourceAccessor(&FabricNetDevice::m_pfcTxTrace),
                              "ns3::FabricNetDevice::PfcTracedCallback")
              .AddTraceSource("PfcReceived",
                              "A PFC frame was received (priority, pause quanta; 0 = resume)",
                              MakeTraceSourceAccessor(&FabricNetDevice::m_pfcRxTrace),
                              "ns3::FabricNetDevice::PfcTracedCallback");
    return tid;
}

FabricNetDevice::FabricNetDevice()
{
    NS_LOG_FUNCTION(this);
    // Not Simulator::Schedule(MakeEvent(...)): that allocates an event per frame and hop.
    m_txComplete = Ptr<TransmitDoneEvent>(new TransmitDoneEvent(this), false);
}

FabricNetDevice::~FabricNetDevice()
{
    if (m_pcap)
    {
        m_pcap->Close();
    }
}

void
FabricNetDevice::DoDispose()
{
    for (auto& e : m_pauseExpiry)
    {
        e.Cancel();
    }
    m_controlFrames.clear();
    m_tx = nullptr;
    m_txComplete->tx = nullptr;
    m_channel = nullptr;
    m_node = nullptr;
    m_txComplete->Cancel(); // a device disposed mid-run must not be called back
    // Nor prefetched: the scheduler may still hint at the event while it drains the queue.
    m_txComplete->device = nullptr;
    m_txComplete->nextFrame = nullptr;
    m_txComplete = nullptr;
    m_owner = nullptr;
    NetDevice::DoDispose();
}

void
FabricNetDevice::Attach(Ptr<FabricChannel> channel)
{
    m_channel = channel;
    channel->Attach(this);
    m_tx = channel->GetTransmitDirection(this);
    m_txComplete->tx = PeekPointer(m_tx);
}

void
FabricNetDevice::SetOwner(FabricPortOwner* owner)
{
    m_owner = owner;
}

void
FabricNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
    // DataRate divides in 128-bit fixed point on every call; one division per rate suffices.
    m_psPerByte = 8e12 / static_cast<double>(rate.GetBitRate());
}

Time
FabricNetDevice::FrameTime(uint32_t frameBytes) const
{
    return PicoSeconds(std::llround((frameBytes + m_framingBytes) * m_psPerByte));
}

void
FabricNetDevice::TryTransmit()
{
    if (m_busy)
    {
        if (m_endScheduled)
        {
            return;
        }
        // The frame's end was reserved, not scheduled: schedule it now that something may
        // follow, or, if it has passed, carry on as the end would have (it found nothing).
        FabricSimulatorImpl* engine = FabricSimulatorImpl::Reserving();
        if (!engine)
        {
            return; // its engine was destroyed, as a scheduled end would have been with it
        }
        if (engine->IsAhead(m_end))
        {
            ScheduleEnd(engine);
            return;
        }
        m_busy = false;
    }
    Time now = Simulator::Now();
    FabricFrame frame;
    if (!m_controlFrames.empty())
    {
        frame = std::move(m_controlFrames.front());
        m_controlFrames.pop_front();
    }
    else if (m_owner)
    {
        frame = m_owner->DequeueFrame(m_ifIndex, GetPausedMask(now), now);
    }
    if (frame.IsEmpty())
    {
        return;
    }
    m_busy = true;
    uint32_t bytes = frame.info.size;
    Time txTime = FrameTime(bytes);
    if (m_firstTxStart == Time::Max())
    {
        m_firstTxStart = now;
    }
    m_txBytes += bytes;
    ++m_txFrames;
    if (m_ledger)
    {
        m_ledger->LinkSent(frame.info, m_opLink);
    }
    m_busyTime += txTime;
    m_lastTxEnd = now + txTime;
    if (!m_txTrace.IsEmpty())
    {
        m_txTrace(frame.GetPacket()); // only when traced: the Ptr<const Packet> touches the packet
    }
    if (m_pcap)
    {
        m_pcap->Write(now, frame.GetPacket());
    }
    FabricChannel::Transmit(*m_tx, std::move(frame), txTime);
    FabricSimulatorImpl* engine = FabricSimulatorImpl::Reserving();
    if (engine && m_controlFrames.empty() && m_owner && !m_owner->MayDequeue(m_ifIndex))
    {
        // Nothing behind this frame: its end would find nothing to send unless something
        // comes first, and what comes calls TryTransmit. Hold its place instead; an engine
        // event per hop fewer on an uncongested path.
        m_end = engine->Reserve(Simulator::GetContext(), txTime);
        m_endScheduled = false;
        return;
    }
    // As Simulator::Schedule, without building an EventId nobody keeps.
    m_endScheduled = true;
    m_txComplete->Ref();
    QuadHeapScheduler::SetNextPrefetching();
    Simulator::ScheduleWithContext(Simulator::GetContext(), txTime, PeekPointer(m_txComplete));
}

void
FabricNetDevice::ScheduleEnd(FabricSimulatorImpl* engine)
{
    NS_LOG_LOGIC("port " << m_ifIndex << ": the reserved end of its frame is scheduled");
    m_endScheduled = true;
    m_txComplete->Ref();
    QuadHeapScheduler::SetNextPrefetching();
    engine->ScheduleReserved(m_end, PeekPointer(m_txComplete));
}

void
FabricNetDevice::TransmitDoneEvent::Notify()
{
    device->TransmitComplete();
}

void
FabricNetDevice::TransmitDoneEvent::Prefetch() const
{
    if (!device)
    {
        return; // its device was disposed (DoDispose)
    }
    device->Prefetch();
    __builtin_prefetch(tx);
    if (nextFrame)
    {
        // A frame slot may span two lines (a switch queue's is 72 bytes): ask for both.
        __builtin_prefetch(nextFrame);
        __builtin_prefetch(static_cast<const char*>(nextFrame) + 64);
    }
    __builtin_prefetch(ownerState);
    __builtin_prefetch(ownerQueue);
}

void
FabricNetDevice::TransmitComplete()
{
    m_busy = false;
    m_endScheduled = false;
    TryTransmit();
}

void
FabricNetDevice::Receive(FabricFrame frame)
{
    ++m_arrivedFrames;
    m_arrivedBytes += frame.info.size;
    if (m_lostAhead > 0 || m_linkDown)
    {
        m_lostAhead -= m_lostAhead > 0;
        ++m_linkDownLosses;
        m_phyRxDropTrace(frame.GetPacket());
        NS_LOG_LOGIC("port " << m_ifIndex << ": frame lost, link down");
        return;
    }
    if (m_lossRate > 0 && UnitInterval(Mix64(m_lossSeed ^ Mix64(++m_lossDraws))) < m_lossRate)
    {
        // Corrupted on the wire: the MAC drops it before anyone (pcap included) sees it.
        ++m_linkLosses;
        m_phyRxDropTrace(frame.GetPacket());
        NS_LOG_LOGIC("port " << m_ifIndex << ": frame lost on the link");
        return;
    }
    if (m_pcap)
    {
        m_pcap->Write(Simulator::Now(), frame.GetPacket());
    }
    if (!m_rxTrace.IsEmpty())
    {
        m_rxTrace(frame.GetPacket());
    }
#ifdef NS3_ASSERT_ENABLE
    {
        // The fields carried from where the frame was built (and kept in step by whatever
        // rewrote it) must be what the bytes say.
        FrameInfo fresh;
        fresh.Parse(frame.GetPacket());
        NS_ASSERT_MSG(fresh == frame.info,
                      "FabricNetDevice: a frame's fields differ from its bytes");
    }
#endif
    if (frame.info.etherType == FrameInfo::ETHERTYPE_MAC_CONTROL)
    {
        HandlePfc(frame.GetPacket());
        return;
    }
    if (m_owner)
    {
        m_owner->ReceiveFrame(m_ifIndex, frame);
    }
}

void
FabricNetDevice::SendPfc(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +priority << quanta);
    Ptr<Packet> p = Create<Packet>();
    PfcHeader pfc;
    pfc.SetClassEnableVector(static_cast<uint16_t>(1u << priority));
    pfc.SetPauseTime(priority, quanta);
    p->AddHeader(pfc);
    EthernetHeader eth(false);
    eth.SetSource(m_address);
    eth.SetDestination(PfcHeader::DestinationAddress());
    eth.SetLengthType(PfcHeader::ETHERTYPE);
    p->AddHeader(eth);
    m_controlFrames.push_back(FabricFrame::From(p));
    if (quanta > 0)
    {
        ++m_pfcSent; // resumes are not pauses
    }
    m_pfcTxTrace(priority, quanta);
    TryTransmit();
}

void
FabricNetDevice::HandlePfc(Ptr<Packet> p)
{
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    PfcHeader pfc;
    p->RemoveHeader(pfc);
    if (pfc.GetOpcode() != PfcHeader::OPCODE)
    {
        return; // other MAC control frames are not modelled
    }
    Time now = Simulator::Now();
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        if (!(pfc.GetClassEnableVector() & (1u << prio)))
        {
            continue;
        }
        uint16_t quanta = pfc.GetPauseTime(prio);
        m_pfcReceived += quanta > 0;
        m_pfcRxTrace(prio, quanta);
        m_pauseExpiry[prio].Cancel();
        if (quanta > 0 && m_pausedUntil[prio] <= now)
        {
            StartPausePeriod(prio, now); // else a renewal or a resume: the period goes on
        }
        if (quanta == 0)
        {
            m_pausedUntil[prio] = now;
        }
        else
        {
            // A quantum is 512 bit times at this port's speed.
            Time pause = m_rate.CalculateBytesTxTime(64 * static_cast<uint32_t>(quanta));
            m_pausedUntil[prio] = now + pause;
            m_pauseExpiry[prio]
                = Simulator::Schedule(pause, &FabricNetDevice::PauseExpired, this, prio);
        }
    }
    m_pauseEnd = *std::max_element(std::begin(m_pausedUntil), std::end(m_pausedUntil));
    TryTransmit();
}

void
FabricNetDevice::PauseExpired(uint8_t priority)
{
    TryTransmit();
}

void
FabricNetDevice::StartPausePeriod(uint8_t priority, Time now)
{
    if (m_pauseHistory.empty())
    {
        m_pauseHistory.resize(8);
        m_everPaused = true;
    }
    PauseHistory& h = m_pauseHistory[priority];
    Time before;
    if (h.count > 0)
    {
        uint32_t last = (h.count - 1) % PAUSE_HISTORY;
        before = h.before[last] + (m_pausedUntil[priority] - h.start[last]);
    }
    uint32_t slot = h.count % PAUSE_HISTORY;
    h.start[slot] = now;
    h.before[slot] = before;
    ++h.count;
}

Time
FabricNetDevice::PausedTimeFromHistory(uint8_t priority, Time t) const
{
    const PauseHistory& h = m_pauseHistory[priority];
    uint32_t kept = std::min(h.count, PAUSE_HISTORY);
    // Newest first: the period t falls in or after.
    for (uint32_t k = 0; k < kept; ++k)
    {
        uint32_t slot = (h.count - 1 - k) % PAUSE_HISTORY;
        if (h.start[slot] <= t)
        {
            Time end
                = k == 0 ? m_pausedUntil[priority]
                         : h.start[slot] + (h.before[(slot + 1) % PAUSE_HISTORY] - h.before[slot]);
            return h.before[slot] + (std::min(t, end) - h.start[slot]);
        }
    }
    return kept ? h.before[(h.count - kept) % PAUSE_HISTORY] : Time();
}

uint8_t
FabricNetDevice::GetPausedMask(Time now) const
{
    uint8_t mask = 0;
    if (m_pauseEnd <= now)
    {
        return mask; // the common case, without reading eight pause timers
    }
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        if (m_pausedUntil[prio] > now)
        {
            mask |= static_cast<uint8_t>(1u << prio);
        }
    }
    return mask;
}

void
FabricNetDevice::EnablePcap(const std::string& filename)
{
    m_pcap = CreateObject<PcapFileWrapper>();
    m_pcap->Open(filename, std::ios::out | std::ios::binary);
    m_pcap->Init(LINKTYPE_ETHERNET, 65535);
}

DataRate
FabricNetDevice::GetDataRate() const
{
    return m_rate;
}

uint32_t
FabricNetDevice::GetFramingBytes() const
{
    return m_framingBytes;
}

Time
FabricNetDevice::GetRxLatency() const
{
    return m_rxLatency;
}

void
FabricNetDevice::SetRxLatency(Time latency)
{
    m_rxLatency = latency;
    if (m_channel)
    {
        m_channel->DeviceChanged();
    }
}

Ptr<FabricChannel>
FabricNetDevice::GetFabricChannel() const
{
    return m_channel;
}

uint64_t
FabricNetDevice::GetQueuedBytes() const
{
    return m_owner ? m_owner->GetQueuedBytes(GetIfIndex()) : 0;
}

bool
FabricNetDevice::IsBusy() const
{
    if (!m_busy || m_endScheduled)
    {
        return m_busy;
    }
    // A reserved end: busy until it comes, and for good if its engine was destroyed (as
    // TryTransmit has it).
    const FabricSimulatorImpl* engine = FabricSimulatorImpl::Reserving();
    return !engine || engine->IsAhead(m_end);
}

uint64_t
FabricNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
FabricNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

void
FabricNetDevice::AddCounters(CounterSet& counters) const
{
    counters.Add("link_bytes", GetTxBytes());
    counters.Add("packet_hops", GetTxFrames());
    counters.Add("pfc_pauses", GetPfcSent());
    counters.Add("link_losses", GetLinkLosses());
    counters.Add("link_down_losses", GetLinkDownLosses());
}

void
FabricNetDevice::SetTrafficLedger(Ptr<TrafficLedger> ledger)
{
    m_ledger = ledger;
}

Ptr<TrafficLedger>
FabricNetDevice::GetTrafficLedger() const
{
    return m_ledger;
}

void
FabricNetDevice::SetOpLink(uint32_t link)
{
    m_opLink = link;
}

uint32_t
FabricNetDevice::GetOpLink() const
{
    return m_opLink;
}

uint64_t
FabricNetDevice::GetPfcSent() const
{
    return m_pfcSent;
}

uint64_t
FabricNetDevice::GetArrivedFrames() const
{
    return m_arrivedFrames;
}

uint64_t
FabricNetDevice::GetArrivedBytes() const
{
    return m_arrivedBytes;
}

uint64_t
FabricNetDevice::GetLinkLosses() const
{
    return m_linkLosses;
}

uint64_t
FabricNetDevice::GetPfcReceived() const
{
    return m_pfcReceived;
}

Time
FabricNetDevice::GetBusyTime() const
{
    return m_busyTime;
}

Time
FabricNetDevice::GetFirstTxStart() const
{
    return m_firstTxStart;
}

Time
FabricNetDevice::GetLastTxEnd() const
{
    return m_lastTxEnd;
}

void
FabricNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
FabricNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
FabricNetDevice::GetChannel() const
{
    return m_channel;
}

void
FabricNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
FabricNetDevice::GetAddress() const
{
    return m_address;
}

bool
FabricNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
FabricNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
FabricNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && !m_linkDown;
}

void
FabricNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.push_back(callback);
}

void
FabricNetDevice::SetLinkUp(bool up, uint32_t framesOnCable)
{
    NS_LOG_FUNCTION(this << up << framesOnCable);
    if (up != m_linkDown)
    {
        return; // no change
    }
    m_linkDown = !up;
    m_lostAhead = framesOnCable;
    if (!up)
    {
        // No resume can cross a dead link, so a pause in force would never end: the MAC
        // forgets it, as a port does when its carrier drops.
        const Time now = Simulator::Now();
        for (uint8_t prio = 0; prio < 8; ++prio)
        {
            m_pauseExpiry[prio].Cancel();
            m_pausedUntil[prio] = std::min(m_pausedUntil[prio], now);
        }
        m_pauseEnd = std::min(m_pauseEnd, now);
    }
    for (const Callback<void>& cb : m_linkChangeCallbacks)
    {
        cb();
    }
    TryTransmit();
}

uint64_t
FabricNetDevice::GetLinkDownLosses() const
{
    return m_linkDownLosses;
}

bool
FabricNetDevice::IsBroadcast() const
{
    return false;
}

Address
FabricNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
FabricNetDevice::IsMulticast() const
{
    return false;
}

Address
FabricNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
FabricNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
FabricNetDevice::IsBridge() const
{
    return false;
}

bool
FabricNetDevice::IsPointToPoint() const
{
    return true;
}

bool
FabricNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    // Frames enter through the owner's queues (FabricPortOwner::DequeueFrame), not an IP stack.
    return false;
}

bool
FabricNetDevice::SendFrom(Ptr<Packet> packet,
                          const Address& source,
                          const Address& dest,
                          uint16_t protocolNumber)
{
    return false;
}

Ptr<Node>
FabricNetDevice::GetNode() const
{
    return m_node;
}

void
FabricNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    if (m_channel)
    {
        m_channel->DeviceChanged();
    }
}

bool
FabricNetDevice::NeedsArp() const
{
    return false;
}

void
FabricNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
}

void
FabricNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
}

bool
FabricNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
