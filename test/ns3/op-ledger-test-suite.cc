/*
 * Per-operation network counters (ops.csv's network columns, docs/results.md) against closed
 * forms:
 * - two N-packet flows into one host under one leaf, at one line rate, DCQCN off: the leaf's
 *   downlink serves one frame per T while two arrive per T. Frame j (0-based, in service
 *   order) arrived with packet i = j / 2; with the two FIRST frames longer by the RETH
 *   (T0 = T + d), frame 2i waits iT + 2d and frame 2i + 1 waits (i + 1)T + 2d (i >= 1), frame
 *   0 waits 0 and frame 1 T0. The waits sum to N^2 T + (4N - 3)d, the two flows' longest are
 *   NT + 2d and (N - 1)T + 2d, both at leaf0>host2, and each flow's frames cross two links;
 * - a peer's PFC pause of q quanta holds a class for q x 512 bit times, and a resume ends
 *   it early: FabricNetDevice::GetPausedTime, which the queue's paused time is read from,
 *   also for a past time (when a frame was queued);
 * - lossy and paused runs keep the books: an operation's retransmissions and drops sum to
 *   the fabric's, its paused time is counted, and its path is one chain through a spine;
 * - packets.csv has one row per frame and link, as the ledger counts them;
 * - an operation's phases keep the books apart: an MoE layer's dispatch and combine, an
 *   AllReduce's reduce-scatter and all-gather each count their own frames, they sum to the
 *   operation's row, the P2MP bytes are exactly the multicast phase's, and each phase spans
 *   its own steps (steps.csv).
 */
#include "fabric/model/fabric-channel.h"
#include "fabric/model/fabric-net-device.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "scenario/model/result-writer.h"
#include "test-fabric.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::test;

