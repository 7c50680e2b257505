#include "fabric/model/traffic-ledger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrafficLedger);

TypeId
TrafficLedger::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrafficLedger")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<TrafficLedger>();
    return tid;
}

TrafficLedger::TrafficLedger()
{
}

void
TrafficLedger::SetOpLedger(Ptr<OpLedger> ops)
{
    m_ops = ops;
}

void
TrafficLedger::DoDispose()
{
    m_ops = nullptr;
    Object::DoDispose();
}

} // namespace ns3
