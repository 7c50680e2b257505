/*
 * spec-decode (docs/workloads.md#spec-decode) against closed forms, on one leaf of 8 hosts at
 * 100 Gb/s (1 µs cables, 500 ns switch), a draft and V = 4 verifiers, 64 tokens of 4 bytes:
 * - a steady step is the proposal's way to the verifiers and a verdict's way back, each a
 *   leaf hop (two cables and the switch) plus its frame's serialisation at both ends, and the
 *   verdicts, and the proposal's aggregated ACK, queue one behind the other on the draft's
 *   downlink: 2 hops + 2 S(proposal) + 5 S(verdict) + S(ACK);
 * - under new-protocol the first step waits once for the group installation
 *   (p2mp.new_protocol.install_us) and the later steps do not; the other mechanisms have no
 *   such cost (their first step is shorter, if anything, by the ACK that goes ahead of every
 *   later proposal); every mechanism reports its p99;
 * - token latency is step latency over E = (1 - a^(k+1)) / (1 - a) (Leviathan et al. 2023).
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/spec-decode-workload.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr double RATE_GBPS = 100;
constexpr double CABLE_S = 1e-6;
constexpr double SWITCH_S = 500e-9;
constexpr double INSTALL_US = 10;

struct Outcome
{
    bool complete{false};
    std::vector<double> stepsUs;
    nlohmann::json summary;
};

Outcome
RunSpecDecode(const std::string& mechanism, const std::string& extra)
{
    std::ostringstream s;
    s << R"({"name": "spec", "stop_time_ms": 20,
      "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 8,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1},
      "switch": {"latency_ns": 500},
      "p2mp": {"mechanism": ")"
      << mechanism << R"("},
      "workloads": [{"type": "spec-decode", "iterations": 10)"
      << extra << "}]}";
    ScenarioOutcome run = RunScenarioJson(s.str(), "spec.json");
    Outcome o;
    o.complete = run.complete;
    for (const auto& r : run.ops)
    {
        o.stepsUs.push_back((r.end - r.start).GetPicoSeconds() / 1e6);
    }
    o.summary = run.summary;
    return o;
}

/// Serialisation of a frame carrying `payload` RDMA bytes with a RETH (and `extra` header).
double
FrameSeconds(uint32_t payload, uint32_t extra)
{
    return WireSeconds(payload + ROCE_HEADER_BYTES + RETH_BYTES + extra, RATE_GBPS);
}

/// The steady step of the file's comment, with the proposal's P2MP header of `p2mpBytes`.
double
SteadyStepUs(uint32_t p2mpBytes)
{
    double hop = 2 * CABLE_S + SWITCH_S;
    double proposal = FrameSeconds(64 * 4, p2mpBytes);
    double verdict = FrameSeconds(8, 0);
    double ack = WireSeconds(ACK_FRAME_BYTES, RATE_GBPS);
    return (2 * hop + 2 * proposal + 5 * verdict + ack) * 1e6;
}

class InstallOnceTestCase : public TestCase
{
public:
    InstallOnceTestCase()
        : TestCase("new-protocol: the first step waits for the group installation, later ones "
                   "take the closed form")
    {
    }

private:
    void DoRun() override
    {
        Outcome o = RunSpecDecode("new-protocol", "");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "every step completes");
        NS_TEST_ASSERT_MSG_EQ(o.stepsUs.size(), 10u, "one operation per step");
        double steady = o.stepsUs[1];
        for (std::size_t i = 2; i < o.stepsUs.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(o.stepsUs[i], steady, 1e-3, "steps after the first agree");
        }
        double expected = SteadyStepUs(12);
        NS_TEST_EXPECT_MSG_EQ_TOL(steady, expected, 0.05 * expected, "steady step closed form");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.stepsUs[0] - steady,
                                  INSTALL_US,
                                  0.1 * INSTALL_US,
                                  "the first step pays install_us once");
    }
};

class MechanismsTestCase : public TestCase
{
public:
    MechanismsTestCase()
        : TestCase("bier and unicast: no installation; every mechanism reports p99, and token "
                   "latency is step latency over E")
    {
    }

private:
    void DoRun() override
    {
        double e = SpecDecodeWorkload::ExpectedTokensPerStep(64, 0.8);
        NS_TEST_ASSERT_MSG_EQ_TOL(e, (1 - std::pow(0.8, 65)) / 0.2, 1e-12, "E at k=64, a=0.8");
        NS_TEST_ASSERT_MSG_EQ_TOL(SpecDecodeWorkload::ExpectedTokensPerStep(7, 1.0),
                                  8.0,
                                  1e-12,
                                  "a = 1: every proposal and one more");
        for (const char* mechanism : {"unicast", "bier", "bier-xpu-list", "new-protocol"})
        {
            Outcome o = RunSpecDecode(mechanism, "");
            NS_TEST_ASSERT_MSG_EQ(o.complete, true, mechanism << ": every step completes");
            const nlohmann::json& w = o.summary["workloads"][0];
            double p99 = w["duration_us"]["p99"].get<double>();
            double p50 = w["duration_us"]["p50"].get<double>();
            NS_TEST_EXPECT_MSG_GT_OR_EQ(p99, p50, mechanism << ": p99 reported");
            NS_TEST_EXPECT_MSG_EQ_TOL(w["token_us"]["p50"].get<double>(),
                                      p50 / e,
                                      1e-6 * p50,
                                      mechanism << ": token latency");
            NS_TEST_EXPECT_MSG_EQ_TOL(w["tokens_per_step"].get<double>(), e, 1e-9, "reported E");
            if (std::string(mechanism) != "new-protocol")
            {
                // No set-up: the first step is if anything shorter, by the one ACK that goes
                // ahead of every later proposal (the draft's for the last verdict it got).
                double ackUs = WireSeconds(ACK_FRAME_BYTES, RATE_GBPS) * 1e6;
                double lead = o.stepsUs[1] - o.stepsUs[0];
                bool noSetUp = lead >= -1e-6 && lead <= ackUs + 1e-6;
                NS_TEST_EXPECT_MSG_EQ(noSetUp,
                                      true,
                                      mechanism << ": first step " << o.stepsUs[0] << " us, later "
                                                << o.stepsUs[1] << " us");
            }
        }
        // BIER's header (12 + 256/8 bytes) rides every proposal, serialised on the draft's
        // uplink and on each verifier's downlink.
        Outcome bier = RunSpecDecode("bier", "");
        double expected = SteadyStepUs(44);
        NS_TEST_EXPECT_MSG_EQ_TOL(bier.stepsUs[1], expected, 0.05 * expected, "bier step");
    }
};

class SpecDecodeTestSuite : public TestSuite
{
public:
    SpecDecodeTestSuite()
        : TestSuite("mcast4ai-spec-decode", TestSuite::Type::UNIT)
    {
        AddTestCase(new InstallOnceTestCase());
        AddTestCase(new MechanismsTestCase());
    }
};

static SpecDecodeTestSuite g_specDecodeTestSuite;

} // namespace
