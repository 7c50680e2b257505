#include "scenario/model/packet-trace-writer.h"

#include "ns3/simulator.h"
#include "scenario/model/result-writer.h"

#include <cinttypes>
#include <cstdio>

namespace ns3
{

PacketTraceWriter::PacketTraceWriter(const std::string& path,
                                     Ptr<OpLedger> ops,
                                     Ptr<Metrics> metrics)
    : m_out(ResultWriter::Create(path)),
      m_ops(ops),
      m_metrics(metrics)
{
    m_out << "time_us,workload,op,request,session,phase,link,psn,bytes,wait_us,pause_us,ce\n";
    m_cb = MakeCallback(&PacketTraceWriter::Hop, this);
    m_ops->TraceConnectWithoutContext("Hop", m_cb);
}

PacketTraceWriter::~PacketTraceWriter()
{
    m_ops->TraceDisconnectWithoutContext("Hop", m_cb);
}

void
PacketTraceWriter::Hop(
    const FrameInfo& fi, uint32_t link, double waitNs, double pauseNs, bool marked)
{
    // The tag is the operation's (Metrics::OpTag) or one of its phases' (Metrics::PhaseTag).
    const Metrics::OpRecord& r = m_metrics->GetOps().at(m_metrics->HandleOfTag(fi.op));
    const Metrics::PhaseRecord* phase = m_metrics->PhaseOfTag(fi.op);
    const std::string& label = m_metrics->GetWorkloads().at(r.workload).label;
    auto id = [](int64_t v)
    {
        return v >= 0 ? std::to_string(v) : std::string();
    };
    char time[32];
    std::snprintf(time, sizeof(time), "%.3f", Simulator::Now().GetNanoSeconds() / 1000.0);
    char rest[96];
    std::snprintf(rest,
                  sizeof(rest),
                  ",%" PRIu32 ",%" PRIu32 ",%.3f,%.3f,%d\n",
                  static_cast<uint32_t>(fi.psn),
                  static_cast<uint32_t>(fi.size),
                  waitNs / 1000.0,
                  pauseNs / 1000.0,
                  marked ? 1 : 0);
    m_out << time << ',' << label << ',' << r.op << ',' << id(r.request) << ',' << id(r.session)
          << ',' << (phase ? phase->name : std::string()) << ',' << m_ops->LinkName(link) << rest;
}

} // namespace ns3
