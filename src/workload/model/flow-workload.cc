#include "workload/model/flow-workload.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "rdma/model/rdma-nic.h"
#include "workload/model/flows-workload-schema.h"
#include "workload/model/workload-type-registry.h"

#include <random>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowWorkload");
NS_OBJECT_ENSURE_REGISTERED(FlowWorkload);
MCAST4AI_REGISTER_WORKLOAD("flows",
                           FlowWorkload,
                           &FlowsWorkloadSchema::Declare,
                           FlowsWorkloadSchema::DOC);

TypeId
FlowWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowWorkload")
                            .SetParent<Workload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<FlowWorkload>();
    return tid;
}

void
FlowWorkload::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_qps.clear();
    Workload::DoDispose();
}

std::vector<FlowSpec>
FlowWorkload::Expand(const WorkloadConfig& w, uint32_t hosts, uint64_t seed)
{
    std::vector<FlowSpec> flows;
    if (w.pattern == FlowPattern::LIST)
    {
        return w.flows;
    }
    if (w.pattern == FlowPattern::PERMUTATION)
    {
        std::vector<uint32_t> peer(hosts);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            peer[i] = i;
        }
        // Sattolo: a uniformly random single cycle, hence a derangement. The draw is ours
        // (not std::uniform_int_distribution) so results do not depend on the C++ library.
        std::mt19937_64 rng(seed);
        for (uint32_t i = hosts - 1; i > 0; --i)
        {
            uint32_t j = static_cast<uint32_t>(rng() % i);
            std::swap(peer[i], peer[j]);
        }
        for (uint32_t i = 0; i < hosts; ++i)
        {
            flows.push_back({i, peer[i], w.bytes, w.startUs});
        }
    }
    else if (w.pattern == FlowPattern::INCAST)
    {
        for (uint32_t s = 1; s <= w.senders; ++s)
        {
            flows.push_back({(w.receiver + s) % hosts, w.receiver, w.bytes, w.startUs});
        }
    }
    return flows;
}

void
FlowWorkload::DoInstall()
{
    const WorkloadConfig& w = m_config;
    m_op = w.op;
    // Independent streams per workload: adding a workload does not reshuffle the others.
    uint64_t wseed = WorkloadSeed();
    m_flows = Expand(w, GetHostCount(), wseed);
    NS_LOG_FUNCTION(this << EnumName(w.pattern) << m_flows.size());
    std::mt19937_64 entropy(wseed ^ 0xE17A0B5ULL);
    for (uint32_t f = 0; f < m_flows.size(); ++f)
    {
        const FlowSpec& spec = m_flows[f];
        Ptr<RdmaNic> srcNic = m_context.nics[spec.src];
        Ptr<RdmaNic> dstNic = m_context.nics[spec.dst];
        auto port = [&entropy]()
        {
            return EntropyPort(entropy());
        };
        m_qps.emplace_back();
        for (uint32_t q = 0; q < w.qpsPerConnection; ++q)
        {
            const uint16_t portA = port();
            const uint16_t portB = port();
            // Null where another process simulates the host: that process makes the end.
            Ptr<QueuePair> a
                = RdmaNic::CreateConnection(srcNic, dstNic, portA, portB, m_context.owner).first;
            if (a)
            {
                a->SetCompletionCallback(MakeCallback(&FlowWorkload::FlowComplete, this, f));
            }
            m_qps.back().push_back(a);
        }
        m_outstanding.push_back(0);
        m_unposted.emplace_back(w.qpsPerConnection, 0);

        Metrics::OpRecord r;
        r.op = f;
        r.rank = spec.src;
        r.src = spec.src;
        r.dst = spec.dst;
        r.bytes = spec.bytes;
        r.receivers = 1;
        m_handles.push_back(AddOp(r));
        Simulator::Schedule(
            Time::FromDouble(spec.startUs, Time::US), &FlowWorkload::StartFlow, this, f);
    }
}

Workload::Refusal
FlowWorkload::SpreadRefusal(const WorkloadConfig& /* w */, Time /* lookahead */) const
{
    return {}; // a flow starts and ends at its source
}

void
FlowWorkload::StartFlow(uint32_t flow)
{
    if (!ActsFor(m_flows[flow].src))
    {
        return; // another process simulates its source
    }
    NS_LOG_LOGIC("flow " << flow << ": " << m_flows[flow].src << " -> " << m_flows[flow].dst << ", "
                         << m_flows[flow].bytes << " B over " << m_qps[flow].size()
                         << " queue pairs");
    StartOp(m_handles[flow]);
    if (IsTimed())
    {
        Activity(m_flows[flow].src, HostActivity::SEND, +1);
        Activity(m_flows[flow].dst, HostActivity::WAIT, +1);
    }
    const uint64_t bytes = m_flows[flow].bytes;
    const uint64_t n = m_qps[flow].size();
    for (uint64_t q = 0; q < n; ++q)
    {
        // An even share per queue pair, the remainder one byte each to the first ones.
        uint64_t share = bytes / n + (q < bytes % n ? 1 : 0);
        if (share == 0 && q > 0)
        {
            continue;
        }
        m_unposted[flow][q] = share;
        for (uint32_t k = 0; k < POSTED_AHEAD && m_unposted[flow][q] > 0; ++k)
        {
            PostNext(flow, q);
        }
    }
}

void
FlowWorkload::PostNext(uint32_t flow, uint32_t q)
{
    // A steering queue pair may change its path between messages: its share goes in
    // messages of the steering's size, posted a few ahead of the acknowledgements so that the
    // queue pair never runs dry and a huge flow never holds millions of posted messages.
    Ptr<QueuePair> qp = m_qps[flow][q];
    Ptr<PathSteering> steering = qp->GetPathSteering();
    uint64_t& left = m_unposted[flow][q];
    uint64_t size = steering && steering->GetMessageBytes() > 0
                        ? std::min(left, steering->GetMessageBytes())
                        : left;
    left -= size;
    ++m_outstanding[flow];
    qp->Post(m_op, size, OpTag(m_handles[flow]));
}

void
FlowWorkload::FlowComplete(uint32_t flow, Ptr<QueuePair> qp, const QueuePair::Message& m)
{
    --m_outstanding[flow];
    const std::vector<Ptr<QueuePair>>& qps = m_qps[flow];
    for (uint32_t q = 0; q < qps.size(); ++q)
    {
        if (qps[q] == qp && m_unposted[flow][q] > 0)
        {
            PostNext(flow, q);
        }
    }
    if (m_outstanding[flow] == 0)
    {
        NS_LOG_LOGIC("flow " << flow << " complete");
        CompleteOp(m_handles[flow]);
        if (IsTimed())
        {
            // Done at the sender: its last message acknowledged.
            Activity(m_flows[flow].src, HostActivity::SEND, -1);
            Activity(m_flows[flow].dst, HostActivity::WAIT, -1);
        }
    }
}

const std::vector<FlowSpec>&
FlowWorkload::GetFlows() const
{
    return m_flows;
}

} // namespace ns3
