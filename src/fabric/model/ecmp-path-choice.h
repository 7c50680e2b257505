/*
 * ECMP: a hash of the 5-tuple (the UDP source port is RoCEv2's entropy) picks the next hop,
 * so every packet of a flow takes the same path.
 */
#ifndef MCAST4AI_ECMP_PATH_CHOICE_H
#define MCAST4AI_ECMP_PATH_CHOICE_H

#include "fabric/model/path-choice.h"

namespace ns3
{

/**
 * \brief Per-flow hashing over the equal-cost next hops.
 */
class EcmpPathChoice final : public PathChoice
{
public:
    static TypeId GetTypeId();

    uint16_t Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops) override;
    bool IsPerFlow() const override;
    /// The hash's choice among n equal-cost ports for a flow (exposed for tests).
    uint32_t Index(const FrameInfo& fi, uint32_t n) const;
};

} // namespace ns3

#endif /* MCAST4AI_ECMP_PATH_CHOICE_H */
