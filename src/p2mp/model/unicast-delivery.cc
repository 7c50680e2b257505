#include "p2mp/model/unicast-delivery.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UnicastDelivery);
MCAST4AI_REGISTER_NAMED_TYPE(P2mpDelivery::Registry(), "unicast", UnicastDelivery);

TypeId
UnicastDelivery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UnicastDelivery")
                            .SetParent<P2mpDelivery>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<UnicastDelivery>();
    return tid;
}

} // namespace ns3
