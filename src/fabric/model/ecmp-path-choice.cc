#include "fabric/model/ecmp-path-choice.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpPathChoice");
NS_OBJECT_ENSURE_REGISTERED(EcmpPathChoice);
MCAST4AI_REGISTER_NAMED_TYPE(PathChoice::Registry(), "ecmp", EcmpPathChoice);
// Endpoint steering needs nothing but ECMP in the fabric: the senders vary the hashed port.
static const bool g_steeringUsesEcmp [[maybe_unused]]
= (PathChoice::Registry().Add("steering", EcmpPathChoice::GetTypeId()), true);

TypeId
EcmpPathChoice::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcmpPathChoice")
                            .SetParent<PathChoice>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<EcmpPathChoice>();
    return tid;
}

uint32_t
EcmpPathChoice::Index(const FrameInfo& fi, uint32_t n) const
{
    return static_cast<uint32_t>(FlowHash(fi) % n);
}

bool
EcmpPathChoice::IsPerFlow() const
{
    return true;
}

uint16_t
EcmpPathChoice::Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops)
{
    const uint16_t port = hops[Index(fi, hops.size())];
    NS_LOG_LOGIC("flow hash: port " << port << " of " << hops.size());
    return port;
}

} // namespace ns3
