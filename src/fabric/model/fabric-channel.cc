#include "fabric/model/fabric-channel.h"

#include "core/model/quad-heap-scheduler.h"
#include "fabric/model/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricChannel");

static_assert(sizeof(FabricChannel::Direction) == 64,
              "a cable direction is meant to fill exactly one cache line");
NS_OBJECT_ENSURE_REGISTERED(FabricChannel);

TypeId
FabricChannel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FabricChannel")
              .SetParent<Channel>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<FabricChannel>()
              .AddAttribute("Delay",
                            "Propagation delay of the cable",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&FabricChannel::SetDelay, &FabricChannel::GetDelay),
                            MakeTimeChecker(Seconds(0)));
    return tid;
}

FabricChannel::FabricChannel()
{
    NS_LOG_FUNCTION(this);
    for (std::size_t to = 0; to < 2; ++to)
    {
        m_towards[to] = Ptr<Direction>(new Direction, false);
    }
}

void
FabricChannel::DoDispose()
{
    for (std::size_t to = 0; to < 2; ++to)
    {
        Direction& d = *m_towards[to];
        QuadHeapScheduler::ReleaseLane(d.lane);
        // Arrivals still pending (a channel disposed mid-run) must not reach a dead device;
        // cancelling the shared event object cancels all of them.
        d.Cancel();
        d.inFlight.clear();
        d.receiver = nullptr;
        m_towards[to] = nullptr;
        m_devices[to] = nullptr;
    }
    m_nDevices = 0;
    Channel::DoDispose();
}

void
FabricChannel::Attach(Ptr<FabricNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "FabricChannel is point-to-point: two devices only");
    Direction& d = *m_towards[m_nDevices];
    d.lane = QuadHeapScheduler::NewLane();
    d.receiver = PeekPointer(device);
    m_devices[m_nDevices++] = device;
    DeviceChanged();
}

void
FabricChannel::DeviceChanged()
{
    for (std::size_t to = 0; to < m_nDevices; ++to)
    {
        Direction& d = *m_towards[to];
        Ptr<Node> node = m_devices[to]->GetNode();
        d.context = node ? node->GetId() : Simulator::NO_CONTEXT;
        Time latency = m_devices[to]->GetRxLatency();
        // Frames in flight are delivered first in, first out: a shorter latency now would let
        // a later frame overtake them.
        NS_ABORT_MSG_IF(latency != m_rxLatency[to] && !d.inFlight.empty(),
                        "FabricChannel: RxLatency changed with frames in flight");
        m_rxLatency[to] = latency;
    }
    UpdateLatencies();
}

void
FabricChannel::UpdateLatencies()
{
    for (std::size_t to = 0; to < 2; ++to)
    {
        m_towards[to]->SetLatency(m_delay + m_rxLatency[to]);
    }
}

void
FabricChannel::Direction::SetLatency(Time t)
{
    latency = t;
}

void
FabricChannel::SetDirection(std::size_t to, Ptr<Direction> d)
{
    NS_ABORT_MSG_IF(m_nDevices > 0, "FabricChannel: a direction replaced after Attach");
    m_towards[to] = d;
    UpdateLatencies();
}

void
FabricChannel::SetDelay(Time delay)
{
    NS_ABORT_MSG_IF(delay != m_delay
                        && (!m_towards[0]->inFlight.empty() || !m_towards[1]->inFlight.empty()),
                    "FabricChannel: Delay changed with frames in flight");
    m_delay = delay;
    UpdateLatencies();
}

Ptr<FabricChannel::Direction>
FabricChannel::GetTransmitDirection(const FabricNetDevice* src) const
{
    NS_ASSERT_MSG(m_devices[0] == src || m_devices[1] == src,
                  "FabricChannel: a device asked for a direction of a cable it is not on");
    return m_towards[m_devices[0] == src ? 1 : 0];
}

void
FabricChannel::Transmit(Direction& d, FabricFrame frame, Time txTime)
{
    NS_ASSERT_MSG(d.receiver, "FabricChannel: transmit on a cable with one end");
    d.inFlight.push_back(std::move(frame));
    d.Ref(); // the simulator's reference to this pending instance
    QuadHeapScheduler::SetNextLane(d.lane);
    QuadHeapScheduler::SetNextPrefetching();
    Simulator::ScheduleWithContext(d.context, txTime + d.latency, &d);
}

void
FabricChannel::Direction::Prefetch() const
{
    if (!receiver)
    {
        return; // its channel was disposed (DoDispose)
    }
    if (!inFlight.empty())
    {
        __builtin_prefetch(&inFlight.front());
    }
    receiver->Prefetch();
}

void
FabricChannel::Direction::Notify()
{
    FabricFrame frame = std::move(inFlight.front());
    inFlight.pop_front();
    receiver->Receive(std::move(frame));
}

void
FabricChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    NS_ABORT_MSG_IF(m_nDevices != 2, "FabricChannel: SetLinkUp on a cable with one end");
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    for (std::size_t to = 0; to < 2; ++to)
    {
        m_devices[to]->SetLinkUp(up, static_cast<uint32_t>(m_towards[to]->inFlight.size()));
    }
}

bool
FabricChannel::IsLinkUp() const
{
    return m_up;
}

Time
FabricChannel::GetDelay() const
{
    return m_delay;
}

Ptr<FabricNetDevice>
FabricChannel::GetPeer(Ptr<const FabricNetDevice> self) const
{
    return (m_devices[0] == self) ? m_devices[1] : m_devices[0];
}

std::size_t
FabricChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
FabricChannel::GetDevice(std::size_t i) const
{
    return m_devices[i];
}

} // namespace ns3
