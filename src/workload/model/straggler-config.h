/*
 * One entry of a scenario's stragglers[] as the loader validated it: its type and the whole
 * entry, defaults filled in, for the straggler class to read its own keys from.
 */
#ifndef MCAST4AI_STRAGGLER_CONFIG_H
#define MCAST4AI_STRAGGLER_CONFIG_H

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

struct StragglerConfig
{
    std::string type; // "slow-node", "slow-link", "jitter", "congested-receiver"
    nlohmann::json spec;
};

} // namespace ns3

#endif /* MCAST4AI_STRAGGLER_CONFIG_H */
