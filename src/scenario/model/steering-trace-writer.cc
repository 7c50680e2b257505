#include "scenario/model/steering-trace-writer.h"

#include "ns3/simulator.h"
#include "rdma/model/path-steering.h"
#include "scenario/model/result-writer.h"

#include <cstdio>

namespace ns3
{

SteeringTraceWriter::SteeringTraceWriter(const std::string& path)
    : m_out(ResultWriter::Create(path))
{
    m_out << "time_us,host,qpn,from_port,to_port\n";
}

void
SteeringTraceWriter::Attach(uint32_t host, Ptr<QueuePair> qp)
{
    Ptr<PathSteering> steering = qp->GetPathSteering();
    if (!steering)
    {
        return;
    }
    steering->TraceConnectWithoutContext(
        "Repath", MakeCallback(&SteeringTraceWriter::Repathed, this, host, qp->GetQpn()));
}

void
SteeringTraceWriter::Repathed(uint32_t host, uint32_t qpn, uint16_t from, uint16_t to)
{
    char line[96];
    std::snprintf(line,
                  sizeof(line),
                  "%.3f,%u,%u,%u,%u\n",
                  Simulator::Now().GetNanoSeconds() / 1000.0,
                  host,
                  qpn,
                  unsigned{from},
                  unsigned{to});
    m_out << line;
}

} // namespace ns3
