/*
 * The path-steering keys of the scenario's `load_balancing` section: whether senders steer
 * their UDP source port, from what (endpoint estimates, in-band telemetry), and the steering
 * models' parameters. Declared here, next to the models, after the section's path-choice keys.
 */
#ifndef MCAST4AI_PATH_STEERING_SCHEMA_H
#define MCAST4AI_PATH_STEERING_SCHEMA_H

#include "core/model/config-schema-object.h"

#include <string>

namespace ns3
{

struct LoadBalancingConfig;

/**
 * Declares the steering keys of `load_balancing`, bound to LoadBalancingConfig; each model
 * parameter sets its attribute (PathSteering's, TelemetryPathSteering's).
 */
class PathSteeringSchema
{
public:
    static void Declare(ConfigSchemaObject& section);
    /**
     * \return the registered name of the path-steering model the section selects
     *         (PathSteering::Registry()), "" for none: `endpoint_steering` and `telemetry`
     *         choose it
     */
    static std::string ModelName(const LoadBalancingConfig& lb);
};

} // namespace ns3

#endif /* MCAST4AI_PATH_STEERING_SCHEMA_H */
