#include "workload/model/checkpoint-workload.h"

#include "ns3/log.h"
#include "workload/model/collective-workload-schema.h"
#include "workload/model/workload-type-registry.h"

#include <algorithm>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CheckpointWorkload");
NS_OBJECT_ENSURE_REGISTERED(CheckpointWorkload);
MCAST4AI_REGISTER_WORKLOAD("checkpoint",
                           CheckpointWorkload,
                           &CollectiveWorkloadSchema::DeclareCheckpoint,
                           CollectiveWorkloadSchema::CHECKPOINT_DOC);

TypeId
CheckpointWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CheckpointWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<CheckpointWorkload>();
    return tid;
}

void
CheckpointWorkload::DescribeOp(Metrics::OpRecord& record) const
{
    DescribeFirstRankAsSource(record);
}

CollectiveSchedule
CheckpointWorkload::BuildSchedule(uint32_t ranks, uint64_t bytes, uint64_t chunkBytes) const
{
    NS_LOG_FUNCTION(this << ranks << bytes << chunkBytes << EnumName(m_config.algorithm));
    CollectiveSchedule schedule(ranks);
    uint64_t chunk = chunkBytes ? chunkBytes : (bytes + ranks - 1) / ranks;
    std::vector<uint32_t> all;
    for (uint32_t r = 1; r < ranks; ++r)
    {
        all.push_back(r);
    }
    auto targets = std::make_shared<const std::vector<uint32_t>>(all);
    // Chunk-major, so that unicast copies of the first chunk leave before the second's.
    for (uint64_t offset = 0; offset < bytes; offset += chunk)
    {
        uint64_t size = std::min(chunk, bytes - offset);
        if (m_config.algorithm == CollectiveAlgorithm::MULTICAST)
        {
            schedule.AddMulticast(0, targets, size, 0);
            continue;
        }
        for (uint32_t r : all)
        {
            schedule.AddUnicast(0, r, size, 0);
        }
    }
    return schedule;
}

} // namespace ns3
