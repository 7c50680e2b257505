#include "fabric/model/spray-random-path-choice.h"

#include "core/model/mix64.h"
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
    uint64_t h = Mix64((static_cast<uint64_t>(m_seed) << 32) ^ ++m_draws);
    // Multiply-shift maps the 64-bit draw onto [0, n) without the modulo's bias.
    uint16_t port
        = hops[static_cast<uint32_t>((static_cast<unsigned __int128>(h) * hops.size()) >> 64)];
    NS_LOG_LOGIC("spray " << fi.DstHost() << " -> port " << port);
    return port;
}

} // namespace ns3
