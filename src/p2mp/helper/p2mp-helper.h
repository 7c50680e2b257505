/*
 * Installs a P2MP mechanism in a fabric in the ns-3 helper style: the mechanism by its
 * scenario name ("unicast", "bier", "bier-xpu-list", "new-protocol"), its parameters (ACK
 * aggregation point, ACK mode, BSL, table size...) as attributes.
 */
#ifndef MCAST4AI_P2MP_HELPER_H
#define MCAST4AI_P2MP_HELPER_H

#include "ns3/object-factory.h"
#include "p2mp/model/p2mp-delivery.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Creates the P2mpDelivery of a fabric and its switch state.
 */
class P2mpHelper
{
public:
    P2mpHelper();

    /// The mechanism, by the name P2mpDelivery::Registry() knows it by.
    void SetMechanism(const std::string& name);
    /// An attribute of the mechanism's P2mpDelivery subclass.
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /// An attribute a scenario key sets (ConfigSchemaSetter): set when `owner` is the chosen
    /// mechanism or one of its parents, ignored otherwise (a key of another mechanism).
    void SetAttribute(TypeId owner, const std::string& name, const AttributeValue& value);

    /// Create the delivery and install its state in the switches.
    Ptr<P2mpDelivery> Install(const TopologyGraph& graph,
                              const std::vector<Ptr<FabricSwitch>>& switches,
                              const std::vector<Ptr<RdmaNic>>& nics) const;

    /// Create the delivery without installing it: what the fabric must be sized for (its
    /// largest header, for PFC headroom) is known before the switches exist.
    Ptr<P2mpDelivery> Create() const;
    /// Install a delivery made by Create() in the switches.
    void Install(Ptr<P2mpDelivery> delivery,
                 const TopologyGraph& graph,
                 const std::vector<Ptr<FabricSwitch>>& switches,
                 const std::vector<Ptr<RdmaNic>>& nics) const;

private:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_HELPER_H */
