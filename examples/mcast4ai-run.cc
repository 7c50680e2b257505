/*
 * mcast4ai-run: run one scenario JSON and write its result directory.
 *
 *   mcast4ai-run SCENARIO.json [--set a.b.c=VALUE]... [--out DIR] [--seed N] [--pcap] [--quiet]
 *   mcast4ai-run SCENARIO.json --partition N  (how N processes would split its fabric)
 *   mcast4ai-run --schema-markdown     (prints docs/scenario-reference.md)
 *   mcast4ai-run --attributes-markdown (prints docs/attribute-reference.md)
 *
 * Exit codes: 0 every operation ended (completed, or failed by the model); 2 bad scenario or
 * command line; 3 the run reached stop_time_ms with operations unfinished (the stuck ones are
 * listed); 1 any other failure.
 */
#include "core/model/process-ranks.h"
#include "scenario/model/attribute-reference.h"
#include "scenario/model/result-writer.h"
#include "scenario/model/run-invariants.h"
#include "scenario/model/run-warnings.h"
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "topology/model/fabric-partition.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

#ifdef MCAST4AI_JEMALLOC
// jemalloc reads its options from this symbol. A 1,024-host run touches a gigabyte or more of
// queue pairs, frames and switch queues in no particular order, and with 4 KiB pages most of
// its cache misses are TLB misses too: transparent huge pages for every arena make the event
// loop about a fifth faster (docs/performance.md). The MALLOC_CONF environment variable still
// overrides it.
extern "C"
{
    const char* malloc_conf = "thp:always";
}
#endif

namespace
{
const char* USAGE
    = "usage: mcast4ai-run SCENARIO.json [--set a.b.c=VALUE]... [--out DIR] [--seed N] [--pcap] "
      "[--quiet]\n"
      "  --set KEY=VALUE  override any scenario key (VALUE parsed as JSON, else a string;\n"
      "                   null removes the key, so that its default applies)\n"
      "  --out DIR        result directory (overrides output.dir)\n"
      "  --seed N         same as --set seed=N\n"
      "  --pcap           same as --set output.pcap=true: pcaps of every NIC and switch port\n"
      "  --quiet          no progress line and no summary table\n"
      "  --partition N    print, as JSON, how N processes would split the fabric (ranks'\n"
      "                   hosts and switches, cut links, lookahead) and exit\n"
      "  --schema-markdown  print the scenario reference (docs/scenario-reference.md) and exit\n"
      "  --attributes-markdown  print the attribute reference (docs/attribute-reference.md) "
      "and exit\n";

/// One "error: FILE: path: reason" line per error of the scenario, then how many were left out.
void
PrintErrors(const ScenarioError& e)
{
    if (ProcessRanks::GetRank() != 0)
    {
        return; // every process of a distributed run reads the same scenario and fails alike
    }
    std::size_t shown = 0;
    for (const ScenarioError::Entry& entry : e.GetErrors())
    {
        if (shown++ == ScenarioError::MAX_REPORTED)
        {
            break;
        }
        std::cerr << "error: " << entry.Text() << "\n";
    }
    const std::size_t more
        = e.GetNotShown()
          + (e.GetErrors().size() - std::min(e.GetErrors().size(), ScenarioError::MAX_REPORTED));
    if (more > 0)
    {
        std::cerr << "error: " << e.GetFile() << ": (root): " << more
                  << " more error(s) not shown\n";
    }
    std::cerr.flush();
}

struct CommandLine
{
    std::string file;
    std::vector<std::string> sets;
    std::string out;
    bool quiet{false};
    uint32_t partition{0}; ///< --partition N: print the plan for N ranks instead of running
};

/// The --partition report: what a distributed run of config over ranks would cut.
nlohmann::json
PartitionReport(const ScenarioConfig& config, uint32_t ranks)
{
    const TopologyGraph graph = TopologyGraph::Build(config.topology);
    FabricPartition p;
    try
    {
        p = FabricPartition::Make(graph, ranks, config.distribution.unit);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError("--partition", "(command line)", e.what());
    }
    nlohmann::json j;
    j["ranks"] = ranks;
    j["unit"] = EnumName(p.GetUnit());
    j["links"] = p.GetLinkCount();
    j["cut_links"] = p.GetCutLinks().size();
    // Racks are whole, so only fabric links are cut: their delay is ns-3's lookahead.
    j["lookahead_us"] = p.GetCutLinks().empty()
                            ? nlohmann::json()
                            : nlohmann::json(config.topology.fabricLink.delayUs);
    j["per_rank"] = nlohmann::json::array();
    for (uint32_t r = 0; r < ranks; ++r)
    {
        j["per_rank"].push_back(
            {{"rank", r}, {"hosts", p.HostsOn(r)}, {"switches", p.SwitchesOn(r)}});
    }
    return j;
}

/// Throws ScenarioError (exit 2) on anything it does not understand.
CommandLine
ParseCommandLine(int argc, char** argv)
{
    CommandLine cl;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        auto value = [&](const std::string& opt)
        {
            if (i + 1 >= argc)
            {
                throw ScenarioError(opt, "(command line)", "needs a value");
            }
            return std::string(argv[++i]);
        };
        if (arg == "--set")
        {
            cl.sets.push_back(value(arg));
        }
        else if (arg.rfind("--set=", 0) == 0)
        {
            cl.sets.push_back(arg.substr(6));
        }
        else if (arg == "--out")
        {
            cl.out = value(arg);
        }
        else if (arg == "--seed")
        {
            cl.sets.push_back("seed=" + value(arg));
        }
        else if (arg == "--pcap")
        {
            cl.sets.push_back("output.pcap=true");
        }
        else if (arg == "--quiet")
        {
            cl.quiet = true;
        }
        else if (arg == "--partition")
        {
            const std::string v = value(arg);
            char* end = nullptr;
            const unsigned long n = std::strtoul(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || n == 0 || n > 1u << 20)
            {
                throw ScenarioError(arg, "(command line)", "needs a number of ranks, 1 or more");
            }
            cl.partition = static_cast<uint32_t>(n);
        }
        else if (arg == "--schema-markdown")
        {
            std::cout << Scenario::SchemaMarkdown();
            std::exit(0);
        }
        else if (arg == "--attributes-markdown")
        {
            std::cout << AttributeReference::Markdown();
            std::exit(0);
        }
        else if (arg == "--help" || arg == "-h")
        {
            std::cout << USAGE;
            std::exit(0);
        }
        else if (arg.rfind("--", 0) == 0 || !cl.file.empty())
        {
            throw ScenarioError(arg, "(command line)", "unknown option or extra argument");
        }
        else
        {
            cl.file = arg;
        }
    }
    if (cl.file.empty())
    {
        throw ScenarioError("(command line)", "(command line)", "no scenario file given");
    }
    return cl;
}
} // namespace

