/*
 * The fabric's addressing plan, in one place: host h is IPv4 10.0.0.0 + h + 1 with the locally
 * administered MAC 02:00:hh:hh:hh:hh; a P2MP flow's packets go to 239.x.y.z from its group QPN;
 * a switch that makes ACKs sends them from 10.128.0.0 + its index.
 */
#ifndef MCAST4AI_FABRIC_ADDRESS_H
#define MCAST4AI_FABRIC_ADDRESS_H

#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Addresses of hosts, P2MP flows and switches.
 */
class FabricAddress
{
public:
    static Ipv4Address HostIpv4(uint32_t host);
    static Mac48Address HostMac(uint32_t host);
    /// IPv4 destination of a P2MP flow's packets (239.0.0.0/8, from the group QPN).
    static uint32_t GroupIpv4(uint32_t groupQpn);
    /// Source IPv4 of the ACKs switch index aggregates.
    static uint32_t SwitchIpv4(uint32_t switchIndex);
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_ADDRESS_H */
