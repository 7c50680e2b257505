#include "workload/model/workload-type-registry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadTypeRegistry");

SchemaTypeRegistry&
WorkloadTypeRegistry::Instance()
{
    // Constructed on first use: types register from static initialisers of any file.
    static SchemaTypeRegistry registry({"flows",
                                        "allreduce",
                                        "allgather",
                                        "reducescatter",
                                        "broadcast",
                                        "moe-dispatch",
                                        "kv-cache-fanout",
                                        "spec-decode",
                                        "checkpoint",
                                        "background"});
    return registry;
}

const std::vector<std::string>&
WorkloadTypeRegistry::ReservedNames()
{
    return Instance().ReservedNames();
}

void
WorkloadTypeRegistry::Register(const std::string& name,
                               TypeId tid,
                               DeclareFunction declare,
                               const std::string& doc)
{
    NS_LOG_FUNCTION(name);
    Instance().Register(name, tid, std::move(declare), doc);
}

bool
WorkloadTypeRegistry::Unregister(const std::string& name)
{
    return Instance().Unregister(name);
}

const WorkloadTypeRegistry::Entry*
WorkloadTypeRegistry::Find(const std::string& name)
{
    return Instance().Find(name);
}

std::vector<WorkloadTypeRegistry::Entry>
WorkloadTypeRegistry::GetEntries()
{
    return Instance().GetEntries();
}

std::vector<std::string>
WorkloadTypeRegistry::GetNames()
{
    return Instance().GetNames();
}

bool
WorkloadTypeRegistry::ReadBound(const std::string& name,
                                const nlohmann::json& spec,
                                void* target,
                                std::type_index type)
{
    return Instance().ReadBound(name, spec, target, type);
}

void
WorkloadTypeRegistry::ApplyAttributes(const std::string& name,
                                      const nlohmann::json& spec,
                                      Object& object)
{
    Instance().ApplyAttributes(name, spec, object);
}

} // namespace ns3
