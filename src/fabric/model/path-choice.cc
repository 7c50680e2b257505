#include "fabric/model/path-choice.h"

#include "core/model/mix64.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathChoice");
NS_OBJECT_ENSURE_REGISTERED(PathChoice);

TypeId
PathChoice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::PathChoice")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddAttribute("Seed",
                            "Per-switch seed of the choice (distinct seeds keep tiers from making "
                            "correlated choices)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&PathChoice::m_seed),
                            MakeUintegerChecker<uint32_t>());
    return tid;
}

NamedTypeRegistry&
PathChoice::Registry()
{
    static NamedTypeRegistry registry("path-choice mode", PathChoice::GetTypeId());
    return registry;
}

bool
PathChoice::IsPerFlow() const
{
    return false;
}

void
PathChoice::Attach(FabricSwitch* sw)
{
    NS_LOG_FUNCTION(this << sw);
    m_switch = sw;
}

int64_t
PathChoice::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    return 0;
}

uint64_t
PathChoice::FlowHash(const FrameInfo& fi) const
{
    uint64_t h = Mix64((static_cast<uint64_t>(m_seed) << 32) ^ fi.srcIp);
    h = Mix64(h ^ (static_cast<uint64_t>(fi.dstIp) << 16) ^ fi.protocol);
    return Mix64(h ^ (static_cast<uint64_t>(fi.srcPort) << 16) ^ fi.dstPort);
}

uint32_t
PathChoice::DrawBelow(uint64_t n)
{
    uint64_t h = Mix64((static_cast<uint64_t>(m_seed) << 32) ^ ++m_draws);
    // Multiply-shift maps the 64-bit draw onto [0, n) without the modulo's bias. __extension__
    // keeps -Wpedantic (ns-3's warnings as errors) quiet about the GCC/Clang 128-bit type.
    __extension__ typedef unsigned __int128 Wide;
    return static_cast<uint32_t>((static_cast<Wide>(h) * n) >> 64);
}

void
PathChoice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_switch = nullptr;
    Object::DoDispose();
}

} // namespace ns3
