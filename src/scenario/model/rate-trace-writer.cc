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
    Ptr<Dcqcn> cc = DynamicCast<Dcqcn>(qp->GetCongestionControl());
    if (!cc)
    {
        return;
    }
    uint32_t qpn = qp->GetQpn();
    cc->TraceConnectWithoutContext("Rate",
                                   MakeCallback(&RateTraceWriter::Changed, this, host, qpn, cc));
    cc->TraceConnectWithoutContext("TargetRate",
                                   MakeCallback(&RateTraceWriter::Changed, this, host, qpn, cc));
    Row(host, qpn, cc);
}

void
RateTraceWriter::Changed(uint32_t host, uint32_t qpn, Ptr<Dcqcn> cc, double oldBps, double newBps)
{
    Row(host, qpn, cc);
}

void
RateTraceWriter::Row(uint32_t host, uint32_t qpn, Ptr<Dcqcn> cc)
{
    char line[160];
    std::snprintf(line,
                  sizeof(line),
                  "%.3f,%u,%u,%.6f,%.6f,%.6f\n",
                  Simulator::Now().GetNanoSeconds() / 1000.0,
                  host,
                  qpn,
                  cc->GetRate().GetBitRate() / 1e9,
                  cc->GetTargetRate().GetBitRate() / 1e9,
                  cc->GetAlpha());
    m_out << line;
}

} // namespace ns3
