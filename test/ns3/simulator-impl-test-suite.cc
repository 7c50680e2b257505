/*
 * FabricSimulatorImpl runs what DefaultSimulatorImpl runs, in the same order, with the same
 * uids (docs/performance.md "The engine").
 *
 * - The API, driven the same way under both engines: ties at one timestamp from Schedule,
 *   ScheduleWithContext and ScheduleNow, a Cancel, a Remove, GetDelayLeft, IsExpired, a
 *   destroy event (run, and one removed), Stop(delay) with events left behind, and Run again.
 *   Each engine's log (time, label, context, uid) is checked against the expected one and the
 *   two logs against each other; a log with two tied events swapped is refused, so the
 *   comparison can fail.
 * - Whole scenarios, an AllReduce ring and a BIER broadcast under DCQCN: the summary (events,
 *   packet hops, every workload's figures, the network's counters) is the same under either
 *   engine; another seed's differs, so the comparison can fail.
 * - ScenarioRunner picks FabricSimulatorImpl; ScenarioRunner::Options::engine names another,
 *   or (empty) keeps the one bound.
 * - Reservations: an event scheduled into a reserved place runs where one scheduled at the
 *   reservation would have (the same event scheduled the ordinary way runs elsewhere, so the
 *   check can fail); one never scheduled still ends a run that runs out of events at its time;
 *   neither the default engine nor a scheduler ordering by CausalTies takes them. The
 *   scenarios' summaries differ only in events, fewer under FabricSimulatorImpl: the ports'
 *   reserved ends of transmission that nothing needed.
 */
#include "core/model/fabric-simulator-impl.h"
#include "core/model/quad-heap-scheduler.h"
#include "dcqcn-test-helpers.h"
#include "ns3/boolean.h"
#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

const char* const kDefault = DEFAULT_ENGINE;
const char* const kFabric = FABRIC_ENGINE;

struct ApiLog
{
    std::ostringstream out;

    void Note(const std::string& label)
    {
        out << Simulator::Now().GetTimeStep() << ' ' << label << ' ' << Simulator::GetContext()
            << '\n';
    }
};

std::string
DriveApi(const std::string& engine)
{
    UseEngine(engine);
    ApiLog log;
    Simulator::Schedule(NanoSeconds(10),
                        [&log]()
                        {
                            log.Note("a");
                        });
    Simulator::ScheduleWithContext(7,
                                   NanoSeconds(10),
                                   [&log]()
                                   {
                                       log.Note("b-ctx7");
                                   });
    EventId c = Simulator::Schedule(NanoSeconds(10),
                                    [&log]()
                                    {
                                        log.Note("c-cancelled");
                                    });
    EventId d = Simulator::Schedule(NanoSeconds(10),
                                    [&log]()
                                    {
                                        log.Note("d-removed");
                                    });
    Simulator::Schedule(NanoSeconds(5),
                        [&]()
                        {
                            log.Note("e");
                            // Scheduled now for now: after the events already due at 5 ns.
                            Simulator::ScheduleNow(
                                [&log]()
                                {
                                    log.Note("f-now");
                                });
                            log.out << "delay-left " << Simulator::GetDelayLeft(d).GetTimeStep()
                                    << " expired " << Simulator::IsExpired(d) << '\n';
                            Simulator::Cancel(c);
                            Simulator::Remove(d);
                            log.out << "after " << Simulator::IsExpired(c)
                                    << Simulator::IsExpired(d) << '\n';
                        });
    Simulator::Schedule(NanoSeconds(5),
                        [&log]()
                        {
                            log.Note("g");
                        });
    EventId destroyed = Simulator::ScheduleDestroy(
        [&log]()
        {
            log.Note("h-destroy");
        });
    EventId removedDestroy = Simulator::ScheduleDestroy(
        [&log]()
        {
            log.Note("i-removed-destroy");
        });
    Simulator::Remove(removedDestroy);
    Simulator::Schedule(NanoSeconds(30),
                        [&log]()
                        {
                            log.Note("j-after-stop");
                        });
    Simulator::Stop(NanoSeconds(20));
    Simulator::Run();
    log.out << "stopped at " << Simulator::Now().GetTimeStep() << " events "
            << Simulator::GetEventCount() << " destroy-pending " << !Simulator::IsExpired(destroyed)
            << '\n';
    Simulator::Run(); // the rest
    log.out << "ended at " << Simulator::Now().GetTimeStep() << " events "
            << Simulator::GetEventCount() << " engine "
            << Simulator::GetImplementation()->GetInstanceTypeId().GetName() << '\n';
    Simulator::Destroy();
    return log.out.str();
}

