/*
 * Fixed part of the RFC 8296 BIER header: layout in bier-fixed-header.h.
 */
#include "wire/model/bier-fixed-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BierFixedHeader");

NS_OBJECT_ENSURE_REGISTERED(BierFixedHeader);

namespace
{
constexpr uint32_t MASK_20 = 0x000FFFFF;
} // namespace

BierFixedHeader::BierFixedHeader(uint32_t biftId, uint8_t bslCode)
    : m_biftId(biftId & MASK_20),
      m_tc(0),
      m_s(true),
      m_ttl(DEFAULT_TTL),
      m_nibble(NIBBLE),
      m_version(VERSION),
      m_bslCode(bslCode & 0xF),
      m_entropy(0),
      m_oam(0),
      m_rsv(0),
      m_dscp(0),
      m_proto(PROTO_IPV4),
      m_bfirId(0)
{
}

TypeId
BierFixedHeader::GetTypeId()
{
    // Abstract: no constructor is registered.
    static TypeId tid = TypeId("ns3::BierFixedHeader").SetParent<Header>().SetGroupName("Mcast4ai");
    return tid;
}

uint8_t
BierFixedHeader::PeekBslCode(const uint8_t* header)
{
    return header[BSL_OCTET] >> 4;
}

void
BierFixedHeader::SerializeFixed(Buffer::Iterator& i) const
{
    NS_LOG_FUNCTION(this);
    i.WriteHtonU32((m_biftId << 12) | (static_cast<uint32_t>(m_tc) << 9) | (m_s ? 0x100U : 0)
                   | m_ttl);
    i.WriteHtonU32((static_cast<uint32_t>(m_nibble) << 28)
                   | (static_cast<uint32_t>(m_version) << 24)
                   | (static_cast<uint32_t>(GetBslCode()) << 20) | m_entropy);
    i.WriteHtonU16((m_oam << 14) | (m_rsv << 12) | (m_dscp << 6) | m_proto);
    i.WriteHtonU16(m_bfirId);
}

void
BierFixedHeader::DeserializeFixed(Buffer::Iterator& i)
{
    NS_LOG_FUNCTION(this);
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
}

void
BierFixedHeader::PrintFixed(std::ostream& os) const
{
    os << "bift-id=" << m_biftId << " tc=" << +m_tc << " s=" << m_s << " ttl=" << +m_ttl
       << " nibble=" << +m_nibble << " ver=" << +m_version << " bsl=" << +GetBslCode()
       << " entropy=0x" << std::hex << m_entropy << std::dec << " oam=" << +m_oam
       << " rsv=" << +m_rsv << " dscp=" << +m_dscp << " proto=" << +m_proto
       << " bfir-id=" << m_bfirId;
}

void
BierFixedHeader::SetBiftId(uint32_t biftId)
{
    m_biftId = biftId & MASK_20;
}

uint32_t
BierFixedHeader::GetBiftId() const
{
    return m_biftId;
}

void
BierFixedHeader::SetTrafficClass(uint8_t tc)
{
    m_tc = tc & 0x7;
}

uint8_t
BierFixedHeader::GetTrafficClass() const
{
    return m_tc;
}

void
BierFixedHeader::SetBottomOfStack(bool s)
{
    m_s = s;
}

bool
BierFixedHeader::GetBottomOfStack() const
{
    return m_s;
}

void
BierFixedHeader::SetTtl(uint8_t ttl)
{
    m_ttl = ttl;
}

uint8_t
BierFixedHeader::GetTtl() const
{
    return m_ttl;
}

void
BierFixedHeader::SetNibble(uint8_t nibble)
{
    m_nibble = nibble & 0xF;
}

uint8_t
BierFixedHeader::GetNibble() const
{
    return m_nibble;
}

void
BierFixedHeader::SetVersion(uint8_t version)
{
    m_version = version & 0xF;
}

uint8_t
BierFixedHeader::GetVersion() const
{
    return m_version;
}

void
BierFixedHeader::SetBslCode(uint8_t code)
{
    m_bslCode = code & 0xF;
}

uint8_t
BierFixedHeader::GetBslCode() const
{
    return m_bslCode;
}

void
BierFixedHeader::SetEntropy(uint32_t entropy)
{
    m_entropy = entropy & MASK_20;
}

uint32_t
BierFixedHeader::GetEntropy() const
{
    return m_entropy;
}

void
BierFixedHeader::SetOam(uint8_t oam)
{
    m_oam = oam & 0x3;
}

uint8_t
BierFixedHeader::GetOam() const
{
    return m_oam;
}

void
BierFixedHeader::SetRsv(uint8_t rsv)
{
    m_rsv = rsv & 0x3;
}

uint8_t
BierFixedHeader::GetRsv() const
{
    return m_rsv;
}

void
BierFixedHeader::SetDscp(uint8_t dscp)
{
    m_dscp = dscp & 0x3F;
}

uint8_t
BierFixedHeader::GetDscp() const
{
    return m_dscp;
}

void
BierFixedHeader::SetProto(uint8_t proto)
{
    m_proto = proto & 0x3F;
}

uint8_t
BierFixedHeader::GetProto() const
{
    return m_proto;
}

void
BierFixedHeader::SetBfirId(uint16_t bfirId)
{
    m_bfirId = bfirId;
}

uint16_t
BierFixedHeader::GetBfirId() const
{
    return m_bfirId;
}

} // namespace ns3
