/*
 * When a distributed run is over: each process knows only when its own operations are done,
 * and the run may stop only when every process's are.
 */
#ifndef MCAST4AI_RANK_COMPLETION_H
#define MCAST4AI_RANK_COMPLETION_H

#include "fabric/model/rank-messenger.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \brief Tells the other processes of a distributed run that this one's operations are done,
 * and stops the simulation once every process's are.
 *
 * A process whose operations are all done (Metrics' all-done callback, or none to do) cannot
 * stop yet: it still carries and acknowledges the other processes' traffic. It sends every
 * other process a message (RankMessenger), and stops when it has heard from all, two message
 * delays past the latest of the processes' done times, so that all stop at the
 * same instant, whatever the order messages reached them in. (A process may hear of an
 * operation's end later than it was: the run's end is the operations' latest, Metrics::
 * GetLastEnd.)
 */
class RankCompletion : public Object
{
public:
    static TypeId GetTypeId();

    /// Send and receive through messenger.
    void Install(Ptr<RankMessenger> messenger);
    /// This process's operations are all done, now.
    void LocalDone();
    /// Whether every process, this one included, said it was done.
    bool AllDone() const;
    /// LocalDone as an event of its own, now: a process with no operations of its own.
    void ScheduleLocalDone();
    /// Events of this object's own (the stop; messages count as the messenger's): not the
    /// model's.
    uint64_t GetEvents() const;

private:
    void Receive(PackedBytes& message);
    void Done(uint32_t rank, Time at);

    Ptr<RankMessenger> m_messenger;
    uint32_t m_handler{0};
    std::vector<bool> m_done;
    uint32_t m_doneCount{0};
    Time m_lastDone;
    uint64_t m_events{0};
};

} // namespace ns3

#endif // MCAST4AI_RANK_COMPLETION_H
