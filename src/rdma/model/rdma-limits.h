/*
 * What one RDMA operation can carry, as the InfiniBand specification bounds it.
 */
#ifndef MCAST4AI_RDMA_LIMITS_H
#define MCAST4AI_RDMA_LIMITS_H

#include <cstdint>

namespace ns3
{

/**
 * \brief Limits of the RDMA model that a configuration must respect.
 */
struct RdmaLimits
{
    /// Largest message (SEND or WRITE): 2^31 bytes, the IBTA limit (the RETH's DMA length is
    /// 32 bits). A workload that sends more splits it into messages itself.
    static constexpr uint64_t MAX_MESSAGE_BYTES = uint64_t{1} << 31;
};

} // namespace ns3

#endif /* MCAST4AI_RDMA_LIMITS_H */
