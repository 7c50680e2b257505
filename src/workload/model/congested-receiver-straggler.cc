#include "workload/model/congested-receiver-straggler.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "workload/model/straggler-schema-keys.h"
#include "workload/model/straggler-type-registry.h"
#include "workload/model/workload-schema-keys.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestedReceiverStraggler");
NS_OBJECT_ENSURE_REGISTERED(CongestedReceiverStraggler);
MCAST4AI_REGISTER_STRAGGLER("congested-receiver",
                            CongestedReceiverStraggler,
                            &CongestedReceiverStraggler::Declare,
                            "An incast of back-to-back RDMA WRITEs toward `host` from `senders` "
                            "other hosts, from `start_us` to `end_us`.");

namespace
{

/// The keys of a congested-receiver entry of its own (`host` and `bytes` are attributes).
struct CongestedReceiverKeys
{
    uint32_t senders{0};
    std::vector<uint32_t> from; ///< empty: `senders` drawn
};

} // namespace

TypeId
CongestedReceiverStraggler::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::CongestedReceiverStraggler")
              .SetParent<Straggler>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<CongestedReceiverStraggler>()
              .AddAttribute("Host",
                            "The host the incast goes to",
                            UintegerValue(0),
                            MakeUintegerAccessor(&CongestedReceiverStraggler::m_host),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("MessageBytes",
                            "Bytes of each RDMA WRITE; each sender keeps one in flight",
                            UintegerValue(1048576),
                            MakeUintegerAccessor(&CongestedReceiverStraggler::m_bytes),
                            MakeUintegerChecker<uint64_t>(1));
    return tid;
}

void
CongestedReceiverStraggler::Declare(ConfigSchemaObject& s)
{
    using json = nlohmann::json;
    s.BindStruct<CongestedReceiverKeys>();
    StragglerSchemaKeys::Host(s).Doc("the congested receiver").Attribute("Host");
    s.Integer("senders", 1)
        .Default(4)
        .Doc("how many other hosts send to it, drawn at random (fixed by the seed) unless "
             "`from` lists them")
        .Bind(&CongestedReceiverKeys::senders);
    s.IntegerArray("from", "host indices")
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Distinct()
        .MinItems(1)
        .Doc("the senders; `senders` of them drawn at random if left out")
        .Bind(&CongestedReceiverKeys::from);
    s.Integer("bytes", 1)
        .Default(1048576)
        .Unit("bytes")
        .Doc("bytes of each RDMA WRITE; every sender keeps one in flight, back to back")
        .Attribute("MessageBytes");
    StragglerSchemaKeys::Window(s, "the incast");
    s.Rule(
        "senders",
        {"senders", "host"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* senders = v.Get("senders");
            const ConfigSchemaDerived* hosts = v.Variable(WorkloadSchemaKeys::HOSTS);
            if (!senders || !hosts || v.Get("from")
                || senders->get<uint64_t>() < hosts->value.get<uint64_t>())
            {
                return std::nullopt;
            }
            return "must be below the number of hosts (" + hosts->value.dump()
                   + "): the others send, got " + senders->dump();
        },
        "senders < hosts");
    s.Rule(
        "from",
        {"from", "host"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* from = v.Get("from");
            const json* host = v.Get("host");
            if (!from || !host || std::find(from->begin(), from->end(), *host) == from->end())
            {
                return std::nullopt;
            }
            return "must not hold " + v.Path("host") + " (" + host->dump()
                   + "): a host does not send to itself";
        },
        "from does not hold host");
}

std::string
CongestedReceiverStraggler::MultiPlaneRefusal() const
{
    return "its cross-traffic is not spread over planes yet: its queue pairs would use "
           "plane 0 alone";
}

void
CongestedReceiverStraggler::DoInstall()
{
    const CongestedReceiverKeys keys = ReadKeys<CongestedReceiverKeys>();
    const StragglerWindowKeys window = ReadKeys<StragglerWindowKeys>();
    const uint32_t hosts = static_cast<uint32_t>(m_context.nics.size());
    if (!keys.from.empty())
    {
        m_senders = keys.from;
    }
    else
    {
        // A partial Fisher-Yates shuffle of the other hosts, with counter-based draws.
        std::vector<uint32_t> others;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            if (h != m_host)
            {
                others.push_back(h);
            }
        }
        const uint32_t n = keys.senders;
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t j = i + static_cast<uint32_t>(Draw(i, 0, 0) * (others.size() - i));
            std::swap(others[i], others[j]);
            m_senders.push_back(others[i]);
        }
    }
    for (uint32_t i = 0; i < m_senders.size(); ++i)
    {
        uint32_t s = m_senders[i];
        auto port = [this, i](uint64_t k)
        {
            return static_cast<uint16_t>(49152 + static_cast<uint32_t>(Draw(i, 1, k) * 16384));
        };
        Ptr<QueuePair> a = m_context.nics[s]->CreateQp(m_host, port(0), m_context.owner);
        Ptr<QueuePair> b = m_context.nics[m_host]->CreateQp(s, port(1), m_context.owner);
        RdmaNic::Connect(a, b);
        a->SetCompletionCallback(MakeCallback(&CongestedReceiverStraggler::Completed, this));
        b->SetReceiveCallback(MakeCallback(&CongestedReceiverStraggler::Received, this));
        m_qps.push_back(a);
    }
    Simulator::Schedule(MicroSeconds(1) * window.startUs, &CongestedReceiverStraggler::Start, this);
    if (window.endUs > 0)
    {
        Simulator::Schedule(
            MicroSeconds(1) * window.endUs, &CongestedReceiverStraggler::Stop, this);
    }
}

void
CongestedReceiverStraggler::DoDispose()
{
    m_qps.clear();
    Straggler::DoDispose();
}

const std::vector<uint32_t>&
CongestedReceiverStraggler::GetSenders() const
{
    return m_senders;
}

void
CongestedReceiverStraggler::Report(std::map<std::string, double>& figures) const
{
    figures["senders"] = m_senders.size();
    figures["bytes_delivered"] = m_delivered;
}

uint64_t
CongestedReceiverStraggler::GetBytesDelivered() const
{
    return m_delivered;
}

void
CongestedReceiverStraggler::Start()
{
    NS_LOG_INFO("incast of " << m_senders.size() << " senders toward host " << m_host);
    m_running = true;
    Log("incast-started");
    for (Ptr<QueuePair> qp : m_qps)
    {
        qp->Post(RdmaOperation::WRITE, m_bytes);
    }
}

void
CongestedReceiverStraggler::Stop()
{
    NS_LOG_INFO("incast toward host " << m_host << " ends; messages in flight finish");
    m_running = false;
    Log("incast-ended");
}

void
CongestedReceiverStraggler::Completed(Ptr<QueuePair> qp, const QueuePair::Message& m)
{
    if (m_running)
    {
        qp->Post(RdmaOperation::WRITE, m_bytes);
    }
}

void
CongestedReceiverStraggler::Received(Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t psn)
{
    m_delivered += bytes;
}

void
CongestedReceiverStraggler::Log(const std::string& event)
{
    StragglerLog::Event e;
    e.event = event;
    e.host = m_host;
    Record(e);
}

} // namespace ns3
