#include "workload/model/broadcast-workload.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "p2mp/model/p2mp-delivery.h"
#include "workload/model/broadcast-workload-schema.h"
#include "workload/model/collective-algorithms.h"
#include "workload/model/workload-type-registry.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BroadcastWorkload");
NS_OBJECT_ENSURE_REGISTERED(BroadcastWorkload);
MCAST4AI_REGISTER_WORKLOAD("broadcast",
                           BroadcastWorkload,
                           &BroadcastWorkloadSchema::Declare,
                           BroadcastWorkloadSchema::DOC);

TypeId
BroadcastWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BroadcastWorkload")
                            .SetParent<Workload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<BroadcastWorkload>();
    return tid;
}

void
BroadcastWorkload::DoDispose()
{
    if (m_channel)
    {
        m_channel->Dispose();
        m_channel = nullptr;
    }
    if (m_relay)
    {
        m_relay->Dispose();
        m_relay = nullptr;
    }
    Workload::DoDispose();
}

uint16_t
BroadcastWorkload::Entropy()
{
    return EntropyPort(m_rng());
}

void
BroadcastWorkload::DoInstall()
{
    const WorkloadConfig& w = m_config;
    if (w.algorithm != CollectiveAlgorithm::MULTICAST)
    {
        InstallRelay();
        return;
    }
    m_rng.seed(WorkloadSeed());
    for (uint32_t r : w.ranks)
    {
        if (r != w.root)
        {
            m_others.push_back(r);
        }
    }
    std::sort(m_others.begin(), m_others.end());
    m_everyone = std::make_shared<const std::vector<uint32_t>>(m_others);
    // The channel draws its queue pairs' entropy from this workload's stream, interleaved
    // with the receiver sets, as one sender's choices would be.
    m_channel = m_context.delivery->CreateChannel(w.root,
                                                  m_others,
                                                  GroupQpnBase(),
                                                  MakeCallback(&BroadcastWorkload::Entropy, this),
                                                  m_context.p2mpOwner);
    m_channel->SetDoneCallback(MakeCallback(&BroadcastWorkload::Done, this));
    m_channel->SetDeliveredCallback(MakeCallback(&BroadcastWorkload::Delivered, this));
    m_channel->SetDroppedCallback(MakeCallback(&BroadcastWorkload::Dropped, this));

    m_msgs.resize(w.messages);
    for (uint64_t m = 0; m < w.messages; ++m)
    {
        Metrics::OpRecord r;
        r.op = m;
        r.rank = w.root;
        r.src = w.root;
        r.bytes = w.bytes;
        r.receivers = w.receiversPerMessage ? w.receiversPerMessage : m_others.size();
        m_msgs[m].handle = AddOp(r);
    }
    if (!ActsFor(w.root))
    {
        return; // another process simulates the root; this one records its receivers
    }
    Simulator::Schedule(Time::FromDouble(w.startUs, Time::US), &BroadcastWorkload::StartNext, this);
}

void
BroadcastWorkload::InstallRelay()
{
    // The engine's rank 0 is the root; the chain (and the tree's positions) then run through
    // the other ranks in the order the entry lists them. Messages are its iterations.
    WorkloadConfig c = m_config;
    c.ranks = {m_config.root};
    for (uint32_t r : m_config.ranks)
    {
        if (r != m_config.root)
        {
            c.ranks.push_back(r);
        }
    }
    c.iterations = static_cast<uint32_t>(m_config.messages);
    c.computeUs = 0;
    const bool chain = m_config.algorithm == CollectiveAlgorithm::RING;
    m_relay = CreateObject<ScheduleWorkload>();
    m_relay->SetBuilder(
        [chain](uint32_t ranks, uint64_t bytes, uint64_t chunkBytes)
        {
            CollectiveSchedule schedule(ranks);
            CollectiveAlgorithms::TreeBroadcast(schedule,
                                                chain ? CollectiveAlgorithms::Chain(ranks)
                                                      : CollectiveAlgorithms::BinaryTree(ranks),
                                                bytes,
                                                chunkBytes);
            return schedule;
        });
    // Its rows read as a multicast broadcast's: the root (rank 0) sends, the others receive.
    m_relay->SetFirstRankIsSource(true);
    NS_LOG_INFO("broadcast by " << EnumName(m_config.algorithm) << " over " << c.ranks.size()
                                << " ranks");
    ForwardTimeline(m_relay);
    m_relay->Install(c, m_context);
}

