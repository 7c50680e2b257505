/*
 * RFC 8296 BIER header, non-MPLS form: layout in bier-header.h.
 */
#include "p2mp/model/bier-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BierHeader");

NS_OBJECT_ENSURE_REGISTERED(BierHeader);

namespace
{
constexpr uint32_t MASK_20 = 0x000FFFFF;
} // namespace

BierHeader::BierHeader()
    : m_biftId(1),
      m_tc(0),
      m_s(true),
      m_ttl(DEFAULT_TTL),
      m_nibble(NIBBLE),
      m_version(VERSION),
      m_bslCode(BslCode(256)),
      m_entropy(0),
      m_oam(0),
      m_rsv(0),
      m_dscp(0),
      m_proto(PROTO_IPV4),
      m_bfirId(0),
      m_bitString(256)
{
}

TypeId
BierHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BierHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<BierHeader>();
    return tid;
}

TypeId
BierHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint8_t
BierHeader::BslCode(uint32_t bits)
{
    if (!BitString::IsValidLength(bits))
    {
        return 0;
    }
    // 64 = 2^6 is code 1, so the code is log2(bits) - 5.
    return static_cast<uint8_t>(__builtin_ctz(bits) - 5);
}

uint32_t
BierHeader::BitsFromCode(uint8_t code)
{
    return (code >= 1 && code <= 7) ? (32u << code) : 0;
}

uint32_t
BierHeader::SizeFor(uint32_t bits)
{
    return FIXED_SIZE + bits / 8;
}

uint32_t
BierHeader::BiftIdForSet(uint16_t si)
{
    return static_cast<uint32_t>(si) + 1;
}

uint8_t
BierHeader::PeekBslCode(const uint8_t* header)
{
    return header[BSL_OCTET] >> 4;
}

uint32_t
BierHeader::GetSerializedSize() const
{
    return IsBslValid() ? SizeFor(m_bitString.Length()) : FIXED_SIZE;
}

void
BierHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU32((m_biftId << 12) | (static_cast<uint32_t>(m_tc) << 9) | (m_s ? 0x100U : 0)
                   | m_ttl);
    i.WriteHtonU32((static_cast<uint32_t>(m_nibble) << 28)
                   | (static_cast<uint32_t>(m_version) << 24)
                   | (static_cast<uint32_t>(GetBslCode()) << 20) | m_entropy);
    i.WriteHtonU16((m_oam << 14) | (m_rsv << 12) | (m_dscp << 6) | m_proto);
    i.WriteHtonU16(m_bfirId);
    if (IsBslValid())
    {
        m_bitString.Serialize(i);
    }
}

uint32_t
BierHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    if (i.GetRemainingSize() < FIXED_SIZE)
    {
        NS_LOG_WARN("BIER header truncated: " << i.GetRemainingSize() << " octets");
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

    const uint32_t bits = BitsFromCode(m_bslCode);
    if (bits == 0)
    {
        NS_LOG_LOGIC("BSL code " << +m_bslCode << " carries no BitString");
        return FIXED_SIZE;
    }
    if (i.GetRemainingSize() < bits / 8)
    {
        NS_LOG_WARN("BIER BitString truncated: " << i.GetRemainingSize() << " of " << bits / 8
                                                 << " octets");
        m_bslCode = 0;
        return FIXED_SIZE;
    }
    if (m_bitString.Length() != bits)
    {
        m_bitString = BitString(bits);
    }
    m_bitString.Deserialize(i);
    return i.GetDistanceFrom(start);
}

void
BierHeader::Print(std::ostream& os) const
{
    os << "bift-id=" << m_biftId << " tc=" << +m_tc << " s=" << m_s << " ttl=" << +m_ttl
       << " nibble=" << +m_nibble << " ver=" << +m_version << " bsl=" << +GetBslCode()
       << " entropy=0x" << std::hex << m_entropy << std::dec << " oam=" << +m_oam
       << " rsv=" << +m_rsv << " dscp=" << +m_dscp << " proto=" << +m_proto
       << " bfir-id=" << m_bfirId;
    if (IsBslValid())
    {
        os << " bits=" << m_bitString;
    }
}

void
BierHeader::SetBiftId(uint32_t biftId)
{
    m_biftId = biftId & MASK_20;
}

uint32_t
BierHeader::GetBiftId() const
{
    return m_biftId;
}

void
BierHeader::SetSetIdentifier(uint16_t si)
{
    m_biftId = BiftIdForSet(si);
}

uint16_t
BierHeader::GetSetIdentifier() const
{
    return static_cast<uint16_t>(m_biftId - 1);
}

void
BierHeader::SetTrafficClass(uint8_t tc)
{
    m_tc = tc & 0x7;
}

uint8_t
BierHeader::GetTrafficClass() const
{
    return m_tc;
}

void
BierHeader::SetBottomOfStack(bool s)
{
    m_s = s;
}

bool
BierHeader::GetBottomOfStack() const
{
    return m_s;
}

void
BierHeader::SetTtl(uint8_t ttl)
{
    m_ttl = ttl;
}

uint8_t
BierHeader::GetTtl() const
{
    return m_ttl;
}

void
BierHeader::SetNibble(uint8_t nibble)
{
    m_nibble = nibble & 0xF;
}

uint8_t
BierHeader::GetNibble() const
{
    return m_nibble;
}

void
BierHeader::SetVersion(uint8_t version)
{
    m_version = version & 0xF;
}

uint8_t
BierHeader::GetVersion() const
{
    return m_version;
}

uint8_t
BierHeader::GetBslCode() const
{
    return IsBslValid() ? BslCode(m_bitString.Length()) : m_bslCode;
}

bool
BierHeader::IsBslValid() const
{
    return BitsFromCode(m_bslCode) != 0;
}

void
BierHeader::SetEntropy(uint32_t entropy)
{
    m_entropy = entropy & MASK_20;
}

uint32_t
BierHeader::GetEntropy() const
{
    return m_entropy;
}

void
BierHeader::SetOam(uint8_t oam)
{
    m_oam = oam & 0x3;
}

uint8_t
BierHeader::GetOam() const
{
    return m_oam;
}

void
BierHeader::SetRsv(uint8_t rsv)
{
    m_rsv = rsv & 0x3;
}

uint8_t
BierHeader::GetRsv() const
{
    return m_rsv;
}

void
BierHeader::SetDscp(uint8_t dscp)
{
    m_dscp = dscp & 0x3F;
}

uint8_t
BierHeader::GetDscp() const
{
    return m_dscp;
}

void
BierHeader::SetProto(uint8_t proto)
{
    m_proto = proto & 0x3F;
}

uint8_t
BierHeader::GetProto() const
{
    return m_proto;
}

void
BierHeader::SetBfirId(uint16_t bfirId)
{
    m_bfirId = bfirId;
}

uint16_t
BierHeader::GetBfirId() const
{
    return m_bfirId;
}

void
BierHeader::SetBitString(const BitString& bs)
{
    m_bitString = bs;
    m_bslCode = BslCode(bs.Length());
}

const BitString&
BierHeader::GetBitString() const
{
    return m_bitString;
}

BitString&
BierHeader::MutableBitString()
{
    return m_bitString;
}

} // namespace ns3
