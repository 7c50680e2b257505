/*
 * New-protocol group shim: layout in group-shim-header.h.
 */
#include "wire/model/group-shim-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GroupShimHeader");

NS_OBJECT_ENSURE_REGISTERED(GroupShimHeader);

GroupShimHeader::GroupShimHeader()
    : m_version(VERSION),
      m_flags(0),
      m_nextProto(NEXT_PROTO_IPV4),
      m_entropy(0),
      m_groupId(0),
      m_sourceId(0)
{
}

TypeId
GroupShimHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GroupShimHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<GroupShimHeader>();
    return tid;
}

TypeId
GroupShimHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
GroupShimHeader::SizeFor(bool withAddressList, uint32_t entries)
{
    return withAddressList ? FIXED_SIZE + LIST_HEADER_SIZE + ENTRY_SIZE * entries : FIXED_SIZE;
}

uint32_t
GroupShimHeader::PeekGroupId(const uint8_t* shim)
{
    const uint8_t* p = shim + GROUP_ID_OFFSET;
    return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16)
           | (static_cast<uint32_t>(p[2]) << 8) | p[3];
}

uint32_t
GroupShimHeader::GetSerializedSize() const
{
    return SizeFor(HasAddressList(), static_cast<uint32_t>(m_entries.size()));
}

void
GroupShimHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(static_cast<uint8_t>((m_version << 4) | m_flags));
    i.WriteU8(m_nextProto);
    i.WriteHtonU16(m_entropy);
    i.WriteHtonU32(m_groupId);
    i.WriteHtonU16(m_sourceId);
    i.WriteHtonU16(0);
    if (!HasAddressList())
    {
        return;
    }
    i.WriteHtonU16(static_cast<uint16_t>(m_entries.size()));
    i.WriteHtonU16(0);
    for (const Entry& e : m_entries)
    {
        i.WriteHtonU16(e.receiverId);
        i.WriteHtonU16(0);
        i.WriteHtonU32(e.rkey);
        i.WriteHtonU64(e.virtualAddress);
    }
}

uint32_t
GroupShimHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_entries.clear();
    if (i.GetRemainingSize() < FIXED_SIZE)
    {
        NS_LOG_WARN("group shim truncated: " << i.GetRemainingSize() << " octets");
        return 0;
    }
    uint8_t first = i.ReadU8();
    m_version = first >> 4;
    m_flags = first & 0xF;
    m_nextProto = i.ReadU8();
    m_entropy = i.ReadNtohU16();
    m_groupId = i.ReadNtohU32();
    m_sourceId = i.ReadNtohU16();
    i.Next(2); // reserved
    if (!HasAddressList())
    {
        return FIXED_SIZE;
    }
    if (i.GetRemainingSize() < LIST_HEADER_SIZE)
    {
        NS_LOG_WARN("group shim address list truncated before its count");
        return i.GetDistanceFrom(start);
    }
    uint32_t n = i.ReadNtohU16();
    i.Next(2); // reserved
    if (i.GetRemainingSize() / ENTRY_SIZE < n)
    {
        NS_LOG_WARN("group shim address list truncated: " << n << " entries announced, "
                                                          << i.GetRemainingSize() / ENTRY_SIZE
                                                          << " present");
        n = i.GetRemainingSize() / ENTRY_SIZE;
    }
    m_entries.resize(n);
    for (Entry& e : m_entries)
    {
        e.receiverId = i.ReadNtohU16();
        i.Next(2); // reserved
        e.rkey = i.ReadNtohU32();
        e.virtualAddress = i.ReadNtohU64();
    }
    return i.GetDistanceFrom(start);
}

void
GroupShimHeader::Print(std::ostream& os) const
{
    os << "ver=" << +m_version << " flags=0x" << std::hex << +m_flags << std::dec
       << " next=" << +m_nextProto << " entropy=" << m_entropy << " group=" << m_groupId
       << " src=" << m_sourceId;
    if (HasAddressList())
    {
        os << " addrs=[";
        for (size_t k = 0; k < m_entries.size(); ++k)
        {
            const Entry& e = m_entries[k];
            os << (k == 0 ? "" : ",") << e.receiverId << ":0x" << std::hex << e.rkey << "@0x"
               << e.virtualAddress << std::dec;
        }
        os << "]";
    }
}

void
GroupShimHeader::SetVersion(uint8_t version)
{
    m_version = version & 0xF;
}

uint8_t
GroupShimHeader::GetVersion() const
{
    return m_version;
}

void
GroupShimHeader::SetFlags(uint8_t flags)
{
    m_flags = flags & 0xF;
    if (!HasAddressList())
    {
        m_entries.clear();
    }
}

uint8_t
GroupShimHeader::GetFlags() const
{
    return m_flags;
}

void
GroupShimHeader::SetAckAggregation(bool on)
{
    m_flags = on ? (m_flags | FLAG_ACK_AGGREGATION) : (m_flags & ~FLAG_ACK_AGGREGATION);
}

bool
GroupShimHeader::GetAckAggregation() const
{
    return (m_flags & FLAG_ACK_AGGREGATION) != 0;
}

void
GroupShimHeader::SetAckFree(bool on)
{
    m_flags = on ? (m_flags | FLAG_ACK_FREE) : (m_flags & ~FLAG_ACK_FREE);
}

bool
GroupShimHeader::GetAckFree() const
{
    return (m_flags & FLAG_ACK_FREE) != 0;
}

bool
GroupShimHeader::HasAddressList() const
{
    return (m_flags & FLAG_ADDRESS_LIST) != 0;
}

void
GroupShimHeader::SetNextProto(uint8_t proto)
{
    m_nextProto = proto;
}

uint8_t
GroupShimHeader::GetNextProto() const
{
    return m_nextProto;
}

void
GroupShimHeader::SetEntropy(uint16_t entropy)
{
    m_entropy = entropy;
}

uint16_t
GroupShimHeader::GetEntropy() const
{
    return m_entropy;
}

void
GroupShimHeader::SetGroupId(uint32_t groupId)
{
    m_groupId = groupId;
}

uint32_t
GroupShimHeader::GetGroupId() const
{
    return m_groupId;
}

void
GroupShimHeader::SetSourceId(uint16_t sourceId)
{
    m_sourceId = sourceId;
}

uint16_t
GroupShimHeader::GetSourceId() const
{
    return m_sourceId;
}

void
GroupShimHeader::SetAddressList(std::vector<Entry> entries)
{
    NS_ABORT_MSG_IF(entries.size() > MAX_ENTRIES,
                    "address list of " << entries.size() << " entries exceeds " << MAX_ENTRIES);
    m_entries = std::move(entries);
    m_flags |= FLAG_ADDRESS_LIST;
}

const std::vector<GroupShimHeader::Entry>&
GroupShimHeader::GetAddressList() const
{
    return m_entries;
}

void
GroupShimHeader::ClearAddressList()
{
    m_entries.clear();
    m_flags &= ~FLAG_ADDRESS_LIST;
}

} // namespace ns3
