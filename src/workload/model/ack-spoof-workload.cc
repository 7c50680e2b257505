#include "workload/model/ack-spoof-workload.h"

#include "core/model/mix64.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "rdma/model/queue-pair.h"
#include "wire/model/bth-header.h"
#include "wire/model/fabric-address.h"
#include "workload/model/workload-schema-keys.h"
#include "workload/model/workload-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AckSpoofWorkload");
NS_OBJECT_ENSURE_REGISTERED(AckSpoofWorkload);
MCAST4AI_REGISTER_WORKLOAD("ack-spoof",
                           AckSpoofWorkload,
                           &AckSpoofWorkload::Declare,
                           "An attacker host forging ACKs for a P2MP sender's group in its "
                           "receivers' names (aggregated-ACK spoofing); it posts no operations.");

namespace
{

/// The keys of an ack-spoof entry of its own, as Declare binds them (`start_us` is
/// WorkloadConfig's). 0 or empty: a key left out.
struct AckSpoofKeys
{
    uint32_t host{0};
    uint32_t root{0};
    std::vector<uint32_t> spoof;
    uint64_t psnOffset{0};
    double intervalUs{0};
    double endUs{0};
};

} // namespace

TypeId
AckSpoofWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AckSpoofWorkload")
                            .SetParent<Workload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<AckSpoofWorkload>();
    return tid;
}

void
AckSpoofWorkload::Declare(ConfigSchemaObject& w)
{
    w.BindStruct<AckSpoofKeys>();
    w.Integer("host")
        .Required()
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Doc("the attacker")
        .Bind(&AckSpoofKeys::host);
    w.Integer("root")
        .Default(0)
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Doc("the P2MP sender whose groups it attacks (its multicast queue pairs; a unicast "
             "mechanism has none)")
        .Bind(&AckSpoofKeys::root);
    w.IntegerArray("spoof", "host indices")
        .Auto("every host but host and root")
        .MinItems(1)
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Distinct()
        .Doc("the receivers whose names its ACKs carry (IPv4 source address)")
        .Bind(&AckSpoofKeys::spoof);
    w.Integer("psn_offset", 0, BthHeader::PSN_MASK >> 2)
        .Default(0)
        .Doc("the PSN each forged ACK claims: the root's highest sent PSN plus this (0: all "
             "that was sent, the most a receiver could honestly acknowledge; more: data never "
             "sent). At most 2^22 - 1, a quarter of the 24-bit PSN space, so that it never "
             "wraps to look like an old PSN")
        .Bind(&AckSpoofKeys::psnOffset);
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("first forgery")
        .Bind(&WorkloadConfig::startUs);
    w.Number("interval_us", ConfigSchemaBounds::Above(0))
        .Default(1.0)
        .Unit("µs")
        .Doc("time between rounds of forgeries (one per spoofed receiver and attacked queue "
             "pair each round)")
        .Bind(&AckSpoofKeys::intervalUs);
    w.Number("end_us", ConfigSchemaBounds::Above(0))
        .Unit("µs")
        .Note("none: until the run ends")
        .Doc("no forgery after it")
        .Bind(&AckSpoofKeys::endUs);
    WorkloadSchemaKeys::EndAfterStart(w);
    w.Different("host", "root", "the attacker is not the sender");
}

void
AckSpoofWorkload::DoInstall()
{
    const AckSpoofKeys keys = ReadKeys<AckSpoofKeys>();
    m_host = keys.host;
    m_root = keys.root;
    if (!keys.spoof.empty())
    {
        m_spoof = keys.spoof;
    }
    else
    {
        for (uint32_t h = 0; h < GetHostCount(); ++h)
        {
            if (h != m_host && h != m_root)
            {
                m_spoof.push_back(h);
            }
        }
    }
    m_psnOffset = keys.psnOffset;
    m_interval = MicroSeconds(1) * keys.intervalUs;
    if (keys.endUs > 0)
    {
        m_end = MicroSeconds(1) * keys.endUs;
    }
    m_tick = Simulator::Schedule(MicroSeconds(1) * m_config.startUs, &AckSpoofWorkload::Tick, this);
}

void
AckSpoofWorkload::Tick()
{
    if (!m_end.IsZero() && Simulator::Now() > m_end)
    {
        return;
    }
    Ptr<RdmaNic> root = m_context.nics[m_root];
    Ptr<RdmaNic> nic = m_context.nics[m_host];
    for (uint32_t q = 0; q < root->GetNQps(); ++q)
    {
        Ptr<QueuePair> qp = root->GetQpByIndex(q);
        if (!qp->IsMulticast() || qp->GetUnackedPsn() >= qp->GetSentPsnEnd())
        {
            continue; // nothing in flight to free early
        }
        uint64_t psn = qp->GetSentPsnEnd() - 1 + m_psnOffset;
        for (uint32_t s : m_spoof)
        {
            RocePacketBuilder::Addressing a;
            a.srcIp = FabricAddress::HostIpv4(s).Get();
            a.dstIp = FabricAddress::HostIpv4(m_root).Get();
            a.srcPort = EntropyPort(Mix64(WorkloadSeed() ^ s));
            a.priority = nic->GetControlPriority();
            nic->SendAckAs(a,
                           qp->GetGroupQpn(),
                           static_cast<uint32_t>(psn & BthHeader::PSN_MASK),
                           false,
                           m_context.owner);
            ++m_forged;
        }
    }
    NS_LOG_LOGIC("host " << m_host << ": " << m_forged << " forged ACKs so far");
    m_tick = Simulator::Schedule(m_interval, &AckSpoofWorkload::Tick, this);
}

void
AckSpoofWorkload::Report(std::map<std::string, double>& figures) const
{
    figures["forged_acks"] = static_cast<double>(m_forged);
}

uint64_t
AckSpoofWorkload::GetForged() const
{
    return m_forged;
}

void
AckSpoofWorkload::DoDispose()
{
    m_tick.Cancel();
    Workload::DoDispose();
}

} // namespace ns3
