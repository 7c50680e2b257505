/*
 * RoCEv2 Invariant CRC: see icrc-trailer.h for the coverage and the wire byte order.
 */
#include "wire/model/icrc-trailer.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <array>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IcrcTrailer");

NS_OBJECT_ENSURE_REGISTERED(IcrcTrailer);

namespace
{

constexpr uint32_t CRC32_POLY_REFLECTED = 0xEDB88320;
constexpr uint32_t IPV4_MIN_HEADER = 20;
constexpr uint32_t IPV4_MAX_HEADER = 60;
constexpr uint32_t UDP_HEADER = 8;
constexpr uint32_t BTH_HEADER = 12;
constexpr uint8_t IP_PROTOCOL_UDP = 17;

/// Byte-at-a-time table, built at compile time so that no static initialisation order matters.
constexpr std::array<uint32_t, 256>
MakeCrc32Table()
{
    std::array<uint32_t, 256> table{};
    for (uint32_t n = 0; n < 256; ++n)
    {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k)
        {
            c = (c & 1) ? (c >> 1) ^ CRC32_POLY_REFLECTED : (c >> 1);
        }
        table[n] = c;
    }
    return table;
}

constexpr std::array<uint32_t, 256> CRC32_TABLE = MakeCrc32Table();

/// Advance the CRC register (not inverted) over \p length bytes.
uint32_t
Crc32Update(uint32_t reg, const uint8_t* data, uint32_t length)
{
    for (uint32_t k = 0; k < length; ++k)
    {
        reg = (reg >> 8) ^ CRC32_TABLE[(reg ^ data[k]) & 0xFF];
    }
    return reg;
}

} // namespace

IcrcTrailer::IcrcTrailer()
    : m_icrc(0)
{
}

TypeId
IcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<IcrcTrailer>();
    return tid;
}

TypeId
IcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
IcrcTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
IcrcTrailer::Serialize(Buffer::Iterator end) const
{
    NS_LOG_FUNCTION(this << &end);
    end.Prev(SIZE);
    // Least significant byte first, as RoCEv2 puts the CRC on the wire (byte by byte: the
    // LSB helpers of Buffer::Iterator are deprecated from ns-3.48 on).
    for (int shift = 0; shift < 32; shift += 8)
    {
        end.WriteU8(static_cast<uint8_t>(m_icrc >> shift));
    }
}

uint32_t
IcrcTrailer::Deserialize(Buffer::Iterator end)
{
    NS_LOG_FUNCTION(this << &end);
    end.Prev(SIZE);
    m_icrc = 0;
    for (int shift = 0; shift < 32; shift += 8)
    {
        m_icrc |= static_cast<uint32_t>(end.ReadU8()) << shift;
    }
    return SIZE;
}

void
IcrcTrailer::Print(std::ostream& os) const
{
    os << "icrc=0x" << std::hex << m_icrc << std::dec;
}

void
IcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
IcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

bool
IcrcTrailer::CanCompute(const uint8_t* ipv4Header, uint32_t length)
{
    if (ipv4Header == nullptr || length < IPV4_MIN_HEADER || (ipv4Header[0] >> 4) != 4)
    {
        return false;
    }
    const uint32_t ipLength = (ipv4Header[0] & 0x0F) * 4u;
    return ipLength >= IPV4_MIN_HEADER && ipv4Header[9] == IP_PROTOCOL_UDP
           && length >= ipLength + UDP_HEADER + BTH_HEADER;
}

uint32_t
IcrcTrailer::Compute(const uint8_t* ipv4Header, uint32_t length)
{
    NS_LOG_FUNCTION(static_cast<const void*>(ipv4Header) << length);
    NS_ABORT_MSG_IF(ipv4Header == nullptr || length < IPV4_MIN_HEADER,
                    "IcrcTrailer::Compute: no IPv4 header");
    NS_ABORT_MSG_IF((ipv4Header[0] >> 4) != 4, "IcrcTrailer::Compute: not IPv4");
    const uint32_t ipLength = (ipv4Header[0] & 0x0F) * 4u;
    NS_ABORT_MSG_IF(ipLength < IPV4_MIN_HEADER, "IcrcTrailer::Compute: bad IPv4 IHL");
    NS_ABORT_MSG_IF(ipv4Header[9] != IP_PROTOCOL_UDP, "IcrcTrailer::Compute: not UDP");
    const uint32_t masked = ipLength + UDP_HEADER + BTH_HEADER;
    NS_ABORT_MSG_IF(length < masked, "IcrcTrailer::Compute: too short for UDP and BTH");

    // Copy the headers that hold variant fields, and replace those fields by ones.
    std::array<uint8_t, IPV4_MAX_HEADER + UDP_HEADER + BTH_HEADER> head;
    std::memcpy(head.data(), ipv4Header, masked);
    head[1] = 0xFF;  // TOS: DSCP and ECN
    head[8] = 0xFF;  // TTL
    head[10] = 0xFF; // header checksum
    head[11] = 0xFF;
    head[ipLength + 6] = 0xFF; // UDP checksum
    head[ipLength + 7] = 0xFF;
    head[ipLength + UDP_HEADER + 4] = 0xFF; // BTH resv8a: FECN, BECN, reserved

    static const uint8_t maskedLrh[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint32_t reg = 0xFFFFFFFF;
    reg = Crc32Update(reg, maskedLrh, sizeof(maskedLrh));
    reg = Crc32Update(reg, head.data(), masked);
    reg = Crc32Update(reg, ipv4Header + masked, length - masked);
    return ~reg;
}

uint32_t
IcrcTrailer::Crc32(const uint8_t* data, uint32_t length)
{
    return ~Crc32Update(0xFFFFFFFF, data, length);
}

} // namespace ns3
