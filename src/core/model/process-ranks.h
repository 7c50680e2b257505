/*
 * The processes one run is spread over (ns-3's MPI interface, when ns-3 was built with it):
 * which one this is, how many there are, and the few collective steps the runner takes
 * before and after the simulation. Without MPI there is one process, rank 0.
 */
#ifndef MCAST4AI_PROCESS_RANKS_H
#define MCAST4AI_PROCESS_RANKS_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief This process's rank among the processes of a distributed run.
 *
 * Init() must come before the first Simulator call: it starts MPI and binds ns-3's
 * distributed engine (DistributedSimulatorImpl) when there is more than one process. The
 * collective calls (GatherToRoot, SumOverRanks) block until every rank makes
 * them, so they are for before Simulator::Run and after it, never inside an event: ranks
 * inside the engine synchronise on their own and would wait forever.
 */
class ProcessRanks
{
public:
    /// Start MPI (when available): mpirun's processes learn their rank and number.
    static void Init(int* argc, char*** argv);
    /// Stop MPI; after the last simulation of the process.
    static void Finish();
    static uint32_t GetRank();
    static uint32_t GetSize();

    /// Each rank's bytes, at rank 0 in rank order (its own first); other ranks get nothing.
    static std::vector<std::vector<uint8_t>> GatherToRoot(const std::vector<uint8_t>& mine);
    /// The sum of value over the ranks, at every rank.
    static uint64_t SumOverRanks(uint64_t value);

    /// A message of frames this process sent to another (cut cables'), of bytes bytes.
    static void NoteSent(uint64_t bytes);
    /// A message of frames this process received from another.
    static void NoteReceived();
    /// A frame this process sent to another over a cut cable.
    static void NoteFrameSent();
    /**
     * An event that spreading the run adds to the model's: a frame's hand-over to the other
     * process, a message's flush or receipt. A run's `events` leaves them out.
     */
    static void NoteExtraEvent();
    static uint64_t GetSentFrames();
    static uint64_t GetExtraEvents();
    static uint64_t GetSentMessages();
    static uint64_t GetSentBytes();
    static uint64_t GetReceivedMessages();
    /**
     * The tie key of this process's next message to another (frame or not): its rank in the
     * high 7 bits, then its count. Ties of one instant order the messages of several processes
     * the same way on every run (QuadHeapScheduler::SetNextRemote).
     */
    static uint32_t NextTie();
    /// The most processes NextTie tells apart (7 bits of rank).
    static constexpr uint32_t MAX_RANKS = 128;
    /// The most bytes a packet may serialise to between processes: ns-3.37's receive buffer
    /// (MAX_MPI_MSG_SIZE, 2,000 B) less the time, node and device its SendPacket adds.
    static constexpr uint32_t MAX_MESSAGE_BYTES = 2000 - 16;
    /**
     * Synchronisation rounds of ns-3's distributed engine so far: the MPI_Allgather calls of
     * this process, counted through MPI's profiling interface (the engine makes one per round,
     * the module none). 0 without MPI.
     */
    static uint64_t GetSyncRounds();
    /// Wall-clock seconds this process spent in those rounds: waiting for the others.
    static double GetSyncSeconds();
};

} // namespace ns3

#endif // MCAST4AI_PROCESS_RANKS_H
