#include "workload/model/workload.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "p2mp/model/p2mp-delivery.h"
#include "rdma/model/rdma-nic.h"
#include "workload/model/workload-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Workload");
NS_OBJECT_ENSURE_REGISTERED(Workload);

TypeId
Workload::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Workload")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddTraceSource("OperationComplete",
                              "An operation of this workload completed (workload index, handle)",
                              MakeTraceSourceAccessor(&Workload::m_completeTrace),
                              "ns3::Workload::OperationTracedCallback")
              .AddTraceSource("Activity",
                              "A host's compute, wait or send count changed (host, kind, +1 or "
                              "-1): fired only while something listens (output.timeline)",
                              MakeTraceSourceAccessor(&Workload::m_activityTrace),
                              "ns3::Workload::ActivityTracedCallback")
              .AddTraceSource("Segment",
                              "A part of an operation's duration, fired when the operation "
                              "completes (a request's queueing, prefill, KV transfer, ...)",
                              MakeTraceSourceAccessor(&Workload::m_segmentTrace),
                              "ns3::Workload::SegmentTracedCallback");
    return tid;
}

std::vector<Workload::Warning>
Workload::GetWarnings() const
{
    return {};
}

std::string
Workload::MultiPlaneRefusal() const
{
    return "its traffic is not spread over planes yet (that of the types built on the "
           "collective engine is: docs/multi-plane.md)";
}

void
Workload::ForwardTimeline(Ptr<Workload> inner)
{
    if (IsTimed())
    {
        inner->TraceConnectWithoutContext("Activity", MakeCallback(&Workload::Activity, this));
        inner->TraceConnectWithoutContext("Segment", MakeCallback(&Workload::Segment, this));
    }
}

void
Workload::DoDispose()
{
    m_context = Context();
    Object::DoDispose();
}

void
Workload::Install(const WorkloadConfig& config, const Context& context)
{
    NS_LOG_FUNCTION(this << config.type << config.label);
    m_config = config;
    m_context = context;
    WorkloadTypeRegistry::ApplyAttributes(config.type, config.spec, *this);
    DoInstall();
}

void
Workload::Report(std::map<std::string, double>& figures) const
{
}

void
Workload::ReportSamples(std::map<std::string, std::vector<double>>& samples) const
{
}

const WorkloadConfig&
Workload::GetConfig() const
{
    return m_config;
}

uint32_t
Workload::GetHostCount() const
{
    return m_context.nics.size() / m_context.planes;
}

uint64_t
Workload::AddOp(Metrics::OpRecord record)
{
    record.workload = m_context.index;
    record.elsewhere = record.src >= 0 && !ActsFor(static_cast<uint32_t>(record.src));
    return m_context.metrics->AddOp(record);
}

uint64_t
Workload::AddOp(Metrics::OpRecord record, uint32_t host)
{
    record.workload = m_context.index;
    record.elsewhere = !ActsFor(host);
    return m_context.metrics->AddOp(record);
}

Workload::Refusal
Workload::SpreadRefusal(const WorkloadConfig& /* w */, Time /* lookahead */) const
{
    return {"type", ""};
}

Workload::P2mpRoots
Workload::GetP2mpRoots() const
{
    return {};
}

void
Workload::PackOwn(PackedBytes& /* out */) const
{
}

void
Workload::MergeFrom(PackedBytes& /* in */)
{
}

void
Workload::StartOp(uint64_t handle)
{
    m_context.metrics->StartOp(handle);
}

void
Workload::CompleteOp(uint64_t handle)
{
    CompleteOpAt(handle, Simulator::Now());
}

void
Workload::CompleteOpAt(uint64_t handle, Time end)
{
    NS_LOG_LOGIC("workload " << m_context.index << ": operation " << handle << " complete at "
                             << end.As(Time::US));
    m_context.metrics->CompleteOpAt(handle, end);
    m_completeTrace(m_context.index, handle);
}

uint64_t
Workload::WorkloadSeed() const
{
    return m_context.seed * 0x9E3779B97F4A7C15ULL + m_context.index + 1;
}

uint16_t
Workload::EntropyPort(uint64_t draw)
{
    return static_cast<uint16_t>(49152 + draw % 16384);
}

uint32_t
Workload::GroupQpnBase() const
{
    return 0x800000 + m_context.index * 4096;
}

} // namespace ns3
