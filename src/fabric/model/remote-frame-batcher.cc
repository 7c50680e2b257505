#include "fabric/model/remote-frame-batcher.h"

#ifdef NS3_MPI

#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "fabric/model/fabric-net-device.h"
#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RemoteFrameBatcher");
NS_OBJECT_ENSURE_REGISTERED(RemoteFrameBatcher);

namespace
{
/// What a message's bytes may take: a packet made of them serialises to a few words more.
constexpr std::size_t MESSAGE_BYTES = ProcessRanks::MAX_MESSAGE_BYTES - 64;
} // namespace

TypeId
RemoteFrameBatcher::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RemoteFrameBatcher")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<RemoteFrameBatcher>()
              .AddAttribute("Gather",
                            "Gather the frames to one process into shared messages; false: every "
                            "frame is a message of its own, sent when handed over (ns-3's way). "
                            "Results are the same either way.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RemoteFrameBatcher::m_gather),
                            MakeBooleanChecker());
    return tid;
}

RemoteFrameBatcher::RemoteFrameBatcher()
    : m_lookahead(Time::Max()),
      m_batch(ProcessRanks::GetSize())
{
}

void
RemoteFrameBatcher::AddCable(Time delay)
{
    // ns-3's engine takes the least delay of a cut cable as its lookahead.
    m_lookahead = std::min(m_lookahead, delay);
}

void
RemoteFrameBatcher::DoDispose()
{
    m_batch.clear();
    Object::DoDispose();
}

void
RemoteFrameBatcher::Send(uint32_t rank, RemoteFrameRecord& record, Time due)
{
    m_record.Clear();
    record.Write(m_record);
    const std::vector<uint8_t>& written = m_record.GetBytes();
    NS_ABORT_MSG_IF(written.size() > MESSAGE_BYTES,
                    "RemoteFrameBatcher: a frame of " << record.frame.info.size << " B needs "
                                                      << written.size()
                                                      << " B between processes, more than "
                                                         "ns-3's MPI buffer holds");
    Batch& b = m_batch[rank];
    if (b.bytes.size() + written.size() > MESSAGE_BYTES)
    {
        Flush(rank); // full
    }
    if (b.bytes.empty())
    {
        b.due = due;
        b.node = record.node;
        b.device = record.device;
    }
    b.bytes.insert(b.bytes.end(), written.begin(), written.end());
    ProcessRanks::NoteFrameSent();
    b.due = std::min(b.due, due);
    const Time now = Simulator::Now();
    const Time leave = due - m_lookahead;
    if (!m_gather || leave <= now || (!b.flush.IsExpired() && leave < b.leave))
    {
        // Due too soon to wait (or sooner than the message was to leave): it leaves now, and
        // takes the others with it (early is always safe).
        Flush(rank);
        return;
    }
    if (b.flush.IsExpired())
    {
        // One event per message, never cancelled: a cancelled event still counts as one.
        b.leave = leave;
        b.flush = Simulator::Schedule(leave - now,
                                      [this, rank]()
                                      {
                                          ProcessRanks::NoteExtraEvent();
                                          Flush(rank);
                                      });
        NS_LOG_LOGIC("frames for rank " << rank << " leave at " << leave.As(Time::US));
    }
}

void
RemoteFrameBatcher::Flush(uint32_t rank)
{
    Batch& b = m_batch[rank];
    if (b.bytes.empty())
    {
        return; // a message that left full, or early, took them
    }
    Ptr<Packet> message = Create<Packet>(b.bytes.data(), b.bytes.size());
    const uint32_t bytes = message->GetSerializedSize();
    NS_ABORT_MSG_IF(bytes > ProcessRanks::MAX_MESSAGE_BYTES,
                    "RemoteFrameBatcher: a message of " << b.bytes.size() << " B serialises to "
                                                        << bytes << " B");
    ProcessRanks::NoteSent(bytes);
    NS_LOG_LOGIC("message of " << b.bytes.size() << " B to rank " << rank << ", due "
                               << b.due.As(Time::US));
    MpiInterface::SendPacket(message, b.due, b.node, b.device);
    b.bytes.clear();
}

void
RemoteFrameBatcher::Receive(Ptr<Packet> message)
{
    ProcessRanks::NoteReceived();
    ProcessRanks::NoteExtraEvent();
    std::vector<uint8_t> bytes(message->GetSize());
    message->CopyData(bytes.data(), bytes.size());
    PackedBytes in(std::move(bytes));
    const Time now = Simulator::Now();
    while (!in.AtEnd())
    {
        RemoteFrameRecord r = RemoteFrameRecord::Read(in);
        auto* device = static_cast<FabricNetDevice*>(
            PeekPointer(NodeList::GetNode(r.node)->GetDevice(r.device)));
        NS_LOG_LOGIC("frame of " << r.frame.info.size << " B for node " << r.node << " port "
                                 << r.device << " arrives at " << r.arrival.As(Time::US)
                                 << ", scheduled " << r.delay.As(Time::NS) << " before");
        // Among this process's events of its instant, the arrival takes the place of an event
        // scheduled when its transmission started (QuadHeapScheduler::SetNextRemote).
        QuadHeapScheduler::SetNextRemote(r.delay.GetTimeStep(), r.tie);
        Simulator::ScheduleWithContext(r.node,
                                       r.arrival - now,
                                       [device, frame = std::move(r.frame)]()
                                       {
                                           device->Receive(frame);
                                       });
    }
}

} // namespace ns3

#endif // NS3_MPI
