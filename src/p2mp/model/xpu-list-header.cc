/*
 * BIER with an XPU-ID list in place of the BitString: layout in xpu-list-header.h.
 */
#include "p2mp/model/xpu-list-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("XpuListHeader");

NS_OBJECT_ENSURE_REGISTERED(XpuListHeader);

namespace
{
constexpr uint32_t MASK_20 = 0x000FFFFF;
} // namespace

XpuListHeader::XpuListHeader()
    : m_biftId(0),
      m_tc(0),
      m_s(true),
      m_ttl(BierHeader::DEFAULT_TTL),
      m_nibble(BierHeader::NIBBLE),
      m_version(BierHeader::VERSION),
      m_bslCode(BSL_CODE),
      m_entropy(0),
      m_oam(0),
      m_rsv(0),
      m_dscp(0),
      m_proto(BierHeader::PROTO_IPV4),
      m_bfirId(0)
{
}

TypeId
XpuListHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::XpuListHeader")
                            .SetParent<Header>()
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
    i.WriteHtonU32((m_biftId << 12) | (static_cast<uint32_t>(m_tc) << 9) | (m_s ? 0x100U : 0)
                   | m_ttl);
    i.WriteHtonU32((static_cast<uint32_t>(m_nibble) << 28)
                   | (static_cast<uint32_t>(m_version) << 24)
                   | (static_cast<uint32_t>(m_bslCode) << 20) | m_entropy);
    i.WriteHtonU16((m_oam << 14) | (m_rsv << 12) | (m_dscp << 6) | m_proto);
    i.WriteHtonU16(m_bfirId);
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
    uint32_t word = i.ReadNtohU32();
    m_biftId = word >> 12;
    m_tc = (word >> 9) & 0x7;
    m_s = (word & 0x100) != 0;
    m_ttl = word & 0xFF;
    word = i.ReadNtohU32();
    m_nibble = word >> 28;
    m_version = (word >> 24) & 0xF;
    m_bslCode = (word >> 20) & 0xF;
    m_entropy = word & MASK_20;
    uint16_t half = i.ReadNtohU16();
    m_oam = half >> 14;
    m_rsv = (half >> 12) & 0x3;
    m_dscp = (half >> 6) & 0x3F;
    m_proto = half & 0x3F;
    m_bfirId = i.ReadNtohU16();

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
    os << "bift-id=" << m_biftId << " tc=" << +m_tc << " s=" << m_s << " ttl=" << +m_ttl
       << " nibble=" << +m_nibble << " ver=" << +m_version << " bsl=" << +m_bslCode << " entropy=0x"
       << std::hex << m_entropy << std::dec << " oam=" << +m_oam << " rsv=" << +m_rsv
       << " dscp=" << +m_dscp << " proto=" << +m_proto << " bfir-id=" << m_bfirId << " ids=[";
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

void
XpuListHeader::SetBiftId(uint32_t biftId)
{
    m_biftId = biftId & MASK_20;
}

uint32_t
XpuListHeader::GetBiftId() const
{
    return m_biftId;
}

void
XpuListHeader::SetTrafficClass(uint8_t tc)
{
    m_tc = tc & 0x7;
}

uint8_t
XpuListHeader::GetTrafficClass() const
{
    return m_tc;
}

void
XpuListHeader::SetBottomOfStack(bool s)
{
    m_s = s;
}

bool
XpuListHeader::GetBottomOfStack() const
{
    return m_s;
}

void
XpuListHeader::SetTtl(uint8_t ttl)
{
    m_ttl = ttl;
}

uint8_t
XpuListHeader::GetTtl() const
{
    return m_ttl;
}

void
XpuListHeader::SetNibble(uint8_t nibble)
{
    m_nibble = nibble & 0xF;
}

uint8_t
XpuListHeader::GetNibble() const
{
    return m_nibble;
}

void
XpuListHeader::SetVersion(uint8_t version)
{
    m_version = version & 0xF;
}

uint8_t
XpuListHeader::GetVersion() const
{
    return m_version;
}

uint8_t
XpuListHeader::GetBslCode() const
{
    return m_bslCode;
}

bool
XpuListHeader::IsXpuList() const
{
    return m_bslCode == BSL_CODE;
}

void
XpuListHeader::SetEntropy(uint32_t entropy)
{
    m_entropy = entropy & MASK_20;
}

uint32_t
XpuListHeader::GetEntropy() const
{
    return m_entropy;
}

void
XpuListHeader::SetOam(uint8_t oam)
{
    m_oam = oam & 0x3;
}

uint8_t
XpuListHeader::GetOam() const
{
    return m_oam;
}

void
XpuListHeader::SetRsv(uint8_t rsv)
{
    m_rsv = rsv & 0x3;
}

uint8_t
XpuListHeader::GetRsv() const
{
    return m_rsv;
}

void
XpuListHeader::SetDscp(uint8_t dscp)
{
    m_dscp = dscp & 0x3F;
}

uint8_t
XpuListHeader::GetDscp() const
{
    return m_dscp;
}

void
XpuListHeader::SetProto(uint8_t proto)
{
    m_proto = proto & 0x3F;
}

uint8_t
XpuListHeader::GetProto() const
{
    return m_proto;
}

void
XpuListHeader::SetBfirId(uint16_t bfirId)
{
    m_bfirId = bfirId;
}

uint16_t
XpuListHeader::GetBfirId() const
{
    return m_bfirId;
}

} // namespace ns3
