/*
 * What the runner tells a user after a run: warnings for settings that changed nothing and
 * for results that rest on too few samples, and a terminal table that prints no p99 over fewer
 * than 100 operations and leaves zero counters out.
 */
#include "ns3/object.h"
#include "scenario/model/result-writer.h"
#include "scenario/model/run-warnings.h"
#include "scenario/model/scenario-config.h"
#include "workload/model/straggler-log.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace ns3;
using nlohmann::json;

namespace
{

json
Summary(uint64_t completed)
{
    json dist = {
        {"mean", 10.0}, {"p50", 9.0}, {"p95", 12.0}, {"p99", 13.0}, {"p999", 14.0}, {"max", 15.0}};
    json ttft = dist;
    ttft["mean"] = 500.0;
    return {{"scenario", "t"},
            {"seed", 1},
            {"mechanism", "bier"},
            {"complete", true},
            {"sim_time_s", 0.001},
            {"wall_s", 0.1},
            {"events", 10},
            {"events_per_s", 100.0},
            {"packet_hops", 5},
            {"packet_hops_per_s", 50.0},
            {"peak_rss_mb", 10.0},
            {"workloads",
             {{{"label", "kv"},
               {"type", "kv-cache-fanout"},
               {"ops", completed},
               {"completed", completed},
               {"duration_us", dist},
               {"ttft_us", ttft}}}},
            {"network",
             {{"ecn_marks", 0},
              {"cnps", 7},
              {"group_evictions", 0},
              {"group_fallbacks", 0},
              {"switch_state", {{"bift_entries", 12}, {"aggregation_installs", 0}}}}}};
}

std::string
Table(const json& s)
{
    std::ostringstream os;
    ResultWriter::PrintTable(s, os);
    return os.str();
}

} // namespace

TEST(RunTable, NoP99OverFewerThan100Operations)
{
    const std::string few = Table(Summary(16));
    EXPECT_EQ(few.find("13.000"), std::string::npos) << few; // the p99 is not printed
    EXPECT_NE(few.find("'-': fewer samples"), std::string::npos);
    const std::string many = Table(Summary(200));
    EXPECT_NE(many.find("13.000"), std::string::npos) << many; // p99 over 200
    EXPECT_EQ(many.find("14.000"), std::string::npos) << many; // p99.9 needs 1,000
    EXPECT_NE(Table(Summary(1000)).find("14.000"), std::string::npos);
}

TEST(RunTable, HeadlineDistributionsFirstAndNoZeroCounters)
{
    const std::string t = Table(Summary(16));
    EXPECT_LT(t.find("ttft"), t.find("duration")) << t;
    EXPECT_NE(t.find("cnps 7"), std::string::npos);
    EXPECT_NE(t.find("switch_state.bift_entries 12"), std::string::npos);
    EXPECT_EQ(t.find("ecn_marks"), std::string::npos) << t;
    EXPECT_EQ(t.find("aggregation_installs"), std::string::npos) << t;
    EXPECT_NE(t.find("(4 zero counters left out"), std::string::npos) << t;
}

TEST(RunWarnings, NamesWhatChangedNothingAndWhatRestsOnTooLittle)
{
    ScenarioConfig c;
    c.stragglers.push_back({"slow-node", json::object()});
    c.stragglers.push_back({"slow-link", json::object()});
    Ptr<StragglerLog> log = CreateObject<StragglerLog>();
    StragglerLog::Event e;
    e.straggler = 1;
    log->Add(e);
    json s = Summary(16);
    s["network"]["group_evictions"] = 24;
    s["network"]["group_fallbacks"] = 3;
    const std::vector<std::string> w = RunWarnings::Check(c, s, *log);
    ASSERT_EQ(w.size(), 4u);
    EXPECT_EQ(w[0].rfind("stragglers[0]: this slow-node straggler changed nothing", 0), 0u) << w[0];
    EXPECT_EQ(w[1].rfind("p2mp.new_protocol.table_entries: full group tables evicted 24", 0), 0u);
    EXPECT_EQ(w[2].rfind("p2mp.new_protocol.on_table_full: 3 group request(s)", 0), 0u);
    EXPECT_EQ(w[3].rfind("workloads[0] (16): fewer operations completed than the 100", 0), 0u);
    // The same run with every straggler firing, no table pressure and enough operations.
    log->Add(StragglerLog::Event{});
    EXPECT_TRUE(RunWarnings::Check(c, Summary(100), *log).empty());
}
