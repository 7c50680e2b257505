/*
 * What ns-3 itself schedules, against its closed form: a fabric without traffic runs exactly
 * the start-up events that Ns3InitializationEvents() predicts (one per node, device and, from
 * ns-3.41, channel), on whichever ns-3 release the module is built against. The runner's
 * `events` leaves these out, which is what keeps the golden guard's counts release-independent.
 */
#include "core/model/ns3-compat.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

using namespace ns3;
using namespace ns3::test;

namespace
{

class InitializationEventsTestCase : public TestCase
{
public:
    InitializationEventsTestCase(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
        : TestCase("start-up events of a " + std::to_string(leaves) + "x" + std::to_string(spines)
                   + " leaf-spine with " + std::to_string(hostsPerLeaf) + " hosts per leaf"),
          m_leaves(leaves),
          m_spines(spines),
          m_hostsPerLeaf(hostsPerLeaf)
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = LeafSpine(m_leaves, m_spines, m_hostsPerLeaf, "ns3-compat");
        ScenarioRunner runner(c);
        runner.Build();

        // Every cable is one channel with a device at each end.
        const uint64_t links = m_leaves * m_hostsPerLeaf + m_leaves * m_spines;
        const uint64_t nodes = m_leaves * m_hostsPerLeaf + m_leaves + m_spines;
        uint64_t expected = nodes + 2 * links;
#if MCAST4AI_NS3_AT_LEAST(3, 41)
        expected += links;
#endif
        NS_TEST_ASSERT_MSG_EQ(Ns3InitializationEvents(),
                              expected,
                              "start-up events of " << nodes << " nodes and " << links
                                                    << " links on ns-3 " << kNs3Version);

        // Without traffic the fabric schedules nothing of its own: ns-3's events are all
        // there is.
        uint64_t before = Simulator::GetEventCount();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(Simulator::GetEventCount() - before,
                              expected,
                              "events executed by a fabric without traffic");
    }

    uint32_t m_leaves;
    uint32_t m_spines;
    uint32_t m_hostsPerLeaf;
};

class Ns3CompatTestSuite : public TestSuite
{
public:
    Ns3CompatTestSuite()
        : TestSuite("mcast4ai-ns3-compat", TestSuite::Type::UNIT)
    {
        AddTestCase(new InitializationEventsTestCase(1, 1, 2));
        AddTestCase(new InitializationEventsTestCase(4, 2, 16));
    }
};

Ns3CompatTestSuite g_ns3CompatTestSuite;

} // namespace
