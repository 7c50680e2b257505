/*
 * Byte-level helpers shared by the wire-format unit tests.
 */
#ifndef MCAST4AI_PACKET_BYTES_H
#define MCAST4AI_PACKET_BYTES_H

#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace mcast4ai_test
{

using Bytes = std::vector<uint8_t>;

/// Every byte of a packet, as on the wire.
inline Bytes
CopyBytes(ns3::Ptr<const ns3::Packet> p)
{
    Bytes out(p->GetSize());
    p->CopyData(out.data(), out.size());
    return out;
}

/// The serialized bytes of one header.
template<typename H>
Bytes
HeaderBytes(const H& header)
{
    ns3::Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>();
    p->AddHeader(header);
    return CopyBytes(p);
}

} // namespace mcast4ai_test

#endif /* MCAST4AI_PACKET_BYTES_H */
