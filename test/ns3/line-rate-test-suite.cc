/*
 * One RDMA WRITE between two hosts: goodput and completion time against the closed form of
 * back-to-back serialisation, store-and-forward at one switch, and the ACK's way back; and the
 * ACK count under coalescing.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

using namespace ns3;
using namespace ns3::test;

namespace
{

class SingleWriteTestCase : public TestCase
{
public:
    SingleWriteTestCase(uint32_t mtu, uint32_t ackEvery)
        : TestCase("16 MiB WRITE at 100 Gbps, MTU " + std::to_string(mtu) + ", ACK every "
                   + std::to_string(ackEvery)),
          m_mtu(mtu),
          m_ackEvery(ackEvery)
    {
    }

private:
    void DoRun() override
    {
        const uint64_t bytes = 16u << 20;
        const double rate = 100;       // Gb/s, both links
        const double delay = 1e-6;     // s, both cables
        const double latency = 500e-9; // s, switch pipeline
        ScenarioConfig c = LeafSpine(1, 1, 2, "line-rate");
        c.nic.mtuBytes = m_mtu;
        c.nic.ackEvery = m_ackEvery;
        c.workloads.push_back(FlowList({{1, 0, bytes, 0}}));

        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "the write must complete");
        const auto& op = runner.GetMetrics()->GetOps().at(0);
        double fct = (op.end - op.start).GetSeconds();

        // Closed form. N full packets back to back at the sender (RETH on the first), the last
        // one crosses cable, pipeline and is re-serialised by the switch, then the ACK of the
        // last PSN comes back the same way.
        const uint64_t n = bytes / m_mtu;
        const double frame = WireSeconds(m_mtu + ROCE_HEADER_BYTES, rate);
        const double ack = WireSeconds(ACK_FRAME_BYTES, rate);
        const double reth = RETH_BYTES * 8 / (rate * 1e9);
        double expected = n * frame + reth + (delay + latency) + frame + delay + ack
                          + (delay + latency) + ack + delay;
        NS_TEST_ASSERT_MSG_EQ_TOL(fct, expected, expected * 0.001, "FCT vs closed form");

        // Goodput is line rate times payload over payload plus every per-packet overhead.
        double goodput = bytes * 8 / fct / 1e9;
        double ideal = rate * m_mtu / double(m_mtu + ROCE_HEADER_BYTES + FRAMING_BYTES);
        NS_TEST_ASSERT_MSG_EQ_TOL(goodput, ideal, ideal * 0.02, "goodput within 2% of ideal");

        // One ACK per ack_every packets; the last packet always asks for one.
        nlohmann::json s = runner.Summary();
        uint64_t acks = s["network"]["acks_at_senders"];
        NS_TEST_ASSERT_MSG_EQ(acks, (n + m_ackEvery - 1) / m_ackEvery, "ACK count");
        NS_TEST_ASSERT_MSG_EQ(s["network"]["drops"].get<uint64_t>(), 0, "no drops");
        NS_TEST_ASSERT_MSG_EQ(s["network"]["retransmissions"].get<uint64_t>(), 0, "no retx");
        // Header bytes: every packet's headers, plus the RETH once.
        NS_TEST_ASSERT_MSG_EQ(s["network"]["header_bytes"].get<uint64_t>(),
                              n * ROCE_HEADER_BYTES + RETH_BYTES,
                              "header bytes on the wire");
    }

    uint32_t m_mtu;
    uint32_t m_ackEvery;
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
    }
};

LineRateTestSuite g_lineRateTestSuite;

} // namespace
