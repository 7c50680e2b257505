#include "core/model/fabric-simulator-impl.h"

#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSimulatorImpl");
NS_OBJECT_ENSURE_REGISTERED(FabricSimulatorImpl);

FabricSimulatorImpl* FabricSimulatorImpl::s_reserving = nullptr;

TypeId
FabricSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<FabricSimulatorImpl>();
    return tid;
}

FabricSimulatorImpl::FabricSimulatorImpl()
    : m_uid(EventId::UID::VALID),
      m_currentUid(EventId::UID::INVALID),
      m_currentContext(Simulator::NO_CONTEXT),
      m_mainThreadId(std::this_thread::get_id())
{
    NS_LOG_FUNCTION(this);
}

FabricSimulatorImpl::~FabricSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
    if (s_reserving == this)
    {
        s_reserving = nullptr;
    }
}

void
FabricSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (s_reserving == this)
    {
        s_reserving = nullptr;
    }
    while (m_events && !m_events->IsEmpty())
    {
        m_events->RemoveNext().impl->Unref();
    }
    m_events = nullptr;
    SimulatorImpl::DoDispose();
}

void
FabricSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
FabricSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    while (m_events && !m_events->IsEmpty())
    {
        scheduler->Insert(m_events->RemoveNext());
    }
    m_events = scheduler;
    // Under CausalTies an event's place also depends on when it is inserted, which a
    // reservation scheduled later would change.
    BooleanValue causal(false);
    const bool ordersByUid
        = !(scheduler->GetAttributeFailSafe("CausalTies", causal) && causal.Get());
    s_reserving = ordersByUid ? this : (s_reserving == this ? nullptr : s_reserving);
    NS_LOG_LOGIC("reservations " << (ordersByUid ? "on" : "off (CausalTies)"));
}

uint32_t
FabricSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
FabricSimulatorImpl::IsFinished() const
{
    return m_events->IsEmpty() || m_stop;
}

void
FabricSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_mainThreadId = std::this_thread::get_id();
    m_stop = false;
    Scheduler* events = PeekPointer(m_events);
    while (!m_stop && !events->IsEmpty())
    {
        Scheduler::Event next = events->RemoveNext();
        NS_ASSERT(next.key.m_ts >= m_currentTs);
        --m_unscheduledEvents;
        ++m_eventCount;
        m_currentTs = next.key.m_ts;
        m_currentContext = next.key.m_context;
        m_currentUid = next.key.m_uid;
        next.impl->Invoke();
        next.impl->Unref();
    }
    // Ran out of events: every one scheduled was run or removed.
    NS_ASSERT(!events->IsEmpty() || m_unscheduledEvents == 0);
    if (!m_stop && HasReservationAhead())
    {
        // The reserved events left out ran (and did nothing) under an engine that schedules
        // them: its clock would stop at the last.
        m_currentTs = m_lastReservation.ts;
        m_currentUid = m_lastReservation.uid;
    }
}

void
FabricSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

void
FabricSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    Simulator::Schedule(delay, &Simulator::Stop);
}

FabricSimulatorImpl::Reservation
FabricSimulatorImpl::Place(uint32_t context, const Time& delay)
{
    NS_ASSERT_MSG(delay.IsPositive(), "FabricSimulatorImpl: a negative delay");
    Reservation r;
    r.ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
    r.uid = m_uid++;
    r.context = context;
    return r;
}

void
FabricSimulatorImpl::InsertAt(const Reservation& place, EventImpl* event)
{
    Scheduler::Event ev;
    ev.impl = event;
    ev.key.m_ts = place.ts;
    ev.key.m_context = place.context;
    ev.key.m_uid = place.uid;
    ++m_unscheduledEvents;
    m_events->Insert(ev);
}

FabricSimulatorImpl::Reservation
FabricSimulatorImpl::Insert(uint32_t context, const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "FabricSimulatorImpl: an event scheduled from another thread");
    const Reservation place = Place(context, delay);
    InsertAt(place, event);
    return place;
}

FabricSimulatorImpl::Reservation
FabricSimulatorImpl::Reserve(uint32_t context, const Time& delay)
{
    const Reservation r = Place(context, delay);
    if (r.ts >= m_lastReservation.ts)
    {
        m_lastReservation = r; // uids grow: a later one at the same time comes later
    }
    return r;
}

void
FabricSimulatorImpl::ScheduleReserved(const Reservation& r, EventImpl* event)
{
    NS_ASSERT_MSG(IsAhead(r), "FabricSimulatorImpl: a reservation scheduled after its time");
    InsertAt(r, event);
}

bool
FabricSimulatorImpl::HasReservationAhead() const
{
    return IsAhead(m_lastReservation);
}

EventId
FabricSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    const Reservation place = Insert(m_currentContext, delay, event);
    return EventId(event, place.ts, place.context, place.uid);
}

void
FabricSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    Insert(context, delay, event);
}

EventId
FabricSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
FabricSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroyEvents.push_back(id);
    ++m_uid; // as the default engine does, so that later uids match it
    return id;
}

Time
FabricSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
FabricSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    return IsExpired(id) ? TimeStep(0) : TimeStep(id.GetTs() - m_currentTs);
}

void
FabricSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        auto i = std::find(m_destroyEvents.begin(), m_destroyEvents.end(), id);
        if (i != m_destroyEvents.end())
        {
            m_destroyEvents.erase(i);
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event event;
    event.impl = id.PeekEventImpl();
    event.key.m_ts = id.GetTs();
    event.key.m_context = id.GetContext();
    event.key.m_uid = id.GetUid();
    m_events->Remove(event);
    event.impl->Cancel();
    event.impl->Unref(); // the reference the scheduler held
    --m_unscheduledEvents;
}

void
FabricSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
FabricSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        return id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled()
               || std::find(m_destroyEvents.begin(), m_destroyEvents.end(), id)
                      == m_destroyEvents.end();
    }
    return id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs
           || (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid)
           || id.PeekEventImpl()->IsCancelled();
}

Time
FabricSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
FabricSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
FabricSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
