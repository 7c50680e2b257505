#include "workload/model/slow-link-straggler.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "workload/model/straggler-schema-keys.h"
#include "workload/model/straggler-type-registry.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlowLinkStraggler");
NS_OBJECT_ENSURE_REGISTERED(SlowLinkStraggler);
MCAST4AI_REGISTER_STRAGGLER("slow-link",
                            SlowLinkStraggler,
                            &SlowLinkStraggler::Declare,
                            "The link of `host` runs at `factor` times its rate, both directions, "
                            "from `start_us` to `end_us`.");

TypeId
SlowLinkStraggler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SlowLinkStraggler")
                            .SetParent<Straggler>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<SlowLinkStraggler>()
                            .AddAttribute("Host",
                                          "The host whose link to its ToR is slowed",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&SlowLinkStraggler::m_host),
                                          MakeUintegerChecker<uint32_t>())
                            .AddAttribute("Factor",
                                          "What the link's rate is multiplied by, in (0, 1]",
                                          DoubleValue(1.0),
                                          MakeDoubleAccessor(&SlowLinkStraggler::m_factor),
                                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

void
SlowLinkStraggler::Declare(ConfigSchemaObject& s)
{
    s.BindStruct<StragglerWindowKeys>();
    StragglerSchemaKeys::Host(s)
        .Doc("the host whose link to its top-of-rack switch is slowed")
        .Attribute("Host");
    s.Number("factor", ConfigSchemaBounds::Between(0.001, 1))
        .Required()
        .Doc("what the link's rate is multiplied by (0.5 = half rate)")
        .Attribute("Factor");
    StragglerSchemaKeys::Window(s, "the link is slow");
}

std::string
SlowLinkStraggler::MultiPlaneRefusal() const
{
    return "it slows the one link of a host, and an XPU of a multi-plane fabric has one per "
           "plane (which of them it would slow is not a key yet)";
}

void
SlowLinkStraggler::DoInstall()
{
    const StragglerWindowKeys window = ReadKeys<StragglerWindowKeys>();
    Simulator::Schedule(MicroSeconds(1) * window.startUs, &SlowLinkStraggler::Slow, this);
    if (window.endUs > 0)
    {
        Simulator::Schedule(MicroSeconds(1) * window.endUs, &SlowLinkStraggler::Restore, this);
    }
}

void
SlowLinkStraggler::Slow()
{
    Ptr<FabricNetDevice> nic = m_context.nics.at(m_host)->GetDevice();
    Ptr<FabricNetDevice> tor = m_context.torPorts.at(m_host);
    m_nicRate = nic->GetDataRate();
    m_torRate = tor->GetDataRate();
    // A frame already on the wire finishes at the old rate; the next one takes the new.
    nic->SetDataRate(DataRate(std::llround(m_nicRate.GetBitRate() * m_factor)));
    tor->SetDataRate(DataRate(std::llround(m_torRate.GetBitRate() * m_factor)));
    NS_LOG_INFO("host " << m_host << " link at " << nic->GetDataRate());
    Log("link-slowed");
}

void
SlowLinkStraggler::Restore()
{
    m_context.nics.at(m_host)->GetDevice()->SetDataRate(m_nicRate);
    m_context.torPorts.at(m_host)->SetDataRate(m_torRate);
    NS_LOG_INFO("host " << m_host << " link restored to " << m_nicRate);
    Log("link-restored");
}

void
SlowLinkStraggler::Log(const std::string& event)
{
    StragglerLog::Event e;
    e.event = event;
    e.host = m_host;
    e.link = "host" + std::to_string(m_host) + "-tor";
    e.factor = m_factor;
    Record(e);
}

} // namespace ns3
