/*
 * An ns-3 event object that its owner keeps and schedules again and again.
 */
#ifndef MCAST4AI_REUSABLE_EVENT_H
#define MCAST4AI_REUSABLE_EVENT_H

#include "fabric/model/prefetching-event.h"
#include "ns3/ptr.h"

#include <utility>

namespace ns3
{

/**
 * \brief EventImpl that calls a function object and is never freed by running.
 *
 * Simulator::Schedule(delay, MakeEvent(...)) allocates an event per call and frees it after it
 * runs: two allocations per frame and hop on a fabric. A port's transmit-complete event and a
 * cable's arrival event are the same call every time, so their owners keep one of these and
 * schedule it each time instead.
 *
 * ns-3 counts references: the simulator holds one per pending instance and drops it after the
 * run. Schedule it with Simulator::Schedule(delay, Ptr<EventImpl>), which takes that reference,
 * or call Ref() before passing the raw pointer to Simulator::ScheduleWithContext. The same
 * object may be pending several times over (a cable with several frames in flight); it must
 * then never be cancelled, since cancelling marks the object, not one instance.
 *
 * The second function object is its PrefetchingEvent::Prefetch() hint.
 */
template<typename F, typename P>
class ReusableEvent : public PrefetchingEvent
{
public:
    ReusableEvent(F f, P prefetch)
        : m_f(std::move(f)),
          m_prefetch(std::move(prefetch))
    {
    }

    void Prefetch() const override
    {
        m_prefetch();
    }

protected:
    void Notify() override
    {
        m_f();
    }

private:
    F m_f;
    P m_prefetch;
};

/// A ReusableEvent calling f, with prefetch as its hint (lambdas capturing their owner).
template<typename F, typename P>
Ptr<PrefetchingEvent>
MakeReusableEvent(F f, P prefetch)
{
    return Ptr<PrefetchingEvent>(new ReusableEvent<F, P>(std::move(f), std::move(prefetch)), false);
}

} // namespace ns3

#endif // MCAST4AI_REUSABLE_EVENT_H
