/*
 * jitter: an extra compute delay before each iteration, drawn per rank and iteration from a
 * distribution (exponential, uniform or normal truncated at 0): the run-to-run noise of
 * kernels, data loading and the host, which turns a synchronised step into the maximum of N
 * draws.
 */
#ifndef MCAST4AI_JITTER_STRAGGLER_H
#define MCAST4AI_JITTER_STRAGGLER_H

#include "core/model/config-schema-object.h"
#include "core/model/enum-names.h"
#include "workload/model/straggler.h"

#include <string>

namespace ns3
{

/**
 * \brief Adds a random delay to a rank's compute time before each iteration.
 */
class JitterStraggler : public Straggler
{
public:
    /// The delay's distribution (`distribution.type`).
    enum Distribution : uint8_t
    {
        EXPONENTIAL,
        UNIFORM,
        NORMAL
    };

    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& s);

    Time AdjustCompute(uint32_t workload, uint32_t host, uint32_t iteration, Time compute) override;
    /// The delay (µs) that uniform draws u1, u2 in [0, 1) map to.
    double Sample(double u1, double u2) const;

protected:
    void DoInstall() override;

private:
    double m_probability{1};
    void SetDistribution(std::string name);
    std::string GetDistribution() const;

    Distribution m_distribution{EXPONENTIAL};
    double m_a{0}; ///< exponential, normal: mean; uniform: min (µs)
    double m_b{0}; ///< normal: standard deviation; uniform: max (µs)
};

MCAST4AI_ENUM_NAMES(JitterStraggler::Distribution,
                    {{JitterStraggler::EXPONENTIAL, "exponential"},
                     {JitterStraggler::UNIFORM, "uniform"},
                     {JitterStraggler::NORMAL, "normal"}});

} // namespace ns3

#endif /* MCAST4AI_JITTER_STRAGGLER_H */
