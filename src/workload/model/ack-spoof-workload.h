/*
 * ack-spoof: an attacker host that forges ACKs for a P2MP sender's group, in the name of its
 * receivers, to make the sender free data before the receivers have it (the aggregated-ACK
 * spoofing the mechanism-evaluation draft names). It is the strongest such attacker: it
 * knows the group's QPN and the highest PSN the root has sent (an oracle read of the root's
 * queue pair), so only the fabric's checks can stop it. It posts no operations; the run does
 * not wait for it.
 */
#ifndef MCAST4AI_ACK_SPOOF_WORKLOAD_H
#define MCAST4AI_ACK_SPOOF_WORKLOAD_H

#include "core/model/config-schema-object.h"
#include "ns3/event-id.h"
#include "workload/model/workload.h"

#include <vector>

namespace ns3
{

/**
 * \brief Forges ACKs of a P2MP sender's receivers at a fixed interval.
 *
 * Every tick, for each multicast queue pair of the root with data unacknowledged, one ACK per
 * spoofed receiver: source address the receiver's, destination QP the group's, PSN the
 * root's highest sent PSN plus psn_offset.
 */
class AckSpoofWorkload : public Workload
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& w);

    void Report(std::map<std::string, double>& figures) const override;
    /// Forged ACKs sent so far.
    uint64_t GetForged() const;

protected:
    void DoInstall() override;
    void DoDispose() override;

private:
    void Tick();

    uint32_t m_host{0};
    uint32_t m_root{0};
    std::vector<uint32_t> m_spoof;
    uint64_t m_psnOffset{0};
    Time m_interval;
    Time m_end; ///< zero: until the run ends
    EventId m_tick;
    uint64_t m_forged{0};
};

} // namespace ns3

#endif /* MCAST4AI_ACK_SPOOF_WORKLOAD_H */
