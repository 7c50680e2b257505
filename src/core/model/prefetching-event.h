/*
 * An event that can start loading what it will read while the event before it runs.
 */
#ifndef MCAST4AI_PREFETCHING_EVENT_H
#define MCAST4AI_PREFETCHING_EVENT_H

#include "ns3/event-impl.h"

namespace ns3
{

/**
 * \brief EventImpl with a hint: Prefetch() asks the memory system for the cache lines the
 * event's Notify() will read first.
 *
 * On a 1,024-host fabric every event touches a port, a queue and a cable that have gone cold
 * since their last turn, and the CPU waits on each load in turn. QuadHeapScheduler calls
 * Prefetch() on the next event as it hands out the current one (see
 * QuadHeapScheduler::SetNextPrefetching), so those loads overlap with the current event's
 * work. Prefetch() must only compute addresses from fields of the event object itself and
 * issue prefetches: it changes no state, and reading through a cold pointer would stall the
 * current event instead.
 *
 * The scheduler also hints at events that were cancelled, as it drains the queue in
 * Simulator::Destroy after their objects were disposed: an owner clears the event's pointers
 * when it is disposed, and Prefetch() follows none that is null. (A check of the event's own
 * fields; EventImpl::IsCancelled is an out-of-line call, 1.2% of a run's instructions here.)
 */
class PrefetchingEvent : public EventImpl
{
public:
    /// Start loading the lines Notify() will read first. A hint: it changes nothing.
    virtual void Prefetch() const = 0;
};

} // namespace ns3

#endif /* MCAST4AI_PREFETCHING_EVENT_H */
