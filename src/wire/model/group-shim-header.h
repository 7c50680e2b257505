/*
 * Shim header of the purpose-built AI P2MP protocol ("new protocol" in the mcast4ai drafts):
 * a group ID that switches look up in controller-installed group tables, plus the per-receiver
 * memory address mapping the scale-up draft asks for. The drafts leave the protocol undefined;
 * this file defines the encoding the module uses.
 */
#ifndef MCAST4AI_GROUP_SHIM_HEADER_H
#define MCAST4AI_GROUP_SHIM_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief The new protocol's shim: 12 octets, optionally followed by a receiver address list.
 *
 * Carried right after the Ethernet header with EtherType 0x88B5 (IEEE Std 802 "local
 * experimental EtherType 1", set aside for experiments and prototypes), followed by the
 * IPv4/UDP/BTH packet being replicated.
 *
 * Layout (octet offsets, network order):
 *
 *   octet 0      Version (high 4 bits, 1) and Flags (low 4 bits). Flag bit n is the bit of
 *                value 2^n in that nibble:
 *                  bit 0 (0x1) FLAG_ADDRESS_LIST    an address list follows the fixed part
 *                  bit 1 (0x2) FLAG_ACK_AGGREGATION switches aggregate this group's ACKs
 *                  bit 2 (0x4) FLAG_ACK_FREE        receivers send no per-packet ACKs
 *                  bit 3 (0x8) reserved, sent as 0
 *   octet 1      NextProto (4 = IPv4 follows, as in BIER's Proto).
 *   octets 2-3   Entropy: the flow's load-balancing hash input (16 bits, like a UDP port).
 *   octets 4-7   Group ID, the key of the switches' group tables.
 *   octets 8-9   Source host ID.
 *   octets 10-11 reserved, sent as 0, ignored on receive.
 *
 * With FLAG_ADDRESS_LIST, then:
 *
 *   octets 12-13 N, the number of entries.
 *   octets 14-15 reserved, 0.
 *   octets 16-   N entries of 16 octets each:
 *                  +0  receiver ID (16 bits)
 *                  +2  reserved (16 bits, 0)
 *                  +4  R_Key (32 bits) of the receiver's memory region
 *                  +8  virtual address (64 bits) the receiver's copy is written to
 *
 * Serialized size: 12 without the list, 16 + 16N with it. Every field of the fixed part and
 * each entry sits on its natural alignment.
 *
 * Receive side: the version and all four flag bits are kept as read; reserved octets are
 * dropped. An address list cut short by the end of the packet is read as far as whole entries
 * go, never beyond.
 */
class GroupShimHeader : public Header
{
public:
    /// IEEE 802 local experimental EtherType 1.
    static constexpr uint16_t ETHERTYPE = 0x88B5;
    /// Version this module sends.
    static constexpr uint8_t VERSION = 1;
    /// NextProto value for an IPv4 packet.
    static constexpr uint8_t NEXT_PROTO_IPV4 = 4;
    /// Size without the address list.
    static constexpr uint32_t FIXED_SIZE = 12;
    /// Count and reserved octets that open the address list.
    static constexpr uint32_t LIST_HEADER_SIZE = 4;
    /// Size of one address-list entry.
    static constexpr uint32_t ENTRY_SIZE = 16;
    /// Largest N the 16-bit count can carry.
    static constexpr uint32_t MAX_ENTRIES = 0xFFFF;
    /// Octet where the 32-bit group ID starts (for switches that peek at raw bytes).
    static constexpr uint32_t GROUP_ID_OFFSET = 4;

    /// Flag bits (low nibble of octet 0).
    enum Flag : uint8_t
    {
        FLAG_ADDRESS_LIST = 0x1,
        FLAG_ACK_AGGREGATION = 0x2,
        FLAG_ACK_FREE = 0x4,
    };

    /// One receiver's RDMA target: where its copy of the message lands.
    struct Entry
    {
        uint16_t receiverId{0};     //!< receiver host ID
        uint32_t rkey{0};           //!< R_Key of the target memory region
        uint64_t virtualAddress{0}; //!< target virtual address

        bool operator==(const Entry& o) const
        {
            return receiverId == o.receiverId && rkey == o.rkey
                   && virtualAddress == o.virtualAddress;
        }
    };

    /// Version 1, no flags, NextProto 4, Entropy 0, Group ID 0, source 0, no address list.
    GroupShimHeader();

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

    /// \return 12 without a list; 16 + 16 * \p entries with one
    static uint32_t SizeFor(bool withAddressList, uint32_t entries = 0);
    /// \return the group ID in raw shim bytes (at least 8 of them)
    static uint32_t PeekGroupId(const uint8_t* shim);

    /// \param version 4 bits
    void SetVersion(uint8_t version);
    uint8_t GetVersion() const;
    /**
     * \param flags 4 bits of Flag values. FLAG_ADDRESS_LIST decides whether a list is sent
     *        (an empty one if none was set); clearing it drops the stored list.
     */
    void SetFlags(uint8_t flags);
    uint8_t GetFlags() const;
    void SetAckAggregation(bool on);
    bool GetAckAggregation() const;
    void SetAckFree(bool on);
    bool GetAckFree() const;
    /// \return true if FLAG_ADDRESS_LIST is set
    bool HasAddressList() const;
    void SetNextProto(uint8_t proto);
    uint8_t GetNextProto() const;
    void SetEntropy(uint16_t entropy);
    uint16_t GetEntropy() const;
    void SetGroupId(uint32_t groupId);
    uint32_t GetGroupId() const;
    void SetSourceId(uint16_t sourceId);
    uint16_t GetSourceId() const;
    /// Stores \p entries (at most MAX_ENTRIES; aborts otherwise) and sets FLAG_ADDRESS_LIST.
    void SetAddressList(std::vector<Entry> entries);
    /// \return the address list (empty when none is carried)
    const std::vector<Entry>& GetAddressList() const;
    /// Drops the list and clears FLAG_ADDRESS_LIST.
    void ClearAddressList();

private:
    uint8_t m_version;            //!< octet 0, high half
    uint8_t m_flags;              //!< octet 0, low half
    uint8_t m_nextProto;          //!< octet 1
    uint16_t m_entropy;           //!< octets 2-3
    uint32_t m_groupId;           //!< octets 4-7
    uint16_t m_sourceId;          //!< octets 8-9
    std::vector<Entry> m_entries; //!< octets 12.., with FLAG_ADDRESS_LIST
};

} // namespace ns3

#endif // MCAST4AI_GROUP_SHIM_HEADER_H
