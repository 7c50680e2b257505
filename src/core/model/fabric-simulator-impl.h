/*
 * The event loop of a single-process fabric run: ns-3's DefaultSimulatorImpl without what a
 * fabric never uses (events handed in from other threads, the per-event hook, per-call
 * logging), so that an event costs its scheduler and its own work only.
 */
#ifndef MCAST4AI_FABRIC_SIMULATOR_IMPL_H
#define MCAST4AI_FABRIC_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"

#include <cstdint>
#include <deque>
#include <thread>

namespace ns3
{

/**
 * \brief ns-3 SimulatorImpl for one thread: the default engine's semantics, less per-event cost.
 *
 * Events run in (timestamp, uid) order and take their uids exactly as DefaultSimulatorImpl
 * gives them (Schedule, ScheduleWithContext, ScheduleDestroy and Reserve each take the next
 * one), so a run is identical under either engine but for its event count (reservations,
 * below): ns3-simulator-impl checks that on whole scenarios.
 *
 * What it leaves out, and why a fabric run does not miss it:
 * - ScheduleWithContext from another thread (DefaultSimulatorImpl queues such events under a
 *   mutex and looks at that queue after every event): the module's models schedule from the
 *   simulator's thread only. With asserts on, a call from another thread aborts.
 * - PreEventHook and the EventId it builds per event (a reference count up and down): only
 *   the visualizer's engine overrides it.
 * - NS_LOG_FUNCTION in every call: Debian's ns-3 is built with logging, so each call tested
 *   whether the log component was enabled.
 *
 * What it adds: reservations. An event that is usually not needed (a port's end of
 * transmission with nothing queued behind it finds nothing to do) can take its place in the
 * order without being scheduled (Reserve), and be scheduled into that place later only if it
 * turns out to be needed while still ahead (ScheduleReserved). Every other event keeps the uid
 * and the order it would have had; a reserved event never scheduled differs from one that ran
 * and did nothing only in the event count. Reserved times count as pending for the end of a
 * run: a run that runs out of events ends at the latest of them, as if they had run.
 *
 * ScenarioRunner selects it (SimulatorImplementationType) unless another engine was bound,
 * as a distributed run binds ns-3's DistributedSimulatorImpl.
 */
class FabricSimulatorImpl : public SimulatorImpl
{
public:
    static TypeId GetTypeId();

    FabricSimulatorImpl();
    ~FabricSimulatorImpl() override;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    void Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /// A place in the event order: what an event scheduled at Reserve() would have had.
    struct Reservation
    {
        uint64_t ts{0};
        uint32_t uid{0};
        uint32_t context{0};
    };

    /**
     * The engine that takes reservations, if it is the one running: a FabricSimulatorImpl
     * whose scheduler orders by (timestamp, uid). Null under any other engine, and when the
     * scheduler orders by CausalTies (a later insert would be taken for a later-scheduled
     * event): callers then schedule as usual.
     */
    static FabricSimulatorImpl* Reserving()
    {
        return s_reserving;
    }
    /// The place an event scheduled now in context, delay ahead, would take (the next uid, as
    /// Schedule takes it), with nothing scheduled.
    Reservation Reserve(uint32_t context, const Time& delay);
    /// Whether r is still ahead of the running event, so that ScheduleReserved may use it.
    bool IsAhead(const Reservation& r) const
    {
        return r.ts > m_currentTs || (r.ts == m_currentTs && r.uid > m_currentUid);
    }
    /// Schedule event into the place r holds (IsAhead(r) must be true), once.
    void ScheduleReserved(const Reservation& r, EventImpl* event);
    /// Whether some reservation is still ahead: the run has not run out of things to happen.
    bool HasReservationAhead() const;

private:
    void DoDispose() override;
    /// The place of an event scheduled now in context, delay ahead: it takes the next uid.
    Reservation Place(uint32_t context, const Time& delay);
    /// Put event into the event set at place.
    void InsertAt(const Reservation& place, EventImpl* event);
    /// Insert event at now + delay in context with the next uid; returns its place.
    Reservation Insert(uint32_t context, const Time& delay, EventImpl* event);

    Ptr<Scheduler> m_events;
    std::deque<EventId> m_destroyEvents;
    bool m_stop{false};
    uint32_t m_uid;        ///< the next event's uid
    uint32_t m_currentUid; ///< the running event's
    uint64_t m_currentTs{0};
    uint32_t m_currentContext;
    uint64_t m_unscheduledEvents{0}; ///< scheduled and not yet run nor removed
    uint64_t m_eventCount{0};
    /// The latest reservation in the order so far; before any, one never ahead (uid INVALID).
    Reservation m_lastReservation;
    std::thread::id m_mainThreadId;
    static FabricSimulatorImpl* s_reserving;
};

} // namespace ns3

#endif // MCAST4AI_FABRIC_SIMULATOR_IMPL_H
