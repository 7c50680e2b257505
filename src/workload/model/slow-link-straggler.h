/*
 * slow-link: the link between a host and its top-of-rack switch runs at `factor` times its
 * rate, both directions, between two times: a degraded cable or a port that renegotiated a
 * lower speed. Every ring step through that link takes longer, and so does the collective.
 */
#ifndef MCAST4AI_SLOW_LINK_STRAGGLER_H
#define MCAST4AI_SLOW_LINK_STRAGGLER_H

#include "core/model/config-schema-object.h"
#include "ns3/data-rate.h"
#include "workload/model/straggler.h"

namespace ns3
{

/**
 * \brief Multiplies the rate of a host's link by `factor` from `start_us` to `end_us`.
 */
class SlowLinkStraggler : public Straggler
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& s);

    std::string MultiPlaneRefusal() const override;

protected:
    void DoInstall() override;

private:
    void Slow();
    void Restore();
    void Log(const std::string& event);

    uint32_t m_host{0};
    double m_factor{1};
    DataRate m_nicRate;
    DataRate m_torRate;
};

} // namespace ns3

#endif /* MCAST4AI_SLOW_LINK_STRAGGLER_H */