namespace
{

class TwoIntoOneTestCase : public TestCase
{
public:
    TwoIntoOneTestCase()
        : TestCase("two flows into one host: queueing sums to N^2 T + (4N - 3)d, the longest "
                   "waits are NT + 2d and (N - 1)T + 2d at the shared downlink")
    {
    }

private:
    void DoRun() override
    {
        constexpr uint32_t N = 16;
        constexpr uint32_t MTU = 1024;
        std::ostringstream s;
        s << R"({"name": "two-into-one", "stop_time_ms": 10,
          "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4,
                       "host_link": {"rate_gbps": 100, "delay_us": 1},
                       "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
          "nic": {"mtu_bytes": 1024, "ack_every": 1, "dcqcn": {"enabled": false}},
          "workloads": [{"type": "flows", "pattern": "list", "flows": [
            {"src": 0, "dst": 2, "bytes": )"
          << N * MTU << R"(}, {"src": 1, "dst": 2, "bytes": )" << N * MTU << "}]}]}";
        ScenarioOutcome o = RunScenarioJson(s.str(), "two-into-one.json");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "both flows complete");
        NS_TEST_ASSERT_MSG_EQ(o.summary["network"]["pfc_pauses"].get<uint64_t>(),
                              0u,
                              "no PFC: the waits are the closed form's");
        const double T = WireSeconds(MTU + ROCE_HEADER_BYTES, 100) * 1e9; // ns
        const double d = RETH_BYTES * 8 / 100.0;                          // ns
        double sum = 0;
        double longest = 0;
        double shorter = 1e18;
        for (uint32_t f = 0; f < 2; ++f)
        {
            const OpLedger::Row& n = o.net.at(f);
            NS_TEST_EXPECT_MSG_EQ(n.packets, N, "N packets");
            NS_TEST_EXPECT_MSG_EQ(n.switchHops, N, "one switch hop per frame");
            NS_TEST_EXPECT_MSG_EQ(n.frameHops, 2 * N, "two links per frame");
            NS_TEST_EXPECT_MSG_EQ(n.linkBytes,
                                  2 * (N * (MTU + ROCE_HEADER_BYTES) + RETH_BYTES),
                                  "every byte of its frames, twice");
            NS_TEST_EXPECT_MSG_EQ(o.queueMaxAt.at(f), "leaf0>host2", "the shared downlink");
            NS_TEST_EXPECT_MSG_EQ(o.path.at(f), "leaf0>host2", "its only switch link");
            NS_TEST_EXPECT_MSG_EQ(n.PauseNs(), 0.0, "no pause");
            NS_TEST_EXPECT_MSG_EQ(
                n.ecnMarks + n.drops + n.retransmissions, 0u, "no mark, drop or resend");
            sum += n.QueueNs();
            longest = std::max<double>(longest, n.maxQueueNs);
            shorter = std::min<double>(shorter, n.maxQueueNs);
        }
        // A wait is read in units of 1,024 ps (OpLedger::Units): within one of 2N waits each.
        NS_TEST_EXPECT_MSG_EQ_TOL(
            sum, N * N * T + (4.0 * N - 3) * d, 2.0 * N * 1.024, "sum of waits");
        NS_TEST_EXPECT_MSG_EQ_TOL(longest, N * T + 2 * d, 1.024, "the last frame's wait");
        NS_TEST_EXPECT_MSG_EQ_TOL(shorter, (N - 1) * T + 2 * d, 1.024, "the other flow's last");
    }
};

class PausedTimeTestCase : public TestCase
{
public:
    PausedTimeTestCase()
        : TestCase("a PFC pause of q quanta holds the class q x 512 bit times; a resume ends "
                   "it early")
    {
    }

private:
    void DoRun() override
    {
        ScenarioRunner::UsePicoseconds();
        Ptr<FabricNetDevice> a = CreateObject<FabricNetDevice>();
        Ptr<FabricNetDevice> b = CreateObject<FabricNetDevice>();
        a->SetNode(CreateObject<Node>());
        b->SetNode(CreateObject<Node>());
        Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
        ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        a->Attach(ch);
        b->Attach(ch);
        uint64_t first = 0;
        uint64_t second = 0;
        uint64_t other = 0;
        uint64_t midFirst = 0;
        uint64_t midSecond = 0;
        Simulator::Schedule(MicroSeconds(0),
                            [a]()
                            {
                                a->SendPfc(3, 1000);
                            });
        Simulator::Schedule(MicroSeconds(20),
                            [&]()
                            {
                                first = b->GetPausedTime(3, Simulator::Now()).GetNanoSeconds();
                            });
        Simulator::Schedule(MicroSeconds(30),
                            [a]()
                            {
                                a->SendPfc(3, 0xFFFF);
                            });
        Simulator::Schedule(MicroSeconds(32),
                            [a]()
                            {
                                a->SendPfc(3, 0);
                            });
        Simulator::Schedule(MicroSeconds(50),
                            [&]()
                            {
                                second = b->GetPausedTime(3, Simulator::Now()).GetNanoSeconds();
                                other = b->GetPausedTime(4, Simulator::Now()).GetNanoSeconds();
                                // Read afterwards, as a switch does for a frame queued then.
                                midFirst = b->GetPausedTime(3, NanoSeconds(3000)).GetNanoSeconds();
                                midSecond
                                    = b->GetPausedTime(3, NanoSeconds(32007)).GetNanoSeconds();
                            });
        Simulator::Run();
        Simulator::Destroy();
        // 1,000 quanta of 512 bit times at 100 Gb/s: 5.12 us.
        NS_TEST_EXPECT_MSG_EQ(first, 5120u, "a pause that ran out");
        // The pause and the resume cross the same cable: 2 us apart.
        NS_TEST_EXPECT_MSG_EQ(second, 5120u + 2000u, "plus a pause ended by a resume");
        NS_TEST_EXPECT_MSG_EQ(other, 0u, "another class was never paused");
        // A PFC frame (64 bytes + 24 of framing: 7.04 ns) and 1 us of cable: the first pause
        // began at 1,007.04 ns, the second at 31,007.04 ns.
        NS_TEST_EXPECT_MSG_EQ(midFirst, 1993u, "paused by 3 us: 1,992.96 ns, read later");
        NS_TEST_EXPECT_MSG_EQ(midSecond, 5120u + 1000u, "by 32.007 us: the first, 999.96 ns more");
    }
};

/// Six 256 KiB WRITEs from one leaf into one host of the other, at 100 Gb/s: the far leaf's
/// downlink backs up, and its uplinks from the spines are paused (PFC) or, with PFC off and a
/// 1 MB buffer, drop (PFC needs 2 MB: the headroom of 10 ports).
std::string
Incast(bool pfc, const std::string& output)
{
    std::ostringstream s;
    s << R"({"name": "incast", "stop_time_ms": 200,
      "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 8,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "dcqcn": {"enabled": false}},
      "switch": {"buffer_mb": )"
      << (pfc ? "2" : "1") << R"(, "pfc": {"enabled": )" << (pfc ? "true" : "false") << R"(}},
      "workloads": [{"type": "flows", "pattern": "list", "flows": [
        {"src": 0, "dst": 8, "bytes": 262144}, {"src": 1, "dst": 8, "bytes": 262144},
        {"src": 2, "dst": 8, "bytes": 262144}, {"src": 3, "dst": 8, "bytes": 262144},
        {"src": 4, "dst": 8, "bytes": 262144}, {"src": 5, "dst": 8, "bytes": 262144}]}])"
      << output << "}";
    return s.str();
}

class BooksTestCase : public TestCase
{
public:
    BooksTestCase()
        : TestCase("an incast: operations meet PFC pauses on one path; with PFC off their "
                   "drops and retransmissions sum to the fabric's")
    {
    }

private:
    void DoRun() override
    {
        ScenarioOutcome paused = RunScenarioJson(Incast(true, ""), "incast.json");
        NS_TEST_ASSERT_MSG_EQ(paused.complete, true, "the incast completes");
        NS_TEST_ASSERT_MSG_GT(paused.summary["network"]["pfc_pauses"].get<uint64_t>(),
                              0u,
                              "the far leaf pauses the spines");
        double pauseNs = 0;
        for (uint32_t i = 0; i < paused.net.size(); ++i)
        {
            const OpLedger::Row& n = paused.net[i];
            NS_TEST_EXPECT_MSG_EQ(n.packets, 256u, "256 KiB at MTU 1024");
            NS_TEST_EXPECT_MSG_EQ(n.drops, 0u, "lossless");
            pauseNs += n.PauseNs();
            // Up to the leaf, a spine, down to the far leaf and host 8: one chain.
            const std::string& path = paused.path[i];
            NS_TEST_EXPECT_MSG_EQ((path.rfind("leaf0>spine", 0) == 0
                                   && path.find(">leaf1>host8") != std::string::npos
                                   && path.find(' ') == std::string::npos),
                                  true,
                                  "one path: " << path);
            NS_TEST_EXPECT_MSG_EQ(
                (path.find(paused.queueMaxAt[i]) != std::string::npos
                 || path.find(paused.queueMaxAt[i].substr(paused.queueMaxAt[i].find('>')))
                        != std::string::npos),
                true,
                "its longest wait was on its path: " << paused.queueMaxAt[i]);
        }
        // The far leaf pauses the spines, and the near one, filling, its hosts' NICs.
        NS_TEST_EXPECT_MSG_GT(pauseNs, 0.0, "the flows met the pauses");

        ScenarioOutcome lossy = RunScenarioJson(Incast(false, ""), "incast.json");
        NS_TEST_ASSERT_MSG_EQ(lossy.complete, true, "the lossy incast completes");
        uint64_t drops = 0;
        uint64_t retx = 0;
        for (const OpLedger::Row& n : lossy.net)
        {
            drops += n.drops;
            retx += n.retransmissions;
        }
        NS_TEST_EXPECT_MSG_GT(drops, 0u, "a 1 MB buffer without PFC drops");
        // Only data frames carry an operation: ACK drops are the fabric's alone.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(
            drops, lossy.summary["network"]["drops"].get<uint64_t>(), "within the fabric's drops");
        NS_TEST_EXPECT_MSG_EQ(retx,
                              lossy.summary["network"]["retransmissions"].get<uint64_t>(),
                              "every resent packet is some operation's");
    }
};

class PacketTraceTestCase : public TestCase
{
public:
    PacketTraceTestCase()
        : TestCase("packets.csv: a row per frame and link, with the operation's ids")
    {
    }

private:
    void DoRun() override
    {
        const std::string dir = "/tmp/mcast4ai-test-packet-trace";
        ResultWriter::MakeDirectory(dir);
        ScenarioOutcome o = RunScenarioJson(
            Incast(true, R"(, "output": {"dir": ")" + dir + R"(", "packet_trace": true})"),
            "incast.json");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the incast completes");
        std::ifstream in(dir + "/packets.csv");
        std::string line;
        std::getline(in, line);
        NS_TEST_EXPECT_MSG_EQ(
            line,
            "time_us,workload,op,request,session,phase,link,psn,bytes,wait_us,pause_us,ce",
            "header");
        std::vector<uint64_t> rows(o.ops.size(), 0);
        while (std::getline(in, line))
        {
            std::istringstream f(line);
            std::string time;
            std::string label;
            std::string op;
            std::getline(f, time, ',');
            std::getline(f, label, ',');
            std::getline(f, op, ',');
            ++rows.at(std::stoul(op));
        }
        for (uint32_t i = 0; i < o.ops.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(rows[i], o.net[i].frameHops, "a row per frame and link");
            NS_TEST_EXPECT_MSG_GT(rows[i], 0u, "every flow has rows");
        }
    }
};

/// A CSV file with a header, as rows of column -> text (no quoted fields: ours have none).
std::vector<std::map<std::string, std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> names;
    std::istringstream h(line);
    for (std::string name; std::getline(h, name, ',');)
    {
        names.push_back(name);
    }
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line))
    {
        std::map<std::string, std::string> row;
        std::istringstream f(line);
        std::string cell;
        for (const std::string& name : names)
        {
            std::getline(f, cell, ',');
            row[name] = cell;
        }
        rows.push_back(row);
    }
    return rows;
}

