#include "scenario/model/result-writer.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ns3
{

std::ofstream
ResultWriter::Create(const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error("cannot write " + path);
    }
    return out;
}

void
ResultWriter::MakeDirectory(const std::string& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
    {
        throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());
    }
}

void
ResultWriter::WriteJson(const nlohmann::json& j, const std::string& path)
{
    std::ofstream out = Create(path);
    out << j.dump(2) << "\n";
}

namespace
{
void
Column(std::string& line, int64_t v)
{
    line += ',';
    if (v >= 0)
    {
        line += std::to_string(v);
    }
}

void
Micros(std::string& line, double us)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), ",%.3f", us);
    line += buf;
}

/// The network columns (ResultWriter::NetworkColumns) of the frames tagged tags, from ops;
/// p2mp_net_bytes only if the workload's P2MP frames are counted apart.
std::string
NetworkRow(const std::vector<uint32_t>& tags, bool p2mpApart, const OpLedger* ops)
{
    if (!ops || tags.empty())
    {
        return ",,,,,,,,,,,,"; // not counted: no ledger, or past the tags a frame can carry
    }
    const OpLedger::Row n = ops->Sum(tags);
    std::string line;
    Column(line, n.linkBytes);
    if (p2mpApart)
    {
        Column(line, n.p2mpLinkBytes);
    }
    else
    {
        line += ',';
    }
    Column(line, n.switchHops);
    // Per packet its sender built: the queueing and pausing one packet met on its way (for
    // a P2MP packet, in its whole tree).
    double packets = n.packets ? double(n.packets) : 1.0;
    Micros(line, n.QueueNs() / packets / 1000.0);
    Micros(line, n.maxQueueNs / 1000.0);
    line += ',';
    if (n.maxQueueLink != OpLedger::NO_LINK)
    {
        line += ops->LinkName(n.maxQueueLink);
    }
    Micros(line, n.PauseNs() / packets / 1000.0);
    Column(line, n.ecnMarks);
    Column(line, n.retransmissions);
    Column(line, n.drops);
    Column(line, n.lostBytes);
    line += ',';
    line += ops->PathText(n); // node names and '>' and ' ': nothing to quote
    return line;
}

/// What an ops.csv row says beyond its operation's ids: an operation's own, a phase's, or a
/// receiver's (`end` null: not ended).
struct RowPart
{
    const char* phase{""};
    bool started{false};
    Time start;
    const Time* end{nullptr};
    const char* outcome{""};
    uint64_t bytes{0};
    uint32_t receivers{0};
    int64_t dst{-1};
    std::vector<uint32_t> tags;
    const char* kind{"op"};
};

std::string
OpRow(const std::string& label,
      const Metrics::OpRecord& r,
      const RowPart& part,
      bool p2mpApart,
      const OpLedger* ops)
{
    std::string line = label;
    Column(line, r.op);
    Column(line, r.iteration);
    Column(line, r.rank);
    Column(line, r.request);
    Column(line, r.session);
    line += ',';
    line += part.phase; // the workloads' own names: nothing to quote
    if (part.started)
    {
        Micros(line, part.start.GetNanoSeconds() / 1000.0);
    }
    else
    {
        line += ',';
    }
    if (part.end)
    {
        Micros(line, part.end->GetNanoSeconds() / 1000.0);
        Micros(line, (*part.end - part.start).GetNanoSeconds() / 1000.0);
    }
    else
    {
        line += ",,";
    }
    line += ',';
    line += part.outcome;
    Column(line, part.bytes);
    Column(line, part.receivers);
    Column(line, r.src);
    Column(line, part.dst);
    line += NetworkRow(part.tags, p2mpApart, ops);
    line += ',';
    line += part.kind;
    return line;
}
} // namespace

const char*
ResultWriter::NetworkColumns()
{
    return "net_bytes,p2mp_net_bytes,switch_hops,queue_us,queue_max_us,queue_max_at,pause_us,"
           "ecn_marks,retransmissions,drops,lost_bytes,path";
}

