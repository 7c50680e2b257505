/*
 * The switch's choice among equal-cost next hops. ECMP is the first model; spraying, adaptive
 * routing and endpoint steering are further subclasses, chosen by TypeId name as ns-3 chooses
 * a QueueDisc.
 */
#ifndef MCAST4AI_PATH_CHOICE_H
#define MCAST4AI_PATH_CHOICE_H

#include "core/model/named-type-registry.h"
#include "ns3/object.h"
#include "wire/model/frame-info.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FabricSwitch;

/**
 * \brief Picks the egress port of a unicast frame among its equal-cost next hops.
 *
 * One instance per switch. Choose() is on the per-hop path: it is called only when there is
 * more than one next hop, and must not allocate.
 */
class PathChoice : public Object
{
public:
    static TypeId GetTypeId();
    /// The scenario names of the path-choice modes (load_balancing.mode) and their TypeIds.
    static NamedTypeRegistry& Registry();

    /// The switch this choice belongs to (to read its queues); called once, before Choose().
    virtual void Attach(FabricSwitch* sw);
    /**
     * \param fi the frame's fields
     * \param hops the equal-cost egress ports toward its destination (at least two)
     * \return one of hops
     */
    virtual uint16_t Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops) = 0;
    /**
     * Whether the choice is a function of the flow alone (ECMP). P2MP replication then keeps
     * its own per-flow rule (BIER's entropy); otherwise it asks Choose() for every copy, so
     * that spraying applies to multicast data too.
     */
    virtual bool IsPerFlow() const;
    /// Fix the random streams this choice draws from; returns how many it used.
    virtual int64_t AssignStreams(int64_t stream);

protected:
    void DoDispose() override;

    /// A frame's flow, its 5-tuple hashed with the switch's seed (ECMP's hash; flowlet key).
    uint64_t FlowHash(const FrameInfo& fi) const;
    /// The next of this switch's uniform draws in [0, n): a counter hashed with the seed, so
    /// the same scenario and seed give the same draws without an ns-3 random stream.
    uint32_t DrawBelow(uint64_t n);

    FabricSwitch* m_switch{nullptr}; ///< owner; not a Ptr, the switch owns this object
    uint32_t m_seed{0};              ///< per-switch seed (attribute Seed)

private:
    uint64_t m_draws{0}; ///< draws made so far by DrawBelow()
};

} // namespace ns3

#endif /* MCAST4AI_PATH_CHOICE_H */
