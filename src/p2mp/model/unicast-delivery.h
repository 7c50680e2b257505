/*
 * Unicast replication: the sender posts one RC message per receiver over its own queue pair.
 * No switch takes part and nothing is aggregated: every receiver's ACK comes back on its QP.
 */
#ifndef MCAST4AI_UNICAST_DELIVERY_H
#define MCAST4AI_UNICAST_DELIVERY_H

#include "p2mp/model/p2mp-delivery.h"

namespace ns3
{

/**
 * \brief p2mp.mechanism "unicast".
 */
class UnicastDelivery : public P2mpDelivery
{
public:
    static TypeId GetTypeId();
};

} // namespace ns3

#endif /* MCAST4AI_UNICAST_DELIVERY_H */
