/*
 * Puts a RoCEv2 NIC on every host of a fabric in the ns-3 helper style: NIC settings and the
 * congestion-control model (by TypeId name) with its parameters are attributes.
 */
#ifndef MCAST4AI_RDMA_HELPER_H
#define MCAST4AI_RDMA_HELPER_H

#include "fabric/model/fabric-net-device.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "rdma/model/rdma-nic.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Creates the RdmaNic of every host.
 */
class RdmaHelper
{
public:
    RdmaHelper();

    /// An attribute of every NIC (Mtu, AckEvery, Rto, DataPriority, ControlPriority,
    /// EcnCapable, CongestionControlEnabled, CnpInterval, ComputeIcrc).
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /// An attribute a scenario key sets (ConfigSchemaSetter): set on the NIC, the congestion
    /// control, the path steering or the receive pipeline when `owner` is its type or a parent
    /// of it, ignored when none is (a key of a model not chosen).
    void SetAttribute(TypeId owner, const std::string& name, const AttributeValue& value);
    /// The rate controller of every sending QP, by TypeId name (ns3::Dcqcn by default).
    void SetCongestionControl(const std::string& typeName);
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);
    /// Endpoint path steering of every sending unicast QP, by TypeId name (none by default).
    void SetPathSteering(const std::string& typeName);
    void SetPathSteeringAttribute(const std::string& name, const AttributeValue& value);
    /// The receive path of every NIC, by TypeId name (NicReceivePipeline by default). A NIC
    /// gets one only when its PacketRate is above 0: by default frames cost it nothing.
    void SetReceivePipeline(const std::string& typeName);
    void SetReceivePipelineAttribute(const std::string& name, const AttributeValue& value);

    /**
     * One NIC per host: host h is nodes.Get(h) and sends through hostPorts[h].
     * \return the NICs, by host index
     */
    std::vector<Ptr<RdmaNic>> Install(const NodeContainer& nodes,
                                      const std::vector<Ptr<FabricNetDevice>>& hostPorts) const;

private:
    ObjectFactory m_nicFactory;
    std::string m_ccType;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_ccAttributes;
    std::string m_steeringType;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_steeringAttributes;
    ObjectFactory m_rxFactory; // a NIC gets one only with a PacketRate above 0
};

} // namespace ns3

#endif /* MCAST4AI_RDMA_HELPER_H */