/// MPI from the first line of main to the last (mpirun; a no-op without ns-3's MPI module).
struct ProcessRanksScope
{
    ProcessRanksScope(int* argc, char*** argv)
    {
        ProcessRanks::Init(argc, argv);
    }

    ~ProcessRanksScope()
    {
        ProcessRanks::Finish();
    }
};

int
main(int argc, char** argv)
{
    ProcessRanksScope ranks(&argc, &argv);
    CommandLine cl;
    ScenarioConfig config;
    try
    {
        cl = ParseCommandLine(argc, argv);
        config = Scenario::Load(cl.file, cl.sets);
    }
    catch (const ScenarioError& e)
    {
        PrintErrors(e);
        if (argc < 2)
        {
            std::cerr << USAGE;
        }
        return 2;
    }
    for (const std::string& w : Scenario::Warnings(config))
    {
        std::cerr << "warning: " << config.file << ": " << w << "\n";
    }
    if (cl.partition == 0 && ProcessRanks::GetSize() == 1
        && config.distribution.unit != FabricPartition::Unit::AUTO)
    {
        std::cerr << "warning: " << config.file << ": distribution.unit ('"
                  << EnumName(config.distribution.unit)
                  << "') has no effect in a run of one process (mpirun -np N spreads a run)\n";
    }
    if (cl.partition > 0)
    {
        try
        {
            std::cout << PartitionReport(config, cl.partition).dump(2) << "\n";
            return 0;
        }
        catch (const ScenarioError& e)
        {
            PrintErrors(e);
            return 2;
        }
    }
    if (!cl.out.empty())
    {
        config.output.dir = cl.out;
    }
    try
    {
        ResultWriter::MakeDirectory(config.output.dir);
        ScenarioRunner::Options options;
        options.progress = !cl.quiet && isatty(STDERR_FILENO);
        ScenarioRunner runner(config, options);
        runner.Build();
        if (ProcessRanks::GetRank() == 0)
        {
            for (const std::string& w : runner.WorkloadWarnings())
            {
                std::cerr << "warning: " << config.file << ": " << w << "\n";
            }
        }
        bool complete = runner.Run();
        if (ProcessRanks::GetRank() != 0)
        {
            // Rank 0 took this process's records (ScenarioRunner::MergeRanks) and writes.
            return complete ? 0 : 3;
        }
        nlohmann::json summary = runner.Summary();
        ResultWriter::WriteJson(summary, config.output.dir + "/summary.json");
        ResultWriter::WriteOpsCsv(*runner.GetMetrics(),
                                  config.output.dir + "/ops.csv",
                                  config.output.receivers,
                                  runner.GetFabric().GetTrafficLedger()->GetOpLedger());
        ResultWriter::WriteJson(Scenario::ToJson(config), config.output.dir + "/scenario.json");
        if (config.output.steps)
        {
            ResultWriter::WriteStepsCsv(*runner.GetMetrics(), config.output.dir + "/steps.csv");
        }
        if (!config.stragglers.empty())
        {
            std::vector<std::string> labels;
            for (const WorkloadConfig& w : config.workloads)
            {
                labels.push_back(w.label);
            }
            ResultWriter::WriteStragglersCsv(
                *runner.GetStragglerLog(), labels, config.output.dir + "/stragglers.csv");
        }
        if (!cl.quiet)
        {
            ResultWriter::PrintTable(summary, std::cout);
            std::cout << "results in " << config.output.dir << "/\n";
        }
        for (const std::string& w : RunWarnings::Check(config, summary, *runner.GetStragglerLog()))
        {
            std::cerr << "warning: " << config.file << ": " << w << "\n";
        }
        // Results that break a conservation law are a bug in the model: say so, loudly. The
        // laws hold port by port, and a spread run's ports are on several processes.
        const std::vector<std::string> violations
            = ProcessRanks::GetSize() == 1 ? RunInvariants::Check(runner.GetFabric(), config)
                                           : std::vector<std::string>();
        if (!violations.empty())
        {
            for (const std::string& v : violations)
            {
                std::cerr << "error: " << config.file << ": invariant violated: " << v << "\n";
            }
            return 4;
        }
        if (!complete)
        {
            const std::string& by = runner.GetStoppedBy();
            std::cerr << "error: " << config.file << ": ";
            if (by == "limits.max_events")
            {
                std::cerr << "run stopped by limits.max_events (" << config.limits.maxEvents
                          << " events, " << summary["events"] << " run) at "
                          << summary["sim_time_s"].get<double>() * 1e3 << " ms";
            }
            else if (by == "limits.max_rss_mb")
            {
                std::cerr << "run stopped by limits.max_rss_mb (" << config.limits.maxRssMb
                          << " MB, peak " << summary["peak_rss_mb"] << " MB) at "
                          << summary["sim_time_s"].get<double>() * 1e3 << " ms";
            }
            else if (by == "limits.watchdog_us")
            {
                const nlohmann::json& w = summary["watchdog"];
                if (w["nothing_scheduled"].get<bool>())
                {
                    std::cerr << "run stopped by limits.watchdog_us: nothing left to simulate at "
                              << w["detected_us"].get<double>() << " µs, " << w["stuck_queue_pairs"]
                              << " queue pair(s) with data outstanding";
                }
                else
                {
                    std::cerr << "run stopped by limits.watchdog_us: no progress from "
                              << w["last_progress_us"].get<double>() << " µs to "
                              << w["detected_us"].get<double>() << " µs, " << w["stuck_queue_pairs"]
                              << " queue pair(s) with data outstanding, "
                              << w["paused_ports"].size() << " port(s) paused by PFC";
                    if (!w["pause_cycle"].empty())
                    {
                        std::cerr << ", in a cycle of paused ports (a PFC deadlock):";
                        for (const auto& link : w["pause_cycle"])
                        {
                            std::cerr << " " << link.get<std::string>() << " ->";
                        }
                        std::cerr << " " << w["pause_cycle"][0].get<std::string>();
                    }
                }
                std::cerr << ";";
            }
            else
            {
                std::cerr << "run reached stop_time_ms (" << config.stopTimeMs << " ms)";
            }
            std::cerr << " with " << runner.GetMetrics()->GetPending()
                      << " operation(s) unfinished:\n";
            for (const auto& line : runner.StuckOps(20))
            {
                std::cerr << "  " << line << "\n";
            }
            return 3;
        }
    }
    catch (const ScenarioError& e)
    {
        // Problems only the built fabric reveals (e.g. a buffer too small for its headroom).
        PrintErrors(e);
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
