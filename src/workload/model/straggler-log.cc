#include "workload/model/straggler-log.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StragglerLog");
NS_OBJECT_ENSURE_REGISTERED(StragglerLog);

TypeId
StragglerLog::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StragglerLog")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<StragglerLog>();
    return tid;
}

void
StragglerLog::Add(const Event& e)
{
    NS_LOG_INFO("straggler " << e.straggler << " (" << e.type << "): " << e.event << " host "
                             << e.host << " iteration " << e.iteration << " " << e.link);
    m_events.push_back(e);
}

const std::vector<StragglerLog::Event>&
StragglerLog::GetEvents() const
{
    return m_events;
}

uint64_t
StragglerLog::Count(uint32_t straggler) const
{
    return std::count_if(m_events.begin(),
                         m_events.end(),
                         [straggler](const Event& e)
                         {
                             return e.straggler == straggler;
                         });
}

} // namespace ns3
