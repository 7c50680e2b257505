#include "workload/model/straggler.h"

#include "core/model/mix64.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "workload/model/straggler-schema-keys.h"
#include "workload/model/straggler-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Straggler");
NS_OBJECT_ENSURE_REGISTERED(Straggler);

TypeId
Straggler::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Straggler")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddTraceSource("Fired",
                              "A straggler event fired (it is also a row of stragglers.csv)",
                              MakeTraceSourceAccessor(&Straggler::m_firedTrace),
                              "ns3::Straggler::FiredTracedCallback");
    return tid;
}

void
Straggler::DoDispose()
{
    m_context = Context();
    Object::DoDispose();
}

void
Straggler::Install(const StragglerConfig& config, const Context& context)
{
    NS_LOG_FUNCTION(this << config.type << context.index);
    m_config = config;
    m_context = context;
    StragglerTypeRegistry::Instance().ApplyAttributes(config.type, config.spec, *this);
    const StragglerTargetKeys targets = ReadKeys<StragglerTargetKeys>();
    m_hosts.insert(targets.ranks.begin(), targets.ranks.end());
    for (uint32_t i = 0; !targets.workload.empty() && i < m_context.workloads.size(); ++i)
    {
        if (m_context.workloads[i] == targets.workload)
        {
            m_workload = i;
        }
    }
    DoInstall();
}

Time
Straggler::AdjustCompute(uint32_t workload, uint32_t host, uint32_t iteration, Time compute)
{
    return compute;
}

void
Straggler::Report(std::map<std::string, double>& figures) const
{
}

std::string
Straggler::MultiPlaneRefusal() const
{
    return "";
}

const StragglerConfig&
Straggler::GetConfig() const
{
    return m_config;
}

uint64_t
Straggler::GetEventCount() const
{
    return m_events;
}

void
Straggler::Record(StragglerLog::Event e)
{
    e.time = Simulator::Now();
    e.straggler = m_context.index;
    e.type = m_config.type;
    ++m_events;
    m_context.log->Add(e);
    m_firedTrace(m_context.index, e.host, e.iteration);
}

double
Straggler::Draw(uint64_t a, uint64_t b, uint64_t c, uint64_t k) const
{
    uint64_t x = Mix64(m_context.seed * 0x9E3779B97F4A7C15ULL + m_context.index);
    x = Mix64(x ^ a);
    x = Mix64(x ^ b);
    x = Mix64(x ^ c);
    x = Mix64(x ^ k);
    return UnitInterval(x);
}

bool
Straggler::Selects(uint32_t workload, uint32_t host) const
{
    return (m_workload < 0 || m_workload == workload)
           && (m_hosts.empty() || m_hosts.count(host) != 0);
}

} // namespace ns3
