/*
 * The new protocol: a group ID in a shim header, group trees installed by a controller (with
 * its install latency and finite switch tables), ACK and CNP aggregation built in.
 */
#ifndef MCAST4AI_NEW_PROTOCOL_DELIVERY_H
#define MCAST4AI_NEW_PROTOCOL_DELIVERY_H

#include "p2mp/model/p2mp-delivery.h"

namespace ns3
{

/**
 * \brief p2mp.mechanism "new-protocol".
 */
class NewProtocolDelivery : public P2mpDelivery
{
public:
    static TypeId GetTypeId();

    /// What a full group table does with a new group.
    enum TableFull
    {
        EVICT_LRU,        ///< evict the least recently used idle group
        FALLBACK_UNICAST, ///< the new group's messages go by unicast
    };

    /// How a receiver finds a message's memory region.
    enum AddressMapping
    {
        GROUP_REGION,      ///< a region registered for the group beforehand
        PER_RECEIVER_LIST, ///< each receiver's address rides in the message's first packet
    };

    bool IsMulticast() const override;
    Ptr<P2mpEncapsulator> CreateEncapsulator(uint32_t root, uint16_t entropy) override;
    uint32_t MaxHeaderBytes(uint32_t hosts) const override;

protected:
    void DoInstall(const Fabric& fabric) override;

private:
    Time m_installLatency;
    double m_controllerRate{0};
    double m_switchWriteRate{0};
    uint32_t m_tableEntries{4096};
    Time m_idleTeardown;
    TableFull m_onTableFull{EVICT_LRU};
    AddressMapping m_addressMapping{GROUP_REGION};
};

} // namespace ns3

#endif /* MCAST4AI_NEW_PROTOCOL_DELIVERY_H */
