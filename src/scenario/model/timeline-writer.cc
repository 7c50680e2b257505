#include "scenario/model/timeline-writer.h"

#include "fabric/model/fabric-net-device.h"
#include "fabric/model/fabric-port-owner.h"
#include "fabric/model/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "scenario/model/topology-builder.h"

#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimelineWriter");

namespace
{

// Perfetto groups tracks by process: one per kind of track.
constexpr uint32_t OPERATIONS = 1;
constexpr uint32_t REQUESTS = 2;
constexpr uint32_t HOSTS = 3;
constexpr uint32_t PORTS = 4;
constexpr uint32_t KINDS = 3; ///< HostActivity values

const char* const ACTIVITY_NAMES[KINDS] = {"compute", "waiting for data", "sending"};

/// Microseconds, the format's unit, exact to the picosecond.
std::string
Us(Time t)
{
    const int64_t ps = t.GetPicoSeconds();
    char buf[40];
    std::snprintf(buf,
                  sizeof(buf),
                  "%s%" PRId64 ".%06" PRId64,
                  ps < 0 ? "-" : "",
                  std::abs(ps) / 1000000,
                  std::abs(ps) % 1000000);
    return buf;
}

std::string
Quote(const std::string& s)
{
    return nlohmann::json(s).dump();
}

uint64_t
HostTid(uint32_t host, HostActivity kind)
{
    return uint64_t{host} * KINDS + static_cast<uint32_t>(kind);
}

} // namespace

TimelineWriter::TimelineWriter(const std::string& path,
                               uint64_t maxBytes,
                               const TopologyBuilder& fabric,
                               Ptr<Metrics> metrics)
    : m_out(path),
      m_maxBytes(maxBytes),
      m_metrics(metrics)
{
    if (!m_out)
    {
        throw std::runtime_error("cannot write " + path);
    }
    const TopologyGraph& g = fabric.GetGraph();
    const uint32_t hosts = fabric.GetHostCount();
    for (uint32_t h = 0; h < hosts; ++h)
    {
        m_hostNames.push_back(g.NodeName(h));
    }
    m_activity.assign(uint64_t{hosts} * KINDS, Activity());
    m_named.assign(uint64_t{hosts} * KINDS, false);
    // Every link end transmits on a port: a host's NIC, a switch's ports.
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Port p;
        p.name = g.NodeName(h) + ">" + g.NodeName(g.Ports(h)[0].peer);
        p.device = fabric.GetNic(h)->GetDevice();
        m_ports.push_back(p);
    }
    for (uint32_t s = 0; s < fabric.GetSwitchCount(); ++s)
    {
        const uint32_t node = hosts + s;
        Ptr<FabricSwitch> sw = fabric.GetSwitch(s);
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            Port p;
            p.name = g.NodeName(node) + ">" + g.NodeName(g.Ports(node)[i].peer);
            p.device = sw->GetPort(i);
            p.sw = sw;
            p.index = i;
            m_ports.push_back(p);
        }
    }
    m_out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    const char* processes[] = {"operations", "requests", "hosts", "ports"};
    for (uint32_t pid = OPERATIONS; pid <= PORTS; ++pid)
    {
        Emit("{\"ph\":\"M\",\"pid\":" + std::to_string(pid)
                 + ",\"name\":\"process_name\",\"args\":{\"name\":\"" + processes[pid - 1] + "\"}}",
             true);
        Emit("{\"ph\":\"M\",\"pid\":" + std::to_string(pid)
                 + ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":"
                 + std::to_string(pid) + "}}",
             true);
    }
}

TimelineWriter::~TimelineWriter() = default;

void
TimelineWriter::Attach(Ptr<Workload> workload)
{
    workload->TraceConnectWithoutContext("Activity",
                                         MakeCallback(&TimelineWriter::OnActivity, this));
    workload->TraceConnectWithoutContext("Segment", MakeCallback(&TimelineWriter::OnSegment, this));
}

void
TimelineWriter::Emit(const std::string& event, bool always)
{
    // Past the bound every later streamed event goes too, so what is kept is a prefix in
    // time: no arrow without its slices, no request with half its parts.
    if (!always && (m_full || m_written + event.size() > m_maxBytes))
    {
        m_full = true;
        ++m_dropped;
        return;
    }
    Write(event);
}

void
TimelineWriter::EmitCounter(const std::string& event)
{
    // Counters, which every sample may add to, keep to half the bound: the other half is for
    // slices, so a long run's counters do not crowd out its requests.
    if (m_countersFull || m_full || m_counterBytes + event.size() > m_maxBytes / 2)
    {
        m_countersFull = true;
        ++m_dropped;
        return;
    }
    m_counterBytes += event.size() + 2;
    Write(event);
}

void
TimelineWriter::Write(const std::string& event)
{
    if (!m_first)
    {
        m_out << ",\n";
    }
    m_first = false;
    m_out << event;
    m_written += event.size() + 2;
}

