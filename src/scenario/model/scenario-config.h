/*
 * Typed, validated form of a scenario JSON file (version 1). The keys, their defaults and their
 * bindings to these fields are declared once, in the scenario schema (scenario-schema.cc and the
 * *-schema.cc section files); the initialisers below are the same defaults for programs that
 * build a config in C++ (a unit test checks they agree). Scenario::Load fills every field and
 * rejects anything else.
 */
#ifndef MCAST4AI_SCENARIO_CONFIG_H
#define MCAST4AI_SCENARIO_CONFIG_H

#include "fabric/model/switch-config.h"
#include "p2mp/model/p2mp-config.h"
#include "rdma/model/nic-config.h"
#include "topology/model/fabric-partition.h"
#include "topology/model/topology-config.h"
#include "workload/model/straggler-config.h"
#include "workload/model/workload-config.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

struct OutputConfig
{
    std::string dir; // default "results/<name>"
    bool pcap{false};
    bool receivers{false};       // ops.csv: one row per receiver of every operation too
    bool steps{false};           // steps.csv: one row per step of every collective iteration
    bool packetTrace{false};     // packets.csv: one row per link each tagged data frame crossed
    bool steeringTrace{false};   // steering.csv: one row per source-port change of a queue pair
    bool timeline{false};        // timeline.json: Trace Event Format for Perfetto
    double timelineSampleUs{10}; // port counters sampled this often
    uint64_t timelineMaxMb{100}; // past this, the timeline's streamed events are dropped
};

/// Budgets a run stops at (0: none).
struct LimitsConfig
{
    uint64_t maxEvents{0};
    double maxRssMb{0};
    /// Stop a run without progress for this long; 0 never, AUTO_WATCHDOG: see
    /// ScenarioConfig::WatchdogUs.
    double watchdogUs{AUTO_WATCHDOG};
    static constexpr double AUTO_WATCHDOG = -1;
};

/// How a run spread over processes (mpirun) splits the fabric (`distribution`).
struct DistributionConfig
{
    FabricPartition::Unit unit{FabricPartition::Unit::AUTO};
};

/// What a fault takes down (`faults[].type`).
enum class FaultType : uint8_t
{
    LINK_DOWN,
    NIC_DOWN
};

MCAST4AI_ENUM_NAMES(FaultType,
                    {{FaultType::LINK_DOWN, "link-down"}, {FaultType::NIC_DOWN, "nic-down"}});

/// One element of `faults`: a link (or a host's NIC) failing and perhaps coming back.
struct FaultConfig
{
    FaultType type{FaultType::LINK_DOWN};
    std::string from;          ///< link-down: one end, by node name ("leaf0")
    std::string to;            ///< link-down: the other end
    uint32_t host{0};          ///< nic-down: the host whose NIC fails
    double atUs{0};            ///< when the carrier is lost
    double upUs{NEVER};        ///< when it is back (NEVER: it stays down)
    double convergenceUs{100}; ///< routes, BIFTs and group trees follow this much later
    static constexpr double NEVER = -1;
};

struct ScenarioConfig
{
    std::string file; // path it was loaded from (for messages)
    std::string name;
    uint64_t seed{1};
    double stopTimeMs{100};
    TopologyConfig topology;
    NicConfig nic;
    SwitchConfig sw;
    LoadBalancingConfig loadBalancing;
    P2mpConfig p2mp;
    std::vector<WorkloadConfig> workloads;
    std::vector<StragglerConfig> stragglers;
    std::vector<FaultConfig> faults;
    LimitsConfig limits;
    DistributionConfig distribution;
    OutputConfig output;

    /**
     * limits.watchdog_us in µs (0: none). Auto: 10 times the longest a healthy sender goes
     * without an ACK, which is the longer of the RTO and the time to send ack_every MTU
     * frames at the slowest rate it can be held to: `ccFloorGbps`, the congestion-control
     * model's floor (RdmaCongestionControl::GetMinRate; infinite without a model, and 0 is
     * no floor), or the slower of the two links if that is slower. 10,000 µs by default,
     * 89,760 µs at the nvidia-cx6 preset's 1 Mb/s.
     */
    double WatchdogUs(double ccFloorGbps) const
    {
        if (limits.watchdogUs != LimitsConfig::AUTO_WATCHDOG)
        {
            return limits.watchdogUs;
        }
        if (!(ccFloorGbps > 0))
        {
            ccFloorGbps = std::numeric_limits<double>::infinity(); // no floor: the links' rate
        }
        const double gbps
            = std::min({topology.hostLink.rateGbps, topology.fabricLink.rateGbps, ccFloorGbps});
        return 10.0 * std::max(nic.rtoUs, MtuFrameUs(gbps) * nic.ackEvery);
    }

    /// Time one MTU-sized frame takes at gbps: the payload with its headers (Ethernet, IPv4,
    /// UDP, BTH, RETH, ICRC) and the wire's own bytes (preamble, FCS, gap): 74 + 24 bytes.
    double MtuFrameUs(double gbps) const
    {
        return (nic.mtuBytes + 98.0) * 8.0 / (gbps * 1e3);
    }

    /// The hosts workloads address (a multi-plane fabric's XPUs, not their ports).
    uint32_t HostCount() const
    {
        if (topology.kind == TopologyKind::FAT_TREE)
        {
            return topology.k * topology.k * topology.k / 4;
        }
        if (topology.kind == TopologyKind::MULTI_PLANE)
        {
            return topology.xpus;
        }
        return topology.leaves * topology.hostsPerLeaf;
    }
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_CONFIG_H */
