#include "fabric/model/switch-stage.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchStage");
NS_OBJECT_ENSURE_REGISTERED(SwitchStage);

TypeId
SwitchStage::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchStage").SetParent<Object>().SetGroupName("Mcast4ai");
    return tid;
}

void
SwitchStage::Attach(FabricSwitch* sw)
{
    NS_LOG_FUNCTION(this << sw);
    m_switch = sw;
}

bool
SwitchStage::SeesDepartures() const
{
    return false;
}

void
SwitchStage::Departing(uint32_t /* inPort */,
                       uint32_t /* outPort */,
                       uint8_t /* prio */,
                       FabricFrame& /* frame */,
                       Time /* now */)
{
}

void
SwitchStage::AddCounters(CounterSet& /* counters */) const
{
}

void
SwitchStage::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_switch = nullptr;
    Object::DoDispose();
}

} // namespace ns3