void
TimelineWriter::NameThread(uint32_t pid, uint64_t tid, const std::string& name)
{
    Emit("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid)
             + ",\"name\":\"thread_name\",\"args\":{\"name\":" + Quote(name) + "}}",
         true);
    Emit("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid)
             + ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + std::to_string(tid)
             + "}}",
         true);
}

std::string
TimelineWriter::JoinKeyArgs(uint64_t handle) const
{
    const Metrics::OpRecord& op = m_metrics->GetOps().at(handle);
    std::string out = "\"workload\":" + Quote(m_metrics->GetWorkloads().at(op.workload).label)
                      + ",\"op\":" + std::to_string(op.op);
    if (op.request >= 0)
    {
        out += ",\"request\":" + std::to_string(op.request);
    }
    if (op.session >= 0)
    {
        out += ",\"session\":" + std::to_string(op.session);
    }
    return out;
}

void
TimelineWriter::OnActivity(uint32_t host, HostActivity kind, int32_t delta)
{
    Activity& a = m_activity.at(HostTid(host, kind));
    const int32_t before = a.count;
    a.count += delta;
    NS_ASSERT_MSG(a.count >= 0, "a host's activity count fell below zero");
    if (before == 0 && a.count > 0)
    {
        a.since = Simulator::Now();
    }
    else if (before > 0 && a.count == 0)
    {
        HostSlice(HostTid(host, kind), a.since, Simulator::Now(), false);
    }
}

void
TimelineWriter::HostSlice(uint64_t tid, Time since, Time end, bool open)
{
    if (!m_named[tid])
    {
        m_named[tid] = true;
        NameThread(HOSTS, tid, m_hostNames[tid / KINDS] + " " + ACTIVITY_NAMES[tid % KINDS]);
    }
    Emit("{\"ph\":\"X\",\"pid\":3,\"tid\":" + std::to_string(tid) + ",\"ts\":" + Us(since)
         + ",\"dur\":" + Us(end - since) + ",\"name\":\"" + ACTIVITY_NAMES[tid % KINDS]
         + "\",\"cat\":\"host\"" + (open ? ",\"args\":{\"open\":true}}" : "}"));
}

void
TimelineWriter::OnSegment(const TimelineSegment& s)
{
    // A workload fires an operation's segments one after the other: they are written
    // together, or not at all.
    if (!m_segments.empty() && m_segments.front().op != s.op)
    {
        FlushSegments();
    }
    m_segments.push_back(s);
}

void
TimelineWriter::FlushSegments()
{
    std::vector<std::string> events;
    for (const TimelineSegment& s : m_segments)
    {
        SegmentEvents(s, events);
    }
    m_segments.clear();
    uint64_t bytes = 0;
    for (const std::string& e : events)
    {
        bytes += e.size() + 2;
    }
    if (m_full || m_written + bytes > m_maxBytes)
    {
        m_full = true;
        m_dropped += events.size();
        return;
    }
    for (const std::string& e : events)
    {
        Emit(e);
    }
}

void
TimelineWriter::SegmentEvents(const TimelineSegment& s, std::vector<std::string>& events)
{
    if (m_namedOp.size() <= s.op)
    {
        m_namedOp.resize(s.op + 1, false);
    }
    const Metrics::OpRecord& op = m_metrics->GetOps().at(s.op);
    if (!m_namedOp[s.op])
    {
        m_namedOp[s.op] = true;
        NameThread(REQUESTS,
                   s.op,
                   m_metrics->GetWorkloads().at(op.workload).label + " "
                       + (op.request >= 0 ? "request " + std::to_string(op.request)
                                          : "op " + std::to_string(op.op)));
    }
    const std::string tid = std::to_string(s.op);
    events.push_back("{\"ph\":\"X\",\"pid\":2,\"tid\":" + tid + ",\"ts\":" + Us(s.start)
                     + ",\"dur\":" + Us(s.end - s.start) + ",\"name\":\"" + s.name
                     + "\",\"cat\":\"segment\",\"args\":{" + JoinKeyArgs(s.op) + "}}");
    if (s.causedHost >= 0)
    {
        // From the segment to the slice of the host's activity that contains its start.
        const uint64_t hostTid = HostTid(static_cast<uint32_t>(s.causedHost), s.causedActivity);
        const std::string common = ",\"id\":" + tid + ",\"ts\":" + Us(s.start) + ",\"name\":\""
                                   + s.name + "\",\"cat\":\"cause\"";
        events.push_back("{\"ph\":\"s\",\"pid\":2,\"tid\":" + tid + common + "}");
        events.push_back("{\"ph\":\"f\",\"bp\":\"e\",\"pid\":3,\"tid\":" + std::to_string(hostTid)
                         + common + "}");
    }
}

