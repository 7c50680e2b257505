/*
 * "BIER with XPU-ID lists" (draft on MoE multicast in scale-up networks): a BIER header whose
 * BitString is replaced by an explicit list of receiver IDs. The draft gives no wire format;
 * this file defines the one the module uses.
 */
#ifndef MCAST4AI_XPU_LIST_HEADER_H
#define MCAST4AI_XPU_LIST_HEADER_H

#include "ns3/header.h"
#include "p2mp/model/bier-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief BIER-style header carrying a list of receiver BFR-ids instead of a BitString.
 *
 * Layout (octet offsets, network order):
 *
 *   octets 0-11  exactly BierHeader's fixed part: BIFT-id/TC/S/TTL, Nibble/Ver/BSL/Entropy,
 *                OAM/Rsv/DSCP/Proto, BFIR-id; except that the BSL code is 0xF
 *                (BierHeader::BSL_CODE_XPU_LIST), which RFC 8296 leaves unassigned, meaning
 *                "an ID list follows".
 *   octets 12-13 N, the number of receiver IDs.
 *   octets 14-   N receiver IDs of 16 bits each: absolute BFR-ids (1..65535; not relative to a
 *                set identifier, so one list can span what BIER would split into several SIs).
 *   then         two zero octets when N is even, so the header ends on a 4-octet boundary.
 *
 * Serialized size: 12 + 2 + 2N rounded up to a multiple of 4, i.e. 16 + 4 * floor(N / 2).
 *
 * EtherType: the same as BIER, 0xAB37. Switches already dispatch 0xAB37 to their BIER logic and
 * then read the BSL code at octet 5 (BierHeader::PeekBslCode()); 0xF selects the list. The
 * variant is thus literally "BIER with the BitString replaced", and a standard BFR discards it
 * for its unsupported BSL instead of misforwarding it.
 *
 * BIFT-id: since the IDs name BFRs directly there is no set identifier; the default BIFT-id is
 * 0, which BierHeader's BIFT-id = SI + 1 convention never uses for a BitString table.
 *
 * Receive side: the BSL code is kept as read (IsXpuList() tells whether it is 0xF); a list cut
 * short by the end of the packet is read as far as it goes, never beyond.
 */
class XpuListHeader : public Header
{
public:
    /// Same EtherType as BIER; the BSL code tells the two apart.
    static constexpr uint16_t ETHERTYPE = BierHeader::ETHERTYPE;
    /// BSL code of this variant.
    static constexpr uint8_t BSL_CODE = BierHeader::BSL_CODE_XPU_LIST;
    /// Octets before the count (identical to BierHeader::FIXED_SIZE).
    static constexpr uint32_t FIXED_SIZE = BierHeader::FIXED_SIZE;
    /// Largest N the 16-bit count can carry.
    static constexpr uint32_t MAX_IDS = 0xFFFF;

    /**
     * No IDs, BIFT-id 0, TC 0, S 1, TTL BierHeader::DEFAULT_TTL, Nibble 0101, Ver 0, BSL 0xF,
     * Entropy 0, OAM 0, Rsv 0, DSCP 0, Proto BierHeader::PROTO_IPV4, BFIR-id 0.
     */
    XpuListHeader();

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

    /// \return the size of a header listing \p n IDs: 12 + 2 + 2n rounded up to 4
    static uint32_t SizeFor(uint32_t n);

    /// \param ids receiver BFR-ids in the order to send them; at most MAX_IDS (aborts otherwise)
    void SetIds(std::vector<uint16_t> ids);
    /// \return the receiver IDs (the pad is not one of them)
    const std::vector<uint16_t>& GetIds() const;
    /// Appends one receiver ID.
    void AddId(uint16_t id);

    /// \param biftId only the low 20 bits are kept
    void SetBiftId(uint32_t biftId);
    uint32_t GetBiftId() const;
    /// \param tc traffic class, 3 bits
    void SetTrafficClass(uint8_t tc);
    uint8_t GetTrafficClass() const;
    void SetBottomOfStack(bool s);
    bool GetBottomOfStack() const;
    void SetTtl(uint8_t ttl);
    uint8_t GetTtl() const;
    /// \param nibble 4 bits (0101 unless testing)
    void SetNibble(uint8_t nibble);
    uint8_t GetNibble() const;
    /// \param version 4 bits
    void SetVersion(uint8_t version);
    uint8_t GetVersion() const;
    /// \return BSL_CODE, or the code read from the wire
    uint8_t GetBslCode() const;
    /// \return true if the BSL code is BSL_CODE
    bool IsXpuList() const;
    /// \param entropy only the low 20 bits are kept
    void SetEntropy(uint32_t entropy);
    uint32_t GetEntropy() const;
    /// \param oam 2 bits
    void SetOam(uint8_t oam);
    uint8_t GetOam() const;
    /// \param rsv 2 bits
    void SetRsv(uint8_t rsv);
    uint8_t GetRsv() const;
    /// \param dscp 6 bits
    void SetDscp(uint8_t dscp);
    uint8_t GetDscp() const;
    /// \param proto 6 bits, a BierHeader::Proto value
    void SetProto(uint8_t proto);
    uint8_t GetProto() const;
    void SetBfirId(uint16_t bfirId);
    uint16_t GetBfirId() const;

private:
    uint32_t m_biftId;           //!< octets 0-3, top 20 bits
    uint8_t m_tc;                //!< octet 2, 3 bits
    bool m_s;                    //!< octet 2, lowest bit
    uint8_t m_ttl;               //!< octet 3
    uint8_t m_nibble;            //!< octet 4, high half
    uint8_t m_version;           //!< octet 4, low half
    uint8_t m_bslCode;           //!< octet 5, high half
    uint32_t m_entropy;          //!< octets 5-7, low 20 bits
    uint8_t m_oam;               //!< octet 8, top 2 bits
    uint8_t m_rsv;               //!< octet 8, next 2 bits
    uint8_t m_dscp;              //!< octets 8-9, 6 bits
    uint8_t m_proto;             //!< octet 9, low 6 bits
    uint16_t m_bfirId;           //!< octets 10-11
    std::vector<uint16_t> m_ids; //!< octets 12-13 count, then the IDs
};

} // namespace ns3

#endif // MCAST4AI_XPU_LIST_HEADER_H
