/*
 * One RDMA WRITE between two hosts: goodput and completion time against the closed form of
 * back-to-back serialisation, store-and-forward at one switch, and the ACK's way back; and the
 * ACK count under coalescing. The completion time is held to 1 ns, so that a switch 500 ns
 * slower than the form, or ACKs not coalesced, is rejected (a 0.1% band would pass the first:
 * it is 0.07% of 1.45 ms).
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

#include <cmath>

using namespace ns3;
using namespace ns3::test;

namespace
{

struct WriteRun
{
    double fctSeconds{0};
    nlohmann::json summary;
};

/// One 16 MiB WRITE from host 1 to host 0 of a one-leaf fabric.
WriteRun
RunWrite(uint32_t mtu, uint32_t ackEvery, double latencyNs)
{
    ScenarioConfig c = LeafSpine(1, 1, 2, "line-rate");
    c.nic.mtuBytes = mtu;
    c.nic.ackEvery = ackEvery;
    c.sw.latencyNs = latencyNs;
    c.workloads.push_back(FlowList({{1, 0, 16u << 20, 0}}));
    ScenarioRunner runner(c);
    runner.Build();
    WriteRun r;
    if (runner.Run())
    {
        const auto& op = runner.GetMetrics()->GetOps().at(0);
        r.fctSeconds = (op.end - op.start).GetSeconds();
    }
    r.summary = runner.Summary();
    return r;
}

/// The closed form: what a run must show, and whether one does.
struct WriteForm
{
    uint32_t mtu;
    uint32_t ackEvery;
    static constexpr double RATE = 100;     // Gb/s, both links
    static constexpr double DELAY = 1e-6;   // s, both cables
    static constexpr double LATENCY = 5e-7; // s, the switch pipeline

    uint64_t Packets() const
    {
        return (16u << 20) / mtu;
    }

    double FctSeconds() const
    {
        // N packets back to back at the sender, the first one 16 bytes longer (RETH). The
        // switch sends each frame once it has all of it, so its egress lags its ingress by
        // the first frame (the RETH included): the last frame leaves it one frame, one RETH,
        // a cable and the pipeline after it left the sender. Then the ACK of the last PSN
        // comes back the same way.
        const double frame = WireSeconds(mtu + ROCE_HEADER_BYTES, RATE);
        const double ack = WireSeconds(ACK_FRAME_BYTES, RATE);
        const double reth = RETH_BYTES * 8 / (RATE * 1e9);
        return Packets() * frame + reth + (DELAY + LATENCY) + frame + reth + DELAY + ack
               + (DELAY + LATENCY) + ack + DELAY;
    }

    uint64_t Acks() const
    {
        // One ACK per ack_every packets; the last packet always asks for one.
        return (Packets() + ackEvery - 1) / ackEvery;
    }

    bool Holds(const WriteRun& r) const
    {
        const uint64_t acks = r.summary["network"]["acks_at_senders"];
        return std::abs(r.fctSeconds - FctSeconds()) <= 1e-9 && acks == Acks();
    }
};

class SingleWriteTestCase : public TestCase
{
public:
    SingleWriteTestCase(uint32_t mtu, uint32_t ackEvery)
        : TestCase("16 MiB WRITE at 100 Gbps, MTU " + std::to_string(mtu) + ", ACK every "
                   + std::to_string(ackEvery)),
          m_form{mtu, ackEvery}
    {
    }

private:
    void DoRun() override
    {
        const uint32_t mtu = m_form.mtu;
        WriteRun r = RunWrite(mtu, m_form.ackEvery, 500);
        NS_TEST_ASSERT_MSG_GT(r.fctSeconds, 0, "the write must complete");
        const double expected = m_form.FctSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(r.fctSeconds, expected, 1e-9, "FCT vs closed form, to 1 ns");
        NS_TEST_ASSERT_MSG_EQ(m_form.Holds(r), true, "the form holds");

        // Goodput is line rate times payload over payload plus every per-packet overhead.
        const double goodput = (16u << 20) * 8 / r.fctSeconds / 1e9;
        const double ideal
            = WriteForm::RATE * mtu / double(mtu + ROCE_HEADER_BYTES + FRAMING_BYTES);
        NS_TEST_ASSERT_MSG_EQ_TOL(goodput, ideal, ideal * 0.02, "goodput within 2% of ideal");

        const nlohmann::json& s = r.summary;
        const uint64_t n = m_form.Packets();
        NS_TEST_ASSERT_MSG_EQ(
            s["network"]["acks_at_senders"].get<uint64_t>(), m_form.Acks(), "ACK count");
        NS_TEST_ASSERT_MSG_EQ(s["network"]["drops"].get<uint64_t>(), 0, "no drops");
        NS_TEST_ASSERT_MSG_EQ(s["network"]["retransmissions"].get<uint64_t>(), 0, "no retx");
        // Header bytes: every packet's headers, plus the RETH once.
        NS_TEST_ASSERT_MSG_EQ(s["network"]["header_bytes"].get<uint64_t>(),
                              n * ROCE_HEADER_BYTES + RETH_BYTES,
                              "header bytes on the wire");
    }

    WriteForm m_form;
};

/**
 * The form must reject what it does not describe: a switch pipeline of 1 us instead of 500 ns
 * (the completion 1 us later, 0.07% of it), and ACKs sent for every packet where the form
 * coalesces eight (same completion, eight times the ACKs).
 */
class WrongModelsTestCase : public TestCase
{
public:
    WrongModelsTestCase()
        : TestCase("the closed form rejects a slower switch and uncoalesced ACKs")
    {
    }

private:
    void DoRun() override
    {
        const WriteForm form{1024, 8};
        WriteRun right = RunWrite(1024, 8, 500);
        WriteRun slowSwitch = RunWrite(1024, 8, 1000);
        WriteRun everyAck = RunWrite(1024, 1, 500);
        NS_TEST_ASSERT_MSG_EQ(form.Holds(right), true, "the model the form describes");
        NS_TEST_ASSERT_MSG_EQ_TOL(slowSwitch.fctSeconds - right.fctSeconds,
                                  1e-6,
                                  1e-9,
                                  "two pipelines 500 ns slower each way: 1 us later");
        NS_TEST_ASSERT_MSG_EQ(form.Holds(slowSwitch), false, "a 1 us switch is rejected");
        NS_TEST_ASSERT_MSG_EQ(form.Holds(everyAck), false, "an ACK per packet is rejected");
    }
};

class LineRateTestSuite : public TestSuite
{
public:
    LineRateTestSuite()
        : TestSuite("mcast4ai-line-rate", TestSuite::Type::UNIT)
    {
        AddTestCase(new SingleWriteTestCase(1024, 1));
        AddTestCase(new SingleWriteTestCase(4096, 1));
        AddTestCase(new SingleWriteTestCase(1024, 8));
        AddTestCase(new WrongModelsTestCase());
    }
};

LineRateTestSuite g_lineRateTestSuite;

} // namespace
