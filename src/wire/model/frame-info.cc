#include "wire/model/frame-info.h"

#include "wire/model/bth-header.h"
#include "wire/model/ioam-trace-header.h"

#include <algorithm>
#include <tuple>
#include <vector>

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

} // namespace

bool
FrameInfo::Parse(Ptr<const Packet> p)
{
    // Ethernet + IPv4 + UDP + BTH + RETH = 70 bytes: all a forwarding or ACK decision reads.
    // One read also covers them behind a shim or a BIER header up to BSL 256; longer P2MP
    // headers (a 4096-bit BitString, an address list) are read again once their length is known.
    constexpr uint32_t ROCE_BYTES = BTH_OFFSET + BTH_BYTES + RETH_BYTES;
    uint8_t local[ROCE_BYTES + 64];
    static thread_local std::vector<uint8_t> big;
    const uint8_t* b = local;
    size = p->GetSize();
    uint32_t n = p->CopyData(local, sizeof(local));
    roce = false;
    p2mp = P2MP_NONE;
    p2mpBytes = 0;
    traceWords = 0;
    if (n < ETH_BYTES)
    {
        etherType = 0;
        return false;
    }
    etherType = Read16(b + 12);
    if (etherType == ETHERTYPE_BIER && n >= ETH_BYTES + 12)
    {
        const uint8_t* h = b + ETH_BYTES;
        uint8_t code = h[5] >> 4;
        entropy = Read24(h + 5) & 0xFFFFF;
        if (code >= 1 && code <= 7)
        {
            p2mp = P2MP_BIER;
            p2mpBytes = 12 + ((64u << (code - 1)) / 8);
        }
        else if (code == 0xF && n >= ETH_BYTES + 14)
        {
            p2mp = P2MP_XPU_LIST;
            uint32_t ids = Read16(h + 12);
            p2mpBytes = 16 + 4 * (ids / 2);
        }
        else
        {
            return false;
        }
    }
    else if (etherType == ETHERTYPE_SHIM && n >= ETH_BYTES + 12)
    {
        const uint8_t* h = b + ETH_BYTES;
        p2mp = P2MP_SHIM;
        entropy = Read16(h + 2);
        groupId = Read32(h + 4);
        p2mpBytes = (h[0] & 0x1) ? 16 + 16 * static_cast<uint32_t>(Read16(h + 12)) : 12;
    }
    else if (etherType != ETHERTYPE_IPV4)
    {
        return false;
    }
    if (n < size && p2mpBytes + ROCE_BYTES > n)
    {
        // A long P2MP header in front: read again, as far as the RoCE headers behind it go.
        if (size < p2mpBytes + BTH_OFFSET)
        {
            return false;
        }
        big.resize(p2mpBytes + ROCE_BYTES);
        n = p->CopyData(big.data(), big.size());
        b = big.data();
    }
    if (n < ETH_BYTES + p2mpBytes)
    {
        return false; // the frame ends inside its P2MP header
    }
    const uint8_t* ip = b + ETH_BYTES + p2mpBytes;
    n -= ETH_BYTES + p2mpBytes;
    if (n < IPV4_BYTES + UDP_BYTES)
    {
        return false;
    }
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
    if (dstPort != ROCEV2_UDP_PORT || n < IPV4_BYTES + UDP_BYTES + BTH_BYTES)
    {
        return true;
    }
    const uint8_t* bth = udp + UDP_BYTES;
    roce = true;
    opcode = bth[0];
    padCount = (bth[1] >> 4) & 0x3;
    destQp = Read24(bth + 5);
    ackRequest = (bth[8] & 0x80) != 0;
    psn = Read24(bth + 9);
    uint32_t rest = n - IPV4_BYTES - UDP_BYTES - BTH_BYTES;
    const uint8_t* after = bth + BTH_BYTES;
    if ((bth[8] & BthHeader::TELEMETRY_BIT) && rest >= 4)
    {
        // An IOAM trace between the BTH and the AETH or RETH: skip it, reading again if the
        // headers behind it lie past what was read.
        uint32_t trace = IoamTraceHeader::AnnouncedBytes(after);
        uint32_t offset = static_cast<uint32_t>(after - b);
        if (trace > 0 && offset + trace <= size)
        {
            traceWords = trace / 4;
            if (rest < trace + RETH_BYTES && offset + rest < size)
            {
                big.resize(std::min(size, offset + trace + RETH_BYTES));
                p->CopyData(big.data(), big.size());
                after = big.data() + offset;
                rest = static_cast<uint32_t>(big.size()) - offset;
            }
            rest -= std::min(rest, trace);
            after += trace;
        }
    }
    if ((BthHeader::CarriesAeth(opcode) || opcode == BthHeader::RC_SKIP) && rest >= AETH_BYTES)
    {
        // An AETH (syndrome, MSN), or a SkipHeader (skipped opcode, skipped bytes): same shape.
        syndrome = after[0];
        msn = Read24(after + 1);
    }
    else if (BthHeader::CarriesReth(opcode) && rest >= RETH_BYTES)
    {
        dmaLength = Read32(after + 12);
    }
    return true;
}

bool
FrameInfo::operator==(const FrameInfo& o) const
{
    auto fields = [](const FrameInfo& f)
    {
        // By value: bit-fields cannot be bound to references.
        return std::make_tuple(uint32_t(f.size),
                               f.etherType,
                               f.p2mp,
                               uint8_t(f.dscp),
                               uint32_t(f.p2mpBytes),
                               uint32_t(f.traceWords),
                               f.groupId,
                               f.entropy,
                               f.srcIp,
                               f.dstIp,
                               uint8_t(f.ecn),
                               f.protocol,
                               f.srcPort,
                               f.dstPort,
                               uint8_t(f.roce),
                               uint32_t(f.opcode),
                               uint32_t(f.destQp),
                               uint32_t(f.psn),
                               uint32_t(f.msn),
                               f.dmaLength,
                               uint8_t(f.padCount),
                               uint8_t(f.ackRequest),
                               uint32_t(f.syndrome));
    };
    return fields(*this) == fields(o);
}

bool
FrameInfo::IsFirstPacket() const
{
    return roce && BthHeader::IsFirst(opcode);
}

uint32_t
FrameInfo::PayloadBytes() const
{
    uint32_t headers = BTH_OFFSET + p2mpBytes + BTH_BYTES + 4 * traceWords + ICRC_BYTES;
    if (BthHeader::CarriesReth(opcode))
    {
        headers += RETH_BYTES;
    }
    headers += padCount;
    return size > headers ? size - headers : 0;
}

} // namespace ns3
