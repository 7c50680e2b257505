/*
 * slow-node: a rank's compute time before an iteration is multiplied by a factor, at each
 * iteration with a probability (1: always). The classic training straggler: one GPU late to
 * the synchronisation point holds up every rank of the collective.
 */
#ifndef MCAST4AI_SLOW_NODE_STRAGGLER_H
#define MCAST4AI_SLOW_NODE_STRAGGLER_H

#include "core/model/config-schema-object.h"
#include "workload/model/straggler.h"

namespace ns3
{

/**
 * \brief Multiplies a rank's compute time by `factor` with `probability` per iteration.
 */
class SlowNodeStraggler : public Straggler
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& s);

    Time AdjustCompute(uint32_t workload, uint32_t host, uint32_t iteration, Time compute) override;

protected:
    void DoInstall() override;

private:
    double m_probability{1};
    double m_factor{1};
};

} // namespace ns3

#endif /* MCAST4AI_SLOW_NODE_STRAGGLER_H */
