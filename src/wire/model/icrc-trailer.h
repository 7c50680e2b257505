/*
 * RoCEv2 Invariant CRC (IBA vol.1 §7.8.1 and Annex A17): the 4 bytes that end every RoCEv2
 * packet, after the transport payload and before the Ethernet FCS.
 */
#ifndef MCAST4AI_ICRC_TRAILER_H
#define MCAST4AI_ICRC_TRAILER_H

#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The 4-byte ICRC trailer.
 *
 * Wire byte order: the CRC-32 value is stored least significant byte first, exactly like the
 * Ethernet FCS (and unlike every other RoCE field, which is big-endian). This matches Linux
 * rxe, which stores the CRC in host order on little-endian machines, and a CNP captured from a
 * ConnectX-4 Lx whose ICRC bytes 82 fd 00 2a are the CRC 0x2a00fd82 (see the unit test).
 * GetIcrc/SetIcrc deal in the CRC value, not in the wire bytes.
 */
class IcrcTrailer : public Trailer
{
public:
    /// Size on the wire, for callers that budget MTUs before building a packet.
    static constexpr uint32_t SIZE = 4;

    /// An ICRC of 0: simulations that do not check it need not compute it.
    IcrcTrailer();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    void Print(std::ostream& os) const override;

    void SetIcrc(uint32_t icrc);
    uint32_t GetIcrc() const;

    /**
     * \brief The ICRC of an IPv4 RoCEv2 packet.
     *
     * CRC-32 over 8 bytes of 0xFF (standing in for the masked LRH that RoCEv2 does not have),
     * then the packet from the IPv4 header on, with the fields routers may change replaced by
     * ones: IPv4 TOS (DSCP+ECN), TTL and header checksum, UDP checksum, BTH byte 4
     * (resv8a: FECN, BECN and reserved bits). Aborts if the bytes are not IPv4/UDP or too
     * short to hold the UDP header and a BTH.
     *
     * \param ipv4Header first byte of the IPv4 header (IPv4 options are honoured)
     * \param length bytes from the IPv4 header through the end of the payload and pad,
     *        excluding the ICRC itself
     * \return the CRC value, to be passed to SetIcrc
     */
    static uint32_t Compute(const uint8_t* ipv4Header, uint32_t length);
    /// Whether Compute can take these bytes (it aborts otherwise): an IPv4 header with a valid
    /// IHL, protocol UDP, and room for the UDP header and a BTH.
    static bool CanCompute(const uint8_t* ipv4Header, uint32_t length);

    /**
     * \brief Plain CRC-32 (the Ethernet FCS CRC): reflected polynomial 0xEDB88320, initial
     * value and final xor 0xFFFFFFFF. Exposed so that tests can check it on the standard
     * "123456789" vector.
     * \param data bytes to cover
     * \param length number of bytes
     * \return the CRC value
     */
    static uint32_t Crc32(const uint8_t* data, uint32_t length);

private:
    uint32_t m_icrc; //!< CRC value (not wire order)
};

} // namespace ns3

#endif // MCAST4AI_ICRC_TRAILER_H
