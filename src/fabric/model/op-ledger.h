/*
 * What the network did to each operation (an ops.csv row): its bytes on the links, the
 * queueing and PFC pauses its packets met, their ECN marks, drops and retransmissions, and the
 * links they took. This is the join key from a request to its packets (token-operations
 * draft, section 3.4): inference metrics and network metrics on one row.
 */
#ifndef MCAST4AI_OP_LEDGER_H
#define MCAST4AI_OP_LEDGER_H

#include "core/model/packed-bytes.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "wire/model/frame-info.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Per-operation network counters, filled hop by hop from the frames' operation tag.
 *
 * A data frame carries the tag of the operation it belongs to (FrameInfo::op, set by the NIC
 * from the posted message; a switch's copies inherit it). Every port that sends a tagged frame
 * adds it to the operation's row; a switch first reports how long the frame waited in its
 * egress queue and how much of that wait its class was paused by PFC. ACKs, CNPs and PFC
 * frames carry no tag and are not counted here (the per-workload TrafficLedger counts them).
 */
class OpLedger : public Object
{
public:
    static TypeId GetTypeId();
    OpLedger();

    /// Distinct links an operation's row names (a unicast path has 3 switch egress links on a
    /// leaf-spine, 5 on a fat-tree); past them the row only says there were more.
    static constexpr uint32_t MAX_PATH_LINKS = 8;
    static constexpr uint32_t NO_LINK = UINT32_MAX;
    /// Tags below this name an operation, tags from it up to FrameInfo::MAX_OP_TAG a phase of
    /// one (an MoE layer's dispatch, an AllReduce's reduce-scatter): the 24 bits a frame
    /// carries split in two, so that a phase's frames count apart from its siblings'.
    static constexpr uint32_t FIRST_PHASE_TAG = 1u << 23;

    struct Row
    {
        uint64_t packets{0};       ///< data packets its senders built (NIC copies count once)
        uint64_t linkBytes{0};     ///< bytes of its data frames on every link (each hop counted)
        uint64_t p2mpLinkBytes{0}; ///< ... of which frames of P2MP channels (SetP2mpOwner)
        uint64_t frameHops{0};     ///< its data frames sent on every link
        uint64_t switchHops{0};    ///< ... of which left a switch's egress queue
        /// Total wait in those queues, in time steps: integers, so that sums merged from
        /// several processes are the one process's sum exactly (QueueNs).
        uint64_t queueSteps{0};
        /// PFC-paused time met, in time steps: the part of those waits during which the
        /// frame's class was paused, plus the time its sender's NIC port was paused while it
        /// had data to send, in whole nanoseconds (PauseNs)
        uint64_t pauseSteps{0};
        double maxQueueNs{0};           ///< the longest single wait
        uint32_t maxQueueLink{NO_LINK}; ///< where it was: of equal ones met at one instant,
                                        ///< the lowest link
        int64_t maxQueueAt{0};          ///< when (time steps)
        uint32_t ecnMarks{0};
        uint32_t drops{0};
        uint32_t retransmissions{0}; ///< packets its sender sent again
        uint64_t lostBytes{0};       ///< loss-tolerant bytes its receivers had skipped
        bool failed{false};          ///< a receiver timeout failed it (fail policy)
        /// distinct switch egress links its frames left by, MAX_PATH_LINKS + 1 for more
        uint32_t pathLinks{0};
        /// the first of them by first use, those first used at one picosecond by link index
        std::array<uint32_t, MAX_PATH_LINKS> path{};
        int64_t lastUse{-1}; ///< when the last named link was first used (time steps)
        uint32_t tied{0};    ///< named links first used then: the end of path

        double QueueNs() const
        {
            return TimeStep(queueSteps).ToDouble(Time::NS);
        }
        double PauseNs() const
        {
            return TimeStep(pauseSteps).ToDouble(Time::NS);
        }
        /// Whether link is named and the row names all its links: noting it changes nothing,
        /// whenever it is used.
        bool Names(uint32_t link) const
        {
            return pathLinks <= MAX_PATH_LINKS
                   && std::find(path.begin(), path.begin() + pathLinks, link)
                          != path.begin() + pathLinks;
        }
        /// Name link, used now, in the path if it is new there (MAX_PATH_LINKS at most, then
        /// "more"); now never goes back.
        void NoteLink(uint32_t link, int64_t now);
        /// Name link after the named ones, if it is new there: a row added whose times are
        /// not known (operator+=).
        void AddLink(uint32_t link);
        /// Add another row's counts (an operation's phases into the operation): sums, the
        /// longer of the longest waits, the other's links not named here yet.
        Row& operator+=(const Row& other);
    };

    /// Frames whose FrameInfo::owner is owner come from P2MP channels (one-to-many messages,
    /// whatever the mechanism): a row counts their bytes apart in p2mpLinkBytes.
    void SetP2mpOwner(uint8_t owner);

    /// Name a link (a port and the node at its far end) and return its id.
    uint32_t AddLink(const std::string& from, const std::string& to);
    /// "from>to"
    std::string LinkName(uint32_t link) const;

    /**
     * A time as a switch stamps a queued frame with it: in 32-bit units of about a
     * nanosecond (2^k time steps), so that a stamp costs no division, and differences of up
     * to some 4 s read right.
     */
    static uint32_t Units(Time t)
    {
        return static_cast<uint32_t>(t.GetTimeStep() >> s_shift);
    }

    /// A difference of Units as a Time.
    static Time Duration(uint32_t units)
    {
        return TimeStep(static_cast<uint64_t>(units) << s_shift);
    }

    /**
     * A switch is handing the tagged frame it just dequeued to its port, which reports it with
     * Sent() next, in the same call: its wait in the egress queue and the paused part of it,
     * in Units.
     */
    void Waited(uint32_t waitUnits, uint32_t pauseUnits, bool marked)
    {
        m_pending = true;
        m_pendingWait = waitUnits;
        m_pendingPause = pauseUnits;
        m_pendingMark = marked;
    }

    /// A sender's NIC built a packet of operation tag, after its class had been paused on the
    /// NIC's port for paused since the packet before (or since it had data to send).
    void Built(uint32_t tag, Time paused)
    {
        Row& r = RowOf(tag);
        ++r.packets;
        if (paused.IsStrictlyPositive())
        {
            r.pauseSteps += NanoSeconds(paused.GetNanoSeconds()).GetTimeStep();
        }
    }

    /// A port put a tagged frame on link.
    void Sent(const FrameInfo& fi, uint32_t link);
    /// A switch dropped a tagged frame.
    void Dropped(const FrameInfo& fi);
    /// A sender sent a packet of operation tag again.
    void Retransmitted(uint32_t tag);
    /// A receiver of operation tag took a PSN skip: bytes of it will not arrive.
    void Lost(uint32_t tag, uint64_t bytes);
    /// Operation tag failed: a receiver it was for will not have it (traced once).
    void Failed(uint32_t tag);

    /// The row of tag (an empty one if nothing was counted).
    const Row& Get(uint32_t tag) const;
    /// The rows of several tags added up (an operation's own and its phases').
    Row Sum(const std::vector<uint32_t>& tags) const;
    /// The path as chains of node names: "leaf0>spine1>leaf1>host9", chains apart by spaces,
    /// and "+more" when it used more links than MAX_PATH_LINKS.
    std::string PathText(const Row& row) const;

    /// Signature of the Hop trace: frame, link, wait and paused time at its queue in ns (0 for
    /// a NIC's port), whether that switch marked it CE.
    typedef void (*HopTracedCallback)(
        const FrameInfo& fi, uint32_t link, double waitNs, double pauseNs, bool marked);
    /// Signature of the Failed trace: the operation's tag.
    typedef void (*FailedTracedCallback)(uint32_t tag);

    /**
     * Also note when each row's named links and its longest wait were first met, so that rows
     * that several processes of a distributed run filled can be merged in time order
     * (MergeFrom). Off in a single process: nothing there needs it.
     */
    void KeepTimes();
    /// Every row this ledger counted something in, with its times (KeepTimes).
    void Pack(PackedBytes& out) const;
    /**
     * Add another process's rows (Pack) to these: sums; the longer of the longest waits (the
     * earlier on a tie); the named links of both in the order they were first used, as one
     * ledger that saw every frame would name them.
     */
    void MergeFrom(PackedBytes& in);

private:
    /// When a row's named links (by position in Row::path) were first used.
    struct RowTimes
    {
        std::array<int64_t, MAX_PATH_LINKS> firstUse{};
    };

    /// The entry of tag in byOp (operation tags) or byPhase (phase tags), grown to hold it.
    template<class T>
    static T& EntryOf(std::vector<T>& byOp, std::vector<T>& byPhase, uint32_t tag)
    {
        std::vector<T>& v = tag < FIRST_PHASE_TAG ? byOp : byPhase;
        const uint32_t i = tag < FIRST_PHASE_TAG ? tag : tag - FIRST_PHASE_TAG;
        if (i >= v.size())
        {
            v.resize(i + 1);
        }
        return v[i];
    }

    RowTimes& TimesOf(uint32_t tag)
    {
        return EntryOf(m_times, m_phaseTimes, tag);
    }

    Row& RowOf(uint32_t tag)
    {
        return EntryOf(m_rows, m_phaseRows, tag);
    }

    void Merge(uint32_t tag, const Row& other, const RowTimes& otherTimes);

    std::vector<Row> m_rows;      ///< by operation tag
    std::vector<Row> m_phaseRows; ///< by phase tag - FIRST_PHASE_TAG
    bool m_keepTimes{false};
    std::vector<RowTimes> m_times;       ///< by operation tag, with KeepTimes
    std::vector<RowTimes> m_phaseTimes;  ///< by phase tag - FIRST_PHASE_TAG, with KeepTimes
    std::array<bool, 256> m_p2mpOwner{}; ///< by FrameInfo::owner
    std::vector<std::pair<std::string, std::string>> m_links;
    bool m_pending{false};
    bool m_pendingMark{false};
    uint32_t m_pendingWait{0};
    uint32_t m_pendingPause{0};
    TracedCallback<const FrameInfo&, uint32_t, double, double, bool> m_hopTrace;
    TracedCallback<uint32_t> m_failedTrace; // operation tag
    static int s_shift;                     ///< Units: time steps >> s_shift
    double m_nsPerUnit;                     ///< a Unit in ns
};

} // namespace ns3

#endif /* MCAST4AI_OP_LEDGER_H */
