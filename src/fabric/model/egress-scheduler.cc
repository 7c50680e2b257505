#include "fabric/model/egress-scheduler.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EgressScheduler");
NS_OBJECT_ENSURE_REGISTERED(EgressScheduler);

TypeId
EgressScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EgressScheduler").SetParent<Object>().SetGroupName("Mcast4ai");
    return tid;
}

NamedTypeRegistry&
EgressScheduler::Registry()
{
    static NamedTypeRegistry registry("egress scheduler", EgressScheduler::GetTypeId());
    return registry;
}

void
EgressScheduler::SetPorts(uint32_t ports)
{
    NS_LOG_FUNCTION(this << ports);
}

void
EgressScheduler::Sent(uint32_t port, uint8_t prio, uint32_t bytes)
{
}

} // namespace ns3
