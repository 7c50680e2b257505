/*
 * Body of a RoCEv2 Congestion Notification Packet (IBA Annex A17): the 16 reserved bytes that
 * follow a BTH with opcode CNP (0x81). Real NICs send them so that a CNP has the size of the
 * smallest RC packet; modelling them keeps CNP serialization times and pcaps faithful.
 */
#ifndef MCAST4AI_CNP_HEADER_H
#define MCAST4AI_CNP_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief 16 reserved bytes: written as zero, skipped (not checked) on receive.
 */
class CnpHeader : public Header
{
public:
    /// Size on the wire, for callers that budget MTUs before building a packet.
    static constexpr uint32_t SIZE = 16;

    CnpHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;
};

} // namespace ns3

#endif // MCAST4AI_CNP_HEADER_H
