/*
 * The RDMA operation a message is posted with. Plain data of its own, so that a workload's
 * configuration names it without the queue pair's header.
 */
#ifndef MCAST4AI_RDMA_OPERATION_H
#define MCAST4AI_RDMA_OPERATION_H

#include "core/model/enum-names.h"

#include <cstdint>

namespace ns3
{

/// WRITE: memory semantics, the bytes land where the requester says (RETH); SEND: the
/// responder's receive queue takes them.
enum class RdmaOperation : uint8_t
{
    WRITE,
    SEND
};

MCAST4AI_ENUM_NAMES(RdmaOperation,
                    {{RdmaOperation::WRITE, "write"}, {RdmaOperation::SEND, "send"}});

} // namespace ns3

#endif /* MCAST4AI_RDMA_OPERATION_H */
