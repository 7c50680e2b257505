#include "workload/model/metrics.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Metrics");
NS_OBJECT_ENSURE_REGISTERED(Metrics);

TypeId
Metrics::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Metrics")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<Metrics>();
    return tid;
}

uint32_t
Metrics::AddWorkload(const WorkloadInfo& info)
{
    m_workloads.push_back(info);
    m_receiverUs.emplace_back();
    m_extras.emplace_back();
    return m_workloads.size() - 1;
}

uint64_t
Metrics::AddOp(const OpRecord& record)
{
    m_ops.push_back(record);
    m_foreground += record.background ? 0 : 1;
    return m_ops.size() - 1;
}

uint64_t
Metrics::AddPhase(const PhaseRecord& record)
{
    OpRecord& op = m_ops.at(record.handle);
    NS_ASSERT_MSG(op.phases == 0 || op.firstPhase + op.phases == m_phases.size(),
                  "an operation's phases are registered one after the other");
    if (op.phases++ == 0)
    {
        op.firstPhase = m_phases.size();
    }
    m_phases.push_back(record);
    NS_LOG_LOGIC("operation " << record.handle << " phase " << record.name << ": tag "
                              << PhaseTag(m_phases.size() - 1));
    return m_phases.size() - 1;
}

void
Metrics::StartPhase(uint64_t phase)
{
    PhaseRecord& p = m_phases.at(phase);
    p.started = true;
    p.start = Simulator::Now();
}

void
Metrics::CompletePhase(uint64_t phase, Time end)
{
    PhaseRecord& p = m_phases.at(phase);
    if (!p.started)
    {
        // Nothing was posted in it (every token stayed home): it took no time.
        p.started = true;
        p.start = end;
    }
    p.done = true;
    p.end = end;
}

const std::vector<Metrics::PhaseRecord>&
Metrics::GetPhases() const
{
    return m_phases;
}

std::vector<uint32_t>
Metrics::TagsOf(uint64_t handle) const
{
    std::vector<uint32_t> tags;
    if (uint32_t tag = OpTag(handle))
    {
        tags.push_back(tag);
    }
    const OpRecord& op = m_ops.at(handle);
    for (uint64_t p = op.firstPhase; p < op.firstPhase + op.phases; ++p)
    {
        if (uint32_t tag = PhaseTag(p))
        {
            tags.push_back(tag);
        }
    }
    return tags;
}

int64_t
Metrics::HandleOfTag(uint32_t tag) const
{
    if (tag == 0)
    {
        return -1;
    }
    if (tag < OpLedger::FIRST_PHASE_TAG)
    {
        return tag - 1 < m_ops.size() ? int64_t(tag - 1) : -1;
    }
    const uint64_t phase = tag - OpLedger::FIRST_PHASE_TAG;
    return phase < m_phases.size() ? int64_t(m_phases[phase].handle) : -1;
}

const Metrics::PhaseRecord*
Metrics::PhaseOfTag(uint32_t tag) const
{
    if (tag < OpLedger::FIRST_PHASE_TAG || tag - OpLedger::FIRST_PHASE_TAG >= m_phases.size())
    {
        return nullptr;
    }
    return &m_phases[tag - OpLedger::FIRST_PHASE_TAG];
}

void
Metrics::SetOpHosts(uint64_t handle, int64_t src, int64_t dst)
{
    m_ops.at(handle).src = src;
    m_ops.at(handle).dst = dst;
}

void
Metrics::StartOp(uint64_t handle)
{
    OpRecord& r = m_ops[handle];
    r.started = true;
    r.start = Simulator::Now();
}

void
Metrics::CompleteOp(uint64_t handle)
{
    OpRecord& r = m_ops[handle];
    NS_ASSERT_MSG(!r.done, "operation completed twice");
    r.done = true;
    r.end = Simulator::Now();
    ++m_completed;
    if (!r.background && ++m_foregroundDone == m_foreground && !m_allDone.IsNull())
    {
        m_allDone();
    }
}

void
Metrics::MarkFailed(uint64_t handle)
{
    m_ops[handle].failed = true;
}

uint64_t
Metrics::GetFailed(uint32_t workload) const
{
    uint64_t n = 0;
    for (const auto& r : m_ops)
    {
        n += r.workload == workload && r.failed;
    }
    return n;
}

void
Metrics::SetAllDoneCallback(Callback<void> cb)
{
    m_allDone = cb;
}

uint64_t
Metrics::GetPending() const
{
    return m_foreground - m_foregroundDone;
}

uint64_t
Metrics::GetCompleted() const
{
    return m_completed;
}

const std::vector<Metrics::OpRecord>&
Metrics::GetOps() const
{
    return m_ops;
}

const std::vector<Metrics::WorkloadInfo>&
Metrics::GetWorkloads() const
{
    return m_workloads;
}

std::vector<double>
Metrics::Durations(uint32_t workload) const
{
    std::vector<double> d;
    for (const auto& r : m_ops)
    {
        if (r.workload == workload && r.done && !r.failed)
        {
            d.push_back((r.end - r.start).GetNanoSeconds() / 1000.0);
        }
    }
    return d;
}

void
Metrics::AddReceiverCompletion(uint64_t handle, uint32_t host)
{
    const OpRecord& op = m_ops[handle];
    Time now = Simulator::Now();
    m_receiverUs[op.workload].push_back((now - op.start).GetNanoSeconds() / 1000.0);
    m_receivers.push_back({handle, host, now});
}

void
Metrics::AddStep(const StepRecord& record)
{
    m_steps.push_back(record);
}

const std::vector<Metrics::StepRecord>&
Metrics::GetSteps() const
{
    return m_steps;
}

const std::vector<Metrics::ReceiverRecord>&
Metrics::GetReceiverRecords() const
{
    return m_receivers;
}

const std::vector<double>&
Metrics::GetReceiverCompletions(uint32_t workload) const
{
    return m_receiverUs[workload];
}

void
Metrics::SetExtra(uint32_t workload, const std::string& key, double value)
{
    m_extras[workload][key] = value;
}

const std::map<std::string, double>&
Metrics::GetExtras(uint32_t workload) const
{
    return m_extras[workload];
}

Metrics::Distribution
Metrics::Summarize(std::vector<double> values)
{
    Distribution d;
    d.count = values.size();
    if (values.empty())
    {
        return d;
    }
    std::sort(values.begin(), values.end());
    auto rank = [&values](double p)
    {
        std::size_t k = static_cast<std::size_t>(std::ceil(p * values.size()));
        return values[std::min(values.size(), std::max<std::size_t>(k, 1)) - 1];
    };
    d.mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
    d.p50 = rank(0.50);
    d.p95 = rank(0.95);
    d.p99 = rank(0.99);
    d.p999 = rank(0.999);
    d.max = values.back();
    return d;
}

} // namespace ns3
