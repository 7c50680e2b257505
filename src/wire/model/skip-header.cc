/*
 * The PSN-skip notice's extended header: layout in skip-header.h.
 */
#include "wire/model/skip-header.h"

#include "ns3/log.h"
#include "wire/model/bth-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SkipHeader");

NS_OBJECT_ENSURE_REGISTERED(SkipHeader);

namespace
{
constexpr uint32_t MASK_24 = 0x00FFFFFF;
} // namespace

SkipHeader::SkipHeader()
    : m_opcode(BthHeader::RC_WRITE_MIDDLE),
      m_bytes(0)
{
}

TypeId
SkipHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SkipHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<SkipHeader>();
    return tid;
}

TypeId
SkipHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
SkipHeader::GetSerializedSize() const
{
    return SIZE;
}

void
SkipHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this << &start);
    start.WriteHtonU32((static_cast<uint32_t>(m_opcode) << 24) | (m_bytes & MASK_24));
}

uint32_t
SkipHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this << &start);
    uint32_t word = start.ReadNtohU32();
    m_opcode = static_cast<uint8_t>(word >> 24);
    m_bytes = word & MASK_24;
    return SIZE;
}

void
SkipHeader::Print(std::ostream& os) const
{
    os << "skipped " << BthHeader::OpcodeName(m_opcode) << " bytes=" << m_bytes;
}

void
SkipHeader::SetSkippedOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
SkipHeader::GetSkippedOpcode() const
{
    return m_opcode;
}

void
SkipHeader::SetSkippedBytes(uint32_t bytes)
{
    m_bytes = bytes & MASK_24;
}

uint32_t
SkipHeader::GetSkippedBytes() const
{
    return m_bytes;
}

} // namespace ns3