void
TimelineWriter::Sample(Time interval)
{
    const Time now = Simulator::Now();
    const std::string ts = Us(now);
    for (Port& p : m_ports)
    {
        const uint64_t queued
            = p.sw ? static_cast<const FabricPortOwner&>(*p.sw).GetQueuedBytes(p.index)
                   : p.device->GetQueuedBytes();
        const bool paused = p.device->GetPausedMask(now) != 0;
        const uint64_t tx = p.device->GetTxBytes();
        const double gbps = static_cast<double>(tx - p.txBytes) * 8 / interval.GetSeconds() / 1e9;
        p.txBytes = tx;
        auto counter = [&](const char* what, const std::string& value)
        {
            EmitCounter("{\"ph\":\"C\",\"pid\":4,\"ts\":" + ts + ",\"name\":"
                        + Quote(p.name + " " + what) + ",\"args\":{\"value\":" + value + "}}");
        };
        if (queued != p.queued)
        {
            p.queued = queued;
            counter("queue bytes", std::to_string(queued));
        }
        if (paused != p.paused)
        {
            p.paused = paused;
            counter("paused", paused ? "1" : "0");
        }
        if (gbps != p.gbps)
        {
            p.gbps = gbps;
            char buf[32];
            std::snprintf(buf, sizeof(buf), "%.3f", gbps);
            counter("tx Gb/s", buf);
        }
    }
}

void
TimelineWriter::Finish(Time end)
{
    FlushSegments();
    // Activity still going at the end (a copy to a receiver that was dropped) ends with it.
    for (uint64_t tid = 0; tid < m_activity.size(); ++tid)
    {
        Activity& a = m_activity[tid];
        if (a.count > 0)
        {
            HostSlice(tid, a.since, end, true);
        }
    }
    // Operations and their phases: an async track per workload, phases nested in their
    // operation (same id), every ops.csv op and phase row.
    const std::vector<Metrics::OpRecord>& ops = m_metrics->GetOps();
    std::vector<std::vector<const Metrics::PhaseRecord*>> phases(ops.size());
    for (const Metrics::PhaseRecord& ph : m_metrics->GetPhases())
    {
        if (ph.started)
        {
            phases.at(ph.handle).push_back(&ph);
        }
    }
    for (uint32_t w = 0; w < m_metrics->GetWorkloads().size(); ++w)
    {
        NameThread(OPERATIONS, w, m_metrics->GetWorkloads()[w].label);
    }
    for (uint64_t h = 0; h < ops.size(); ++h)
    {
        const Metrics::OpRecord& op = ops[h];
        if (!op.started || op.elsewhere)
        {
            continue;
        }
        const Time opEnd = op.done ? op.end : end;
        const std::string outcome = op.failed ? "failed" : (op.done ? "completed" : "incomplete");
        const std::string label = m_metrics->GetWorkloads().at(op.workload).label;
        const std::string common = ",\"pid\":1,\"tid\":" + std::to_string(op.workload)
                                   + ",\"cat\":\"op\",\"id\":" + std::to_string(h);
        Emit("{\"ph\":\"b\"" + common + ",\"ts\":" + Us(op.start) + ",\"name\":"
                 + Quote(label + " op " + std::to_string(op.op)) + ",\"args\":{" + JoinKeyArgs(h)
                 + ",\"bytes\":" + std::to_string(op.bytes) + ",\"outcome\":\"" + outcome + "\"}}",
             true);
        // Phases may overlap one another (an AllReduce's all-gather starts before its
        // reduce-scatter ends): each is a slice of its own id, beside its operation.
        for (std::size_t k = 0; k < phases[h].size(); ++k)
        {
            const Metrics::PhaseRecord* ph = phases[h][k];
            const Time phEnd = ph->done ? ph->end : opEnd;
            const std::string phase = ",\"pid\":1,\"tid\":" + std::to_string(op.workload)
                                      + ",\"cat\":\"phase\",\"id\":\"" + std::to_string(h) + "."
                                      + std::to_string(k) + "\"";
            Emit("{\"ph\":\"b\"" + phase + ",\"ts\":" + Us(ph->start)
                     + ",\"name\":" + Quote(ph->name) + ",\"args\":{" + JoinKeyArgs(h)
                     + ",\"bytes\":" + std::to_string(ph->bytes) + "}}",
                 true);
            Emit("{\"ph\":\"e\"" + phase + ",\"ts\":" + Us(phEnd) + ",\"name\":" + Quote(ph->name)
                     + "}",
                 true);
        }
        Emit("{\"ph\":\"e\"" + common + ",\"ts\":" + Us(opEnd)
                 + ",\"name\":" + Quote(label + " op " + std::to_string(op.op)) + "}",
             true);
    }
    m_out << "\n],\"otherData\":{\"generator\":\"mcast4ai\",\"max_bytes\":" << m_maxBytes
          << ",\"dropped_events\":" << m_dropped << "}}\n";
    m_out.close();
    NS_LOG_INFO("timeline: " << m_written << " bytes, " << m_dropped << " events dropped");
}

} // namespace ns3
