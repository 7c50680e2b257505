/*
 * InfiniBand ACK Extended Transport Header: layout in aeth-header.h.
 */
#include "wire/model/aeth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AethHeader");

NS_OBJECT_ENSURE_REGISTERED(AethHeader);

namespace
{
constexpr uint8_t KIND_MASK = 0x60;
constexpr uint8_t KIND_ACK = 0x00;
constexpr uint8_t KIND_RNR_NAK = 0x20;
constexpr uint8_t KIND_NAK = 0x60;
constexpr uint8_t VALUE_MASK = 0x1F;
constexpr uint32_t MASK_24 = 0x00FFFFFF;
} // namespace

AethHeader::AethHeader()
    : m_syndrome(KIND_ACK | INVALID_CREDIT_COUNT),
      m_msn(0)
{
}

TypeId
AethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<AethHeader>();
    return tid;
}

TypeId
AethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
AethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
AethHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this << &start);
    start.WriteHtonU32((static_cast<uint32_t>(m_syndrome) << 24) | (m_msn & MASK_24));
}

uint32_t
AethHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this << &start);
    uint32_t word = start.ReadNtohU32();
    m_syndrome = static_cast<uint8_t>(word >> 24);
    m_msn = word & MASK_24;
    return SIZE;
}

void
AethHeader::Print(std::ostream& os) const
{
    if (IsAck())
    {
        os << "ACK credits=" << +GetCreditCount();
    }
    else if (IsNak())
    {
        os << "NAK code=" << +GetNakCode();
    }
    else if (IsRnrNak())
    {
        os << "RNR-NAK timer=" << +GetRnrTimer();
    }
    else
    {
        os << "syndrome=0x" << std::hex << +m_syndrome << std::dec;
    }
    os << " msn=" << m_msn;
}

void
AethHeader::SetAck(uint8_t credits)
{
    m_syndrome = KIND_ACK | (credits & VALUE_MASK);
}

void
AethHeader::SetNak(uint8_t code)
{
    m_syndrome = KIND_NAK | (code & VALUE_MASK);
}

void
AethHeader::SetRnrNak(uint8_t timer)
{
    m_syndrome = KIND_RNR_NAK | (timer & VALUE_MASK);
}

bool
AethHeader::IsAck() const
{
    return (m_syndrome & KIND_MASK) == KIND_ACK;
}

bool
AethHeader::IsNak() const
{
    return (m_syndrome & KIND_MASK) == KIND_NAK;
}

bool
AethHeader::IsRnrNak() const
{
    return (m_syndrome & KIND_MASK) == KIND_RNR_NAK;
}

uint8_t
AethHeader::GetNakCode() const
{
    return m_syndrome & VALUE_MASK;
}

uint8_t
AethHeader::GetCreditCount() const
{
    return m_syndrome & VALUE_MASK;
}

uint8_t
AethHeader::GetRnrTimer() const
{
    return m_syndrome & VALUE_MASK;
}

void
AethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
AethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
AethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn & MASK_24;
}

uint32_t
AethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