void
ResultWriter::WriteOpsCsv(const Metrics& metrics,
                          const std::string& path,
                          bool receivers,
                          const OpLedger* ops)
{
    std::ofstream out = Create(path);
    out << "workload,op,iteration,rank,request,session,phase,start_us,end_us,duration_us,outcome,"
           "bytes,receivers,src,dst,"
        << NetworkColumns() << ",kind\n";
    const auto& workloads = metrics.GetWorkloads();
    const auto& all = metrics.GetOps();
    const auto& phases = metrics.GetPhases();
    for (uint64_t h = 0; h < all.size(); ++h)
    {
        const Metrics::OpRecord& r = all[h];
        const Metrics::WorkloadInfo& w = workloads[r.workload];
        RowPart op;
        op.started = r.started;
        op.start = r.start;
        op.end = r.done ? &r.end : nullptr;
        op.outcome = r.failed ? "failed" : r.done ? "completed" : "unfinished";
        op.bytes = r.bytes;
        op.receivers = r.receivers;
        op.dst = r.dst;
        op.tags = metrics.TagsOf(h);
        out << OpRow(w.label, r, op, w.p2mpApart, ops) << '\n';
        // Its phases next to it: each one's own frames, its own span.
        for (uint64_t p = r.firstPhase; p < r.firstPhase + r.phases; ++p)
        {
            const Metrics::PhaseRecord& ph = phases[p];
            RowPart part;
            part.phase = ph.name.c_str();
            part.started = ph.started;
            part.start = ph.start;
            part.end = ph.done ? &ph.end : nullptr;
            part.bytes = ph.bytes;
            part.receivers = ph.receivers;
            part.dst = r.dst;
            const uint32_t tag = Metrics::PhaseTag(p);
            if (tag)
            {
                part.tags.push_back(tag); // else counted with its operation only
            }
            const bool failed = ops && !part.tags.empty() && ops->Get(tag).failed;
            part.outcome = failed ? "failed" : ph.done ? "completed" : "unfinished";
            part.kind = "phase";
            out << OpRow(w.label, r, part, w.p2mpApart, ops) << '\n';
        }
    }
    if (!receivers)
    {
        return;
    }
    // A receiver's row: its operation's columns, its own end, receivers = 1, dst = the receiver.
    for (const Metrics::ReceiverRecord& rx : metrics.GetReceiverRecords())
    {
        const Metrics::OpRecord& r = all[rx.handle];
        const Metrics::WorkloadInfo& w = workloads[r.workload];
        RowPart part;
        part.started = r.started;
        part.start = r.start;
        part.end = &rx.end;
        part.outcome = "completed";
        part.bytes = r.bytes;
        part.receivers = 1;
        part.dst = rx.host;
        part.tags = metrics.TagsOf(rx.handle);
        part.kind = "receiver";
        out << OpRow(w.label, r, part, w.p2mpApart, ops) << '\n';
    }
}

void
ResultWriter::WriteStepsCsv(const Metrics& metrics, const std::string& path)
{
    std::ofstream out = Create(path);
    out << "workload,op,iteration,step,transfers,start_us,end_us,duration_us,last_src,last_dst\n";
    const auto& workloads = metrics.GetWorkloads();
    for (const Metrics::StepRecord& s : metrics.GetSteps())
    {
        const Metrics::OpRecord& r = metrics.GetOps()[s.handle];
        std::string line = workloads[r.workload].label;
        Column(line, r.op);
        Column(line, r.iteration);
        Column(line, s.step);
        Column(line, s.transfers);
        Micros(line, s.start.GetNanoSeconds() / 1000.0);
        Micros(line, s.end.GetNanoSeconds() / 1000.0);
        Micros(line, (s.end - s.start).GetNanoSeconds() / 1000.0);
        Column(line, s.lastSrc);
        Column(line, s.lastDst);
        out << line << '\n';
    }
}

void
ResultWriter::WriteStragglersCsv(const StragglerLog& log,
                                 const std::vector<std::string>& workloads,
                                 const std::string& path)
{
    std::ofstream out = Create(path);
    out << "time_us,straggler,type,event,workload,host,iteration,link,factor,delay_us\n";
    for (const StragglerLog::Event& e : log.GetEvents())
    {
        char time[32];
        std::snprintf(time, sizeof(time), "%.3f", e.time.GetPicoSeconds() / 1e6);
        std::string line = time;
        Column(line, e.straggler);
        line += ',' + e.type + ',' + e.event + ',';
        if (e.workload >= 0)
        {
            line += workloads.at(e.workload);
        }
        Column(line, e.host);
        Column(line, e.iteration);
        line += ',' + e.link;
        if (e.factor >= 0)
        {
            char buf[32];
            std::snprintf(buf, sizeof(buf), ",%g", e.factor);
            line += buf;
        }
        else
        {
            line += ',';
        }
        if (e.delayUs >= 0)
        {
            Micros(line, e.delayUs);
        }
        else
        {
            line += ',';
        }
        out << line << '\n';
    }
}