class ApiTestCase : public TestCase
{
public:
    ApiTestCase()
        : TestCase("the API gives the default engine's order, uids and answers")
    {
    }

private:
    void DoRun() override
    {
        const Time::Unit unit = Time::GetResolution();
        const std::string def = DriveApi(kDefault);
        const std::string fab = DriveApi(kFabric);
        UseEngine(kDefault);
        // Picoseconds (the runner's resolution, set by earlier cases) or nanoseconds.
        const std::string ns = unit == Time::PS ? "000" : "";
        // 4294967295: NO_CONTEXT, the context of events scheduled outside any node's.
        const std::string head
            = "5" + ns + " e 4294967295\n" + "delay-left 5" + ns + " expired 0\n" + "after 11\n"
              + "5" + ns + " g 4294967295\n" + "5" + ns + " f-now 4294967295\n" + "10" + ns
              + " a 4294967295\n" + "10" + ns + " b-ctx7 7\n" + "stopped at 20" + ns
              + " events 7 destroy-pending 1\n" + "30" + ns + " j-after-stop 4294967295\n"
              + "ended at 30" + ns + " events 8 engine ";
        const std::string tail = "\n30" + ns + " h-destroy 4294967295\n";
        NS_TEST_ASSERT_MSG_EQ(def, head + kDefault + tail, "the default engine's log");
        NS_TEST_ASSERT_MSG_EQ(fab, head + kFabric + tail, "FabricSimulatorImpl's log");
        // The check can fail: the log of an engine that ran two tied events the other way.
        std::string swapped = head;
        std::swap(swapped[swapped.find(" g ") + 1], swapped[swapped.find(" f-now ") + 1]);
        NS_TEST_ASSERT_MSG_NE(fab, swapped + kFabric + tail, "a misordered log is told apart");
    }
};

/// Tied events at 10 ns, the middle one reserved at 0 and scheduled at 5 ns (reserved), or
/// scheduled at 5 ns the ordinary way, or scheduled at 0 (reference).
std::string
DriveReservation(const std::string& how)
{
    UseEngine(kFabric);
    ApiLog log;
    Simulator::Schedule(NanoSeconds(10),
                        [&log]()
                        {
                            log.Note("a");
                        });
    FabricSimulatorImpl* engine = FabricSimulatorImpl::Reserving();
    NS_ABORT_UNLESS(engine);
    FabricSimulatorImpl::Reservation r;
    auto mid = MakeEvent(
        [&log]()
        {
            log.Note("r");
        });
    if (how == "reference")
    {
        Simulator::ScheduleWithContext(3, NanoSeconds(10), mid);
    }
    else
    {
        r = engine->Reserve(3, NanoSeconds(10));
    }
    Simulator::Schedule(NanoSeconds(10),
                        [&log]()
                        {
                            log.Note("b");
                        });
    // Held, never scheduled: the run still ends at its time.
    const FabricSimulatorImpl::Reservation never = engine->Reserve(4, NanoSeconds(50));
    Simulator::Schedule(NanoSeconds(5),
                        [&]()
                        {
                            log.Note("c");
                            log.out << "ahead " << engine->IsAhead(r) << '\n';
                            if (how == "reserved")
                            {
                                engine->ScheduleReserved(r, mid);
                            }
                            else if (how == "ordinary")
                            {
                                Simulator::ScheduleWithContext(3, NanoSeconds(5), mid);
                            }
                        });
    Simulator::Run();
    log.out << "ended at " << Simulator::Now().GetTimeStep() << " events "
            << Simulator::GetEventCount() << " never ahead " << engine->IsAhead(never) << '\n';
    Simulator::Destroy();
    return log.out.str();
}

class ReservationTestCase : public TestCase
{
public:
    ReservationTestCase()
        : TestCase("a reserved place keeps an event's order; unused, it still ends the run")
    {
    }

private:
    void DoRun() override
    {
        const std::string ns = Time::GetResolution() == Time::PS ? "000" : "";
        const std::string reference = DriveReservation("reference");
        const std::string reserved = DriveReservation("reserved");
        const std::string ordinary = DriveReservation("ordinary");
        const std::string order = "5" + ns + " c 4294967295\nahead 1\n10" + ns + " a 4294967295\n10"
                                  + ns + " r 3\n10" + ns + " b 4294967295\n";
        const std::string end = "ended at 50" + ns + " events 4 never ahead 0\n";
        NS_TEST_ASSERT_MSG_EQ(reserved, order + end, "the reserved event ran in its place");
        // The reference ran its event from the start; the uids, and so the order, match.
        NS_TEST_ASSERT_MSG_EQ(reference.substr(reference.find("10" + ns)),
                              reserved.substr(reserved.find("10" + ns)),
                              "the order of an event scheduled at the reservation");
        NS_TEST_ASSERT_MSG_NE(ordinary.substr(ordinary.find("10" + ns)),
                              reserved.substr(reserved.find("10" + ns)),
                              "scheduled the ordinary way, it runs after b: the check can fail");

        UseEngine(kDefault);
        Simulator::Now();
        NS_TEST_ASSERT_MSG_EQ(
            FabricSimulatorImpl::Reserving(), nullptr, "the default engine takes no reservations");
        UseEngine(kFabric);
        ObjectFactory scheduler;
        scheduler.SetTypeId(QuadHeapScheduler::GetTypeId());
        scheduler.Set("CausalTies", BooleanValue(true));
        Simulator::SetScheduler(scheduler);
        NS_TEST_ASSERT_MSG_EQ(FabricSimulatorImpl::Reserving(),
                              nullptr,
                              "nor does an engine whose scheduler orders by CausalTies");
        scheduler.Set("CausalTies", BooleanValue(false));
        Simulator::SetScheduler(scheduler);
        NS_TEST_ASSERT_MSG_NE(FabricSimulatorImpl::Reserving(),
                              nullptr,
                              "the same scheduler without CausalTies does");
        UseEngine(kDefault);
    }
};

