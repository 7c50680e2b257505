/*
 * congested-receiver: an incast of unicast cross-traffic toward one host, from `senders`
 * other hosts, each keeping one `bytes`-byte RDMA WRITE in flight back to back between two
 * times. The host's downlink is shared with that traffic, so every step of a collective that
 * delivers to it is slow: the receiver-side straggler of the mechanism-evaluation draft.
 */
#ifndef MCAST4AI_CONGESTED_RECEIVER_STRAGGLER_H
#define MCAST4AI_CONGESTED_RECEIVER_STRAGGLER_H

#include "core/model/config-schema-object.h"
#include "rdma/model/queue-pair.h"
#include "workload/model/straggler.h"

#include <vector>

namespace ns3
{

/**
 * \brief Long-lived incast toward `host` from `senders` hosts, `start_us` to `end_us`.
 */
class CongestedReceiverStraggler : public Straggler
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& s);

    void Report(std::map<std::string, double>& figures) const override;
    std::string MultiPlaneRefusal() const override;
    /// The hosts sending the incast, once installed.
    const std::vector<uint32_t>& GetSenders() const;
    /// Cross-traffic bytes the host has received so far.
    uint64_t GetBytesDelivered() const;

protected:
    void DoInstall() override;
    void DoDispose() override;

private:
    void Start();
    void Stop();
    void Completed(Ptr<QueuePair> qp, const QueuePair::Message& m);
    void Received(Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t psn);
    void Log(const std::string& event);

    uint32_t m_host{0};
    uint64_t m_bytes{0};
    bool m_running{false};
    std::vector<uint32_t> m_senders;
    std::vector<Ptr<QueuePair>> m_qps;
    uint64_t m_delivered{0};
};

} // namespace ns3

#endif /* MCAST4AI_CONGESTED_RECEIVER_STRAGGLER_H */
