/*
 * A collective whose ranks several processes of a distributed run simulate: what one process
 * sees of an iteration and another must know travels between them as simulated messages.
 */
#ifndef MCAST4AI_COLLECTIVE_SPREAD_H
#define MCAST4AI_COLLECTIVE_SPREAD_H

#include "core/model/packed-bytes.h"
#include "fabric/model/rank-messenger.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \brief Tells the processes that simulate a collective's ranks what the others saw of it.
 *
 * Two kinds of message:
 * - **posted**: a rank posted a unicast transfer to a rank another process simulates. That
 *   process's receiving queue pair reports a message whole, and must know which transfer it
 *   was. The message takes one lookahead; the transfer's last byte is a cut cable away at
 *   least, behind one frame's serialisation, so the message is there first.
 * - **part**: a process's ranks have received everything of an iteration (or, with nothing to
 *   receive, have all started it). Its Part says when, and what its ranks posted and received by
 *   step and phase. Sent to every other process; when the parts of all processes that simulate
 *   ranks are in, each process has the iteration's merged Part and completes it.
 *
 * The merged Part is the one process's figures: the operation ends at the last arrival
 * anywhere, a step spans its first post to its last arrival, a phase likewise. A step's last
 * arrival at one instant on two processes is named by the larger destination host (one
 * process names the one it ran last).
 */
class CollectiveSpread : public Object
{
public:
    static TypeId GetTypeId();

    /// What one or more processes saw of a step of an iteration.
    struct Step
    {
        uint32_t transfers{0}; ///< posted
        Time start;            ///< first post (transfers > 0)
        bool arrived{false};
        Time end; ///< last arrival (arrived)
        uint32_t lastSrc{0};
        uint32_t lastDst{0};
    };

    /// What one or more processes saw of an iteration.
    struct Part
    {
        bool arrivals{false}; ///< some rank received data in it
        /// The last arrival (arrivals), else the last rank to start it.
        Time last;
        Time firstStart; ///< the first rank to start it
        std::vector<Step> steps;
        std::vector<bool> phaseStarted;
        std::vector<Time> phaseStart; ///< first post (phaseStarted)
        std::vector<Time> phaseEnd;   ///< last arrival, zero if none
    };

    /// A transfer (iteration, transfer) was posted on pair to a rank simulated here.
    typedef Callback<void, uint32_t, uint32_t, uint32_t> PostedCallback;
    /// Every process's part of an iteration is in: the iteration and the merged Part.
    typedef Callback<void, uint32_t, const Part&> CompleteCallback;

    /**
     * Take handlers of messenger (in the same order on every process, as the workloads are
     * installed); parts: how many processes simulate ranks of the collective, each sending one
     * Part per iteration.
     */
    void Install(Ptr<RankMessenger> messenger,
                 uint32_t parts,
                 PostedCallback posted,
                 CompleteCallback complete);
    /// Tell process rank that transfer (iteration, t) went on pair.
    void Posted(uint32_t rank, uint32_t pair, uint32_t iteration, uint32_t t);
    /// This process's part of iteration: to the others, and merged here.
    void PartDone(uint32_t iteration, const Part& part);
    /**
     * When, with barrier, the ranks of this process start computing the next iteration, all
     * being every process's merged Part: at its last arrival, wherever it was (one process's
     * answer); with HeardBarrier, when this process heard of it (the wrong model
     * test/mpi/equality.sh rejects).
     */
    Time BarrierFrom(const Part& all) const;

    /// Fold b into a, as the merged Part is made: the same whatever order parts come in.
    static void Merge(Part& a, const Part& b);
    static void Pack(const Part& part, PackedBytes& out);
    static Part Unpack(PackedBytes& in);

protected:
    void DoDispose() override;

private:
    void ReceivePosted(PackedBytes& message);
    void ReceivePart(PackedBytes& message);
    void Add(uint32_t iteration, const Part& part);

    struct Pending
    {
        Part merged;
        uint32_t in{0};
    };

    Ptr<RankMessenger> m_messenger;
    uint32_t m_postedHandler{0};
    uint32_t m_partHandler{0};
    uint32_t m_parts{0};
    PostedCallback m_posted;
    CompleteCallback m_complete;
    std::map<uint32_t, Pending> m_pending; ///< by iteration
    bool m_heardBarrier{false};            ///< the HeardBarrier attribute
};

} // namespace ns3

#endif // MCAST4AI_COLLECTIVE_SPREAD_H
