/*
 * libFuzzer target: the scenario loader with --set overrides.
 *
 * An input is a scenario's text, then optionally a NUL byte and --set overrides, one per line.
 * The loader must either return a valid scenario or throw ScenarioError (exit 2 in the runner,
 * naming a JSON path); any other exception, a crash, undefined behaviour or a hang is a
 * finding. A scenario that loads must also survive Scenario::Warnings and round-trip:
 * Parse(ToJson(c)) gives c back, as the runner's scenario.json promises.
 */
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = input.find('\0');
    const std::string text = input.substr(0, nul);
    std::vector<std::string> sets;
    if (nul != std::string::npos)
    {
        std::size_t start = nul + 1;
        while (start <= input.size() && sets.size() < 16)
        {
            std::size_t end = input.find('\n', start);
            if (end == std::string::npos)
            {
                end = input.size();
            }
            sets.push_back(input.substr(start, end - start));
            start = end + 1;
        }
    }
    ScenarioConfig config;
    try
    {
        config = Scenario::Parse(text, "fuzz.json", sets);
    }
    catch (const ScenarioError&)
    {
        return 0; // refused with a path: what bad input should get
    }
    Scenario::Warnings(config);
    const nlohmann::json written = Scenario::ToJson(config);
    ScenarioConfig again;
    try
    {
        again = Scenario::Parse(written.dump(), "fuzz.json", {});
    }
    catch (const ScenarioError& e)
    {
        std::fprintf(stderr, "scenario.json of a valid scenario is refused: %s\n", e.what());
        __builtin_trap();
    }
    if (Scenario::ToJson(again) != written)
    {
        std::fprintf(stderr, "scenario.json does not round-trip\n");
        __builtin_trap();
    }
    return 0;
}
