#include "fabric/model/fabric-channel.h"

#include "fabric/model/fabric-net-device.h"
#include "fabric/model/quad-heap-scheduler.h"
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
    static TypeId tid = TypeId("ns3::FabricChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<FabricChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the cable",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&FabricChannel::m_delay),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

FabricChannel::FabricChannel()
{
    NS_LOG_FUNCTION(this);
}

void
FabricChannel::Attach(Ptr<FabricNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "FabricChannel is point-to-point: two devices only");
    m_lanes[m_nDevices] = QuadHeapScheduler::NewLane();
    m_devices[m_nDevices++] = device;
}

void
FabricChannel::Transmit(Ptr<FabricNetDevice> src, Ptr<Packet> p, Time txTime) const
{
    std::size_t to = (m_devices[0] == src) ? 1 : 0;
    const Ptr<FabricNetDevice>& dst = m_devices[to];
    Time arrival = txTime + m_delay + dst->GetRxLatency();
    // A cable delivers in the order it sends: its arrivals form one sorted scheduler lane.
    QuadHeapScheduler::SetNextLane(m_lanes[to]);
    Simulator::ScheduleWithContext(
        dst->GetNode()->GetId(), arrival, &FabricNetDevice::Receive, dst, p);
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
