/*
 * mcast4ai-scheduler-bench: the event-loop ceiling of ns-3 on this machine.
 *
 *   mcast4ai-scheduler-bench [--events N] [--pending P] [--scheduler ns3::MapScheduler]
 *
 * Keeps P events pending, like a fabric with P frames in flight and P port timers: each event,
 * when it runs, schedules one more a pseudo-random 1..200 ns ahead (a frame time at 100 Gb/s is
 * about 88 ns), so the pending set stays at P. Prints events/s of schedule-and-run alone: what
 * a packet-level model would reach if its own work per event cost nothing.
 */
#include "core/model/quad-heap-scheduler.h"
#include "ns3/core-module.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace ns3;

namespace
{
uint64_t g_left = 0;
uint64_t g_state = 88172645463325252ULL;

inline uint64_t
NextRandom()
{
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return g_state;
}

void
Tick()
{
    if (g_left == 0)
    {
        return;
    }
    --g_left;
    Simulator::Schedule(PicoSeconds(1000 + NextRandom() % 199000), &Tick);
}
} // namespace

int
main(int argc, char** argv)
{
    uint64_t events = 20000000;
    uint32_t pending = 5000;
    std::string scheduler = "ns3::QuadHeapScheduler";
    for (int i = 1; i + 1 < argc; i += 2)
    {
        if (!std::strcmp(argv[i], "--events"))
        {
            events = std::strtoull(argv[i + 1], nullptr, 10);
        }
        else if (!std::strcmp(argv[i], "--pending"))
        {
            pending = std::strtoul(argv[i + 1], nullptr, 10);
        }
        else if (!std::strcmp(argv[i], "--scheduler"))
        {
            scheduler = argv[i + 1];
        }
        else
        {
            std::fprintf(
                stderr, "usage: %s [--events N] [--pending P] [--scheduler TYPE]\n", argv[0]);
            return 2;
        }
    }
    QuadHeapScheduler::GetTypeId(); // links and registers the module's scheduler
    Time::SetResolution(Time::PS);
    Simulator::SetScheduler(ObjectFactory(scheduler));
    g_left = events;
    for (uint32_t i = 0; i < pending; ++i)
    {
        Simulator::Schedule(PicoSeconds(NextRandom() % 200000), &Tick);
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t ran = Simulator::GetEventCount();
    Simulator::Destroy();
    std::printf("scheduler %s  pending %u  events %llu  wall %.2f s  %.2f M events/s\n",
                scheduler.c_str(),
                pending,
                static_cast<unsigned long long>(ran),
                wall,
                ran / wall / 1e6);
    return 0;
}
