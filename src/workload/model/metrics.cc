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
