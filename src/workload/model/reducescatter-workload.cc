#include "workload/model/reducescatter-workload.h"

#include "ns3/log.h"
#include "workload/model/collective-algorithms.h"
#include "workload/model/collective-workload-schema.h"
#include "workload/model/workload-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReducescatterWorkload");
NS_OBJECT_ENSURE_REGISTERED(ReducescatterWorkload);
MCAST4AI_REGISTER_WORKLOAD("reducescatter",
                           ReducescatterWorkload,
                           &CollectiveWorkloadSchema::DeclareReducescatter,
                           CollectiveWorkloadSchema::REDUCESCATTER_DOC);

TypeId
ReducescatterWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ReducescatterWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<ReducescatterWorkload>();
    return tid;
}

CollectiveSchedule
ReducescatterWorkload::BuildSchedule(uint32_t ranks, uint64_t bytes, uint64_t chunkBytes) const
{
    NS_LOG_FUNCTION(this << ranks << bytes << chunkBytes << EnumName(m_config.algorithm));
    CollectiveSchedule schedule(ranks);
    CollectiveAlgorithms::Slicing slicing{ranks, bytes, chunkBytes};
    CollectiveAlgorithms::RingReduceScatter(schedule, slicing, {});
    return schedule;
}

} // namespace ns3
