/*
 * A CollectiveWorkload whose schedule comes from a function rather than from a subclass. A
 * workload type whose class is not a collective (one scenario name maps to one class) runs
 * some of its algorithms on the collective engine by delegating to one of these: `broadcast`
 * does for its ring and tree algorithms.
 */
#ifndef MCAST4AI_SCHEDULE_WORKLOAD_H
#define MCAST4AI_SCHEDULE_WORKLOAD_H

#include "workload/model/collective-workload.h"

#include <functional>

namespace ns3
{

/**
 * \brief The collective engine over a schedule built by a function.
 *
 * Not a workload type of its own: the delegating workload creates it, sets the builder and
 * installs it with a WorkloadConfig of collective keys (ranks, bytes, and in spec iterations,
 * chunk_bytes, compute_us) and its own Context, so the operations it records are the
 * delegating workload's.
 */
class ScheduleWorkload : public CollectiveWorkload
{
public:
    /// Builds one iteration over ranks 0..N-1 (see CollectiveWorkload::BuildSchedule).
    using Builder
        = std::function<CollectiveSchedule(uint32_t ranks, uint64_t bytes, uint64_t chunkBytes)>;

    static TypeId GetTypeId();

    /// Set before Install().
    void SetBuilder(Builder builder);
    /// Whether the first rank is the operations' one source (a relayed broadcast's root):
    /// their rows then name it and count the others as receivers. Set before Install().
    void SetFirstRankIsSource(bool firstRankIsSource);

protected:
    CollectiveSchedule BuildSchedule(uint32_t ranks,
                                     uint64_t bytes,
                                     uint64_t chunkBytes) const override;
    void DescribeOp(Metrics::OpRecord& record) const override;

private:
    Builder m_builder;
    bool m_firstRankIsSource{false};
};

} // namespace ns3

#endif /* MCAST4AI_SCHEDULE_WORKLOAD_H */
