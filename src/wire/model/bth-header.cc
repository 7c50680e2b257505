/*
 * InfiniBand Base Transport Header: bit layout in bth-header.h.
 */
#include "wire/model/bth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BthHeader");

NS_OBJECT_ENSURE_REGISTERED(BthHeader);

namespace
{
constexpr uint32_t MASK_24 = 0x00FFFFFF;
} // namespace

BthHeader::BthHeader()
    : m_opcode(0),
      m_solicitedEvent(false),
      m_migReq(false),
      m_padCount(0),
      m_tver(0),
      m_pkey(0xFFFF),
      m_fecn(false),
      m_becn(false),
      m_destQp(0),
      m_ackRequest(false),
      m_telemetry(false),
      m_psn(0)
{
}

TypeId
BthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<BthHeader>();
    return tid;
}

TypeId
BthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
BthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
BthHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this << &start);
    Buffer::Iterator i = start;
    i.WriteU8(m_opcode);
    i.WriteU8((m_solicitedEvent ? 0x80 : 0) | (m_migReq ? 0x40 : 0) | ((m_padCount & 0x3) << 4)
              | (m_tver & 0xF));
    i.WriteHtonU16(m_pkey);
    // FECN and BECN share a 32-bit word with the QP; the six bits between them are reserved.
    i.WriteHtonU32((m_fecn ? 0x80000000U : 0) | (m_becn ? 0x40000000U : 0) | (m_destQp & MASK_24));
    i.WriteHtonU32((m_ackRequest ? 0x80000000U : 0)
                   | (m_telemetry ? uint32_t{TELEMETRY_BIT} << 24 : 0) | (m_psn & MASK_24));
}

uint32_t
BthHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this << &start);
    Buffer::Iterator i = start;
    m_opcode = i.ReadU8();
    uint8_t flags = i.ReadU8();
    m_solicitedEvent = (flags & 0x80) != 0;
    m_migReq = (flags & 0x40) != 0;
    m_padCount = (flags >> 4) & 0x3;
    m_tver = flags & 0xF;
    m_pkey = i.ReadNtohU16();
    uint32_t word = i.ReadNtohU32();
    m_fecn = (word & 0x80000000U) != 0;
    m_becn = (word & 0x40000000U) != 0;
    m_destQp = word & MASK_24;
    word = i.ReadNtohU32();
    m_ackRequest = (word & 0x80000000U) != 0;
    m_telemetry = (word & (uint32_t{TELEMETRY_BIT} << 24)) != 0;
    m_psn = word & MASK_24;
    return i.GetDistanceFrom(start);
}

void
BthHeader::Print(std::ostream& os) const
{
    os << "opcode=" << OpcodeName(m_opcode) << "(0x" << std::hex << +m_opcode << std::dec << ")"
       << " se=" << m_solicitedEvent << " m=" << m_migReq << " pad=" << +m_padCount
       << " tver=" << +m_tver << " pkey=0x" << std::hex << m_pkey << std::dec << " fecn=" << m_fecn
       << " becn=" << m_becn << " dqp=" << m_destQp << " a=" << m_ackRequest
       << (m_telemetry ? " telemetry" : "") << " psn=" << m_psn;
}

void
BthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
BthHeader::GetOpcode() const
{
    return m_opcode;
}

void
BthHeader::SetSolicitedEvent(bool se)
{
    m_solicitedEvent = se;
}

bool
BthHeader::GetSolicitedEvent() const
{
    return m_solicitedEvent;
}

void
BthHeader::SetMigReq(bool migReq)
{
    m_migReq = migReq;
}

bool
BthHeader::GetMigReq() const
{
    return m_migReq;
}

void
BthHeader::SetPadCount(uint8_t padCount)
{
    m_padCount = padCount & 0x3;
}

uint8_t
BthHeader::GetPadCount() const
{
    return m_padCount;
}

void
BthHeader::SetTransportVersion(uint8_t version)
{
    m_tver = version & 0xF;
}

uint8_t
BthHeader::GetTransportVersion() const
{
    return m_tver;
}

void
BthHeader::SetPartitionKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
BthHeader::GetPartitionKey() const
{
    return m_pkey;
}

void
BthHeader::SetFecn(bool fecn)
{
    m_fecn = fecn;
}

bool
BthHeader::GetFecn() const
{
    return m_fecn;
}

void
BthHeader::SetBecn(bool becn)
{
    m_becn = becn;
}

bool
BthHeader::GetBecn() const
{
    return m_becn;
}

void
BthHeader::SetDestQp(uint32_t qp)
{
    m_destQp = qp & MASK_24;
}

uint32_t
BthHeader::GetDestQp() const
{
    return m_destQp;
}

void
BthHeader::SetAckRequest(bool ackReq)
{
    m_ackRequest = ackReq;
}

bool
BthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
BthHeader::SetTelemetry(bool telemetry)
{
    m_telemetry = telemetry;
}

bool
BthHeader::GetTelemetry() const
{
    return m_telemetry;
}

void
BthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & MASK_24;
}

uint32_t
BthHeader::GetPsn() const
{
    return m_psn;
}

const char*
BthHeader::OpcodeName(uint8_t op)
{
    switch (op)
    {
        case RC_SEND_FIRST:
            return "RC_SEND_FIRST";
        case RC_SEND_MIDDLE:
            return "RC_SEND_MIDDLE";
        case RC_SEND_LAST:
            return "RC_SEND_LAST";
        case RC_SEND_ONLY:
            return "RC_SEND_ONLY";
        case RC_WRITE_FIRST:
            return "RC_WRITE_FIRST";
        case RC_WRITE_MIDDLE:
            return "RC_WRITE_MIDDLE";
        case RC_WRITE_LAST:
            return "RC_WRITE_LAST";
        case RC_WRITE_ONLY:
            return "RC_WRITE_ONLY";
        case RC_ACKNOWLEDGE:
            return "RC_ACKNOWLEDGE";
        case CNP:
            return "CNP";
        case RC_SKIP:
            return "RC_SKIP";
        case RC_PROBE:
            return "RC_PROBE";
        case RC_PROBE_ACK:
            return "RC_PROBE_ACK";
        case RC_PROBE_CLAIM:
            return "RC_PROBE_CLAIM";
        default:
            return "UNKNOWN";
    }
}

} // namespace ns3
