/*
 * The `broadcast` workload with algorithm "multicast": a root sends messages to the other
 * ranks (all of them, or a random subset per message as in MoE dispatch) through whatever
 * p2mp.mechanism the scenario selects: N unicast queue pairs, BIER, BIER with XPU-ID lists, or
 * the new protocol (installing a group per receiver set, falling back to unicast when it
 * cannot). One operation per message: from its start (including any group installation) to
 * the root's completion; each receiver's own completion is recorded too.
 */
#ifndef MCAST4AI_BROADCAST_WORKLOAD_H
#define MCAST4AI_BROADCAST_WORKLOAD_H

#include "ns3/object.h"
#include "p2mp/model/group-controller.h"
#include "rdma/model/queue-pair.h"
#include "scenario/model/scenario-config.h"
#include "workload/model/metrics.h"

#include <deque>
#include <memory>
#include <random>
#include <unordered_map>
#include <vector>

namespace ns3
{

class TopologyBuilder;

/**
 * \brief Root-to-ranks messages over the selected P2MP mechanism.
 */
class BroadcastWorkload : public Object
{
public:
    static TypeId GetTypeId();

    void Install(const WorkloadConfig& w,
                 uint32_t workloadIndex,
                 TopologyBuilder& fabric,
                 const ScenarioConfig& config,
                 Ptr<Metrics> metrics,
                 uint64_t seed);

    /// The root's P2MP queue pair (null with mechanism unicast).
    Ptr<QueuePair> GetMulticastQp() const;
    /// The group QPN every receiver of this workload answers to.
    uint32_t GetGroupQpn() const;

protected:
    void DoDispose() override;

private:
    static constexpr uint32_t NO_GROUP = 0xFFFFFFFF;

    struct Message
    {
        uint64_t handle{0};
        std::shared_ptr<const std::vector<uint32_t>> receivers;
        uint32_t unicastPending{0};
        uint32_t delivered{0}; ///< receivers that have the whole message
        uint32_t groupId{NO_GROUP};
        Time start;
    };

    void StartNext();
    void Begin(uint32_t m);
    void GroupReady(uint32_t m, uint32_t groupId);
    void SendMulticast(uint32_t m);
    void SendUnicast(uint32_t m);
    void Finish(uint32_t m);
    void MulticastDone(Ptr<QueuePair> qp, const QueuePair::Message& done);
    void UnicastDone(uint32_t receiver, Ptr<QueuePair> qp, const QueuePair::Message& done);
    void MulticastReceived(Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t lastPsn);
    void UnicastReceived(
        uint32_t receiver, Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t lastPsn);
    Ptr<QueuePair> UnicastQp(uint32_t receiver);
    std::shared_ptr<const std::vector<uint32_t>> DrawReceivers();
    uint16_t Entropy();

    WorkloadConfig m_w;
    uint32_t m_index{0};
    TopologyBuilder* m_fabric{nullptr};
    Ptr<Metrics> m_metrics;
    Ptr<GroupController> m_controller;
    bool m_multicast{false};
    uint32_t m_mtu{1024};
    std::vector<uint32_t> m_others; ///< ranks but the root, ascending
    std::shared_ptr<const std::vector<uint32_t>> m_everyone;
    std::mt19937_64 m_rng;

    std::vector<Message> m_msgs;
    uint64_t m_next{0};
    uint32_t m_inFlight{0};

    Ptr<QueuePair> m_mcastQp;
    uint32_t m_groupQpn{0};
    std::deque<uint32_t> m_mcastOrder;                  // messages on the P2MP QP, in order
    std::unordered_map<uint64_t, uint32_t> m_byLastPsn; // receiver side: last PSN -> message

    std::vector<Ptr<QueuePair>> m_uniQp; // by receiver host, created on first use
    std::vector<std::deque<uint32_t>> m_uniSent;
    std::vector<std::deque<uint32_t>> m_uniReceived;

    bool m_ackFree{false};
    double m_copies{0};
    uint64_t m_viaUnicast{0};
};

} // namespace ns3

#endif /* MCAST4AI_BROADCAST_WORKLOAD_H */
