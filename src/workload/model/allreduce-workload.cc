#include "workload/model/allreduce-workload.h"

#include "ns3/log.h"
#include "workload/model/collective-algorithms.h"
#include "workload/model/collective-workload-schema.h"
#include "workload/model/workload-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AllreduceWorkload");
NS_OBJECT_ENSURE_REGISTERED(AllreduceWorkload);
MCAST4AI_REGISTER_WORKLOAD("allreduce",
                           AllreduceWorkload,
                           &CollectiveWorkloadSchema::DeclareAllreduce,
                           CollectiveWorkloadSchema::ALLREDUCE_DOC);

TypeId
AllreduceWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AllreduceWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<AllreduceWorkload>();
    return tid;
}

CollectiveSchedule
AllreduceWorkload::BuildSchedule(uint32_t ranks, uint64_t bytes, uint64_t chunkBytes) const
{
    NS_LOG_FUNCTION(this << ranks << bytes << chunkBytes << EnumName(m_config.algorithm));
    CollectiveSchedule schedule(ranks);
    if (m_config.algorithm == CollectiveAlgorithm::TREE)
    {
        CollectiveAlgorithms::DoubleTreeAllReduce(schedule, bytes, chunkBytes);
        return schedule;
    }
    CollectiveAlgorithms::Slicing slicing{ranks, bytes, chunkBytes};
    // Reduce-scatter, then each rank sends the shard it has reduced (r+1) to the others.
    schedule.SetPhase("reduce-scatter");
    CollectiveAlgorithms::Frontier reduced
        = CollectiveAlgorithms::RingReduceScatter(schedule, slicing, {});
    schedule.SetPhase("all-gather");
    if (m_config.algorithm == CollectiveAlgorithm::MULTICAST)
    {
        CollectiveAlgorithms::MulticastAllGather(schedule, slicing, 1, reduced);
    }
    else
    {
        CollectiveAlgorithms::RingAllGather(schedule, slicing, 1, reduced);
    }
    return schedule;
}

} // namespace ns3