class PhasesTestCase : public TestCase
{
public:
    PhasesTestCase()
        : TestCase("an operation's phases count their own frames, sum to its row, and the P2MP "
                   "bytes are the multicast phase's")
    {
    }

private:
    static uint64_t U(const std::map<std::string, std::string>& row, const std::string& column)
    {
        return std::stoull(row.at(column));
    }

    static double D(const std::map<std::string, std::string>& row, const std::string& column)
    {
        return std::stod(row.at(column));
    }

    void DoRun() override
    {
        const std::string dir = "/tmp/mcast4ai-test-phases";
        ResultWriter::MakeDirectory(dir);
        // Both workloads send P2MP data in one phase and unicast in the other; at 100 Gb/s
        // with 4 KiB tokens the dispatch queues, so a mixed figure would differ from both.
        const std::string json = R"({"name": "phases", "stop_time_ms": 50,
          "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                       "host_link": {"rate_gbps": 100, "delay_us": 1},
                       "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
          "nic": {"mtu_bytes": 1024},
          "p2mp": {"mechanism": "bier", "ack_aggregation": "source-tor"},
          "workloads": [
            {"type": "moe-dispatch", "label": "moe", "experts": 16, "top_k": 4,
             "tokens_per_rank": 16, "hidden": 2048, "expert_us": 5, "iterations": 2},
            {"type": "allreduce", "label": "ar", "algorithm": "multicast", "bytes": 262144,
             "start_us": 2000}],
          "output": {"dir": ")" + dir
                                 + R"(", "steps": true}})";
        ScenarioConfig c = Scenario::Parse(json, "phases.json", {});
        ScenarioRunner::UsePicoseconds();
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "both workloads complete");
        const nlohmann::json summary = runner.Summary();
        ResultWriter::WriteOpsCsv(*runner.GetMetrics(),
                                  dir + "/ops.csv",
                                  false,
                                  runner.GetFabric().GetTrafficLedger()->GetOpLedger());
        ResultWriter::WriteStepsCsv(*runner.GetMetrics(), dir + "/steps.csv");
        Simulator::Destroy();
        const auto rows = ReadCsv(dir + "/ops.csv");
        const auto steps = ReadCsv(dir + "/steps.csv");
        const std::vector<std::string> counted = {"net_bytes",
                                                  "p2mp_net_bytes",
                                                  "switch_hops",
                                                  "ecn_marks",
                                                  "retransmissions",
                                                  "drops",
                                                  "lost_bytes"};
        std::map<std::string, uint64_t> opsSeen;
        std::map<std::string, uint64_t> dispatchBytes; // summary.json check
        for (std::size_t i = 0; i < rows.size(); ++i)
        {
            const auto& op = rows[i];
            if (op.at("kind") != "op")
            {
                continue;
            }
            const std::string& w = op.at("workload");
            ++opsSeen[w];
            const std::vector<std::string> names
                = w == "moe" ? std::vector<std::string>{"dispatch", "combine"}
                             : std::vector<std::string>{"reduce-scatter", "all-gather"};
            NS_TEST_ASSERT_MSG_LT(i + 2, rows.size(), "its phases follow it");
            const auto& multicast = rows[i + (w == "moe" ? 1 : 2)];
            const auto& unicast = rows[i + (w == "moe" ? 2 : 1)];
            for (std::size_t k = 0; k < 2; ++k)
            {
                const auto& ph = rows[i + 1 + k];
                NS_TEST_ASSERT_MSG_EQ(ph.at("kind"), "phase", w << " row " << i + 1 + k);
                NS_TEST_ASSERT_MSG_EQ(ph.at("phase"), names[k], w << " phase order");
                NS_TEST_ASSERT_MSG_EQ(ph.at("op"), op.at("op"), "the same operation");
                NS_TEST_ASSERT_MSG_EQ(ph.at("outcome"), "completed", w << " " << names[k]);
            }
            for (const std::string& c : counted)
            {
                NS_TEST_EXPECT_MSG_EQ(U(rows[i + 1], c) + U(rows[i + 2], c),
                                      U(op, c),
                                      w << " op " << op.at("op") << ": phases sum to " << c);
            }
            // The P2MP bytes are all the multicast phase's and none of the unicast one's.
            NS_TEST_EXPECT_MSG_GT(U(multicast, "net_bytes"), 0u, w << ": multicast data");
            NS_TEST_EXPECT_MSG_EQ(U(multicast, "p2mp_net_bytes"),
                                  U(multicast, "net_bytes"),
                                  w << ": its multicast phase is all P2MP");
            NS_TEST_EXPECT_MSG_GT(U(unicast, "net_bytes"), 0u, w << ": unicast data");
            NS_TEST_EXPECT_MSG_EQ(U(unicast, "p2mp_net_bytes"), 0u, w << ": none P2MP");
            NS_TEST_EXPECT_MSG_EQ(U(op, "p2mp_net_bytes"),
                                  U(multicast, "net_bytes"),
                                  w << ": the row's P2MP bytes are the multicast phase's");
            // Each phase within its operation; the first starts it, the last ends it.
            NS_TEST_EXPECT_MSG_EQ(rows[i + 1].at("start_us"), op.at("start_us"), w << " start");
            NS_TEST_EXPECT_MSG_EQ(rows[i + 2].at("end_us"), op.at("end_us"), w << " end");
            if (w == "moe")
            {
                dispatchBytes[w] += U(rows[i + 1], "net_bytes");
                // Dispatch is step 0 and combine step 2 of the layer (steps.csv).
                for (const auto& st : steps)
                {
                    if (st.at("workload") != w || st.at("op") != op.at("op"))
                    {
                        continue;
                    }
                    if (st.at("step") == "0")
                    {
                        NS_TEST_EXPECT_MSG_EQ(
                            st.at("end_us"), rows[i + 1].at("end_us"), "dispatch ends with step 0");
                    }
                    if (st.at("step") == "2")
                    {
                        NS_TEST_EXPECT_MSG_EQ(st.at("start_us"),
                                              rows[i + 2].at("start_us"),
                                              "combine starts with step 2");
                    }
                }
                // The dispatch queues more per packet than the combine here: a mixed mean
                // would hide both.
                NS_TEST_EXPECT_MSG_NE(D(rows[i + 1], "queue_us"),
                                      D(rows[i + 2], "queue_us"),
                                      "the phases' queueing differs");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(opsSeen["moe"], 2u, "two layers");
        NS_TEST_EXPECT_MSG_EQ(opsSeen["ar"], 1u, "one AllReduce");
        const nlohmann::json& ph = summary["workloads"][0]["phases"];
        NS_TEST_EXPECT_MSG_EQ(ph["dispatch"]["ops"].get<uint64_t>(), 2u, "summary: two layers");
        NS_TEST_EXPECT_MSG_EQ(ph["dispatch"]["net_bytes"].get<uint64_t>(),
                              dispatchBytes["moe"],
                              "summary.json's phases = ops.csv's phase rows");
        NS_TEST_EXPECT_MSG_EQ(ph["combine"]["p2mp_net_bytes"].get<uint64_t>(), 0u, "summary");
        NS_TEST_EXPECT_MSG_EQ(summary["workloads"][1].contains("phases"), true, "ar too");
    }
};

class OpLedgerTestSuite : public TestSuite
{
public:
    OpLedgerTestSuite()
        : TestSuite("mcast4ai-op-ledger", TestSuite::Type::UNIT)
    {
        AddTestCase(new TwoIntoOneTestCase());
        AddTestCase(new PausedTimeTestCase());
        AddTestCase(new BooksTestCase());
        AddTestCase(new PacketTraceTestCase());
        AddTestCase(new PhasesTestCase());
    }
};

OpLedgerTestSuite g_opLedgerTestSuite;

} // namespace
