#include "fabric/model/strict-priority-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(StrictPriorityScheduler);
MCAST4AI_REGISTER_NAMED_TYPE(EgressScheduler::Registry(), "strict", StrictPriorityScheduler);

TypeId
StrictPriorityScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StrictPriorityScheduler")
                            .SetParent<EgressScheduler>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<StrictPriorityScheduler>();
    return tid;
}

uint8_t
StrictPriorityScheduler::Pick(uint32_t port, uint8_t eligible)
{
    return static_cast<uint8_t>(31 - __builtin_clz(eligible));
}

} // namespace ns3
