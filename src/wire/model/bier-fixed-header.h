/*
 * The 12-octet fixed part of the RFC 8296 BIER header (non-MPLS form), shared by BierHeader
 * (BitString follows) and XpuListHeader (receiver-ID list follows).
 */
#ifndef MCAST4AI_BIER_FIXED_HEADER_H
#define MCAST4AI_BIER_FIXED_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Abstract base holding the fixed part of an RFC 8296 BIER header.
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
 *   octets 12-   whatever the BSL code announces; defined by the subclass.
 *
 * Subclasses implement the Header interface and call SerializeFixed(), DeserializeFixed() and
 * PrintFixed() for these 12 octets. Nibble, Ver, OAM and Rsv are kept as read so a forwarder
 * can re-emit them unchanged.
 */
class BierFixedHeader : public Header
{
public:
    /// EtherType of non-MPLS BIER (IEEE assignment referenced by RFC 8296).
    static constexpr uint16_t ETHERTYPE = 0xAB37;
    /// Octets of the fixed part.
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
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return the BSL code in raw header bytes (at least BSL_OCTET + 1 of them)
    static uint8_t PeekBslCode(const uint8_t* header);

    /// \param biftId only the low 20 bits are kept
    void SetBiftId(uint32_t biftId);
    uint32_t GetBiftId() const;
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
    /**
     * \return the BSL code as stored (set by the subclass or read from the wire). Virtual
     *         because BierHeader derives it from a BitString that may be edited in place;
     *         SerializeFixed() and PrintFixed() use this value.
     */
    virtual uint8_t GetBslCode() const;
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

protected:
    /**
     * TC 0, S 1, TTL DEFAULT_TTL, Nibble 0101, Ver 0, Entropy 0, OAM 0, Rsv 0, DSCP 0,
     * Proto PROTO_IPV4, BFIR-id 0; the BIFT-id and BSL code differ per subclass.
     */
    BierFixedHeader(uint32_t biftId, uint8_t bslCode);

    /// \param code 4 bits; what GetBslCode() returns unless a subclass overrides it
    void SetBslCode(uint8_t code);
    /// Writes the 12 fixed octets at \p i and advances it.
    void SerializeFixed(Buffer::Iterator& i) const;
    /// Reads the 12 fixed octets at \p i and advances it; the caller checks that they are there.
    void DeserializeFixed(Buffer::Iterator& i);
    /// Prints the fixed fields as "bift-id=... bfir-id=...", without a trailing space.
    void PrintFixed(std::ostream& os) const;

private:
    uint32_t m_biftId;  //!< octets 0-3, top 20 bits
    uint8_t m_tc;       //!< octet 2, bits 3-1 from the top
    bool m_s;           //!< octet 2, lowest bit
    uint8_t m_ttl;      //!< octet 3
    uint8_t m_nibble;   //!< octet 4, high half
    uint8_t m_version;  //!< octet 4, low half
    uint8_t m_bslCode;  //!< octet 5, high half
    uint32_t m_entropy; //!< octets 5-7, low 20 bits
    uint8_t m_oam;      //!< octet 8, top 2 bits
    uint8_t m_rsv;      //!< octet 8, next 2 bits
    uint8_t m_dscp;     //!< octets 8-9, 6 bits
    uint8_t m_proto;    //!< octet 9, low 6 bits
    uint16_t m_bfirId;  //!< octets 10-11
};

} // namespace ns3

#endif // MCAST4AI_BIER_FIXED_HEADER_H
