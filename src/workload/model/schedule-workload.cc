#include "workload/model/schedule-workload.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleWorkload");
NS_OBJECT_ENSURE_REGISTERED(ScheduleWorkload);

TypeId
ScheduleWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ScheduleWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<ScheduleWorkload>();
    return tid;
}

void
ScheduleWorkload::SetBuilder(Builder builder)
{
    m_builder = std::move(builder);
}

void
ScheduleWorkload::SetFirstRankIsSource(bool firstRankIsSource)
{
    m_firstRankIsSource = firstRankIsSource;
}

void
ScheduleWorkload::DescribeOp(Metrics::OpRecord& record) const
{
    if (m_firstRankIsSource)
    {
        DescribeFirstRankAsSource(record);
    }
}

CollectiveSchedule
ScheduleWorkload::BuildSchedule(uint32_t ranks, uint64_t bytes, uint64_t chunkBytes) const
{
    NS_LOG_FUNCTION(this << ranks << bytes << chunkBytes);
    NS_ABORT_MSG_UNLESS(m_builder, "ScheduleWorkload installed without a builder");
    return m_builder(ranks, bytes, chunkBytes);
}

} // namespace ns3
