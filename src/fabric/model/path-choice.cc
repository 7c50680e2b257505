#include "fabric/model/path-choice.h"

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

void
PathChoice::Attach(FabricSwitch* sw)
{
    m_switch = sw;
}

int64_t
PathChoice::AssignStreams(int64_t stream)
{
    return 0;
}

void
PathChoice::DoDispose()
{
    m_switch = nullptr;
    Object::DoDispose();
}

} // namespace ns3
