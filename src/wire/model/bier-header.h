/*
 * BIER header in its non-MPLS (Ethernet) form, RFC 8296 §2: carried directly after an Ethernet
 * header with EtherType 0xAB37, followed here by the IPv4/UDP/BTH packet being replicated.
 */
#ifndef MCAST4AI_BIER_HEADER_H
#define MCAST4AI_BIER_HEADER_H

#include "wire/model/bier-fixed-header.h"
#include "wire/model/bit-string.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief RFC 8296 BIER header: the fixed part (bier-fixed-header.h) plus a BitString.
 *
 *   octets 12-   the BitString, BSL/8 octets (numbering in bit-string.h: the last octet's
 *                least significant bit is BitPosition 1).
 *
 * Serialized size: 12 + BSL/8, i.e. 20, 28, 44, 76, 140, 268 or 524 octets for codes 1..7.
 *
 * BIFT-id. Over a non-MPLS network the BIFT-id is a 20-bit value naming the forwarding table,
 * i.e. one <sub-domain, BSL, SI> triple; RFC 8296 leaves its assignment to provisioning. This
 * module uses a single sub-domain (0), takes the BSL from the header, and defines
 *     BIFT-id = SI + 1
 * so SetSetIdentifier()/GetSetIdentifier() convert both ways. BIFT-id 0 never names a set: the
 * XPU-ID list variant (XpuListHeader), whose receiver IDs are absolute BFR-ids, sends 0.
 * A BFR-id b is carried in SI (b-1)/BSL at BitString index (b-1)%BSL.
 *
 * Receive side: a code outside 1..7 (including XpuListHeader's 0xF) is kept, but then no
 * BitString is read (IsBslValid() is false and the header is 12 octets), and a BitString cut
 * short by the end of the packet is not read either (the BSL code then reads back as 0).
 */
class BierHeader : public BierFixedHeader
{
public:
    /**
     * A 256-bit empty BitString, BIFT-id 1 (SI 0), and the other fixed fields as in
     * BierFixedHeader's constructor.
     */
    BierHeader();

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

    /// \return the BSL code (1..7) for a BitString of \p bits bits; 0 if \p bits is not one
    static uint8_t BslCode(uint32_t bits);
    /// \return the BitString length in bits for BSL code \p code (1..7); 0 for other codes
    static uint32_t BitsFromCode(uint8_t code);
    /// \return 12 + bits/8, the size of a header carrying a \p bits -bit BitString
    static uint32_t SizeFor(uint32_t bits);
    /// \return the BIFT-id naming set identifier \p si (SI + 1)
    static uint32_t BiftIdForSet(uint16_t si);

    /// Sets the BIFT-id to \p si + 1 (see the class comment).
    void SetSetIdentifier(uint16_t si);
    /// \return GetBiftId() - 1; meaningless when the BIFT-id is 0
    uint16_t GetSetIdentifier() const;
    /// \return the BSL code: the BitString's, or the code read from the wire
    uint8_t GetBslCode() const override;
    /// \return true if the BSL code is 1..7, i.e. a BitString is carried
    bool IsBslValid() const;
    /// Copies \p bs and sets the BSL code from its length.
    void SetBitString(const BitString& bs);
    const BitString& GetBitString() const;
    /**
     * \return the BitString for in-place edits (a forwarder clearing bits per copy). Assigning
     *         a string of another valid length through it also changes the BSL code.
     */
    BitString& MutableBitString();

private:
    BitString m_bitString; //!< octets 12.., present when the stored BSL code is 1..7
};

} // namespace ns3

#endif // MCAST4AI_BIER_HEADER_H
