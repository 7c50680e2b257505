/*
 * dcqcn-rates.csv: one row per change of a queue pair's DCQCN current or target rate, so a
 * run's sawtooth and convergence can be plotted (scripts/plot_dcqcn.py).
 */
#ifndef MCAST4AI_RATE_TRACE_WRITER_H
#define MCAST4AI_RATE_TRACE_WRITER_H

#include "rdma/model/queue-pair.h"

#include <fstream>
#include <string>

namespace ns3
{

/**
 * \brief Writes the rate changes of the queue pairs it is attached to, as their congestion
 * control reports them (RdmaCongestionControl::SetStateLog: DCQCN's).
 */
class RateTraceWriter
{
public:
    /// Opens path; throws std::runtime_error if it cannot be written.
    explicit RateTraceWriter(const std::string& path);
    /// Follow one QP's reaction point (no-op if the QP has none); writes its initial rate.
    void Attach(uint32_t host, Ptr<QueuePair> qp);

private:
    void Row(uint32_t host, uint32_t qpn, double rateBps, double targetBps, double alpha);

    std::ofstream m_out;
};

} // namespace ns3

#endif /* MCAST4AI_RATE_TRACE_WRITER_H */
