#include "fabric/model/rank-messenger.h"

#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankMessenger");
NS_OBJECT_ENSURE_REGISTERED(RankMessenger);

TypeId
RankMessenger::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RankMessenger")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<RankMessenger>();
    return tid;
}

void
RankMessenger::DoDispose()
{
    m_mailboxes.clear();
    m_handlers.clear();
    m_keyed.clear();
    m_partial.clear();
    Object::DoDispose();
}

void
RankMessenger::Install(std::vector<Ptr<NetDevice>> mailboxes, Time delay)
{
    NS_ABORT_MSG_IF(mailboxes.size() != ProcessRanks::GetSize(),
                    "RankMessenger: one mailbox per rank");
    NS_ABORT_MSG_IF(!delay.IsStrictlyPositive(), "RankMessenger: a message needs a delay");
    m_mailboxes = std::move(mailboxes);
    m_delay = delay;
    m_partial.assign(m_mailboxes.size(), {});
#ifdef NS3_MPI
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(MakeCallback(&RankMessenger::Receive, this));
    m_mailboxes[ProcessRanks::GetRank()]->AggregateObject(receiver);
#else
    NS_ABORT_MSG("RankMessenger: a distributed run needs ns-3 built with MPI");
#endif
}

uint32_t
RankMessenger::AddHandler(Handler handler)
{
    m_handlers.push_back(handler);
    return m_handlers.size() - 1;
}

uint32_t
RankMessenger::AddHandler(Handler handler, uint32_t key)
{
    NS_ABORT_MSG_IF(key & KEYED, "RankMessenger: handler key " << key << " too large");
    NS_ABORT_MSG_UNLESS(m_keyed.emplace(key, handler).second,
                        "RankMessenger: two handlers with key " << key);
    return KEYED | key;
}

namespace
{
/// A message's header: handler, tie key, sending rank and whether more fragments follow.
constexpr uint32_t HEADER_BYTES = 4 + 4 + 1 + 1;
/// What Packet::GetSerializedSize adds to a packet made of bytes (its buffer's, tags' and
/// metadata's sizes), with room to spare.
constexpr uint32_t PACKET_OVERHEAD = 64;
/// Body bytes one message (fragment) carries at most.
constexpr uint32_t FRAGMENT_BYTES
    = ProcessRanks::MAX_MESSAGE_BYTES - PACKET_OVERHEAD - HEADER_BYTES;
} // namespace

void
RankMessenger::Send(uint32_t rank, uint32_t handler, const PackedBytes& body)
{
    NS_ASSERT(rank < m_mailboxes.size() && rank != ProcessRanks::GetRank());
    NS_ASSERT(handler & KEYED || handler < m_handlers.size());
#ifdef NS3_MPI
    const std::vector<uint8_t>& all = body.GetBytes();
    const Ptr<NetDevice>& to = m_mailboxes[rank];
    std::size_t at = 0;
    do
    {
        const std::size_t n = std::min<std::size_t>(FRAGMENT_BYTES, all.size() - at);
        const bool more = at + n < all.size();
        PackedBytes message;
        message.Put(handler);
        message.Put(ProcessRanks::NextTie());
        message.Put<uint8_t>(ProcessRanks::GetRank());
        message.Put<uint8_t>(more);
        std::vector<uint8_t> bytes = message.GetBytes();
        bytes.insert(bytes.end(), all.begin() + at, all.begin() + at + n);
        at += n;
        Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
        NS_ABORT_MSG_IF(p->GetSerializedSize() > ProcessRanks::MAX_MESSAGE_BYTES,
                        "RankMessenger: a fragment of " << bytes.size() << " B serialises to "
                                                        << p->GetSerializedSize() << " B");
        NS_LOG_LOGIC("message of " << bytes.size() << " B for handler " << handler << " on rank "
                                   << rank << (more ? ", more follows" : ""));
        ++m_sent;
        // Due one lookahead ahead (the least ns-3 allows), handled one picosecond later: see
        // Receive.
        MpiInterface::SendPacket(
            p, Simulator::Now() + m_delay, to->GetNode()->GetId(), to->GetIfIndex());
    } while (at < all.size());
#endif
}

void
RankMessenger::SendToOthers(uint32_t handler, const PackedBytes& body)
{
    for (uint32_t r = 0; r < m_mailboxes.size(); ++r)
    {
        if (r != ProcessRanks::GetRank())
        {
            Send(r, handler, body);
        }
    }
}

Time
RankMessenger::GetDelay() const
{
    return m_delay + TimeStep(1);
}

uint64_t
RankMessenger::GetEvents() const
{
    return m_events;
}

uint64_t
RankMessenger::GetSent() const
{
    return m_sent;
}

void
RankMessenger::Receive(Ptr<Packet> p)
{
    // ns-3 runs this when it reads the message at a round: where among the instant's events
    // depends on when that was. The handler runs one picosecond later, keyed by its sender's
    // tie, as an event scheduled when the message was sent.
    ++m_events;
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    PackedBytes header(std::vector<uint8_t>(bytes.begin(), bytes.begin() + HEADER_BYTES));
    const auto handler = header.Take<uint32_t>();
    const auto tie = header.Take<uint32_t>();
    const auto from = header.Take<uint8_t>();
    const bool more = header.Take<uint8_t>();
    bytes.erase(bytes.begin(), bytes.begin() + HEADER_BYTES);
    QuadHeapScheduler::SetNextRemote(GetDelay().GetTimeStep(), tie);
    Simulator::Schedule(TimeStep(1),
                        &RankMessenger::Handle,
                        this,
                        handler,
                        static_cast<uint32_t>(from),
                        more,
                        std::move(bytes));
}

void
RankMessenger::Handle(uint32_t handler, uint32_t from, bool more, const std::vector<uint8_t>& bytes)
{
    ++m_events;
    std::vector<uint8_t>& partial = m_partial.at(from);
    partial.insert(partial.end(), bytes.begin(), bytes.end());
    if (more)
    {
        return; // the rest comes next, at this instant
    }
    PackedBytes body(std::move(partial));
    partial.clear();
    // A keyed handler's object may be made at this instant, before this event runs: look it
    // up now.
    if (handler & KEYED)
    {
        auto it = m_keyed.find(handler & ~KEYED);
        NS_ABORT_MSG_IF(it == m_keyed.end(),
                        "RankMessenger: a message for handler key "
                            << (handler & ~KEYED) << ", which this process has not made");
        it->second(body);
        return;
    }
    NS_ABORT_MSG_IF(handler >= m_handlers.size(), "RankMessenger: no handler " << handler);
    m_handlers[handler](body);
}

} // namespace ns3
