#include "fabric/model/fabric-channel.h"

#include "fabric/model/fabric-net-device.h"
#include "fabric/model/quad-heap-scheduler.h"
#include "fabric/model/reusable-event.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricChannel");
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
        m_arrival[to] = MakeReusableEvent(
            [this, to]()
            {
                Deliver(to);
            });
    }
}

void
FabricChannel::DoDispose()
{
    for (std::size_t to = 0; to < m_nDevices; ++to)
    {
        QuadHeapScheduler::ReleaseLane(m_lanes[to]);
    }
    for (std::size_t to = 0; to < 2; ++to)
    {
        // Arrivals still pending (a channel disposed mid-run) must not reach a dead channel;
        // cancelling the shared event object cancels all of them.
        m_arrival[to]->Cancel();
        m_arrival[to] = nullptr;
        m_inFlight[to].clear();
        m_devices[to] = nullptr;
    }
    m_nDevices = 0;
    Channel::DoDispose();
}

void
FabricChannel::Attach(Ptr<FabricNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "FabricChannel is point-to-point: two devices only");
    m_lanes[m_nDevices] = QuadHeapScheduler::NewLane();
    m_devices[m_nDevices++] = device;
    DeviceChanged();
}

void
FabricChannel::DeviceChanged()
{
    for (std::size_t to = 0; to < m_nDevices; ++to)
    {
        Ptr<Node> node = m_devices[to]->GetNode();
        m_context[to] = node ? node->GetId() : Simulator::NO_CONTEXT;
        Time latency = m_devices[to]->GetRxLatency();
        // Frames in flight are delivered first in, first out: a shorter latency now would let
        // a later frame overtake them.
        NS_ABORT_MSG_IF(latency != m_rxLatency[to] && !m_inFlight[to].empty(),
                        "FabricChannel: RxLatency changed with frames in flight");
        m_rxLatency[to] = latency;
    }
}

void
FabricChannel::SetDelay(Time delay)
{
    NS_ABORT_MSG_IF(delay != m_delay && (!m_inFlight[0].empty() || !m_inFlight[1].empty()),
                    "FabricChannel: Delay changed with frames in flight");
    m_delay = delay;
}

void
FabricChannel::Transmit(const FabricNetDevice* src, FabricFrame frame, Time txTime)
{
    NS_ASSERT_MSG(m_nDevices == 2, "FabricChannel: transmit on a cable with one end");
    std::size_t to = (m_devices[0] == src) ? 1 : 0;
    // A cable delivers in the order it sends, so one FIFO and one event object serve every
    // frame in flight, and the arrivals form one sorted scheduler lane.
    m_inFlight[to].push_back(std::move(frame));
    m_arrival[to]->Ref(); // the simulator's reference to this pending instance
    QuadHeapScheduler::SetNextLane(m_lanes[to]);
    Simulator::ScheduleWithContext(
        m_context[to], txTime + m_delay + m_rxLatency[to], PeekPointer(m_arrival[to]));
}

void
FabricChannel::Deliver(std::size_t to)
{
    FabricFrame frame = std::move(m_inFlight[to].front());
    m_inFlight[to].pop_front();
    m_devices[to]->Receive(std::move(frame));
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
