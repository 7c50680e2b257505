#include "workload/model/slow-node-straggler.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "workload/model/straggler-schema-keys.h"
#include "workload/model/straggler-type-registry.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlowNodeStraggler");
NS_OBJECT_ENSURE_REGISTERED(SlowNodeStraggler);
MCAST4AI_REGISTER_STRAGGLER("slow-node",
                            SlowNodeStraggler,
                            &SlowNodeStraggler::Declare,
                            "A rank computes `factor` times longer before an iteration, with "
                            "`probability` per iteration.");

TypeId
SlowNodeStraggler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SlowNodeStraggler")
                            .SetParent<Straggler>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<SlowNodeStraggler>()
                            .AddAttribute("Probability",
                                          "Chance per rank and iteration that the rank is slow",
                                          DoubleValue(1.0),
                                          MakeDoubleAccessor(&SlowNodeStraggler::m_probability),
                                          MakeDoubleChecker<double>(0, 1))
                            .AddAttribute("Factor",
                                          "What a slow rank's compute time is multiplied by",
                                          DoubleValue(1.0),
                                          MakeDoubleAccessor(&SlowNodeStraggler::m_factor),
                                          MakeDoubleChecker<double>(1));
    return tid;
}

void
SlowNodeStraggler::Declare(ConfigSchemaObject& s)
{
    s.BindStruct<StragglerTargetKeys>(); // Targets' keys are read by Straggler::Install
    StragglerSchemaKeys::Targets(s);
    StragglerSchemaKeys::Probability(s);
    s.Number("factor", ConfigSchemaBounds::Between(1, 1000))
        .Required()
        .Doc("what the compute time of a slow rank is multiplied by (its workload's "
             "compute_us; 10 = ten times slower)")
        .Attribute("Factor");
}

void
SlowNodeStraggler::DoInstall()
{
    // Its keys are its attributes, set before this.
}

Time
SlowNodeStraggler::AdjustCompute(uint32_t workload, uint32_t host, uint32_t iteration, Time compute)
{
    if (!Selects(workload, host)
        || (m_probability < 1 && Draw(workload, host, iteration) >= m_probability))
    {
        return compute;
    }
    Time slow = PicoSeconds(std::llround(compute.GetPicoSeconds() * m_factor));
    NS_LOG_LOGIC("host " << host << " iteration " << iteration << ": compute " << compute << " -> "
                         << slow);
    StragglerLog::Event e;
    e.event = "slow-compute";
    e.workload = workload;
    e.host = host;
    e.iteration = iteration;
    e.factor = m_factor;
    e.delayUs = (slow - compute).GetPicoSeconds() / 1e6;
    Record(e);
    return slow;
}

} // namespace ns3
