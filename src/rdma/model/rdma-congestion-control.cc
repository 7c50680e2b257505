#include "rdma/model/rdma-congestion-control.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaCongestionControl").SetParent<Object>().SetGroupName("Mcast4ai");
    return tid;
}

NamedTypeRegistry&
RdmaCongestionControl::Registry()
{
    static NamedTypeRegistry registry("congestion control", RdmaCongestionControl::GetTypeId());
    return registry;
}

bool
RdmaCongestionControl::UsesTelemetry() const
{
    return false;
}

void
RdmaCongestionControl::ReceiveTelemetry(const IoamTraceHeader& /* trace */,
                                        uint64_t /* ackedPsn */,
                                        uint64_t /* nextPsn */)
{
}

uint64_t
RdmaCongestionControl::GetWindowBytes() const
{
    return 0;
}

} // namespace ns3
