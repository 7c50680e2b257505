#include "fabric/model/frame-info.h"

namespace ns3
{

namespace
{
inline uint16_t
Read16(const uint8_t* b)
{
    return static_cast<uint16_t>((b[0] << 8) | b[1]);
}

inline uint32_t
Read24(const uint8_t* b)
{
    return (static_cast<uint32_t>(b[0]) << 16) | (static_cast<uint32_t>(b[1]) << 8) | b[2];
}

inline uint32_t
Read32(const uint8_t* b)
{
    return (static_cast<uint32_t>(b[0]) << 24) | Read24(b + 1);
}

bool
OpcodeCarriesReth(uint8_t op)
{
    return op == 0x06 || op == 0x0A; // RC WRITE FIRST / ONLY
}
} // namespace

bool
FrameInfo::Parse(Ptr<const Packet> p)
{
    // Ethernet + IPv4 + UDP + BTH + AETH = 58 bytes: all a forwarding or ACK decision reads.
    uint8_t b[BTH_OFFSET + BTH_BYTES + AETH_BYTES];
    size = p->GetSize();
    uint32_t n = p->CopyData(b, sizeof(b));
    roce = false;
    if (n < ETH_BYTES)
    {
        etherType = 0;
        return false;
    }
    etherType = Read16(b + 12);
    if (etherType != ETHERTYPE_IPV4 || n < BTH_OFFSET)
    {
        return false;
    }
    const uint8_t* ip = b + ETH_BYTES;
    dscp = ip[1] >> 2;
    ecn = ip[1] & 0x3;
    protocol = ip[9];
    srcIp = Read32(ip + 12);
    dstIp = Read32(ip + 16);
    if (protocol != 17)
    {
        return true;
    }
    const uint8_t* udp = ip + IPV4_BYTES;
    srcPort = Read16(udp);
    dstPort = Read16(udp + 2);
    if (dstPort != ROCEV2_UDP_PORT || n < BTH_OFFSET + BTH_BYTES)
    {
        return true;
    }
    const uint8_t* bth = b + BTH_OFFSET;
    roce = true;
    opcode = bth[0];
    padCount = (bth[1] >> 4) & 0x3;
    destQp = Read24(bth + 5);
    ackRequest = (bth[8] & 0x80) != 0;
    psn = Read24(bth + 9);
    if (opcode == 0x11 && n >= BTH_OFFSET + BTH_BYTES + AETH_BYTES)
    {
        syndrome = bth[12];
        msn = Read24(bth + 13);
    }
    return true;
}

uint32_t
FrameInfo::PayloadBytes() const
{
    uint32_t headers = BTH_OFFSET + BTH_BYTES + ICRC_BYTES;
    if (OpcodeCarriesReth(opcode))
    {
        headers += RETH_BYTES;
    }
    headers += padCount;
    return size > headers ? size - headers : 0;
}

} // namespace ns3
