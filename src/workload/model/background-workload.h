/*
 * background: unicast cross-traffic that shares the fabric with the foreground workloads,
 * either long-lived (every source keeps one message in flight to its peer, back to back) or
 * with Poisson arrivals at a given offered load, message sizes fixed or drawn from a CDF. Its
 * messages are operations of their own workload, marked background: the run does not wait
 * for them, so a scenario ends when its foreground ends.
 */
#ifndef MCAST4AI_BACKGROUND_WORKLOAD_H
#define MCAST4AI_BACKGROUND_WORKLOAD_H

#include "core/model/config-schema-object.h"
#include "rdma/model/queue-pair.h"
#include "workload/model/workload.h"

#include <random>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Long-lived or Poisson unicast cross-traffic; one operation per message.
 */
class BackgroundWorkload : public Workload
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& w);

    void Report(std::map<std::string, double>& figures) const override;
    /// Mean of the size distribution, bytes.
    double GetMeanBytes() const;
    /// Messages posted so far.
    uint64_t GetMessages() const;

protected:
    void DoInstall() override;
    void DoDispose() override;

private:
    uint64_t DrawBytes();
    void Arrival(uint32_t source);
    void Post(uint32_t src, uint32_t dst);
    Ptr<QueuePair> Connect(uint32_t src, uint32_t dst);
    void PoissonDone(uint64_t handle, Ptr<QueuePair> qp, const QueuePair::Message& m);
    void LongLivedDone(uint32_t source, Ptr<QueuePair> qp, const QueuePair::Message& m);
    bool Running() const;

    std::vector<uint32_t> m_hosts;
    bool m_longLived{true};
    Time m_start;
    Time m_end;            ///< zero: until the run ends
    double m_meanGapUs{0}; ///< Poisson: mean time between a source's arrivals
    std::vector<std::pair<double, double>> m_cdf; ///< (bytes, P(size <= bytes)), ascending
    uint64_t m_fixedBytes{0};
    std::vector<uint32_t> m_peer;    ///< long-lived: each source's destination
    std::vector<uint64_t> m_current; ///< long-lived: each source's message in flight
    std::mt19937_64 m_rng;
    std::vector<Ptr<QueuePair>> m_qps;
    uint64_t m_messages{0};
    uint64_t m_bytes{0};
};

} // namespace ns3

#endif /* MCAST4AI_BACKGROUND_WORKLOAD_H */
