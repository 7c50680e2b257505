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
    m_foreground += record.background || record.elsewhere ? 0 : 1;
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
Metrics::SetPhaseSize(uint64_t phase, uint64_t bytes, uint32_t receivers)
{
    PhaseRecord& p = m_phases.at(phase);
    p.bytes = bytes;
    p.receivers = receivers;
}

void
Metrics::StartPhase(uint64_t phase)
{
    StartPhaseAt(phase, Simulator::Now());
}

void
Metrics::StartPhaseAt(uint64_t phase, Time start)
{
    PhaseRecord& p = m_phases.at(phase);
    p.started = true;
    p.start = start;
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
    StartOpAt(handle, Simulator::Now());
}

void
Metrics::StartOpAt(uint64_t handle, Time start)
{
    OpRecord& r = m_ops[handle];
    r.started = true;
    r.start = start;
}

void
Metrics::CompleteOp(uint64_t handle)
{
    CompleteOpAt(handle, Simulator::Now());
}

void
Metrics::CompleteOpAt(uint64_t handle, Time end)
{
    OpRecord& r = m_ops[handle];
    NS_ASSERT_MSG(!r.done, "operation completed twice");
    NS_ASSERT_MSG(end <= Simulator::Now(), "an operation cannot end in the future");
    r.done = true;
    r.end = end;
    ++m_completed;
    NS_ASSERT_MSG(!r.elsewhere, "an operation of another process completed here");
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

Time
Metrics::GetLastEnd() const
{
    Time last;
    for (const OpRecord& r : m_ops)
    {
        if (r.done && !r.background)
        {
            last = std::max(last, r.end);
        }
    }
    return last;
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

void
Metrics::PackOwn(PackedBytes& out) const
{
    uint64_t own = 0;
    for (const OpRecord& r : m_ops)
    {
        own += !r.elsewhere;
    }
    out.Put(own);
    for (uint64_t h = 0; h < m_ops.size(); ++h)
    {
        const OpRecord& r = m_ops[h];
        if (r.elsewhere)
        {
            continue;
        }
        out.Put(h);
        out.Put<uint8_t>(r.started | r.done << 1 | r.failed << 2);
        out.Put(r.start.GetTimeStep());
        out.Put(r.end.GetTimeStep());
        out.Put(r.src);
        out.Put(r.dst);
        out.Put(r.phases);
        for (uint64_t p = r.firstPhase; p < r.firstPhase + r.phases; ++p)
        {
            const PhaseRecord& ph = m_phases[p];
            out.Put<uint8_t>(ph.started | ph.done << 1);
            out.Put(ph.start.GetTimeStep());
            out.Put(ph.end.GetTimeStep());
        }
    }
    out.Put<uint64_t>(m_receivers.size());
    for (const ReceiverRecord& rx : m_receivers)
    {
        out.Put(rx.handle);
        out.Put(rx.host);
        out.Put(rx.end.GetTimeStep());
    }
    out.Put<uint64_t>(m_steps.size());
    for (const StepRecord& st : m_steps)
    {
        out.Put(st.handle);
        out.Put(st.step);
        out.Put(st.transfers);
        out.Put(st.start.GetTimeStep());
        out.Put(st.end.GetTimeStep());
        out.Put(st.lastSrc);
        out.Put(st.lastDst);
    }
    // A workload's figures are set where it acts for the hosts they are about (a root's).
    for (const std::map<std::string, double>& extras : m_extras)
    {
        out.Put<uint64_t>(extras.size());
        for (const auto& [key, value] : extras)
        {
            out.PutString(key);
            out.Put(value);
        }
    }
}

void
Metrics::MergeFrom(PackedBytes& in)
{
    const auto own = in.Take<uint64_t>();
    for (uint64_t i = 0; i < own; ++i)
    {
        OpRecord& r = m_ops.at(in.Take<uint64_t>());
        const auto flags = in.Take<uint8_t>();
        r.started = flags & 1;
        r.done = flags & 2;
        r.failed = flags & 4;
        r.start = TimeStep(in.Take<int64_t>());
        r.end = TimeStep(in.Take<int64_t>());
        r.src = in.Take<int64_t>();
        r.dst = in.Take<int64_t>();
        NS_ABORT_MSG_IF(in.Take<uint32_t>() != r.phases, "Metrics: processes disagree on phases");
        for (uint64_t p = r.firstPhase; p < r.firstPhase + r.phases; ++p)
        {
            PhaseRecord& ph = m_phases[p];
            const auto phaseFlags = in.Take<uint8_t>();
            ph.started = phaseFlags & 1;
            ph.done = phaseFlags & 2;
            ph.start = TimeStep(in.Take<int64_t>());
            ph.end = TimeStep(in.Take<int64_t>());
        }
        r.elsewhere = false;
    }
    const auto receivers = in.Take<uint64_t>();
    for (uint64_t i = 0; i < receivers; ++i)
    {
        ReceiverRecord rx;
        rx.handle = in.Take<uint64_t>();
        rx.host = in.Take<uint32_t>();
        rx.end = TimeStep(in.Take<int64_t>());
        m_receivers.push_back(rx);
    }
    const auto steps = in.Take<uint64_t>();
    for (uint64_t i = 0; i < steps; ++i)
    {
        StepRecord st;
        st.handle = in.Take<uint64_t>();
        st.step = in.Take<uint32_t>();
        st.transfers = in.Take<uint32_t>();
        st.start = TimeStep(in.Take<int64_t>());
        st.end = TimeStep(in.Take<int64_t>());
        st.lastSrc = in.Take<uint32_t>();
        st.lastDst = in.Take<uint32_t>();
        m_steps.push_back(st);
    }
    for (std::map<std::string, double>& extras : m_extras)
    {
        const auto n = in.Take<uint64_t>();
        for (uint64_t i = 0; i < n; ++i)
        {
            std::string key = in.TakeString();
            const auto value = in.Take<double>();
            auto [it, added] = extras.emplace(std::move(key), value);
            NS_ABORT_MSG_IF(!added && it->second != value,
                            "Metrics: two processes set the figure " << it->first);
        }
    }
}

void
Metrics::FinishMerge()
{
    // Each process's records are in the order it saw them; processes are merged in rank
    // order, so records of one picosecond from two processes stay in rank order.
    std::stable_sort(m_receivers.begin(),
                     m_receivers.end(),
                     [](const ReceiverRecord& a, const ReceiverRecord& b)
                     {
                         return a.end < b.end;
                     });
    std::stable_sort(m_steps.begin(),
                     m_steps.end(),
                     [](const StepRecord& a, const StepRecord& b)
                     {
                         return a.end < b.end;
                     });
    for (std::vector<double>& us : m_receiverUs)
    {
        us.clear();
    }
    for (const ReceiverRecord& rx : m_receivers)
    {
        const OpRecord& op = m_ops[rx.handle];
        m_receiverUs[op.workload].push_back((rx.end - op.start).GetNanoSeconds() / 1000.0);
    }
    m_completed = 0;
    m_foreground = 0;
    m_foregroundDone = 0;
    for (OpRecord& r : m_ops)
    {
        r.elsewhere = false;
        m_completed += r.done;
        m_foreground += !r.background;
        m_foregroundDone += !r.background && r.done;
    }
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
