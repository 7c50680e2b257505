#include "fabric/model/dwrr-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DwrrScheduler");
NS_OBJECT_ENSURE_REGISTERED(DwrrScheduler);

namespace
{

/// switch.dwrr
void
DeclareKeys(ConfigSchemaObject& dwrr)
{
    dwrr.IntegerArray("weights", "weights", 0, 1000)
        .MinItems(8)
        .MaxItems(8, "one per priority class 0..7")
        .Doc("weight of each priority class 0..7: a busy class gets weight / (sum over the busy "
             "weighted classes) of the port; 0 serves a class strictly before the weighted ones "
             "(the control classes 6 and 7 by default)")
        .Attribute("Weights");
    dwrr.Integer("quantum_bytes", 64, 1u << 20)
        .Unit("bytes")
        .Doc("bytes a class may send per visit and unit of weight (at least one frame)")
        .Attribute("QuantumBytes");
}

} // namespace

MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(EgressScheduler::Registry(),
                                       "dwrr",
                                       DwrrScheduler,
                                       "dwrr",
                                       "the weights of scheduling dwrr",
                                       DeclareKeys);

TypeId
DwrrScheduler::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DwrrScheduler")
              .SetParent<EgressScheduler>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<DwrrScheduler>()
              .AddAttribute(
                  "Weights",
                  "Weights of classes 0..7, comma-separated; 0 puts a class in strict "
                  "priority above the weighted ones",
                  StringValue("1,1,1,1,1,1,0,0"),
                  MakeStringAccessor(&DwrrScheduler::SetWeights, &DwrrScheduler::GetWeights),
                  MakeStringChecker())
              .AddAttribute("QuantumBytes",
                            "Bytes a class's deficit gains per visit and unit of weight",
                            UintegerValue(9216),
                            MakeUintegerAccessor(&DwrrScheduler::m_quantum),
                            MakeUintegerChecker<uint32_t>(1));
    return tid;
}

void
DwrrScheduler::SetWeights(std::string weights)
{
    NS_LOG_FUNCTION(this << weights);
    std::istringstream in(weights);
    std::string item;
    m_strict = 0;
    for (uint32_t c = 0; c < 8; ++c)
    {
        NS_ABORT_MSG_UNLESS(std::getline(in, item, ','), "DWRR weights: 8 needed: " << weights);
        m_weight[c] = static_cast<uint32_t>(std::stoul(item));
        if (m_weight[c] == 0)
        {
            m_strict |= static_cast<uint8_t>(1u << c);
        }
    }
}

std::string
DwrrScheduler::GetWeights() const
{
    std::ostringstream out;
    for (uint32_t c = 0; c < 8; ++c)
    {
        out << (c ? "," : "") << m_weight[c];
    }
    return out.str();
}

void
DwrrScheduler::SetPorts(uint32_t ports)
{
    NS_LOG_FUNCTION(this << ports);
    m_ports.assign(ports, PortState());
}

uint8_t
DwrrScheduler::Pick(uint32_t port, uint8_t eligible)
{
    uint8_t strict = eligible & m_strict;
    if (strict)
    {
        NS_LOG_LOGIC("port " << port << ": strict class " << 31 - __builtin_clz(strict));
        return static_cast<uint8_t>(31 - __builtin_clz(strict));
    }
    PortState& s = m_ports[port];
    // The class in turn keeps the port while its deficit lasts; a class with nothing to send
    // loses what it had, as DRR resets an empty queue's counter.
    for (;;)
    {
        uint8_t c = s.current;
        if ((eligible >> c) & 1)
        {
            if (s.deficit[c] > 0)
            {
                NS_LOG_LOGIC("port " << port << ": class " << +c << ", deficit " << s.deficit[c]);
                return c;
            }
        }
        else
        {
            s.deficit[c] = 0;
        }
        do
        {
            s.current = static_cast<uint8_t>((s.current + 1) & 7);
        } while ((m_strict >> s.current) & 1);
        if ((eligible >> s.current) & 1)
        {
            s.deficit[s.current] += static_cast<int64_t>(m_weight[s.current]) * m_quantum;
        }
    }
}

void
DwrrScheduler::Sent(uint32_t port, uint8_t prio, uint32_t bytes)
{
    if (!((m_strict >> prio) & 1))
    {
        m_ports[port].deficit[prio] -= bytes;
    }
}

} // namespace ns3
