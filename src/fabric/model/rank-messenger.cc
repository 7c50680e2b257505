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
    m_outbox.clear();
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
    m_outbox.assign(m_mailboxes.size(), {});
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
/// A message's (fragment's) header within an MPI message: handler, tie key, whether more
/// fragments follow, body length.
constexpr uint32_t HEADER_BYTES = 4 + 4 + 1 + 2;
/// What Packet::GetSerializedSize adds to a packet made of bytes (its buffer's, tags' and
/// metadata's sizes), with room to spare.
constexpr uint32_t PACKET_OVERHEAD = 64;
/// Bytes one MPI message carries at most: its sending rank, then messages.
constexpr uint32_t MPI_MESSAGE_BYTES = ProcessRanks::MAX_MESSAGE_BYTES - PACKET_OVERHEAD;
/// Body bytes one message (fragment) carries at most: alone in an MPI message.
constexpr uint32_t FRAGMENT_BYTES = MPI_MESSAGE_BYTES - 1 - HEADER_BYTES;
} // namespace

void
RankMessenger::Send(uint32_t rank, uint32_t handler, const PackedBytes& body)
{
    NS_ASSERT(rank < m_mailboxes.size() && rank != ProcessRanks::GetRank());
    NS_ASSERT(handler & KEYED || handler < m_handlers.size());
    const std::vector<uint8_t>& all = body.GetBytes();
    std::size_t at = 0;
    do
    {
        const std::size_t n = std::min<std::size_t>(FRAGMENT_BYTES, all.size() - at);
        const bool more = at + n < all.size();
        PackedBytes& out = m_outbox[rank];
        if (!out.GetBytes().empty() && out.GetBytes().size() + HEADER_BYTES + n > MPI_MESSAGE_BYTES)
        {
            SendOutbox(rank);
        }
        if (out.GetBytes().empty())
        {
            out.Put<uint8_t>(ProcessRanks::GetRank());
        }
        out.Put(handler);
        out.Put(ProcessRanks::NextTie());
        out.Put<uint8_t>(more);
        out.Put<uint16_t>(n);
        std::copy_n(all.begin() + at, n, out.PutRaw(n));
        at += n;
        ++m_parts;
        NS_LOG_LOGIC("message of " << n << " B for handler " << handler << " on rank " << rank
                                   << (more ? ", more follows" : ""));
    } while (at < all.size());
    if (!m_flushing)
    {
        // The messages of this instant to a rank leave as one MPI message, after the events
        // that send them: all are due one lookahead from now whenever they leave it.
        m_flushing = true;
        ++m_events;
        Simulator::ScheduleNow(&RankMessenger::Flush, this);
    }
}

void
RankMessenger::Flush()
{
    m_flushing = false;
    for (uint32_t r = 0; r < m_outbox.size(); ++r)
    {
        if (!m_outbox[r].GetBytes().empty())
        {
            SendOutbox(r);
        }
    }
}

void
RankMessenger::SendOutbox(uint32_t rank)
{
    const std::vector<uint8_t>& out = m_outbox[rank].GetBytes();
    Ptr<Packet> p = Create<Packet>(out.data(), out.size());
    NS_ABORT_MSG_IF(p->GetSerializedSize() > ProcessRanks::MAX_MESSAGE_BYTES,
                    "RankMessenger: " << out.size() << " B of messages serialise to "
                                      << p->GetSerializedSize() << " B");
    m_outbox[rank].Clear();
    ++m_sent;
#ifdef NS3_MPI
    // Due one lookahead ahead (the least ns-3 allows); each message is handled one picosecond
    // later: see Receive.
    const Ptr<NetDevice>& to = m_mailboxes[rank];
    MpiInterface::SendPacket(
        p, Simulator::Now() + m_delay, to->GetNode()->GetId(), to->GetIfIndex());
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

uint64_t
RankMessenger::GetParts() const
{
    return m_parts;
}

void
RankMessenger::Receive(Ptr<Packet> p)
{
    // ns-3 runs this when it reads the MPI message at a round: where among the instant's
    // events depends on when that was. Each message in it is handled one picosecond later,
    // keyed by its sender's tie, as an event scheduled when the message was sent.
    ++m_events;
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    PackedBytes in(std::move(bytes)); // aborts on a message cut short
    const uint32_t from = in.Take<uint8_t>();
    while (!in.AtEnd())
    {
        const auto handler = in.Take<uint32_t>();
        const auto tie = in.Take<uint32_t>();
        const bool more = in.Take<uint8_t>();
        const auto n = in.Take<uint16_t>();
        const uint8_t* body = in.TakeRaw(n);
        QuadHeapScheduler::SetNextRemote(GetDelay().GetTimeStep(), tie);
        Simulator::Schedule(TimeStep(1),
                            &RankMessenger::Handle,
                            this,
                            handler,
                            from,
                            more,
                            std::vector<uint8_t>(body, body + n));
    }
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
