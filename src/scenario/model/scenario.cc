#include "scenario/model/scenario.h"

#include "fabric/model/egress-scheduler.h"
#include "ns3/log.h"
#include "p2mp/model/p2mp-delivery.h"
#include "rdma/model/rdma-congestion-control.h"
#include "scenario/model/scenario-document.h"
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario-schema.h"
#include "workload/model/workload-type-registry.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Scenario");

namespace
{

using json = nlohmann::json;

const std::string kRoot = "(root)";

std::string
DefaultName(const std::string& file)
{
    const std::string stem = std::filesystem::path(file).stem().string();
    return stem.empty() ? std::string("scenario") : stem;
}

// Whether `path` is `prefix` or lies inside it.
bool
Within(const std::string& path, const std::string& prefix)
{
    return path == prefix || path.compare(0, prefix.size() + 1, prefix + ".") == 0
           || path.compare(0, prefix.size() + 1, prefix + "[") == 0;
}

} // namespace

std::string
Scenario::ApplySet(json& doc, const std::string& set)
{
    return ScenarioDocument::ApplySet(doc, set);
}

ScenarioConfig
Scenario::Load(const std::string& file, const std::vector<std::string>& sets)
{
    NS_LOG_FUNCTION(file);
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
    {
        throw ScenarioError(file, kRoot, "cannot read the scenario: no such file");
    }
    if (std::filesystem::is_directory(file, ec))
    {
        throw ScenarioError(file, kRoot, "cannot read the scenario: it is a directory");
    }
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (!ec && size > ScenarioDocument::MAX_FILE_BYTES)
    {
        throw ScenarioError(file,
                            kRoot,
                            "the file has " + std::to_string(size) + " bytes, more than the "
                                + std::to_string(ScenarioDocument::MAX_FILE_BYTES)
                                + " a scenario may have");
    }
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        throw ScenarioError(
            file, kRoot, std::string("cannot read the scenario: ") + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw ScenarioError(file, kRoot, "cannot read the scenario: read error");
    }
    return Parse(text.str(), file, sets);
}

std::vector<std::string>
Scenario::Warnings(const ScenarioConfig& config)
{
    std::vector<std::string> out;
    const bool hostSlower
        = config.topology.hostLink.rateGbps <= config.topology.fabricLink.rateGbps;
    const double gbps
        = hostSlower ? config.topology.hostLink.rateGbps : config.topology.fabricLink.rateGbps;
    const double frameUs = config.MtuFrameUs(gbps);
    if (config.nic.rtoUs < frameUs)
    {
        std::ostringstream os;
        os << "nic.rto_us: " << config.nic.rtoUs << " us is shorter than one "
           << config.nic.mtuBytes << "-byte frame on "
           << (hostSlower ? "topology.host_link" : "topology.fabric_link") << " (" << frameUs
           << " us at " << gbps << " Gb/s): every packet times out before it can be "
           << "acknowledged and is resent, and a run may never finish";
        out.push_back(os.str());
    }
    // A model's own object, changed from its defaults while another model is selected,
    // changes nothing.
    const nlohmann::json written = ToJson(config);
    const nlohmann::json plain = ScenarioSchema::Build().Write(ScenarioConfig{});
    struct Selection
    {
        const char* section;
        const char* selector;
        const std::string& chosen;
        const NamedTypeRegistry& models;
    };
    for (const Selection& s :
         {Selection{"nic",
                    "congestion_control",
                    config.nic.congestionControl,
                    RdmaCongestionControl::Registry()},
          Selection{"p2mp", "mechanism", config.p2mp.mechanism, P2mpDelivery::Registry()},
          Selection{"switch", "scheduling", config.sw.scheduling, EgressScheduler::Registry()}})
    {
        const nlohmann::json& given = written.at(s.section);
        const nlohmann::json& defaults = plain.at(s.section);
        for (const auto& [model, object] : s.models.KeyObjects())
        {
            if (model != s.chosen
                && given.value(object, nlohmann::json())
                       != defaults.value(object, nlohmann::json()))
            {
                out.push_back(std::string(s.section) + "." + object + ": has no effect under "
                              + s.section + "." + s.selector + " '" + s.chosen + "'");
            }
        }
    }
    // The timeline's knobs without a timeline.
    const OutputConfig plainOutput;
    if (!config.output.timeline)
    {
        if (config.output.timelineSampleUs != plainOutput.timelineSampleUs)
        {
            out.push_back("output.timeline_sample_us: has no effect without output.timeline");
        }
        if (config.output.timelineMaxMb != plainOutput.timelineMaxMb)
        {
            out.push_back("output.timeline_max_mb: has no effect without output.timeline");
        }
    }
    // Only a watchdog given can be this short: the auto one is ten RTOs or more.
    const double watchdogUs = config.limits.watchdogUs;
    if (watchdogUs != LimitsConfig::AUTO_WATCHDOG && watchdogUs > 0
        && watchdogUs <= config.nic.rtoUs)
    {
        std::ostringstream os;
        os << "limits.watchdog_us: " << watchdogUs << " us is not longer than nic.rto_us ("
           << config.nic.rtoUs << " us): a run that would recover a lost packet by its "
           << "retransmission timeout is stopped as stalled first";
        out.push_back(os.str());
    }
    return out;
}

