/*
 * The `broadcast` workload. With algorithm "multicast" a root sends messages to the other
 * ranks (all of them, or a random subset per message as in MoE dispatch) through the
 * scenario's P2MP delivery, whatever its mechanism. One operation per message: from its start
 * (including any group installation) to the root's completion; each receiver's own
 * completion is recorded too. With "ring" (a pipelined chain) and "tree" (a pipelined binary
 * tree) the ranks relay the message in chunks over RDMA WRITEs: the workload delegates them
 * to the collective engine (ScheduleWorkload), one operation per message from the root's
 * start to the last chunk's arrival.
 */
#ifndef MCAST4AI_BROADCAST_WORKLOAD_H
#define MCAST4AI_BROADCAST_WORKLOAD_H

#include "ns3/nstime.h"
#include "p2mp/model/p2mp-channel.h"
#include "workload/model/schedule-workload.h"
#include "workload/model/workload.h"

#include <memory>
#include <random>
#include <vector>

namespace ns3
{

/**
 * \brief Root-to-ranks messages over the selected P2MP mechanism.
 */
class BroadcastWorkload : public Workload
{
public:
    static TypeId GetTypeId();

    /// The root's channel to the other ranks (multicast only).
    Ptr<P2mpChannel> GetChannel() const;
    /// The engine that runs a ring or tree broadcast (null for multicast).
    Ptr<ScheduleWorkload> GetRelay() const;
    void Report(std::map<std::string, double>& figures) const override;
    /// A multicast broadcast runs spread: the root's process sends, each receiver's records
    /// its deliveries (P2mpChannel tells it which message ended). The relays do not yet.
    Refusal SpreadRefusal(const WorkloadConfig& w, Time lookahead) const override;
    /// Its root.
    P2mpRoots GetP2mpRoots() const override;

protected:
    void DoDispose() override;
    void DoInstall() override;

private:
    struct Message
    {
        uint64_t handle{0};
        Time start;
    };

    /// ring, tree: hand the messages to the collective engine.
    void InstallRelay();
    void StartNext();
    void Begin(uint32_t m);
    void Done(uint64_t m);
    /// The channel dropped a receiver silent past p2mp.receiver_timeout_us from message m.
    void Dropped(uint64_t m, uint32_t receiver, uint64_t bytes);
    void Delivered(uint64_t m, uint32_t receiver, uint64_t bytes);
    std::shared_ptr<const std::vector<uint32_t>> DrawReceivers();
    uint16_t Entropy();

    std::vector<uint32_t> m_others; ///< ranks but the root, ascending
    std::shared_ptr<const std::vector<uint32_t>> m_everyone;
    std::mt19937_64 m_rng;
    Ptr<P2mpChannel> m_channel;
    Ptr<ScheduleWorkload> m_relay;

    std::vector<Message> m_msgs;
    uint64_t m_next{0};
    uint32_t m_inFlight{0};
    uint64_t m_receiversDropped{0};
};

} // namespace ns3

#endif /* MCAST4AI_BROADCAST_WORKLOAD_H */
