#include "scenario/model/rank-completion.h"

#include "core/model/packed-bytes.h"
#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankCompletion");
NS_OBJECT_ENSURE_REGISTERED(RankCompletion);

TypeId
RankCompletion::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RankCompletion")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<RankCompletion>();
    return tid;
}

void
RankCompletion::Install(Ptr<RankMessenger> messenger)
{
    m_messenger = messenger;
    m_handler = messenger->AddHandler(MakeCallback(&RankCompletion::Receive, this));
    m_done.assign(ProcessRanks::GetSize(), false);
}

void
RankCompletion::LocalDone()
{
    const uint32_t me = ProcessRanks::GetRank();
    const Time now = Simulator::Now();
    NS_LOG_INFO("rank " << me << ": its operations are done at " << now.As(Time::US));
    PackedBytes message;
    message.Put(me);
    message.Put(now.GetTimeStep());
    m_messenger->SendToOthers(m_handler, message);
    Done(me, now);
}

void
RankCompletion::ScheduleLocalDone()
{
    ++m_events;
    Simulator::ScheduleNow(&RankCompletion::LocalDone, this);
}

uint64_t
RankCompletion::GetEvents() const
{
    return m_events;
}

void
RankCompletion::Receive(PackedBytes& message)
{
    const auto rank = message.Take<uint32_t>();
    const auto at = message.Take<int64_t>();
    NS_ABORT_MSG_UNLESS(message.AtEnd(), "RankCompletion: not a done message");
    Done(rank, TimeStep(at));
}

void
RankCompletion::Done(uint32_t rank, Time at)
{
    NS_ABORT_MSG_IF(rank >= m_done.size() || m_done[rank],
                    "RankCompletion: rank " << rank << " done twice");
    m_done[rank] = true;
    ++m_doneCount;
    m_lastDone = std::max(m_lastDone, at);
    if (AllDone())
    {
        // Every rank learns this by m_lastDone + one message delay at the latest, and all stop
        // at one instant after it, behind every other event of that instant: the same events
        // run whichever rank heard last, and when.
        const Time stop = m_lastDone + 2 * m_messenger->GetDelay();
        NS_LOG_INFO("every rank is done, the last at " << m_lastDone.As(Time::US)
                                                       << "; stopping at " << stop.As(Time::US));
        ++m_events;
        QuadHeapScheduler::SetNextRemote(0, ~QuadHeapScheduler::REMOTE);
        Simulator::Stop(stop - Simulator::Now());
    }
}

bool
RankCompletion::AllDone() const
{
    return m_doneCount == m_done.size();
}

} // namespace ns3
