/*
 * packets.csv: one row per link a tagged data frame crossed, with its operation's ids (the
 * workload, op, request and session of ops.csv), so a request's packets can be followed hop by
 * hop and joined with its ops.csv row.
 */
#ifndef MCAST4AI_PACKET_TRACE_WRITER_H
#define MCAST4AI_PACKET_TRACE_WRITER_H

#include "fabric/model/op-ledger.h"
#include "workload/model/metrics.h"

#include <fstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Writes every hop the fabric's OpLedger reports (its Hop trace).
 */
class PacketTraceWriter
{
public:
    /// Opens path; throws std::runtime_error if it cannot be written.
    PacketTraceWriter(const std::string& path, Ptr<OpLedger> ops, Ptr<Metrics> metrics);
    ~PacketTraceWriter();

private:
    void Hop(const FrameInfo& fi, uint32_t link, double waitNs, double pauseNs, bool marked);

    std::ofstream m_out;
    Ptr<OpLedger> m_ops;
    Ptr<Metrics> m_metrics;
    Callback<void, const FrameInfo&, uint32_t, double, double, bool> m_cb;
};

} // namespace ns3

#endif /* MCAST4AI_PACKET_TRACE_WRITER_H */
