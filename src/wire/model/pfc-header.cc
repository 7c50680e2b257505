/*
 * IEEE 802.1Qbb PFC frame body: layout in pfc-header.h.
 */
#include "wire/model/pfc-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{
/// Bytes of opcode, class-enable vector and pause times; the rest of SIZE is zero pad.
constexpr uint32_t FIELDS = 2 + 2 + 2 * PfcHeader::PRIORITIES;
constexpr uint16_t VECTOR_MASK = 0x00FF;
} // namespace

PfcHeader::PfcHeader()
    : m_opcode(OPCODE),
      m_classEnableVector(0)
{
}

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this << &start);
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_classEnableVector);
    for (uint16_t quanta : m_pauseTime)
    {
        i.WriteHtonU16(quanta);
    }
    i.WriteU8(0, SIZE - FIELDS);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this << &start);
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    m_classEnableVector = i.ReadNtohU16() & VECTOR_MASK;
    for (uint16_t& quanta : m_pauseTime)
    {
        quanta = i.ReadNtohU16();
    }
    i.Next(SIZE - FIELDS);
    return i.GetDistanceFrom(start);
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "opcode=0x" << std::hex << m_opcode << " cev=0x" << m_classEnableVector << std::dec
       << " pause=[";
    for (uint8_t p = 0; p < PRIORITIES; ++p)
    {
        os << (p ? " " : "") << m_pauseTime[p];
    }
    os << "]";
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

void
PfcHeader::SetClassEnableVector(uint16_t vector)
{
    m_classEnableVector = vector & VECTOR_MASK;
}

uint16_t
PfcHeader::GetClassEnableVector() const
{
    return m_classEnableVector;
}

void
PfcHeader::SetPauseTime(uint8_t priority, uint16_t quanta)
{
    NS_ABORT_MSG_IF(priority >= PRIORITIES, "PfcHeader: priority " << +priority << " > 7");
    m_pauseTime[priority] = quanta;
}

uint16_t
PfcHeader::GetPauseTime(uint8_t priority) const
{
    NS_ABORT_MSG_IF(priority >= PRIORITIES, "PfcHeader: priority " << +priority << " > 7");
    return m_pauseTime[priority];
}

Mac48Address
PfcHeader::DestinationAddress()
{
    return Mac48Address("01:80:C2:00:00:01");
}

} // namespace ns3
