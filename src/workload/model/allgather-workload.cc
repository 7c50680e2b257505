#include "workload/model/allgather-workload.h"

#include "ns3/log.h"
#include "workload/model/collective-algorithms.h"
#include "workload/model/collective-workload-schema.h"
#include "workload/model/workload-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AllgatherWorkload");
NS_OBJECT_ENSURE_REGISTERED(AllgatherWorkload);
MCAST4AI_REGISTER_WORKLOAD("allgather",
                           AllgatherWorkload,
                           &CollectiveWorkloadSchema::DeclareAllgather,
                           CollectiveWorkloadSchema::ALLGATHER_DOC);

TypeId
AllgatherWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AllgatherWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<AllgatherWorkload>();
    return tid;
}

CollectiveSchedule
AllgatherWorkload::BuildSchedule(uint32_t ranks, uint64_t bytes, uint64_t chunkBytes) const
{
    NS_LOG_FUNCTION(this << ranks << bytes << chunkBytes << EnumName(m_config.algorithm));
    CollectiveSchedule schedule(ranks);
    CollectiveAlgorithms::Slicing slicing{ranks, bytes, chunkBytes};
    if (m_config.algorithm == CollectiveAlgorithm::MULTICAST)
    {
        CollectiveAlgorithms::MulticastAllGather(schedule, slicing, 0, {});
    }
    else
    {
        CollectiveAlgorithms::RingAllGather(schedule, slicing, 0, {});
    }
    return schedule;
}

} // namespace ns3
