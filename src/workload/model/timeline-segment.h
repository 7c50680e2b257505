/*
 * What a workload tells a timeline (the Workload traces "Activity" and "Segment"): a host's
 * activity (computing, waiting for data, sending) as counts that go up and down, and the named
 * parts an operation's duration is made of (a request's queueing, prefill, KV transfer, ...).
 * Workloads fire them only when a timeline listens (output.timeline).
 */
#ifndef MCAST4AI_TIMELINE_SEGMENT_H
#define MCAST4AI_TIMELINE_SEGMENT_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/// A host's activity: a track per host and kind, busy while its count is above zero.
enum class HostActivity : uint8_t
{
    COMPUTE, ///< compute (a collective's local work or compute_us, a prefill, a decode step)
    WAIT,    ///< waiting for data (a collective it has started, a KV cache on its way)
    SEND,    ///< sending (its messages posted and not yet whole at their receivers)
};

/**
 * \brief One part of an operation's duration, from start to end; an operation's segments
 * follow each other and add up to its ops.csv duration.
 */
struct TimelineSegment
{
    uint64_t op{0};       ///< Metrics handle of the operation
    const char* name{""}; ///< static text: "queueing", "prefill", ...
    Time start;
    Time end;
    /// The host whose activity this segment caused (a KV transfer: the prefill host's
    /// sending), drawn as an arrow from the segment; -1: none.
    int64_t causedHost{-1};
    HostActivity causedActivity{HostActivity::SEND};
};

} // namespace ns3

#endif /* MCAST4AI_TIMELINE_SEGMENT_H */
