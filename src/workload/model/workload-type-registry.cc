#include "workload/model/workload-type-registry.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadTypeRegistry");

const std::vector<std::string>&
WorkloadTypeRegistry::ReservedNames()
{
    static const std::vector<std::string> names{"flows",
                                                "allreduce",
                                                "allgather",
                                                "reducescatter",
                                                "broadcast",
                                                "moe-dispatch",
                                                "kv-cache-fanout",
                                                "spec-decode",
                                                "checkpoint",
                                                "background"};
    return names;
}

std::vector<WorkloadTypeRegistry::Entry>&
WorkloadTypeRegistry::Entries()
{
    // Constructed on first use: types register from static initialisers of any file.
    static std::vector<Entry> entries;
    return entries;
}

void
WorkloadTypeRegistry::Register(const std::string& name,
                               TypeId tid,
                               DeclareFunction declare,
                               const std::string& doc)
{
    NS_LOG_FUNCTION(name);
    std::vector<Entry>& entries = Entries();
    auto it = std::find_if(entries.begin(),
                           entries.end(),
                           [&name](const Entry& e)
                           {
                               return e.name == name;
                           });
    if (it != entries.end())
    {
        *it = Entry{name, tid, std::move(declare), doc};
        return;
    }
    entries.push_back({name, tid, std::move(declare), doc});
}

bool
WorkloadTypeRegistry::Unregister(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    std::vector<Entry>& entries = Entries();
    auto it = std::find_if(entries.begin(),
                           entries.end(),
                           [&name](const Entry& e)
                           {
                               return e.name == name;
                           });
    if (it == entries.end())
    {
        return false;
    }
    entries.erase(it);
    return true;
}

const WorkloadTypeRegistry::Entry*
WorkloadTypeRegistry::Find(const std::string& name)
{
    for (const Entry& e : Entries())
    {
        if (e.name == name)
        {
            return &e;
        }
    }
    return nullptr;
}

std::vector<WorkloadTypeRegistry::Entry>
WorkloadTypeRegistry::GetEntries()
{
    // Independent of the order in which files were linked: the reference and the messages
    // list types the same way in every build.
    const std::vector<std::string>& reserved = ReservedNames();
    auto rank = [&reserved](const Entry& e)
    {
        auto it = std::find(reserved.begin(), reserved.end(), e.name);
        return std::make_pair(static_cast<std::size_t>(it - reserved.begin()), e.name);
    };
    std::vector<Entry> entries = Entries();
    std::sort(entries.begin(),
              entries.end(),
              [&rank](const Entry& a, const Entry& b)
              {
                  return rank(a) < rank(b);
              });
    return entries;
}

std::vector<std::string>
WorkloadTypeRegistry::GetNames()
{
    std::vector<std::string> names;
    for (const Entry& e : GetEntries())
    {
        names.push_back(e.name);
    }
    return names;
}

} // namespace ns3
