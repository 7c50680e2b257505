/*
 * An ns-3 event object that its owner keeps and schedules again and again.
 */
#ifndef MCAST4AI_REUSABLE_EVENT_H
#define MCAST4AI_REUSABLE_EVENT_H

#include "ns3/event-impl.h"
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
 */
template<typename F>
class ReusableEvent : public EventImpl
{
public:
    explicit ReusableEvent(F f)
        : m_f(std::move(f))
    {
    }

protected:
    void Notify() override
    {
        m_f();
    }

private:
    F m_f;
};

/// A ReusableEvent calling f (a lambda capturing its owner).
template<typename F>
Ptr<EventImpl>
MakeReusableEvent(F f)
{
    return Ptr<EventImpl>(new ReusableEvent<F>(std::move(f)), false);
}

} // namespace ns3

#endif // MCAST4AI_REUSABLE_EVENT_H
