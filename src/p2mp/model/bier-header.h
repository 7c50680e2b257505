/*
 * BIER header in its non-MPLS (Ethernet) form, RFC 8296 §2: carried directly after an Ethernet
 * header with EtherType 0xAB37, followed here by the IPv4/UDP/BTH packet being replicated.
 */
#ifndef MCAST4AI_BIER_HEADER_H
#define MCAST4AI_BIER_HEADER_H

#include "ns3/header.h"
#include "p2mp/model/bit-string.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief RFC 8296 BIER header: 12 fixed octets plus a BitString of BSL bits.
 *
 * Layout, octet offsets from the start of the header, bit 0 = most significant bit of a field's
 * first octet (all multi-octet fields in network order):
 *
 *   octets 0-3   one 32-bit word: BIFT-id in its top 20 bits, then TC (3 bits), S (1 bit),
 *                and TTL in the low octet. In MPLS networks this word is the BIER label stack
 *                entry; over Ethernet it is simply the start of the BIER header.
 *   octets 4-7   one 32-bit word: Nibble (top 4 bits, 0101), Ver (4 bits, 0), BSL (4 bits,
 *                code 1..7 = 64..4096 bits; its octet is 5, high half), Entropy (low 20 bits).
 *   octets 8-9   OAM (top 2 bits), Rsv (2 bits), DSCP (6 bits), Proto (low 6 bits).
 *   octets 10-11 BFIR-id: the BFR-id of the ingress router (the sending host here).
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
 * Receive side: Nibble, Ver, OAM and Rsv are kept as read so a forwarder can re-emit them
 * unchanged; a code outside 1..7 (including XpuListHeader's 0xF) is kept too, but then no
 * BitString is read (IsBslValid() is false and the header is 12 octets), and a BitString cut
 * short by the end of the packet is not read either (the BSL code then reads back as 0).
 */
class BierHeader : public Header
{
public:
    /// EtherType of non-MPLS BIER (IEEE assignment referenced by RFC 8296).
    static constexpr uint16_t ETHERTYPE = 0xAB37;
    /// Octets before the BitString.
    static constexpr uint32_t FIXED_SIZE = 12;
    /// Octet whose high four bits are the BSL code (for switches that peek at raw bytes).
    static constexpr uint32_t BSL_OCTET = 5;
    /// First-nibble value RFC 8296 sends (keeps MPLS ECMP from mistaking BIER for IP).
    static constexpr uint8_t NIBBLE = 0x5;
    /// BIER header version defined by RFC 8296.
    static constexpr uint8_t VERSION = 0;
    /// TTL of a freshly built header.
    static constexpr uint8_t DEFAULT_TTL = 64;
    /// BSL code XpuListHeader uses to say "a receiver-ID list follows instead of a BitString".
    static constexpr uint8_t BSL_CODE_XPU_LIST = 0xF;

    /// Next-protocol values (IANA "BIER Next Protocol Identifiers").
    enum Proto : uint8_t
    {
        PROTO_MPLS_DOWNSTREAM = 1,
        PROTO_MPLS_UPSTREAM = 2,
        PROTO_ETHERNET = 3,
        PROTO_IPV4 = 4,
        PROTO_OAM = 5,
        PROTO_IPV6 = 6,
    };

    /**
     * A 256-bit empty BitString, BIFT-id 1 (SI 0), TC 0, S 1, TTL DEFAULT_TTL, Nibble 0101,
     * Ver 0, Entropy 0, OAM 0, Rsv 0, DSCP 0, Proto PROTO_IPV4, BFIR-id 0.
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
    /// \return the BSL code in raw header bytes (at least BSL_OCTET + 1 of them)
    static uint8_t PeekBslCode(const uint8_t* header);

    /// \param biftId only the low 20 bits are kept
    void SetBiftId(uint32_t biftId);
    uint32_t GetBiftId() const;
    /// Sets the BIFT-id to \p si + 1 (see the class comment).
    void SetSetIdentifier(uint16_t si);
    /// \return GetBiftId() - 1; meaningless when the BIFT-id is 0
    uint16_t GetSetIdentifier() const;
    /// \param tc traffic class, 3 bits
    void SetTrafficClass(uint8_t tc);
    uint8_t GetTrafficClass() const;
    /// \param s the S ("bottom of stack") bit
    void SetBottomOfStack(bool s);
    bool GetBottomOfStack() const;
    void SetTtl(uint8_t ttl);
    uint8_t GetTtl() const;
    /// \param nibble first nibble of the second word; 4 bits (0101 unless testing)
    void SetNibble(uint8_t nibble);
    uint8_t GetNibble() const;
    /// \param version 4 bits
    void SetVersion(uint8_t version);
    uint8_t GetVersion() const;
    /// \return the BSL code: the BitString's, or the code read from the wire
    uint8_t GetBslCode() const;
    /// \return true if the BSL code is 1..7, i.e. a BitString is carried
    bool IsBslValid() const;
    /// \param entropy only the low 20 bits are kept
    void SetEntropy(uint32_t entropy);
    uint32_t GetEntropy() const;
    /// \param oam 2 bits
    void SetOam(uint8_t oam);
    uint8_t GetOam() const;
    /// \param rsv 2 bits, sent as 0 by RFC 8296 senders
    void SetRsv(uint8_t rsv);
    uint8_t GetRsv() const;
    /// \param dscp 6 bits
    void SetDscp(uint8_t dscp);
    uint8_t GetDscp() const;
    /// \param proto 6 bits, a Proto value
    void SetProto(uint8_t proto);
    uint8_t GetProto() const;
    void SetBfirId(uint16_t bfirId);
    uint16_t GetBfirId() const;
    /// Copies \p bs and sets the BSL code from its length.
    void SetBitString(const BitString& bs);
    const BitString& GetBitString() const;
    /**
     * \return the BitString for in-place edits (a forwarder clearing bits per copy). Assigning
     *         a string of another valid length through it also changes the BSL code.
     */
    BitString& MutableBitString();

private:
    uint32_t m_biftId;     //!< octets 0-3, top 20 bits
    uint8_t m_tc;          //!< octet 2, bits 3-1 from the top
    bool m_s;              //!< octet 2, lowest bit
    uint8_t m_ttl;         //!< octet 3
    uint8_t m_nibble;      //!< octet 4, high half
    uint8_t m_version;     //!< octet 4, low half
    uint8_t m_bslCode;     //!< octet 5, high half
    uint32_t m_entropy;    //!< octets 5-7, low 20 bits
    uint8_t m_oam;         //!< octet 8, top 2 bits
    uint8_t m_rsv;         //!< octet 8, next 2 bits
    uint8_t m_dscp;        //!< octets 8-9, 6 bits
    uint8_t m_proto;       //!< octet 9, low 6 bits
    uint16_t m_bfirId;     //!< octets 10-11
    BitString m_bitString; //!< octets 12.., present when m_bslCode is 1..7
};

} // namespace ns3

#endif // MCAST4AI_BIER_HEADER_H
