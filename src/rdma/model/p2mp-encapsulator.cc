#include "rdma/model/p2mp-encapsulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(P2mpEncapsulator);

TypeId
P2mpEncapsulator::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::P2mpEncapsulator").SetParent<Object>().SetGroupName("Mcast4ai");
    return tid;
}

} // namespace ns3