void
ResultWriter::PrintTable(const nlohmann::json& s, std::ostream& os)
{
    char buf[256];
    std::snprintf(buf,
                  sizeof(buf),
                  "scenario %s  seed %" PRIu64 "  mechanism %s  %s\n",
                  s["scenario"].get<std::string>().c_str(),
                  s["seed"].get<uint64_t>(),
                  s["mechanism"].get<std::string>().c_str(),
                  s["complete"].get<bool>() ? "complete" : "INCOMPLETE");
    os << buf;
    std::snprintf(buf,
                  sizeof(buf),
                  "simulated %.6f s in %.2f s wall  %.3g events (%.3g/s)  %.3g packet-hops "
                  "(%.3g/s)  peak RSS %.0f MB\n\n",
                  s["sim_time_s"].get<double>(),
                  s["wall_s"].get<double>(),
                  static_cast<double>(s["events"].get<uint64_t>()),
                  s["events_per_s"].get<double>(),
                  static_cast<double>(s["packet_hops"].get<uint64_t>()),
                  s["packet_hops_per_s"].get<double>(),
                  s["peak_rss_mb"].get<double>());
    os << buf;
    // Per workload its own distributions first (TTFT, dispatch, token...), then the operation
    // and per-receiver completion. A p99 needs 100 samples and a p99.9 1,000: with fewer the
    // figure is the maximum, and prints as '-'.
    std::snprintf(buf,
                  sizeof(buf),
                  "%-20s %-22s %9s %11s %11s %11s %11s %11s\n",
                  "workload",
                  "distribution (us)",
                  "n",
                  "mean",
                  "p50",
                  "p99",
                  "p99.9",
                  "max");
    os << buf;
    bool shortened = false;
    for (const auto& w : s["workloads"])
    {
        const uint64_t done = w["completed"].get<uint64_t>();
        std::vector<std::pair<std::string, uint64_t>> rows;
        for (const auto& [key, value] : w.items())
        {
            if (value.is_object() && value.contains("p50") && key != "duration_us"
                && key != "receiver_completion_us")
            {
                rows.emplace_back(key, done);
            }
        }
        rows.emplace_back("duration_us", done);
        if (w.contains("receiver_completion_us"))
        {
            rows.emplace_back("receiver_completion_us", w["receiver_completions"].get<uint64_t>());
        }
        std::string name = w["label"].get<std::string>();
        for (const auto& [key, n] : rows)
        {
            const auto& d = w[key];
            std::string dist = key.size() > 3 && key.compare(key.size() - 3, 3, "_us") == 0
                                   ? key.substr(0, key.size() - 3)
                                   : key;
            char p99[32] = "-";
            char p999[32] = "-";
            if (n >= 100)
            {
                std::snprintf(p99, sizeof(p99), "%.3f", d["p99"].get<double>());
            }
            if (n >= 1000)
            {
                std::snprintf(p999, sizeof(p999), "%.3f", d["p999"].get<double>());
            }
            shortened = shortened || n < 1000;
            std::snprintf(buf,
                          sizeof(buf),
                          "%-20s %-22s %9s %11.3f %11.3f %11s %11s %11.3f\n",
                          name.c_str(),
                          dist.c_str(),
                          std::to_string(n).c_str(),
                          d["mean"].get<double>(),
                          d["p50"].get<double>(),
                          p99,
                          p999,
                          d["max"].get<double>());
            os << buf;
            name.clear();
        }
        std::snprintf(buf,
                      sizeof(buf),
                      "%-20s %s, %s of %s operations done\n",
                      "",
                      w["type"].get<std::string>().c_str(),
                      std::to_string(done).c_str(),
                      std::to_string(w["ops"].get<uint64_t>()).c_str());
        os << buf;
        if (w.value("failed", uint64_t{0}) > 0)
        {
            // Not done, not unfinished: a receiver timeout failed them (ops.csv outcome).
            os << "  " << w["failed"].get<uint64_t>() << " failed (p2mp.on_receiver_timeout)\n";
        }
    }
    if (shortened)
    {
        os << "'-': fewer samples than the percentile needs (100 for p99, 1,000 for p99.9); "
              "max is the largest\n";
    }
    os << "\nnetwork:";
    int i = 0;
    // Nested objects (switch_state) print as dotted keys, like the JSON paths users --set.
    std::vector<std::pair<std::string, std::string>> items;
    for (const auto& [key, value] : s["network"].items())
    {
        if (value.is_object())
        {
            for (const auto& [sub, v] : value.items())
            {
                items.emplace_back(key + "." + sub, v.dump());
            }
        }
        else
        {
            items.emplace_back(key, value.dump());
        }
    }
    // Zero counters are left out: they are in summary.json, and most are zero in most runs.
    std::size_t zeros = 0;
    for (const auto& [key, value] : items)
    {
        if (value == "0" || value == "0.0" || value == "false" || value == "[]" || value == "{}")
        {
            ++zeros;
            continue;
        }
        os << (i++ % 4 == 0 ? "\n  " : "  ") << key << " " << value;
    }
    os << "\n  (" << zeros << " zero counters left out; every counter is in summary.json)\n";
}

} // namespace ns3
