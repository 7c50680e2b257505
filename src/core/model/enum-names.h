/*
 * The names of a C++ enum, declared once next to it, for the scenario files and messages:
 *
 *   enum class TopologyKind { LEAF_SPINE, FAT_TREE, RING };
 *   MCAST4AI_ENUM_NAMES(TopologyKind,
 *                       {{TopologyKind::LEAF_SPINE, "leaf-spine"}, ...});
 *
 * in the enum's namespace. nlohmann::json then reads and writes the enum by name (as its own
 * NLOHMANN_JSON_SERIALIZE_ENUM does), a schema key bound to it checks that its names are the
 * enum's (ConfigSchemaKey::Bind), ConfigSchemaObject::Enum<E> declares a key with them, and
 * EnumName / EnumFromName convert.
 */
#ifndef MCAST4AI_ENUM_NAMES_H
#define MCAST4AI_ENUM_NAMES_H

#include "ns3/abort.h"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/// Whether MCAST4AI_ENUM_NAMES declared names for E.
template<class E, class = void>
struct HasEnumNames : std::false_type
{
};

template<class E>
struct HasEnumNames<E, std::void_t<decltype(EnumNamesOf(std::declval<E>()))>> : std::true_type
{
};

/// The name of e (declared with MCAST4AI_ENUM_NAMES).
template<class E>
const std::string&
EnumName(E e)
{
    for (const auto& [value, name] : EnumNamesOf(e))
    {
        if (value == e)
        {
            return name;
        }
    }
    NS_ABORT_MSG("enum value " << static_cast<int>(e) << " has no name");
}

/// The value named name; a name the enum does not have is a bug (the schema checks names).
template<class E>
E
EnumFromName(const std::string& name)
{
    for (const auto& [value, n] : EnumNamesOf(E{}))
    {
        if (n == name)
        {
            return value;
        }
    }
    NS_ABORT_MSG("'" << name << "' names no value of the enum");
}

/// Every name of E, in declaration order.
template<class E>
std::vector<std::string>
EnumNameList()
{
    std::vector<std::string> names;
    for (const auto& entry : EnumNamesOf(E{}))
    {
        names.push_back(entry.second);
    }
    return names;
}

} // namespace ns3

/// Declare the names of enum E (in E's namespace): a braced list of {value, "name"} pairs.
#define MCAST4AI_ENUM_NAMES(E, ...)                                              \
    inline const std::vector<std::pair<E, std::string>>& EnumNamesOf(E)          \
    {                                                                            \
        static const std::vector<std::pair<E, std::string>> names = __VA_ARGS__; \
        return names;                                                            \
    }                                                                            \
    template<typename BasicJsonType>                                             \
    inline void to_json(BasicJsonType& j, const E& e)                            \
    {                                                                            \
        j = ::ns3::EnumName(e);                                                  \
    }                                                                            \
    template<typename BasicJsonType>                                             \
    inline void from_json(const BasicJsonType& j, E& e)                          \
    {                                                                            \
        e = ::ns3::EnumFromName<E>(j.template get<std::string>());               \
    }

#endif /* MCAST4AI_ENUM_NAMES_H */
