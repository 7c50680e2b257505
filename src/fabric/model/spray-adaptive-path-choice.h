/*
 * Adaptive routing, as switch ASICs do it: each packet (or each flowlet) leaves by the
 * equal-cost egress port with the fewest bytes queued, so load follows the queues instead of a
 * hash. Packets of one flow may take different paths and arrive out of order.
 */
#ifndef MCAST4AI_SPRAY_ADAPTIVE_PATH_CHOICE_H
#define MCAST4AI_SPRAY_ADAPTIVE_PATH_CHOICE_H

#include "fabric/model/path-choice.h"
#include "ns3/nstime.h"

#include <vector>

namespace ns3
{

/**
 * \brief Least-loaded egress port among the equal-cost next hops, per packet or per flowlet.
 *
 * Load is the bytes queued at the egress port, all priorities together, when the packet is
 * forwarded. Ties go to a uniformly drawn port (TieBreak random) or to the first in the
 * route's order (TieBreak first). With a FlowletGap g > 0, a packet that follows the previous
 * packet of its flow (its 5-tuple) by less than g keeps that packet's port, and only a gap of
 * g or more lets the flow move; flows are tracked in a direct-mapped table, and a flow that
 * collides with another in it is treated as a new flowlet.
 */
class SprayAdaptivePathChoice final : public PathChoice
{
public:
    static TypeId GetTypeId();

    /// How a tie between equally loaded ports is broken.
    enum TieBreak
    {
        TIE_RANDOM, ///< uniformly among the tied ports
        TIE_FIRST,  ///< the first tied port in the route's order
    };

    uint16_t Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops) override;

    /// Packets that kept their flowlet's port, and flowlets started (for tests and logs).
    uint64_t GetFlowletHits() const;
    uint64_t GetFlowletsStarted() const;

private:
    /// The least-loaded port among hops.
    uint16_t LeastLoaded(const std::vector<uint16_t>& hops);

    struct Flowlet
    {
        uint64_t key{0};   ///< the flow's hash (0: empty)
        int64_t lastPs{0}; ///< when its last packet was forwarded
        uint16_t port{0};  ///< the port it takes
    };

    TieBreak m_tieBreak{TIE_RANDOM};
    Time m_flowletGap;
    uint32_t m_tableSize{4096};
    std::vector<Flowlet> m_flowlets; ///< allocated at the first packet when flowlets are on
    uint64_t m_flowletHits{0};
    uint64_t m_flowletsStarted{0};
};

} // namespace ns3

#endif /* MCAST4AI_SPRAY_ADAPTIVE_PATH_CHOICE_H */
