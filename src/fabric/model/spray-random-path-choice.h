/*
 * Packet spraying: every packet picks one of the equal-cost next hops uniformly at random,
 * whatever flow it belongs to. Load spreads evenly in expectation, and packets of one flow
 * take different paths and may arrive out of order.
 */
#ifndef MCAST4AI_SPRAY_RANDOM_PATH_CHOICE_H
#define MCAST4AI_SPRAY_RANDOM_PATH_CHOICE_H

#include "fabric/model/path-choice.h"

namespace ns3
{

/**
 * \brief Per-packet uniform choice among the equal-cost next hops.
 *
 * The draws are PathChoice::DrawBelow(): the same scenario and seed give the same choices.
 */
class SprayRandomPathChoice final : public PathChoice
{
public:
    static TypeId GetTypeId();

    uint16_t Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops) override;
};

} // namespace ns3

#endif /* MCAST4AI_SPRAY_RANDOM_PATH_CHOICE_H */