ScenarioConfig
Scenario::Parse(const std::string& text,
                const std::string& fileLabel,
                const std::vector<std::string>& sets)
{
    NS_LOG_FUNCTION(fileLabel << sets.size());
    json doc = ScenarioDocument::Parse(text, fileLabel);
    std::vector<std::pair<std::string, std::string>> applied; // canonical path, argument
    for (const std::string& set : sets)
    {
        applied.emplace_back(ApplySet(doc, set), set);
    }
    try
    {
        ScenarioConfig c = Validate(doc, fileLabel);
        NS_LOG_INFO("scenario " << c.name << ": " << c.HostCount() << " hosts, "
                                << c.workloads.size() << " workload(s)");
        return c;
    }
    catch (const ScenarioError& e)
    {
        // Point at the override when the bad value came from the command line.
        std::vector<ScenarioError::Entry> errors = e.GetErrors();
        for (ScenarioError::Entry& entry : errors)
        {
            for (auto it = applied.rbegin(); it != applied.rend(); ++it)
            {
                if (Within(entry.path, it->first))
                {
                    entry.reason += " (set by --set " + it->second + ")";
                    break;
                }
            }
        }
        throw ScenarioError(std::move(errors), e.GetNotShown());
    }
}

ScenarioConfig
Scenario::Validate(const json& doc, const std::string& file)
{
    const ConfigSchema schema = ScenarioSchema::Build();
    const ConfigSchemaResult result
        = schema.Validate(doc,
                          {{ScenarioSchema::FILE_STEM, {DefaultName(file), "the file's stem"}}},
                          ScenarioError::MAX_REPORTED);
    if (!result.Ok())
    {
        std::vector<ScenarioError::Entry> errors;
        for (const ConfigSchemaIssue& issue : result.issues)
        {
            errors.push_back({file, issue.path, issue.reason});
        }
        throw ScenarioError(std::move(errors), result.omitted);
    }
    ScenarioConfig c;
    schema.Read(result.value, c);
    c.file = file;
    return c;
}

ScenarioConfig
Scenario::Check(const ScenarioConfig& c)
{
    return Validate(ToJson(c), c.file.empty() ? std::string("(built in code)") : c.file);
}

nlohmann::json
Scenario::ToJson(const ScenarioConfig& c)
{
    return ScenarioSchema::Build().Write(c);
}

void
Scenario::RegisterWorkloadType(const std::string& name,
                               WorkloadDeclareFunction declare,
                               const std::string& doc)
{
    WorkloadTypeRegistry::Register(name, TypeId(), std::move(declare), doc);
}

bool
Scenario::UnregisterWorkloadType(const std::string& name)
{
    return WorkloadTypeRegistry::Unregister(name);
}

std::string
Scenario::SchemaMarkdown()
{
    return ScenarioSchema::Build().Markdown();
}

} // namespace ns3
