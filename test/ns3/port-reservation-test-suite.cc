/*
 * A port reserves the end of a frame with nothing queued behind it instead of scheduling it
 * (FabricSimulatorImpl::Reserve, docs/performance.md "The engine"). The same script runs under
 * ns-3's DefaultSimulatorImpl, which runs every end, and under FabricSimulatorImpl, and must
 * give the same log: when each frame starts, what IsBusy() says, and when the run ends.
 *
 * - A frame given at the instant the reserved end is due, by an event ordered before the end
 *   (the port is still busy: the end is scheduled into its place and sends it) and by one
 *   ordered after it (the end has passed: the port is idle and sends at once).
 * - The run ends at the last reserved end, as it does when that end runs.
 * - Fewer events under FabricSimulatorImpl.
 * - It can fail: an owner whose MayDequeue says false while it holds a frame it gives without
 *   calling TryTransmit leaves that frame unsent under FabricSimulatorImpl, and the logs differ.
 */
#include "core/model/fabric-simulator-impl.h"
#include "fabric/model/fabric-channel.h"
#include "fabric/model/fabric-net-device.h"
#include "fabric/model/fabric-port-owner.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

#include <deque>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

const char* const kDefault = test::DEFAULT_ENGINE;
const char* const kFabric = test::FABRIC_ENGINE;

/// A FIFO behind one port. An honest one says whether it holds a frame; a lying one says no.
class FifoOwner : public FabricPortOwner
{
public:
    FabricFrame DequeueFrame(uint32_t, uint8_t, Time) override
    {
        if (queue.empty())
        {
            return {};
        }
        FabricFrame f = std::move(queue.front());
        queue.pop_front();
        return f;
    }

    void ReceiveFrame(uint32_t, FabricFrame&) override
    {
    }

    bool MayDequeue(uint32_t) const override
    {
        return honest && !queue.empty();
    }

    /// Queue frames of these sizes, then tell the port once.
    void Give(std::initializer_list<uint32_t> sizes)
    {
        for (uint32_t s : sizes)
        {
            queue.push_back(FabricFrame::From(Create<Packet>(s)));
        }
        port->TryTransmit();
    }

    std::deque<FabricFrame> queue;
    Ptr<FabricNetDevice> port;
    bool honest{true};
};

/// The script under engine; its log.
std::string
Drive(const std::string& engine, bool honest, uint64_t* events = nullptr)
{
    test::UseEngine(engine);
    ScenarioRunner::UsePicoseconds();
    std::ostringstream log;
    Ptr<FabricNetDevice> a = CreateObject<FabricNetDevice>();
    Ptr<FabricNetDevice> b = CreateObject<FabricNetDevice>();
    a->SetNode(CreateObject<Node>());
    b->SetNode(CreateObject<Node>());
    Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
    ch->SetAttribute("Delay", TimeValue(NanoSeconds(100)));
    a->Attach(ch);
    b->Attach(ch);
    FifoOwner owner;
    owner.port = a;
    owner.honest = honest;
    a->SetOwner(&owner);
    a->TraceConnectWithoutContext("Tx",
                                  MakeCallback(+[](std::ostringstream* out, Ptr<const Packet> p)
                                               {
                                                   *out << Simulator::Now().GetPicoSeconds()
                                                        << " tx " << p->GetSize() << '\n';
                                               })
                                      .Bind(&log));
    auto note = [&log, a](const std::string& what)
    {
        log << Simulator::Now().GetPicoSeconds() << ' ' << what << " busy " << a->IsBusy() << '\n';
    };
    // 100 bytes and 24 of framing at 100 Gb/s: the frame given at 0 ends at 9,920 ps.
    const Time end = PicoSeconds(9920);
    Simulator::Schedule(end,
                        [&]()
                        {
                            note("before-end");
                            owner.Give({200}); // ordered before the end: it sends this one
                        });
    Simulator::Schedule(Time(0),
                        [&]()
                        {
                            owner.Give({100});
                            // Scheduled after the end was: ordered after it at 9,920 ps.
                            Simulator::Schedule(end,
                                                [&]()
                                                {
                                                    note("after-end");
                                                    owner.Give({300});
                                                });
                        });
    Simulator::Schedule(NanoSeconds(100),
                        [&]()
                        {
                            owner.Give({400});
                            // 424 bytes: 33,920 ps. This one comes after the end has passed.
                            Simulator::Schedule(PicoSeconds(33920),
                                                [&]()
                                                {
                                                    note("idle-at-end");
                                                    owner.Give({500});
                                                });
                        });
    // Two frames for one call: the second is sent by the first one's end.
    Simulator::Schedule(NanoSeconds(300),
                        [&]()
                        {
                            owner.Give({600, 700});
                            note("two-given");
                        });
    Simulator::Run();
    log << "ended " << Simulator::Now().GetPicoSeconds() << " queued " << owner.queue.size()
        << '\n';
    if (events)
    {
        *events = Simulator::GetEventCount();
    }
    Simulator::Destroy();
    a->SetOwner(nullptr);
    return log.str();
}

class PortReservationTestCase : public TestCase
{
public:
    PortReservationTestCase()
        : TestCase("a port's reserved ends give ns-3's engine's log, with fewer events")
    {
    }

private:
    void DoRun() override
    {
        uint64_t defEvents = 0;
        uint64_t fabEvents = 0;
        const std::string def = Drive(kDefault, true, &defEvents);
        const std::string fab = Drive(kFabric, true, &fabEvents);
        test::UseEngine(kDefault);
        NS_TEST_ASSERT_MSG_EQ(fab, def, "the same log under both engines");
        // The script's order, written out (a frame of n bytes takes (n + 24) x 80 ps): the end
        // at 9,920 ps sends 200 between the two events of that instant, and 300 goes when 200
        // ends; 500 goes at once, the port idle since 400 ended; 700 when 600 ends; the run
        // ends when 700 arrives, 100 ns after its last bit.
        const std::string expected = "0 tx 100\n"
                                     "9920 before-end busy 1\n"
                                     "9920 tx 200\n"
                                     "9920 after-end busy 1\n"
                                     "27840 tx 300\n"
                                     "100000 tx 400\n"
                                     "133920 idle-at-end busy 0\n"
                                     "133920 tx 500\n"
                                     "300000 tx 600\n"
                                     "300000 two-given busy 1\n"
                                     "349920 tx 700\n"
                                     "ended 507840 queued 0\n";
        NS_TEST_ASSERT_MSG_EQ(def, expected, "the script's order");
        NS_TEST_ASSERT_MSG_LT(fabEvents, defEvents, "ends with nothing to send are not run");

        const std::string lying = Drive(kFabric, false);
        test::UseEngine(kDefault);
        NS_TEST_ASSERT_MSG_NE(lying, def, "an owner that hides a frame: the check can fail");
        NS_TEST_ASSERT_MSG_NE(lying.find("queued 1"), std::string::npos, "the hidden frame");
    }
};

class PortReservationTestSuite : public TestSuite
{
public:
    PortReservationTestSuite()
        : TestSuite("mcast4ai-port-reservation", TestSuite::Type::UNIT)
    {
        AddTestCase(new PortReservationTestCase);
    }
};

PortReservationTestSuite g_portReservationTestSuite;

} // namespace
