/*
 * RFC 8296 BIER header, non-MPLS form: layout in bier-fixed-header.h and bier-header.h.
 */
#include "wire/model/bier-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BierHeader");

NS_OBJECT_ENSURE_REGISTERED(BierHeader);

BierHeader::BierHeader()
    : BierFixedHeader(BiftIdForSet(0), BslCode(256)),
      m_bitString(256)
{
}

TypeId
BierHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BierHeader")
                            .SetParent<BierFixedHeader>()
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

uint32_t
BierHeader::GetSerializedSize() const
{
    return IsBslValid() ? SizeFor(m_bitString.Length()) : FIXED_SIZE;
}

void
BierHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    SerializeFixed(i);
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
    DeserializeFixed(i);

    // The code as read; the override would report the (not yet replaced) BitString's.
    const uint8_t code = BierFixedHeader::GetBslCode();
    const uint32_t bits = BitsFromCode(code);
    if (bits == 0)
    {
        NS_LOG_LOGIC("BSL code " << +code << " carries no BitString");
        return FIXED_SIZE;
    }
    if (i.GetRemainingSize() < bits / 8)
    {
        NS_LOG_WARN("BIER BitString truncated: " << i.GetRemainingSize() << " of " << bits / 8
                                                 << " octets");
        SetBslCode(0);
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
    PrintFixed(os);
    if (IsBslValid())
    {
        os << " bits=" << m_bitString;
    }
}

void
BierHeader::SetSetIdentifier(uint16_t si)
{
    SetBiftId(BiftIdForSet(si));
}

uint16_t
BierHeader::GetSetIdentifier() const
{
    return static_cast<uint16_t>(GetBiftId() - 1);
}

uint8_t
BierHeader::GetBslCode() const
{
    return IsBslValid() ? BslCode(m_bitString.Length()) : BierFixedHeader::GetBslCode();
}

bool
BierHeader::IsBslValid() const
{
    // The stored code decides whether a BitString is carried; MutableBitString() edits only
    // change which valid code is sent.
    return BitsFromCode(BierFixedHeader::GetBslCode()) != 0;
}

void
BierHeader::SetBitString(const BitString& bs)
{
    m_bitString = bs;
    SetBslCode(BslCode(bs.Length()));
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
