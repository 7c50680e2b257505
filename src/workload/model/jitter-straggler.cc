#include "workload/model/jitter-straggler.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "workload/model/straggler-schema-keys.h"
#include "workload/model/straggler-type-registry.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JitterStraggler");
NS_OBJECT_ENSURE_REGISTERED(JitterStraggler);
MCAST4AI_REGISTER_STRAGGLER("jitter",
                            JitterStraggler,
                            &JitterStraggler::Declare,
                            "A rank's compute time before an iteration gets an extra delay drawn "
                            "from `distribution`.");

TypeId
JitterStraggler::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::JitterStraggler")
              .SetParent<Straggler>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<JitterStraggler>()
              .AddAttribute("Probability",
                            "Chance per rank and iteration that a delay is added",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&JitterStraggler::m_probability),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("Distribution",
                            "exponential, uniform or normal (truncated at 0)",
                            StringValue("exponential"),
                            MakeStringAccessor(&JitterStraggler::SetDistribution,
                                               &JitterStraggler::GetDistribution),
                            MakeStringChecker())
              .AddAttribute("A",
                            "exponential, normal: the mean; uniform: the minimum (µs)",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&JitterStraggler::m_a),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("B",
                            "normal: the standard deviation; uniform: the maximum (µs)",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&JitterStraggler::m_b),
                            MakeDoubleChecker<double>(0));
    return tid;
}

void
JitterStraggler::Declare(ConfigSchemaObject& s)
{
    s.BindStruct<StragglerTargetKeys>(); // Targets' keys are read by Straggler::Install
    StragglerSchemaKeys::Targets(s);
    StragglerSchemaKeys::Probability(s);
    ConfigSchemaObject& d = s.Object("distribution")
                                .Required()
                                .Doc("what the extra compute delay is drawn from")
                                .Fields();
    d.Discriminator("type").Required().Doc("the distribution's family").Attribute("Distribution");
    ConfigSchemaObject& exp = d.Variant("exponential", "mean `mean_us`");
    exp.Number("mean_us", ConfigSchemaBounds::Above(0))
        .Required()
        .Unit("µs")
        .Doc("the mean")
        .Attribute("A");
    ConfigSchemaObject& uni = d.Variant("uniform", "between `min_us` and `max_us`");
    uni.Number("min_us", ConfigSchemaBounds::AtLeast(0)).Unit("µs").Doc("least").Attribute("A");
    uni.Number("max_us", ConfigSchemaBounds::Above(0))
        .Required()
        .Unit("µs")
        .Doc("greatest")
        .Attribute("B");
    uni.LessOrEqual("min_us", "max_us");
    ConfigSchemaObject& normal
        = d.Variant("normal", "mean `mean_us`, deviation `stddev_us`, negative draws taken as 0");
    normal.Number("mean_us", ConfigSchemaBounds::AtLeast(0))
        .Required()
        .Unit("µs")
        .Doc("the mean")
        .Attribute("A");
    normal.Number("stddev_us", ConfigSchemaBounds::AtLeast(0))
        .Required()
        .Unit("µs")
        .Doc("the standard deviation")
        .Attribute("B");
}

void
JitterStraggler::SetDistribution(std::string name)
{
    m_distribution = EnumFromName<Distribution>(name);
}

std::string
JitterStraggler::GetDistribution() const
{
    return EnumName(m_distribution);
}

void
JitterStraggler::DoInstall()
{
    // Its keys are its attributes, set before this; A and B are doubles in µs, as the keys
    // give them (a Time would round to the clock's tick).
}

double
JitterStraggler::Sample(double u1, double u2) const
{
    if (m_distribution == UNIFORM)
    {
        return m_a + (m_b - m_a) * u1;
    }
    if (m_distribution == NORMAL)
    {
        // Box-Muller; 1 - u1 is in (0, 1], so the logarithm is finite.
        double z = std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * M_PI * u2);
        return std::max(0.0, m_a + m_b * z);
    }
    return -m_a * std::log(1.0 - u1);
}

Time
JitterStraggler::AdjustCompute(uint32_t workload, uint32_t host, uint32_t iteration, Time compute)
{
    if (!Selects(workload, host)
        || (m_probability < 1 && Draw(workload, host, iteration, 0) >= m_probability))
    {
        return compute;
    }
    double us = Sample(Draw(workload, host, iteration, 1), Draw(workload, host, iteration, 2));
    Time extra = PicoSeconds(std::llround(us * 1e6));
    NS_LOG_LOGIC("host " << host << " iteration " << iteration << ": +" << extra);
    StragglerLog::Event e;
    e.event = "jitter";
    e.workload = workload;
    e.host = host;
    e.iteration = iteration;
    e.delayUs = extra.GetPicoSeconds() / 1e6;
    Record(e);
    return compute + extra;
}

} // namespace ns3
