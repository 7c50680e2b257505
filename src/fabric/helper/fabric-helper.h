/*
 * Builds the fabric of a topology graph in the ns-3 helper style: one Node per host and
 * switch, a FabricNetDevice per port, a FabricChannel per cable, and a FabricSwitch per switch
 * with its MMU, per-port PFC headroom and ECN thresholds, path choice and routes. Settings are
 * attributes of the objects created, as with ns-3's PointToPointHelper; the per-port values a
 * scenario leaves on "auto" follow the closed forms of docs/fabric.md.
 */
#ifndef MCAST4AI_FABRIC_HELPER_H
#define MCAST4AI_FABRIC_HELPER_H

#include "fabric/model/fabric-net-device.h"
#include "fabric/model/fabric-switch.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "topology/model/topology-config.h"
#include "topology/model/topology-graph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \brief Creates the ports, cables and switches of a fabric.
 */
class FabricHelper
{
public:
    /// What Install() made.
    struct Fabric
    {
        NodeContainer nodes;                         ///< node i is graph node i
        std::vector<Ptr<FabricNetDevice>> hostPorts; ///< by host index
        std::vector<Ptr<FabricSwitch>> switches;     ///< switch i is graph node HostCount() + i
        Ptr<TrafficLedger> ledger;                   ///< every port's and switch's counters
    };

    FabricHelper();

    /// An attribute of every FabricSwitch (EcnEnabled, PauseQuanta).
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /// An attribute of every switch's SwitchMmu (BufferBytes, ReserveBytes, Alpha, PfcEnabled,
    /// HysteresisBytes, EcnPmax, LosslessPriorities).
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    /// The PathChoice every switch gets, by TypeId name (ns3::EcmpPathChoice by default).
    void SetPathChoice(const std::string& typeName);
    void SetPathChoiceAttribute(const std::string& name, const AttributeValue& value);
    /// The EgressScheduler every switch gets, by TypeId name (strict priority by default).
    void SetEgressScheduler(const std::string& typeName);
    void SetEgressSchedulerAttribute(const std::string& name, const AttributeValue& value);
    /// An attribute a scenario key sets (ConfigSchemaSetter): set on the switch, MMU, path
    /// choice or egress scheduler when `owner` is its type or a parent of it, ignored when
    /// none is (a key of a model not chosen).
    void SetAttribute(TypeId owner, const std::string& name, const AttributeValue& value);
    /// Switch pipeline latency (the RxLatency of every switch port).
    void SetSwitchLatency(Time latency);
    /// The largest frame on the wire (framing included), for the headroom closed form.
    void SetMaxFrameBytes(uint32_t bytes);
    /// Seed of the per-switch path-choice seeds (switch node n gets seed * 0x9E3779B1 + n).
    void SetSeed(uint64_t seed);
    /// Give every switch with host ports a SourceGuardStage, first in its pipeline: a host
    /// can send only in its own name (off by default).
    void SetSourceValidation(bool enabled);
    /// In-band telemetry: every switch stamps telemetry probes (a TelemetryStage whose node ID
    /// is its graph node index), its utilisation estimate over window.
    void SetTelemetry(bool enabled, Time window);

    /**
     * Spread the fabric over the processes of a distributed run: node n is simulated by
     * rank rankOfNode[n] (ns-3's Node system id), and a cable whose ends have two ranks is a
     * FabricRemoteChannel (ns-3 built with MPI). Empty (the default): one process.
     */
    void SetNodeRanks(std::vector<uint32_t> rankOfNode);

    /**
     * Build the fabric of graph (routes computed) with the links of topology.
     * \throws std::invalid_argument when a switch's buffer cannot hold its reserves and
     *         headroom (the message says which switch and by how much)
     */
    Fabric Install(const TopologyGraph& graph, const TopologyConfig& topology) const;

    /// Point switch sw (graph node `node`) at the graph's next-hop sets: at Install, and again
    /// each time the graph's routes are recomputed (the sets are the graph's, not copies).
    static void InstallRoutes(const TopologyGraph& graph, uint32_t node, Ptr<FabricSwitch> sw);

    /// PFC headroom for a port: a round trip of cable and pipeline at line rate, plus two
    /// maximum frames (the one being serialised and the one ahead of the PAUSE).
    static uint64_t HeadroomBytes(double rateGbps,
                                  double delayUs,
                                  double switchLatencyNs,
                                  uint32_t maxFrameBytes);

private:
    ObjectFactory m_switchFactory;
    ObjectFactory m_mmuFactory;
    ObjectFactory m_pathChoiceFactory;
    ObjectFactory m_schedulerFactory;
    Time m_switchLatency;
    uint32_t m_maxFrameBytes{1024 + 58 + 16 + 24};
    uint64_t m_seed{1};
    bool m_sourceValidation{false};
    bool m_telemetry{false};
    Time m_telemetryWindow;
    std::vector<uint32_t> m_rankOfNode;
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_HELPER_H */
