#include "fabric/model/spray-random-path-choice.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SprayRandomPathChoice");
NS_OBJECT_ENSURE_REGISTERED(SprayRandomPathChoice);
MCAST4AI_REGISTER_NAMED_TYPE(PathChoice::Registry(), "spray-random", SprayRandomPathChoice);

TypeId
SprayRandomPathChoice::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SprayRandomPathChoice")
                            .SetParent<PathChoice>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<SprayRandomPathChoice>();
    return tid;
}

uint16_t
SprayRandomPathChoice::Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops)
{
    uint16_t port = hops[DrawBelow(hops.size())];
    NS_LOG_LOGIC("spray " << fi.DstHost() << " -> port " << port);
    return port;
}

} // namespace ns3
