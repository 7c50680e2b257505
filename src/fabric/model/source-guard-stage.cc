#include "fabric/model/source-guard-stage.h"

#include "fabric/model/fabric-switch.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SourceGuardStage");
NS_OBJECT_ENSURE_REGISTERED(SourceGuardStage);

TypeId
SourceGuardStage::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SourceGuardStage")
              .SetParent<SwitchStage>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<SourceGuardStage>()
              .AddTraceSource("Refused",
                              "A frame from a host port carried another host's source address "
                              "(ingress port, attached host, claimed host)",
                              MakeTraceSourceAccessor(&SourceGuardStage::m_refusedTrace),
                              "ns3::SourceGuardStage::RefusedTracedCallback");
    return tid;
}

void
SourceGuardStage::SetHostPorts(std::vector<uint32_t> hostOnPort)
{
    m_hostOnPort = std::move(hostOnPort);
}

bool
SourceGuardStage::Receive(uint32_t inPort, FabricFrame& frame)
{
    const FrameInfo& fi = frame.info;
    if (inPort >= m_hostOnPort.size() || m_hostOnPort[inPort] == NOT_A_HOST
        || fi.etherType != FrameInfo::ETHERTYPE_IPV4 || fi.SrcHost() == m_hostOnPort[inPort])
    {
        return false;
    }
    NS_LOG_LOGIC("port " << inPort << ": host " << m_hostOnPort[inPort]
                         << " sent a frame in the name of host " << fi.SrcHost() << ", refused");
    ++m_refused;
    m_refusedTrace(inPort, m_hostOnPort[inPort], fi.SrcHost());
    m_switch->RefuseFrame(frame, inPort);
    return true;
}

uint64_t
SourceGuardStage::GetRefused() const
{
    return m_refused;
}

} // namespace ns3
