#include "core/model/process-ranks.h"

#include "ns3/abort.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace
{
uint64_t g_sentMessages = 0;
uint64_t g_sentBytes = 0;
uint64_t g_receivedMessages = 0;
uint64_t g_sentFrames = 0;
uint64_t g_extraEvents = 0;
uint64_t g_syncRounds = 0;
double g_syncSeconds = 0;
uint32_t g_ties = 0; ///< messages to other processes so far, the low bits of their tie keys
} // namespace

#ifdef NS3_MPI
// MPI's profiling interface: a program may define an MPI function and reach the library's
// through its PMPI_ name. ns-3's DistributedSimulatorImpl gathers every rank's time window
// with MPI_Allgather once per synchronisation round.
extern "C" int
MPI_Allgather(const void* sendbuf,
              int sendcount,
              MPI_Datatype sendtype,
              void* recvbuf,
              int recvcount,
              MPI_Datatype recvtype,
              MPI_Comm comm)
{
    ++g_syncRounds;
    const double t0 = PMPI_Wtime();
    const int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    g_syncSeconds += PMPI_Wtime() - t0;
    return rc;
}
#endif

namespace ns3
{

void
ProcessRanks::NoteSent(uint64_t bytes)
{
    ++g_sentMessages;
    g_sentBytes += bytes;
}

void
ProcessRanks::NoteReceived()
{
    ++g_receivedMessages;
}

void
ProcessRanks::NoteFrameSent()
{
    ++g_sentFrames;
}

void
ProcessRanks::NoteExtraEvent()
{
    ++g_extraEvents;
}

uint64_t
ProcessRanks::GetSentFrames()
{
    return g_sentFrames;
}

uint64_t
ProcessRanks::GetExtraEvents()
{
    return g_extraEvents;
}

uint32_t
ProcessRanks::NextTie()
{
    return GetRank() << 24 | (g_ties++ & 0xFFFFFF);
}

uint64_t
ProcessRanks::GetSentMessages()
{
    return g_sentMessages;
}

uint64_t
ProcessRanks::GetSentBytes()
{
    return g_sentBytes;
}

uint64_t
ProcessRanks::GetReceivedMessages()
{
    return g_receivedMessages;
}

uint64_t
ProcessRanks::GetSyncRounds()
{
    return g_syncRounds;
}

double
ProcessRanks::GetSyncSeconds()
{
    return g_syncSeconds;
}

#ifdef NS3_MPI

void
ProcessRanks::Init(int* argc, char*** argv)
{
    // Binds SimulatorImplementationType to ns3::DistributedSimulatorImpl; a run of one
    // process binds its own engine again (ScenarioRunner::Options::engine).
    MpiInterface::Enable(argc, argv);
}

void
ProcessRanks::Finish()
{
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
}

uint32_t
ProcessRanks::GetRank()
{
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
}

uint32_t
ProcessRanks::GetSize()
{
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
}

std::vector<std::vector<uint8_t>>
ProcessRanks::GatherToRoot(const std::vector<uint8_t>& mine)
{
    const uint32_t n = GetSize();
    if (n == 1)
    {
        return {mine};
    }
    MPI_Comm comm = MpiInterface::GetCommunicator();
    int size = static_cast<int>(mine.size());
    NS_ABORT_MSG_IF(mine.size() > static_cast<std::size_t>(INT32_MAX),
                    "ProcessRanks: more than 2 GB to gather from one rank");
    std::vector<int> sizes(n);
    MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(n, 0);
    std::vector<uint8_t> all;
    if (GetRank() == 0)
    {
        long total = 0;
        for (uint32_t r = 0; r < n; ++r)
        {
            offsets[r] = static_cast<int>(total);
            total += sizes[r];
        }
        NS_ABORT_MSG_IF(total > INT32_MAX, "ProcessRanks: more than 2 GB to gather");
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(
        mine.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0, comm);
    std::vector<std::vector<uint8_t>> out;
    if (GetRank() == 0)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            out.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + sizes[r]);
        }
    }
    return out;
}

uint64_t
ProcessRanks::SumOverRanks(uint64_t value)
{
    uint64_t out = value;
    if (GetSize() > 1)
    {
        MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
    }
    return out;
}

#else // one process: Debian's ns-3 has no MPI module

void
ProcessRanks::Init(int* /* argc */, char*** /* argv */)
{
}

void
ProcessRanks::Finish()
{
}

uint32_t
ProcessRanks::GetRank()
{
    return 0;
}

uint32_t
ProcessRanks::GetSize()
{
    return 1;
}

std::vector<std::vector<uint8_t>>
ProcessRanks::GatherToRoot(const std::vector<uint8_t>& mine)
{
    return {mine};
}

uint64_t
ProcessRanks::SumOverRanks(uint64_t value)
{
    return value;
}

#endif

} // namespace ns3