Workload::Refusal
BroadcastWorkload::SpreadRefusal(const WorkloadConfig& w, Time /* lookahead */) const
{
    return {w.algorithm == CollectiveAlgorithm::MULTICAST ? "" : "algorithm", ""};
}

Workload::P2mpRoots
BroadcastWorkload::GetP2mpRoots() const
{
    return {"root", {m_config.root}};
}

Ptr<ScheduleWorkload>
BroadcastWorkload::GetRelay() const
{
    return m_relay;
}

void
BroadcastWorkload::Report(std::map<std::string, double>& figures) const
{
    if (m_relay)
    {
        m_relay->Report(figures);
    }
}

std::shared_ptr<const std::vector<uint32_t>>
BroadcastWorkload::DrawReceivers()
{
    uint32_t k = m_config.receiversPerMessage;
    if (k == 0 || k == m_others.size())
    {
        return m_everyone;
    }
    // Partial Fisher-Yates with our own draws: the same sets on every C++ library.
    std::vector<uint32_t> pool = m_others;
    for (uint32_t i = 0; i < k; ++i)
    {
        uint32_t j = i + static_cast<uint32_t>(m_rng() % (pool.size() - i));
        std::swap(pool[i], pool[j]);
    }
    pool.resize(k);
    std::sort(pool.begin(), pool.end());
    return std::make_shared<const std::vector<uint32_t>>(std::move(pool));
}

void
BroadcastWorkload::StartNext()
{
    while (m_inFlight < m_config.window && m_next < m_msgs.size())
    {
        ++m_inFlight;
        Begin(m_next++);
    }
}

void
BroadcastWorkload::Begin(uint32_t m)
{
    Message& msg = m_msgs[m];
    std::shared_ptr<const std::vector<uint32_t>> receivers = DrawReceivers();
    msg.start = Simulator::Now();
    StartOp(msg.handle);
    if (IsTimed())
    {
        Activity(m_config.root, HostActivity::SEND, +1);
        for (uint32_t h : *receivers)
        {
            Activity(h, HostActivity::WAIT, +1);
        }
    }
    m_channel->Send(m, receivers, m_config.bytes, OpTag(msg.handle));
}

void
BroadcastWorkload::Delivered(uint64_t m, uint32_t receiver, uint64_t /* bytes */)
{
    m_context.metrics->AddReceiverCompletion(m_msgs[m].handle, receiver);
    if (IsTimed())
    {
        Activity(receiver, HostActivity::WAIT, -1);
    }
}

void
BroadcastWorkload::Dropped(uint64_t m, uint32_t receiver, uint64_t /* bytes */)
{
    // The operation's lost_bytes has the bytes (P2mpChannel::DropReceiver); the workload
    // counts the receivers its messages completed without.
    m_context.metrics->SetExtra(m_context.index, "receivers_dropped", ++m_receiversDropped);
    if (IsTimed())
    {
        Activity(receiver, HostActivity::WAIT, -1);
    }
}

void
BroadcastWorkload::Done(uint64_t m)
{
    CompleteOp(m_msgs[m].handle);
    if (IsTimed())
    {
        Activity(m_config.root, HostActivity::SEND, -1);
    }
    --m_inFlight;
    uint32_t index = m_context.index;
    m_context.metrics->SetExtra(
        index, "copies_from_source", m_channel->GetCopies() / static_cast<double>(m_next));
    m_context.metrics->SetExtra(
        index, "messages_via_unicast", static_cast<double>(m_channel->GetMessagesViaUnicast()));
    if (m_channel->IsAckFree())
    {
        m_context.metrics->SetExtra(index, "relies_on_lossless_delivery", 1);
    }
    StartNext();
}

Ptr<P2mpChannel>
BroadcastWorkload::GetChannel() const
{
    return m_channel;
}

} // namespace ns3
