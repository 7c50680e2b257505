#include "rdma/helper/rdma-helper.h"

#include "core/model/config-schema-attribute.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "rdma/model/dcqcn.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

RdmaHelper::RdmaHelper()
    : m_ccType(Dcqcn::GetTypeId().GetName())
{
    m_nicFactory.SetTypeId(RdmaNic::GetTypeId());
    m_rxFactory.SetTypeId(NicReceivePipeline::GetTypeId());
}

void
RdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::SetAttribute(TypeId owner, const std::string& name, const AttributeValue& value)
{
    if (ConfigSchemaAttribute::IsOf(RdmaNic::GetTypeId(), owner))
    {
        SetNicAttribute(name, value);
    }
    else if (ConfigSchemaAttribute::IsOf(TypeId::LookupByName(m_ccType), owner))
    {
        SetCongestionControlAttribute(name, value);
    }
    else if (!m_steeringType.empty()
             && ConfigSchemaAttribute::IsOf(TypeId::LookupByName(m_steeringType), owner))
    {
        SetPathSteeringAttribute(name, value);
    }
    else if (ConfigSchemaAttribute::IsOf(m_rxFactory.GetTypeId(), owner))
    {
        SetReceivePipelineAttribute(name, value);
    }
}

void
RdmaHelper::SetCongestionControl(const std::string& typeName)
{
    m_ccType = typeName;
}

void
RdmaHelper::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    m_ccAttributes.emplace_back(name, value.Copy());
}

void
RdmaHelper::SetPathSteering(const std::string& typeName)
{
    m_steeringType = typeName;
}

void
RdmaHelper::SetPathSteeringAttribute(const std::string& name, const AttributeValue& value)
{
    m_steeringAttributes.emplace_back(name, value.Copy());
}

void
RdmaHelper::SetReceivePipeline(const std::string& typeName)
{
    m_rxFactory.SetTypeId(typeName);
}

void
RdmaHelper::SetReceivePipelineAttribute(const std::string& name, const AttributeValue& value)
{
    m_rxFactory.Set(name, value);
}

std::vector<Ptr<RdmaNic>>
RdmaHelper::Install(const NodeContainer& nodes,
                    const std::vector<Ptr<FabricNetDevice>>& hostPorts) const
{
    std::vector<Ptr<RdmaNic>> nics;
    TypeId cc = TypeId::LookupByName(m_ccType);
    // A receive path without a packet rate costs nothing: then the NICs get no pipeline.
    const bool rxPipeline = m_rxFactory.Create<NicReceivePipeline>()->GetPacketRate() > 0;
    for (uint32_t h = 0; h < hostPorts.size(); ++h)
    {
        Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
        nic->SetCongestionControlType(cc);
        for (const auto& [name, value] : m_ccAttributes)
        {
            nic->SetCongestionControlAttribute(name, *value);
        }
        if (!m_steeringType.empty())
        {
            nic->SetPathSteeringType(TypeId::LookupByName(m_steeringType));
            for (const auto& [name, value] : m_steeringAttributes)
            {
                nic->SetPathSteeringAttribute(name, *value);
            }
        }
        nic->Setup(nodes.Get(h), hostPorts[h], h);
        if (rxPipeline)
        {
            nic->SetReceivePipeline(m_rxFactory.Create<NicReceivePipeline>());
        }
        nodes.Get(h)->AggregateObject(nic);
        nics.push_back(nic);
    }
    NS_LOG_INFO(nics.size() << " NICs, congestion control " << m_ccType);
    return nics;
}

} // namespace ns3
