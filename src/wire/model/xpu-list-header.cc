/*
 * BIER with an XPU-ID list in place of the BitString: layout in xpu-list-header.h.
 */
#include "wire/model/xpu-list-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("XpuListHeader");

NS_OBJECT_ENSURE_REGISTERED(XpuListHeader);

XpuListHeader::XpuListHeader()
    : BierFixedHeader(0, BSL_CODE)
{
}

TypeId
XpuListHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::XpuListHeader")
                            .SetParent<BierFixedHeader>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<XpuListHeader>();
    return tid;
}

TypeId
XpuListHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
XpuListHeader::SizeFor(uint32_t n)
{
    return (FIXED_SIZE + 2 + 2 * n + 3) & ~3u;
}

uint32_t
XpuListHeader::GetSerializedSize() const
{
    return SizeFor(static_cast<uint32_t>(m_ids.size()));
}

void
XpuListHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    SerializeFixed(i);
    i.WriteHtonU16(static_cast<uint16_t>(m_ids.size()));
    for (uint16_t id : m_ids)
    {
        i.WriteHtonU16(id);
    }
    if (m_ids.size() % 2 == 0)
    {
        i.WriteHtonU16(0);
    }
}

uint32_t
XpuListHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_ids.clear();
    if (i.GetRemainingSize() < FIXED_SIZE + 2)
    {
        NS_LOG_WARN("XPU-list header truncated: " << i.GetRemainingSize() << " octets");
        return 0;
    }
    DeserializeFixed(i);

    uint32_t n = i.ReadNtohU16();
    if (i.GetRemainingSize() / 2 < n)
    {
        NS_LOG_WARN("XPU list truncated: " << n << " IDs announced, " << i.GetRemainingSize() / 2
                                           << " present");
        n = i.GetRemainingSize() / 2;
    }
    m_ids.resize(n);
    for (uint32_t k = 0; k < n; ++k)
    {
        m_ids[k] = i.ReadNtohU16();
    }
    if (n % 2 == 0 && i.GetRemainingSize() >= 2)
    {
        i.Next(2); // pad
    }
    return i.GetDistanceFrom(start);
}

void
XpuListHeader::Print(std::ostream& os) const
{
    PrintFixed(os);
    os << " ids=[";
    for (size_t k = 0; k < m_ids.size(); ++k)
    {
        os << (k == 0 ? "" : ",") << m_ids[k];
    }
    os << "]";
}

void
XpuListHeader::SetIds(std::vector<uint16_t> ids)
{
    NS_ABORT_MSG_IF(ids.size() > MAX_IDS,
                    "XPU list of " << ids.size() << " IDs exceeds " << MAX_IDS);
    m_ids = std::move(ids);
}

const std::vector<uint16_t>&
XpuListHeader::GetIds() const
{
    return m_ids;
}

void
XpuListHeader::AddId(uint16_t id)
{
    NS_ABORT_MSG_IF(m_ids.size() >= MAX_IDS, "XPU list is full (" << MAX_IDS << " IDs)");
    m_ids.push_back(id);
}

bool
XpuListHeader::IsXpuList() const
{
    return GetBslCode() == BSL_CODE;
}

} // namespace ns3
