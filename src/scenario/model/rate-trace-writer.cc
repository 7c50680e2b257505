#include "scenario/model/rate-trace-writer.h"

#include "ns3/simulator.h"
#include "scenario/model/result-writer.h"

#include <cstdio>

namespace ns3
{

RateTraceWriter::RateTraceWriter(const std::string& path)
    : m_out(ResultWriter::Create(path))
{
    m_out << "time_us,host,qpn,rate_gbps,target_gbps,alpha\n";
}

void
RateTraceWriter::Attach(uint32_t host, Ptr<QueuePair> qp)
{
    if (Ptr<RdmaCongestionControl> cc = qp->GetCongestionControl())
    {
        cc->SetStateLog(MakeCallback(&RateTraceWriter::Row, this).Bind(host, qp->GetQpn()));
    }
}

void
RateTraceWriter::Row(uint32_t host, uint32_t qpn, double rateBps, double targetBps, double alpha)
{
    char line[160];
    std::snprintf(line,
                  sizeof(line),
                  "%.3f,%u,%u,%.6f,%.6f,%.6f\n",
                  Simulator::Now().GetNanoSeconds() / 1000.0,
                  host,
                  qpn,
                  rateBps / 1e9,
                  targetBps / 1e9,
                  alpha);
    m_out << line;
}

} // namespace ns3
