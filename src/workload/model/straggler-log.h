/*
 * Every straggler event that fired during a run (a rank computing slowly at an iteration, a
 * link slowed down or restored, an incast starting), so that a tail in ops.csv can be traced
 * to its cause: the rows name the workload, host and iteration they hit.
 */
#ifndef MCAST4AI_STRAGGLER_LOG_H
#define MCAST4AI_STRAGGLER_LOG_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief The events of a run's stragglers, in the order they fired (stragglers.csv).
 */
class StragglerLog : public Object
{
public:
    static TypeId GetTypeId();

    /// One row of stragglers.csv; -1 (or NaN, "") marks a column that does not apply.
    struct Event
    {
        Time time;
        uint32_t straggler{0}; ///< index in stragglers[]
        std::string type;      ///< "slow-node", ...
        std::string event;     ///< what happened: "slow-compute", "link-slowed", ...
        int64_t workload{-1};  ///< index in workloads[]
        int64_t host{-1};
        int64_t iteration{-1};
        std::string link; ///< "host3-leaf0"
        double factor{-1};
        double delayUs{-1}; ///< compute time added
    };

    void Add(const Event& e);
    const std::vector<Event>& GetEvents() const;
    /// Events of one straggler.
    uint64_t Count(uint32_t straggler) const;

private:
    std::vector<Event> m_events;
};

} // namespace ns3

#endif /* MCAST4AI_STRAGGLER_LOG_H */
