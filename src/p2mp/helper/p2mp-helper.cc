#include "p2mp/helper/p2mp-helper.h"

#include "core/model/config-schema-attribute.h"
#include "fabric/model/fabric-switch.h"
#include "ns3/log.h"
#include "topology/model/topology-graph.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("P2mpHelper");

P2mpHelper::P2mpHelper()
{
    SetMechanism("unicast");
}

void
P2mpHelper::SetMechanism(const std::string& name)
{
    m_factory.SetTypeId(P2mpDelivery::Registry().Get(name));
}

void
P2mpHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
P2mpHelper::SetAttribute(TypeId owner, const std::string& name, const AttributeValue& value)
{
    if (ConfigSchemaAttribute::IsOf(m_factory.GetTypeId(), owner))
    {
        m_factory.Set(name, value);
    }
}

Ptr<P2mpDelivery>
P2mpHelper::Install(const TopologyGraph& graph,
                    const std::vector<Ptr<FabricSwitch>>& switches,
                    const std::vector<Ptr<RdmaNic>>& nics) const
{
    Ptr<P2mpDelivery> delivery = Create();
    Install(delivery, graph, switches, nics);
    return delivery;
}

Ptr<P2mpDelivery>
P2mpHelper::Create() const
{
    return m_factory.Create<P2mpDelivery>();
}

void
P2mpHelper::Install(Ptr<P2mpDelivery> delivery,
                    const TopologyGraph& graph,
                    const std::vector<Ptr<FabricSwitch>>& switches,
                    const std::vector<Ptr<RdmaNic>>& nics) const
{
    P2mpDelivery::Fabric fabric;
    fabric.graph = &graph;
    fabric.switches = switches;
    fabric.nics = nics;
    delivery->Install(fabric);
    NS_LOG_INFO("P2MP delivery " << delivery->GetInstanceTypeId().GetName());
}

} // namespace ns3
