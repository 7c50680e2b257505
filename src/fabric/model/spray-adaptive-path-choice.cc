#include "fabric/model/spray-adaptive-path-choice.h"

#include "core/model/ns3-compat.h"
#include "fabric/model/fabric-switch.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SprayAdaptivePathChoice");
NS_OBJECT_ENSURE_REGISTERED(SprayAdaptivePathChoice);

namespace
{

/// load_balancing keys given only with mode spray-adaptive.
void
DeclareKeys(ConfigSchemaObject& lb)
{
    lb.Enum("tie_break", {"random", "first"})
        .Auto("random")
        .Doc("spray-adaptive: equally loaded ports are drawn uniformly (random) or the first in "
             "the route's order is taken (first)")
        .Attribute("TieBreak");
    lb.Number("flowlet_gap_us", ConfigSchemaBounds::AtLeast(0))
        .Auto("0: every packet chooses")
        .Unit("us")
        .Doc("spray-adaptive: a flow keeps its port until it pauses this long (a flowlet)")
        .Attribute("FlowletGap");
}

} // namespace

MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(
    PathChoice::Registry(), "spray-adaptive", SprayAdaptivePathChoice, "", "", DeclareKeys);

TypeId
SprayAdaptivePathChoice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SprayAdaptivePathChoice")
              .SetParent<PathChoice>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<SprayAdaptivePathChoice>()
              .AddAttribute("TieBreak",
                            "How a tie between equally loaded ports is broken",
                            EnumValue(TIE_RANDOM),
                            MakeEnumAccessorFor<SprayAdaptivePathChoice::TieBreak>(
                                &SprayAdaptivePathChoice::m_tieBreak),
                            MakeEnumChecker(TIE_RANDOM, "random", TIE_FIRST, "first"))
              .AddAttribute("FlowletGap",
                            "Idle time after which a flow may change port (0: every packet "
                            "chooses)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&SprayAdaptivePathChoice::m_flowletGap),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("FlowletTableSize",
                            "Flows tracked per switch (a direct-mapped table)",
                            UintegerValue(4096),
                            MakeUintegerAccessor(&SprayAdaptivePathChoice::m_tableSize),
                            MakeUintegerChecker<uint32_t>(1));
    return tid;
}

uint16_t
SprayAdaptivePathChoice::LeastLoaded(const std::vector<uint16_t>& hops)
{
    // The queues as any port owner reports them: bytes waiting at the egress port.
    const FabricPortOwner* owner = m_switch;
    uint64_t best = UINT64_MAX;
    uint32_t ties = 0;
    uint16_t chosen = hops[0];
    for (uint16_t port : hops)
    {
        uint64_t load = owner->GetQueuedBytes(port);
        if (load < best)
        {
            best = load;
            chosen = port;
            ties = 1;
        }
        else if (load == best && m_tieBreak == TIE_RANDOM)
        {
            // Reservoir sampling: the k-th tied port replaces the choice with probability 1/k,
            // so every tied port is equally likely after one pass.
            ++ties;
            if (DrawBelow(ties) == 0)
            {
                chosen = port;
            }
        }
    }
    return chosen;
}

uint16_t
SprayAdaptivePathChoice::Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops)
{
    if (m_flowletGap.IsZero())
    {
        uint16_t port = LeastLoaded(hops);
        NS_LOG_LOGIC("adaptive " << fi.DstHost() << " -> port " << port);
        return port;
    }
    if (m_flowlets.empty())
    {
        m_flowlets.resize(m_tableSize);
    }
    // The flow is its 5-tuple, as ECMP hashes it; 0 marks an empty slot.
    uint64_t key = FlowHash(fi) | 1;
    Flowlet& f = m_flowlets[key % m_tableSize];
    int64_t now = Simulator::Now().GetPicoSeconds();
    if (f.key == key && now - f.lastPs < m_flowletGap.GetPicoSeconds())
    {
        f.lastPs = now;
        ++m_flowletHits;
        return f.port;
    }
    f.key = key;
    f.lastPs = now;
    f.port = LeastLoaded(hops);
    ++m_flowletsStarted;
    NS_LOG_LOGIC("flowlet " << fi.DstHost() << " -> port " << f.port);
    return f.port;
}

uint64_t
SprayAdaptivePathChoice::GetFlowletHits() const
{
    return m_flowletHits;
}

uint64_t
SprayAdaptivePathChoice::GetFlowletsStarted() const
{
    return m_flowletsStarted;
}

} // namespace ns3