nlohmann::json
RunSummary(nlohmann::json j, const std::string& engine, std::string* used = nullptr)
{
    Simulator::Destroy();
    j["output"]["dir"] = "/tmp/mcast4ai-test-simulator-impl";
    ScenarioConfig c = Scenario::Parse(j.dump(), "simulator-impl-test.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner::Options options;
    if (engine != "runner's own")
    {
        options.engine = engine;
    }
    nlohmann::json s;
    {
        ScenarioRunner runner(c, options);
        runner.Build();
        runner.Run();
        if (used)
        {
            *used = Simulator::GetImplementation()->GetInstanceTypeId().GetName();
        }
        s = runner.Summary();
    }
    for (const char* timing : {"wall_s", "events_per_s", "packet_hops_per_s", "peak_rss_mb"})
    {
        s.erase(timing);
    }
    return s;
}

class ScenarioTestCase : public TestCase
{
public:
    ScenarioTestCase(std::string dir, std::string file)
        : TestCase("a scenario's results are the same under either engine: " + file),
          m_dir(std::move(dir)),
          m_file(std::move(file))
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json j = ReadScenarioFile(m_dir, m_file);
        if (j["workloads"][0].contains("iterations"))
        {
            j["workloads"][0]["iterations"] = 1; // the first has every kind of event
        }
        nlohmann::json def = RunSummary(j, kDefault);
        nlohmann::json fab = RunSummary(j, kFabric);
        NS_TEST_ASSERT_MSG_GT(def["events"].get<uint64_t>(), 1000u, "the scenario ran");
        // Ports leave out the ends of transmission nothing needs (reserved, not scheduled).
        NS_TEST_ASSERT_MSG_LT(fab["events"].get<uint64_t>(),
                              def["events"].get<uint64_t>(),
                              "FabricSimulatorImpl runs fewer events");
        fab.erase("events");
        def.erase("events");
        NS_TEST_ASSERT_MSG_EQ(fab.dump(1), def.dump(1), "the summaries are otherwise the same");
        nlohmann::json other = j;
        other["seed"] = j.value("seed", 1) + 1;
        NS_TEST_ASSERT_MSG_NE(RunSummary(other, kFabric).dump(1),
                              def.dump(1),
                              "another seed's summary differs: the comparison can fail");
        UseEngine(kDefault);
    }

    std::string m_dir;
    std::string m_file;
};

class RunnerChoiceTestCase : public TestCase
{
public:
    RunnerChoiceTestCase()
        : TestCase("the runner takes FabricSimulatorImpl unless told otherwise")
    {
    }

private:
    void DoRun() override
    {
        const nlohmann::json j = ReadScenarioFile("collectives", "broadcast-tree.json");
        std::string used;
        UseEngine(kDefault);
        RunSummary(j, "runner's own", &used);
        NS_TEST_ASSERT_MSG_EQ(used, kFabric, "the runner's own choice, over the bound default");
        RunSummary(j, kDefault, &used);
        NS_TEST_ASSERT_MSG_EQ(used, kDefault, "Options::engine");
        UseEngine(kDefault);
        RunSummary(j, "", &used);
        NS_TEST_ASSERT_MSG_EQ(used, kDefault, "an empty Options::engine keeps what is bound");
        UseEngine(kDefault);
    }
};

class SimulatorImplTestSuite : public TestSuite
{
public:
    SimulatorImplTestSuite()
        : TestSuite("mcast4ai-simulator-impl", TestSuite::Type::UNIT)
    {
        AddTestCase(new ApiTestCase);
        AddTestCase(new ReservationTestCase);
        AddTestCase(new ScenarioTestCase("collectives", "allreduce-ring.json"));
        AddTestCase(new ScenarioTestCase("collectives", "broadcast-tree.json"));
        AddTestCase(new RunnerChoiceTestCase);
    }
};

SimulatorImplTestSuite g_simulatorImplTestSuite;

} // namespace
