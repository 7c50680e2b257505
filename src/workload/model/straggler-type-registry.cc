#include "workload/model/straggler-type-registry.h"

namespace ns3
{

SchemaTypeRegistry&
StragglerTypeRegistry::Instance()
{
    // Constructed on first use: types register from static initialisers of any file.
    static SchemaTypeRegistry registry({"slow-node", "slow-link", "jitter", "congested-receiver"});
    return registry;
}

} // namespace ns3
