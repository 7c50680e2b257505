/*
 * A switch's P2MP replication: one copy per next hop, with the header each copy needs. BIER
 * (RFC 8279 section 6.5: BitString ANDed with each neighbour's forwarding mask), the XPU-ID
 * list (the list split by next hop, at a modelled per-ID lookup cost), and the new protocol
 * (the controller-installed group table).
 */
#ifndef MCAST4AI_REPLICATOR_H
#define MCAST4AI_REPLICATOR_H

#include "fabric/model/frame-copy.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "p2mp/model/bift.h"
#include "p2mp/model/group-table.h"
#include "wire/model/fabric-frame.h"

#include <vector>

namespace ns3
{

class TopologyGraph;

/**
 * \brief P2MP forwarding state and replication of one switch.
 */
class Replicator : public Object
{
public:
    static TypeId GetTypeId();

    using Copy = FrameCopy;

    /// Build the BIFT for bslBits (0: no BIER) and an empty group table.
    void Setup(const TopologyGraph* graph, uint32_t node, uint32_t bslBits);
    Ptr<GroupTable> GetGroupTable() const;
    /// The graph's routes changed: rebuild the BIFT from them (XPU-ID lists read the routes
    /// as they go, and group entries are the controller's).
    void Reconverge();

    /**
     * The copies of a P2MP frame that arrived on inPort, each with its fields. When receivers
     * is given, the hosts this frame is for are appended (for the ACK aggregator). Returns the
     * time the lookup takes beyond the switch pipeline (the XPU-ID list's per-ID cost; zero
     * otherwise). The frame's packet is rewritten: one copy may be that packet.
     */
    Time Replicate(FabricFrame& frame,
                   uint32_t inPort,
                   std::vector<Copy>& out,
                   std::vector<uint32_t>* receivers);

    /**
     * The switch's path choice when it is per packet (spraying): BIER and XPU-list copies then
     * take the port it picks among equal-cost ones, instead of the entropy rule. Group trees
     * (the new protocol) are fixed by the controller and do not spray.
     */
    void SetSprayChoice(PathChoice* choice);

    /// BIFT entries plus installed group entries: the forwarding state the metrics report.
    uint64_t GetBiftEntries() const;
    uint64_t GetDrops() const;

private:
    /// Replicate for the new protocol's group shim: the copies share the frame's bytes.
    Time ReplicateShim(FabricFrame& frame,
                       uint32_t inPort,
                       std::vector<Copy>& out,
                       std::vector<uint32_t>* receivers);

    const TopologyGraph* m_graph{nullptr};
    PathChoice* m_spray{nullptr}; // the switch's, which owns it; null under ECMP
    uint32_t m_node{0};
    uint32_t m_bsl{0};
    Bift m_bift;
    Ptr<GroupTable> m_groups;
    Time m_lookupPerId;
    uint64_t m_drops{0};
    Bift::Copies m_bierCopies; // scratch
    Bift::IdGroups m_idGroups; // scratch
};

} // namespace ns3

#endif /* MCAST4AI_REPLICATOR_H */
