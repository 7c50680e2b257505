#include "workload/model/workload-schema-keys.h"

#include "workload/model/workload-config.h"

namespace ns3
{

const char* const WorkloadSchemaKeys::HOSTS = "hosts";
const char* const WorkloadSchemaKeys::HOST_NOTE = "a host index; the topology has {hosts} hosts";

ConfigSchemaKey&
WorkloadSchemaKeys::Ranks(ConfigSchemaObject& w)
{
    using json = nlohmann::json;
    return w.IntegerArray("ranks", "host indices")
        .DefaultFrom(
            [](const ConfigSchemaView& v) -> std::optional<json>
            {
                const ConfigSchemaDerived* hosts = v.Variable(HOSTS);
                if (!hosts)
                {
                    return std::nullopt;
                }
                json all = json::array();
                for (uint64_t h = 0; h < hosts->value.get<uint64_t>(); ++h)
                {
                    all.push_back(h);
                }
                return all;
            },
            "every host")
        .MaxFromVariable(HOSTS, -1)
        .Note(HOST_NOTE)
        .Distinct();
}

void
WorkloadSchemaKeys::EndAfterStart(ConfigSchemaObject& w)
{
    using json = nlohmann::json;
    w.Rule(
        "end_us",
        {"start_us", "end_us"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* start = v.Get("start_us");
            const json* end = v.Get("end_us");
            if (!start || !end || end->get<double>() > start->get<double>())
            {
                return std::nullopt;
            }
            return "must be after " + v.Path("start_us") + " (" + start->dump() + "), got "
                   + end->dump();
        },
        "end_us > start_us");
}

ConfigSchemaKey&
WorkloadSchemaKeys::Iterations(ConfigSchemaObject& w, uint32_t dflt)
{
    return w.Integer("iterations", 1, 1000000).Default(dflt).Bind(&WorkloadConfig::iterations, 0u);
}

ConfigSchemaKey&
WorkloadSchemaKeys::ChunkBytes(ConfigSchemaObject& w)
{
    return w.Integer("chunk_bytes", 0)
        .Default(0)
        .Unit("bytes")
        .Bind(&WorkloadConfig::chunkBytes, uint64_t{0});
}

std::size_t
WorkloadSchemaKeys::RankCount(const ConfigSchemaView& v)
{
    const nlohmann::json* ranks = v.Get("ranks");
    if (ranks && ranks->is_array())
    {
        return ranks->size();
    }
    const ConfigSchemaDerived* hosts = v.Variable(HOSTS);
    return hosts ? hosts->value.get<std::size_t>() : 0;
}

ConfigSchemaKey&
WorkloadSchemaKeys::ComputeUs(ConfigSchemaObject& w)
{
    return w.Number("compute_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Bind(&WorkloadConfig::computeUs, 0.0);
}

ConfigSchemaKey&
WorkloadSchemaKeys::Barrier(ConfigSchemaObject& w)
{
    return w.Boolean("barrier").Default(true).Bind(&WorkloadConfig::barrier, true);
}

} // namespace ns3
