/*
 * Turns a validated scenario's topology into ns-3 objects: one Node per host and switch, a
 * FabricNetDevice per port, a FabricChannel per cable, an RdmaNic per host and a FabricSwitch
 * (with its MMU, ECN thresholds, PFC headroom and ECMP routes) per switch.
 */
#ifndef MCAST4AI_TOPOLOGY_BUILDER_H
#define MCAST4AI_TOPOLOGY_BUILDER_H

#include "core/model/config-schema.h"
#include "fabric/model/fabric-switch.h"
#include "fabric/model/link-fault.h"
#include "ns3/node-container.h"
#include "p2mp/helper/p2mp-helper.h"
#include "p2mp/model/group-controller.h"
#include "p2mp/model/p2mp-delivery.h"
#include "p2mp/model/p2mp-switch-stage.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/scenario-config.h"
#include "topology/model/fabric-partition.h"
#include "topology/model/topology-graph.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Builds and owns the simulated fabric of one scenario.
 */
class RdmaHelper;

class TopologyBuilder
{
public:
    explicit TopologyBuilder(const ScenarioConfig& config);

    /// Spread the fabric over ranks processes (FabricPartition): set before Build(). One, the
    /// default, is a single process.
    void SetRanks(uint32_t ranks);
    /// Create every node, port, cable, NIC and switch; compute routes; schedule the faults.
    void Build();
    /// How the fabric is spread over the processes (one rank when it is not).
    const FabricPartition& GetPartition() const;
    /// Write a pcap per host NIC and per switch port into dir.
    void EnablePcap(const std::string& dir);
    /// Give every random stream a fixed index; returns the number used.
    int64_t AssignStreams(int64_t stream);

    const TopologyGraph& GetGraph() const;
    uint32_t GetHostCount() const;
    Ptr<RdmaNic> GetNic(uint32_t host) const;
    uint32_t GetSwitchCount() const;
    /// Switch by its index among switches (graph node HostCount() + index).
    Ptr<FabricSwitch> GetSwitch(uint32_t index) const;
    /// The switch port that faces a host (the leaf's downlink).
    Ptr<FabricNetDevice> GetLeafPortToHost(uint32_t host) const;
    /// The P2MP stage of switch index (null with mechanism unicast).
    Ptr<P2mpSwitchStage> GetP2mpStage(uint32_t index) const;
    /// The new protocol's controller (null for the other mechanisms).
    Ptr<GroupController> GetGroupController() const;
    /// The scenario's P2MP mechanism (p2mp.mechanism), installed in the switches.
    Ptr<P2mpDelivery> GetDelivery() const;
    /// The fabric's counters by owner (FrameInfo::owner): whose frames did what.
    Ptr<TrafficLedger> GetTrafficLedger() const;
    /// The fault of faults[i], scheduled by Build().
    Ptr<LinkFault> GetFault(uint32_t i) const;
    /// The two nodes faults[i] takes apart (graph node ids).
    std::pair<uint32_t, uint32_t> GetFaultLink(uint32_t i) const;
    /// Times the routes were recomputed after a fault changed the fabric.
    uint32_t GetReconvergences() const;

private:
    /// Refuse (ScenarioError on limits.max_rss_mb) a fabric whose estimated memory alone
    /// is above the budget, before its routes are computed.
    void CheckMemoryBudget() const;
    /// The helper for p2mp.mechanism, the section's keys and the mechanism's set as attributes.
    P2mpHelper MakeP2mpHelper(const ConfigSchema& schema, const nlohmann::json& scenario) const;
    /// Resolve and schedule the scenario's faults (ScenarioError on a link that is not one).
    void InstallFaults();
    /// The longest unloaded round trip between hosts, µs (the congestion control's FabricRtt).
    double LongestRttUs() const;
    /// The port of `node` at its end of the link faults[i] names.
    std::pair<uint32_t, uint32_t> ResolveFault(uint32_t i) const;
    /// The device on port of node (a host's NIC port or a switch port).
    Ptr<FabricNetDevice> GetDevice(uint32_t node, uint32_t port) const;
    /// The control plane learns that the link at (node, port) is up or down: recompute the
    /// routes, point the switches at them, rebuild the P2MP state.
    void Reconverge(uint32_t node, uint32_t port, bool up);

    ScenarioConfig m_config;
    std::unique_ptr<TopologyGraph> m_graph; // built in Build(); owns the route tables
    NodeContainer m_nodes;
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Ptr<FabricSwitch>> m_switches;
    Ptr<P2mpDelivery> m_delivery;
    Ptr<TrafficLedger> m_ledger;
    std::vector<Ptr<LinkFault>> m_faults;
    std::vector<std::pair<uint32_t, uint32_t>> m_faultLinks; ///< (node, its port)
    uint32_t m_reconvergences{0};
    uint32_t m_ranks{1};
    FabricPartition m_partition;
};

} // namespace ns3

#endif /* MCAST4AI_TOPOLOGY_BUILDER_H */
