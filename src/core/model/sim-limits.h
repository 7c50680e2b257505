/*
 * How far the simulated clock may be asked to go.
 */
#ifndef MCAST4AI_SIM_LIMITS_H
#define MCAST4AI_SIM_LIMITS_H

namespace ns3
{

/**
 * \brief The simulated-time horizon every configured time stays within.
 *
 * ns-3 counts time in 64-bit picoseconds here (about 107 days). A packet-level run never gets
 * near 1,000 s of simulated time (it would take weeks of wall time); bounding every time, and
 * every product of times a workload computes (compute per token x tokens), by that horizon
 * keeps their sums far from wrapping.
 */
struct SimLimits
{
    static constexpr double MAX_TIME_S = 1e3;
    static constexpr double MAX_TIME_US = MAX_TIME_S * 1e6;
};

} // namespace ns3

#endif /* MCAST4AI_SIM_LIMITS_H */
