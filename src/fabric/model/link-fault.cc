#include "fabric/model/link-fault.h"

#include "fabric/model/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkFault");
NS_OBJECT_ENSURE_REGISTERED(LinkFault);

TypeId
LinkFault::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LinkFault")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<LinkFault>()
              .AddAttribute("DownAt",
                            "When the link loses its carrier",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LinkFault::m_downAt),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("UpAt",
                            "When the link is back (Time::Max(): never)",
                            TimeValue(Time::Max()),
                            MakeTimeAccessor(&LinkFault::m_upAt),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ConvergenceDelay",
                            "From a change of the link to the routes following it",
                            TimeValue(MicroSeconds(100)),
                            MakeTimeAccessor(&LinkFault::m_convergence),
                            MakeTimeChecker(Seconds(0)))
              .AddTraceSource("LinkChange",
                              "The carrier was lost (false) or is back (true)",
                              MakeTraceSourceAccessor(&LinkFault::m_linkChange),
                              "ns3::TracedValueCallback::Bool")
              .AddTraceSource("Converged",
                              "The routes moved around the link (false) or back over it (true)",
                              MakeTraceSourceAccessor(&LinkFault::m_converged),
                              "ns3::TracedValueCallback::Bool");
    return tid;
}

void
LinkFault::Install(Ptr<FabricChannel> channel, ConvergeCallback converge)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(m_upAt <= m_downAt, "LinkFault: UpAt must be after DownAt");
    m_channel = channel;
    m_converge = converge;
    Simulator::Schedule(m_downAt - Simulator::Now(), &LinkFault::SetUp, this, false);
    if (m_upAt != Time::Max())
    {
        Simulator::Schedule(m_upAt - Simulator::Now(), &LinkFault::SetUp, this, true);
    }
}

void
LinkFault::SetUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    NS_LOG_INFO("link " << (up ? "up" : "down") << " at " << Simulator::Now().As(Time::US));
    m_channel->SetLinkUp(up);
    m_linkChange(up);
    Simulator::Schedule(m_convergence, &LinkFault::Converge, this, up);
}

void
LinkFault::Converge(bool up)
{
    NS_LOG_FUNCTION(this << up);
    m_convergedAt.push_back(Simulator::Now());
    if (!m_converge.IsNull())
    {
        m_converge(up);
    }
    m_converged(up);
}

Time
LinkFault::GetDownAt() const
{
    return m_downAt;
}

Time
LinkFault::GetUpAt() const
{
    return m_upAt;
}

Time
LinkFault::GetConvergenceDelay() const
{
    return m_convergence;
}

const std::vector<Time>&
LinkFault::GetConvergedAt() const
{
    return m_convergedAt;
}

uint64_t
LinkFault::GetLosses() const
{
    uint64_t lost = 0;
    for (std::size_t i = 0; i < m_channel->GetNDevices(); ++i)
    {
        lost += DynamicCast<FabricNetDevice>(m_channel->GetDevice(i))->GetLinkDownLosses();
    }
    return lost;
}

void
LinkFault::DoDispose()
{
    m_channel = nullptr;
    m_converge = ConvergeCallback();
    Object::DoDispose();
}

} // namespace ns3
