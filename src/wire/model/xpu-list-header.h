/*
 * "BIER with XPU-ID lists" (draft on MoE multicast in scale-up networks): a BIER header whose
 * BitString is replaced by an explicit list of receiver IDs. The draft gives no wire format;
 * this file defines the one the module uses.
 */
#ifndef MCAST4AI_XPU_LIST_HEADER_H
#define MCAST4AI_XPU_LIST_HEADER_H

#include "wire/model/bier-fixed-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief BIER-style header carrying a list of receiver BFR-ids instead of a BitString.
 *
 * Layout after the fixed part (bier-fixed-header.h), whose BSL code is 0xF
 * (BSL_CODE_XPU_LIST), which RFC 8296 leaves unassigned, meaning "an ID list follows"
 * (octet offsets, network order):
 *
 *   octets 12-13 N, the number of receiver IDs.
 *   octets 14-   N receiver IDs of 16 bits each: absolute BFR-ids (1..65535; not relative to a
 *                set identifier, so one list can span what BIER would split into several SIs).
 *   then         two zero octets when N is even, so the header ends on a 4-octet boundary.
 *
 * Serialized size: 12 + 2 + 2N rounded up to a multiple of 4, i.e. 16 + 4 * floor(N / 2).
 *
 * EtherType: the same as BIER, 0xAB37. Switches already dispatch 0xAB37 to their BIER logic and
 * then read the BSL code at octet 5 (PeekBslCode()); 0xF selects the list. The variant is thus
 * literally "BIER with the BitString replaced", and a standard BFR discards it for its
 * unsupported BSL instead of misforwarding it.
 *
 * BIFT-id: since the IDs name BFRs directly there is no set identifier; the default BIFT-id is
 * 0, which BierHeader's BIFT-id = SI + 1 convention never uses for a BitString table.
 *
 * Receive side: the BSL code is kept as read (IsXpuList() tells whether it is 0xF); a list cut
 * short by the end of the packet is read as far as it goes, never beyond.
 */
class XpuListHeader : public BierFixedHeader
{
public:
    /// BSL code of this variant.
    static constexpr uint8_t BSL_CODE = BSL_CODE_XPU_LIST;
    /// Largest N the 16-bit count can carry.
    static constexpr uint32_t MAX_IDS = 0xFFFF;

    /// No IDs, BIFT-id 0, BSL code BSL_CODE, the other fixed fields as in BierFixedHeader's.
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
    /// \return true if the BSL code is BSL_CODE
    bool IsXpuList() const;

private:
    std::vector<uint16_t> m_ids; //!< octets 12-13 count, then the IDs
};

} // namespace ns3

#endif // MCAST4AI_XPU_LIST_HEADER_H
