#include "scenario/model/run-warnings.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"
#include "workload/model/straggler-log.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RunWarnings");

namespace
{

uint64_t
Counter(const nlohmann::json& network, const char* key)
{
    auto it = network.find(key);
    return it != network.end() && it->is_number_integer() ? it->get<uint64_t>() : 0;
}

} // namespace

std::vector<std::string>
RunWarnings::Check(const ScenarioConfig& config,
                   const nlohmann::json& summary,
                   const StragglerLog& stragglers)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < config.stragglers.size(); ++i)
    {
        if (stragglers.Count(static_cast<uint32_t>(i)) == 0)
        {
            NS_LOG_LOGIC("straggler " << i << " never fired");
            std::ostringstream os;
            os << "stragglers[" << i << "]: this " << config.stragglers[i].type
               << " straggler changed nothing in the run (no event in stragglers.csv): "
               << "its targets have no compute time, its probability drew nothing, or its "
               << "window lies outside the run";
            out.push_back(os.str());
        }
    }
    const nlohmann::json& network = summary.at("network");
    const uint64_t evictions = Counter(network, "group_evictions");
    if (evictions > 0)
    {
        std::ostringstream os;
        os << "p2mp.new_protocol.table_entries: full group tables evicted " << evictions
           << " group(s); their next messages waited for a new install";
        out.push_back(os.str());
    }
    const uint64_t fallbacks = Counter(network, "group_fallbacks");
    if (fallbacks > 0)
    {
        std::ostringstream os;
        os << "p2mp.new_protocol.on_table_full: " << fallbacks
           << " group request(s) found a full table and fell back to unicast copies";
        out.push_back(os.str());
    }
    const nlohmann::json& workloads = summary.at("workloads");
    std::ostringstream few;
    for (std::size_t i = 0; i < workloads.size(); ++i)
    {
        const uint64_t n = workloads[i].value("completed", uint64_t{0});
        if (n > 0 && n < 100)
        {
            few << (few.tellp() > 0 ? ", " : "") << "workloads[" << i << "] (" << n << ")";
        }
    }
    if (few.tellp() > 0)
    {
        out.push_back(few.str()
                      + ": fewer operations completed than the 100 a p99 needs: "
                        "their p99 and p99.9 are the maximum (summary.json keeps the "
                        "keys; the table prints them as '-')");
    }
    return out;
}

} // namespace ns3
