#include "fabric/model/ecmp-path-choice.h"

#include "core/model/mix64.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpPathChoice");
NS_OBJECT_ENSURE_REGISTERED(EcmpPathChoice);
MCAST4AI_REGISTER_NAMED_TYPE(PathChoice::Registry(), "ecmp", EcmpPathChoice);

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
    uint64_t h = Mix64((static_cast<uint64_t>(m_seed) << 32) ^ fi.srcIp);
    h = Mix64(h ^ (static_cast<uint64_t>(fi.dstIp) << 16) ^ fi.protocol);
    h = Mix64(h ^ (static_cast<uint64_t>(fi.srcPort) << 16) ^ fi.dstPort);
    return static_cast<uint32_t>(h % n);
}

uint16_t
EcmpPathChoice::Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops)
{
    return hops[Index(fi, hops.size())];
}

} // namespace ns3
