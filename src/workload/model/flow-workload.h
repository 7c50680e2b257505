/*
 * The `flows` workload: point-to-point RDMA messages, one RC queue pair per flow, given as an
 * explicit list or generated as a permutation or an incast.
 */
#ifndef MCAST4AI_FLOW_WORKLOAD_H
#define MCAST4AI_FLOW_WORKLOAD_H

#include "rdma/model/queue-pair.h"
#include "workload/model/workload.h"

#include <vector>

namespace ns3
{

/**
 * \brief Posts one message per flow at its start time and records its completion.
 */
class FlowWorkload : public Workload
{
public:
    static TypeId GetTypeId();

    /**
     * The flows of a workload. permutation: every host sends to a distinct other host, a
     * single random cycle (Sattolo's algorithm) drawn from the seed, so no host sends to
     * itself; incast: hosts receiver+1 .. receiver+senders (mod H) send to the receiver.
     */
    static std::vector<FlowSpec> Expand(const WorkloadConfig& w, uint32_t hosts, uint64_t seed);

    const std::vector<FlowSpec>& GetFlows() const;
    Refusal SpreadRefusal(const WorkloadConfig& w, Time lookahead) const override;

protected:
    void DoDispose() override;
    /// Create the queue pairs and schedule the posts; registers every flow with metrics.
    void DoInstall() override;

private:
    void StartFlow(uint32_t flow);
    void FlowComplete(uint32_t flow, Ptr<QueuePair> qp, const QueuePair::Message& m);
    /// Post the next message of QP q of a flow (bytes of its share not yet posted remain).
    void PostNext(uint32_t flow, uint32_t q);
    /// Messages a steering queue pair has posted ahead of its acknowledgements.
    static constexpr uint32_t POSTED_AHEAD = 8;

    std::vector<FlowSpec> m_flows;
    std::vector<std::vector<Ptr<QueuePair>>> m_qps; // per flow: its qps_per_connection QPs
    std::vector<uint64_t> m_outstanding;            // per flow: messages posted, not acknowledged
    std::vector<std::vector<uint64_t>> m_unposted;  // per flow and QP: bytes not yet posted
    std::vector<uint64_t> m_handles;
    RdmaOperation m_op{RdmaOperation::WRITE};
};

} // namespace ns3

#endif /* MCAST4AI_FLOW_WORKLOAD_H */
