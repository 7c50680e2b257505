#include "rdma/model/loss-tolerance.h"

#include "ns3/log.h"

#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LossTolerance");

bool
LossTolerance::NamedLost(uint64_t psn, uint64_t firstPsn, uint8_t budget, uint32_t bytes)
{
    // Without its first packet (the RETH: where the bytes go) a responder could place none
    // of the message, so that one is always recovered.
    if (psn == firstPsn)
    {
        return false;
    }
    uint16_t& named = m_named[psn];
    if (named++ != budget)
    {
        return false;
    }
    ++m_abandoned;
    m_abandonedBytes += bytes;
    NS_LOG_LOGIC("PSN " << psn << " lost " << named << " times, given up on (" << bytes
                        << " bytes)");
    return true;
}

void
LossTolerance::AcknowledgedBelow(uint64_t psn)
{
    for (auto it = m_named.begin(); it != m_named.end();)
    {
        it = it->first < psn ? m_named.erase(it) : std::next(it);
    }
}

} // namespace ns3
