/*
 * Wire formats of the RoCEv2 headers (BTH, RETH, AETH, CNP body, ICRC) and the PFC frame body:
 * each is checked byte for byte against arrays spelled out from the specifications, and the
 * ICRC against a CNP captured from real hardware.
 */
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/udp-header.h"
#include "packet-bytes.h"
#include "wire/model/aeth-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/cnp-header.h"
#include "wire/model/icrc-trailer.h"
#include "wire/model/pfc-header.h"
#include "wire/model/reth-header.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using mcast4ai_test::Bytes;
using mcast4ai_test::CopyBytes;
using mcast4ai_test::HeaderBytes;

/// Pushes \p header onto an empty packet and pops it back into a fresh object.
template<typename H>
H
RoundTrip(const H& header)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(header);
    H out;
    EXPECT_EQ(p->RemoveHeader(out), header.GetSerializedSize());
    EXPECT_EQ(p->GetSize(), 0u);
    return out;
}

/// Parses \p bytes as an \p H, as a receiver would.
template<typename H>
H
FromBytes(const Bytes& bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    H out;
    p->RemoveHeader(out);
    return out;
}

/*
 * A RoCEv2 CNP captured on a Mellanox ConnectX-4 Lx, published in Scapy's RoCE regression tests
 * (test/contrib/roce.uts, "RoCE CNP captured on ConnectX-4 Lx"): Ethernet, IPv4 (TOS 0xC2),
 * UDP 0 -> 4791 with checksum 0, BTH opcode 0x81 with BECN and QP 0x000118, 16 reserved bytes,
 * and the ICRC 82 fd 00 2a written by the NIC.
 */
const Bytes kCnpCapture = {
    0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2, 0x7c, 0xfe, 0x90, 0x64, 0x3b, 0x32, 0x08, 0x00, // Eth
    0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00, // IPv4
    0x11, 0x01, 0x0a, 0x00, 0x12, 0x01,                                                 //
    0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,                                     // UDP
    0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00,             // BTH
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // CNP
    0x00, 0x00,                                                                         //
    0x82, 0xfd, 0x00, 0x2a,                                                             // ICRC
};
constexpr uint32_t kCnpCaptureIcrc = 0x2a00fd82;
constexpr uint32_t kEthernetSize = 14;

uint32_t
IcrcOf(const Bytes& frame)
{
    return IcrcTrailer::Compute(frame.data() + kEthernetSize,
                                frame.size() - kEthernetSize - IcrcTrailer::SIZE);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// BTH

TEST(BthHeader, DefaultsAreZeroWithDefaultPartitionKey)
{
    BthHeader bth;
    EXPECT_EQ(bth.GetSerializedSize(), 12u);
    EXPECT_EQ(bth.GetOpcode(), 0);
    EXPECT_EQ(bth.GetPartitionKey(), 0xFFFF);
    EXPECT_FALSE(bth.GetMigReq());
    EXPECT_EQ(HeaderBytes(bth), (Bytes{0x00, 0x00, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(BthHeader, SerializesEveryFieldAtItsBit)
{
    BthHeader bth;
    bth.SetOpcode(BthHeader::RC_WRITE_ONLY);
    bth.SetSolicitedEvent(true);
    bth.SetPadCount(2);
    bth.SetPartitionKey(0xFFFF);
    bth.SetFecn(true);
    bth.SetDestQp(0x123456);
    bth.SetAckRequest(true);
    bth.SetPsn(0xABCDEF);
    // opcode | SE,M,Pad,TVer | P_Key | FECN,BECN,resv6 | DestQP | A,resv7 | PSN
    EXPECT_EQ(HeaderBytes(bth),
              (Bytes{0x0A, 0xA0, 0xFF, 0xFF, 0x80, 0x12, 0x34, 0x56, 0x80, 0xAB, 0xCD, 0xEF}));

    BthHeader got = RoundTrip(bth);
    EXPECT_EQ(got.GetOpcode(), BthHeader::RC_WRITE_ONLY);
    EXPECT_TRUE(got.GetSolicitedEvent());
    EXPECT_FALSE(got.GetMigReq());
    EXPECT_EQ(got.GetPadCount(), 2);
    EXPECT_EQ(got.GetTransportVersion(), 0);
    EXPECT_EQ(got.GetPartitionKey(), 0xFFFF);
    EXPECT_TRUE(got.GetFecn());
    EXPECT_FALSE(got.GetBecn());
    EXPECT_EQ(got.GetDestQp(), 0x123456u);
    EXPECT_TRUE(got.GetAckRequest());
    EXPECT_EQ(got.GetPsn(), 0xABCDEFu);
}

TEST(BthHeader, SerializesTheOtherBits)
{
    BthHeader bth;
    bth.SetOpcode(BthHeader::CNP);
    bth.SetMigReq(true);
    bth.SetPadCount(3);
    bth.SetTransportVersion(5);
    bth.SetPartitionKey(0x8001);
    bth.SetBecn(true);
    bth.SetDestQp(0xFFFFFF);
    EXPECT_EQ(HeaderBytes(bth),
              (Bytes{0x81, 0x75, 0x80, 0x01, 0x40, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00}));

    BthHeader got = RoundTrip(bth);
    EXPECT_EQ(got.GetOpcode(), BthHeader::CNP);
    EXPECT_FALSE(got.GetSolicitedEvent());
    EXPECT_TRUE(got.GetMigReq());
    EXPECT_EQ(got.GetPadCount(), 3);
    EXPECT_EQ(got.GetTransportVersion(), 5);
    EXPECT_EQ(got.GetPartitionKey(), 0x8001);
    EXPECT_FALSE(got.GetFecn());
    EXPECT_TRUE(got.GetBecn());
    EXPECT_EQ(got.GetDestQp(), 0xFFFFFFu);
    EXPECT_FALSE(got.GetAckRequest());
    EXPECT_EQ(got.GetPsn(), 0u);
}

TEST(BthHeader, MasksQpAndPsnTo24Bits)
{
    BthHeader bth;
    bth.SetDestQp(0xFF123456);
    bth.SetPsn(0xFFFFFFFF);
    EXPECT_EQ(bth.GetDestQp(), 0x123456u);
    EXPECT_EQ(bth.GetPsn(), 0xFFFFFFu);
    // The dropped high bits must not leak into FECN/BECN or AckReq.
    EXPECT_EQ(HeaderBytes(bth),
              (Bytes{0x00, 0x00, 0xFF, 0xFF, 0x00, 0x12, 0x34, 0x56, 0x00, 0xFF, 0xFF, 0xFF}));

    bth.SetPsn(0x01000000); // PSN arithmetic wraps modulo 2^24
    EXPECT_EQ(bth.GetPsn(), 0u);
    bth.SetPadCount(0xFF);
    bth.SetTransportVersion(0xFF);
    EXPECT_EQ(bth.GetPadCount(), 3);
    EXPECT_EQ(bth.GetTransportVersion(), 0xF);
}

TEST(BthHeader, IgnoresReservedBitsOnReceive)
{
    // Every reserved bit but byte 8's first, the module's telemetry bit (below).
    BthHeader got = FromBytes<BthHeader>(
        {0x11, 0x00, 0xFF, 0xFF, 0x3F, 0x00, 0x00, 0x07, 0x3F, 0x00, 0x00, 0x09});
    EXPECT_FALSE(got.GetTelemetry());
    EXPECT_EQ(got.GetOpcode(), BthHeader::RC_ACKNOWLEDGE);
    EXPECT_FALSE(got.GetFecn());
    EXPECT_FALSE(got.GetBecn());
    EXPECT_EQ(got.GetDestQp(), 7u);
    EXPECT_FALSE(got.GetAckRequest());
    EXPECT_EQ(got.GetPsn(), 9u);
    EXPECT_EQ(HeaderBytes(got),
              (Bytes{0x11, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x09}));
}

TEST(BthHeader, TheTelemetryBitIsByteEightsFirstReservedBit)
{
    BthHeader bth;
    bth.SetTelemetry(true);
    bth.SetAckRequest(true);
    bth.SetPsn(0xFFFFFF);
    Bytes b = HeaderBytes(bth);
    EXPECT_EQ(b[8], 0x80 | BthHeader::TELEMETRY_BIT) << "AckReq, then the telemetry bit";
    EXPECT_EQ(b[9], 0xFF);
    BthHeader got = FromBytes<BthHeader>(b);
    EXPECT_TRUE(got.GetTelemetry());
    EXPECT_EQ(got.GetPsn(), 0xFFFFFFu) << "the bit is not part of the PSN";
}

TEST(BthHeader, OpcodeClassification)
{
    using B = BthHeader;
    const uint8_t data[] = {B::RC_SEND_FIRST,
                            B::RC_SEND_MIDDLE,
                            B::RC_SEND_LAST,
                            B::RC_SEND_ONLY,
                            B::RC_WRITE_FIRST,
                            B::RC_WRITE_MIDDLE,
                            B::RC_WRITE_LAST,
                            B::RC_WRITE_ONLY};
    for (uint8_t op : data)
    {
        EXPECT_TRUE(B::IsData(op)) << B::OpcodeName(op);
        EXPECT_FALSE(B::CarriesAeth(op)) << B::OpcodeName(op);
    }
    EXPECT_FALSE(B::IsData(B::RC_ACKNOWLEDGE));
    EXPECT_FALSE(B::IsData(B::CNP));

    EXPECT_TRUE(B::CarriesReth(B::RC_WRITE_FIRST));
    EXPECT_TRUE(B::CarriesReth(B::RC_WRITE_ONLY));
    EXPECT_FALSE(B::CarriesReth(B::RC_WRITE_MIDDLE));
    EXPECT_FALSE(B::CarriesReth(B::RC_WRITE_LAST));
    EXPECT_FALSE(B::CarriesReth(B::RC_SEND_FIRST));
    EXPECT_TRUE(B::CarriesAeth(B::RC_ACKNOWLEDGE));
    EXPECT_FALSE(B::CarriesAeth(B::CNP));

    EXPECT_TRUE(B::IsFirst(B::RC_SEND_FIRST));
    EXPECT_TRUE(B::IsFirst(B::RC_SEND_ONLY));
    EXPECT_TRUE(B::IsFirst(B::RC_WRITE_FIRST));
    EXPECT_TRUE(B::IsFirst(B::RC_WRITE_ONLY));
    EXPECT_FALSE(B::IsFirst(B::RC_WRITE_MIDDLE));
    EXPECT_FALSE(B::IsFirst(B::RC_SEND_LAST));
    EXPECT_TRUE(B::IsLast(B::RC_SEND_LAST));
    EXPECT_TRUE(B::IsLast(B::RC_SEND_ONLY));
    EXPECT_TRUE(B::IsLast(B::RC_WRITE_LAST));
    EXPECT_TRUE(B::IsLast(B::RC_WRITE_ONLY));
    EXPECT_FALSE(B::IsLast(B::RC_WRITE_FIRST));
    EXPECT_FALSE(B::IsLast(B::RC_SEND_MIDDLE));
    EXPECT_FALSE(B::IsLast(B::RC_ACKNOWLEDGE));

    static_assert(B::CarriesReth(B::RC_WRITE_ONLY), "usable in constant expressions");
    EXPECT_STREQ(B::OpcodeName(B::RC_WRITE_FIRST), "RC_WRITE_FIRST");
    EXPECT_STREQ(B::OpcodeName(B::RC_ACKNOWLEDGE), "RC_ACKNOWLEDGE");
    EXPECT_STREQ(B::OpcodeName(B::CNP), "CNP");
    EXPECT_STREQ(B::OpcodeName(0x64), "UNKNOWN"); // UD SEND_ONLY: not modelled

    std::ostringstream os;
    BthHeader bth;
    bth.SetOpcode(B::RC_WRITE_LAST);
    bth.SetPsn(42);
    bth.Print(os);
    EXPECT_NE(os.str().find("RC_WRITE_LAST"), std::string::npos) << os.str();
    EXPECT_NE(os.str().find("psn=42"), std::string::npos) << os.str();
}

// ---------------------------------------------------------------------------------------------
// RETH, AETH, CNP

TEST(RethHeader, SerializesBigEndianAndRoundTrips)
{
    RethHeader reth;
    EXPECT_EQ(reth.GetSerializedSize(), 16u);
    reth.SetVirtualAddress(0x0123456789ABCDEFULL);
    reth.SetRkey(0xDEADBEEF);
    reth.SetDmaLength(0x00100000);
    EXPECT_EQ(HeaderBytes(reth),
              (Bytes{0x01,
                     0x23,
                     0x45,
                     0x67,
                     0x89,
                     0xAB,
                     0xCD,
                     0xEF, // VA
                     0xDE,
                     0xAD,
                     0xBE,
                     0xEF, // R_Key
                     0x00,
                     0x10,
                     0x00,
                     0x00})); // length
    RethHeader got = RoundTrip(reth);
    EXPECT_EQ(got.GetVirtualAddress(), 0x0123456789ABCDEFULL);
    EXPECT_EQ(got.GetRkey(), 0xDEADBEEFu);
    EXPECT_EQ(got.GetDmaLength(), 0x00100000u);
}

TEST(AethHeader, DefaultIsAckWithoutFlowControl)
{
    AethHeader aeth;
    EXPECT_EQ(aeth.GetSerializedSize(), 4u);
    EXPECT_TRUE(aeth.IsAck());
    EXPECT_EQ(aeth.GetSyndrome(), 0x1F);
    EXPECT_EQ(HeaderBytes(aeth), (Bytes{0x1F, 0x00, 0x00, 0x00}));

    aeth.SetNak(AethHeader::PSN_SEQUENCE_ERROR);
    aeth.SetAck(); // back to the default credit count
    EXPECT_EQ(aeth.GetSyndrome(), 0x1F);
    EXPECT_EQ(aeth.GetCreditCount(), AethHeader::INVALID_CREDIT_COUNT);
    aeth.SetAck(0);
    EXPECT_EQ(aeth.GetSyndrome(), 0x00);
    EXPECT_TRUE(aeth.IsAck());
}

TEST(AethHeader, EncodesNakAndRnrNak)
{
    AethHeader aeth;
    aeth.SetNak(AethHeader::PSN_SEQUENCE_ERROR);
    aeth.SetMsn(0x123456);
    EXPECT_EQ(HeaderBytes(aeth), (Bytes{0x60, 0x12, 0x34, 0x56}));
    AethHeader got = RoundTrip(aeth);
    EXPECT_TRUE(got.IsNak());
    EXPECT_FALSE(got.IsAck());
    EXPECT_FALSE(got.IsRnrNak());
    EXPECT_EQ(got.GetNakCode(), AethHeader::PSN_SEQUENCE_ERROR);
    EXPECT_EQ(got.GetMsn(), 0x123456u);

    aeth.SetNak(AethHeader::REMOTE_ACCESS_ERROR);
    EXPECT_EQ(HeaderBytes(aeth), (Bytes{0x62, 0x12, 0x34, 0x56}));
    aeth.SetNak(AethHeader::INVALID_RD_REQUEST);
    EXPECT_EQ(aeth.GetSyndrome(), 0x64);
    EXPECT_EQ(aeth.GetNakCode(), AethHeader::INVALID_RD_REQUEST);

    aeth.SetRnrNak(0x0E);
    aeth.SetMsn(1);
    EXPECT_EQ(HeaderBytes(aeth), (Bytes{0x2E, 0x00, 0x00, 0x01}));
    got = RoundTrip(aeth);
    EXPECT_TRUE(got.IsRnrNak());
    EXPECT_FALSE(got.IsNak());
    EXPECT_FALSE(got.IsAck());
    EXPECT_EQ(got.GetRnrTimer(), 0x0E);

    aeth.SetSyndrome(0x40); // kind 10 is reserved: none of the three
    EXPECT_FALSE(aeth.IsAck());
    EXPECT_FALSE(aeth.IsNak());
    EXPECT_FALSE(aeth.IsRnrNak());
}

TEST(AethHeader, MasksMsnTo24Bits)
{
    AethHeader aeth;
    aeth.SetAck(3);
    aeth.SetMsn(0xAB123456);
    EXPECT_EQ(aeth.GetMsn(), 0x123456u);
    EXPECT_EQ(HeaderBytes(aeth), (Bytes{0x03, 0x12, 0x34, 0x56}));
}

TEST(CnpHeader, IsSixteenZeroBytesAndSkipsThemOnReceive)
{
    CnpHeader cnp;
    EXPECT_EQ(cnp.GetSerializedSize(), 16u);
    EXPECT_EQ(HeaderBytes(cnp), Bytes(16, 0x00));
    RoundTrip(cnp);

    // A sender's non-zero reserved bytes are consumed, not rejected.
    Bytes junk(16, 0xA5);
    junk.push_back(0x77);
    Ptr<Packet> p = Create<Packet>(junk.data(), junk.size());
    CnpHeader got;
    EXPECT_EQ(p->RemoveHeader(got), 16u);
    EXPECT_EQ(CopyBytes(p), (Bytes{0x77}));
}

// ---------------------------------------------------------------------------------------------
// ICRC

TEST(IcrcTrailer, Crc32MatchesTheStandardCheckValue)
{
    const std::string check = "123456789";
    EXPECT_EQ(IcrcTrailer::Crc32(reinterpret_cast<const uint8_t*>(check.data()), check.size()),
              0xCBF43926u);
    EXPECT_EQ(IcrcTrailer::Crc32(nullptr, 0), 0u);
}

TEST(IcrcTrailer, StoresTheCrcLeastSignificantByteFirst)
{
    IcrcTrailer icrc;
    EXPECT_EQ(icrc.GetSerializedSize(), 4u);
    EXPECT_EQ(icrc.GetIcrc(), 0u);
    icrc.SetIcrc(kCnpCaptureIcrc);

    Ptr<Packet> p = Create<Packet>(3);
    p->AddTrailer(icrc);
    EXPECT_EQ(CopyBytes(p), (Bytes{0, 0, 0, 0x82, 0xfd, 0x00, 0x2a}));
    IcrcTrailer got;
    EXPECT_EQ(p->RemoveTrailer(got), 4u);
    EXPECT_EQ(got.GetIcrc(), kCnpCaptureIcrc);
    EXPECT_EQ(p->GetSize(), 3u);
}

TEST(IcrcTrailer, ReproducesTheIcrcOfACnpCapturedFromHardware)
{
    EXPECT_EQ(IcrcOf(kCnpCapture), kCnpCaptureIcrc);

    // Rebuild the same frame from the module's headers and ns-3's.
    Ptr<Packet> p = Create<Packet>();
    p->AddTrailer(IcrcTrailer()); // placeholder, so that UDP and IPv4 lengths count it
    p->AddHeader(CnpHeader());
    BthHeader bth;
    bth.SetOpcode(BthHeader::CNP);
    bth.SetBecn(true);
    bth.SetDestQp(0x000118);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(0);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetTos(0xC2);
    ip.SetIdentification(0x718c);
    ip.SetDontFragment();
    ip.SetTtl(64);
    ip.SetProtocol(17);
    ip.SetSource(Ipv4Address("10.0.17.1"));
    ip.SetDestination(Ipv4Address("10.0.18.1"));
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);

    Bytes l3 = CopyBytes(p);
    IcrcTrailer icrc;
    icrc.SetIcrc(IcrcTrailer::Compute(l3.data(), l3.size() - IcrcTrailer::SIZE));
    EXPECT_EQ(icrc.GetIcrc(), kCnpCaptureIcrc);
    IcrcTrailer placeholder;
    p->RemoveTrailer(placeholder);
    p->AddTrailer(icrc);

    EthernetHeader eth(false);
    eth.SetDestination(Mac48Address("e4:1d:2d:ab:2b:c2"));
    eth.SetSource(Mac48Address("7c:fe:90:64:3b:32"));
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
    EXPECT_EQ(CopyBytes(p), kCnpCapture);
}

TEST(IcrcTrailer, IgnoresTheFieldsRoutersMayChange)
{
    const uint32_t base = IcrcOf(kCnpCapture);
    const uint32_t ip = kEthernetSize;
    const uint32_t udp = ip + 20;
    const uint32_t bth = udp + 8;
    // TOS (DSCP and ECN: a switch marks CE), TTL, IPv4 checksum, UDP checksum, BTH resv8a.
    for (uint32_t at : {ip + 1, ip + 8, ip + 10, ip + 11, udp + 6, udp + 7, bth + 4})
    {
        Bytes changed = kCnpCapture;
        changed[at] ^= 0x5A;
        EXPECT_EQ(IcrcOf(changed), base) << "offset " << at;
    }
    // Everything else is covered: lengths, flags, addresses, ports, opcode, P_Key, QP, PSN and
    // payload.
    for (uint32_t at : {ip + 2,
                        ip + 3,
                        ip + 6,
                        ip + 12,
                        ip + 19,
                        udp + 0,
                        udp + 3,
                        udp + 4,
                        bth + 0,
                        bth + 2,
                        bth + 5,
                        bth + 7,
                        bth + 8,
                        bth + 11,
                        bth + 12,
                        bth + 27})
    {
        Bytes changed = kCnpCapture;
        changed[at] ^= 0x01;
        EXPECT_NE(IcrcOf(changed), base) << "offset " << at;
    }
}

TEST(IcrcTrailer, FindsUdpAfterIpv4Options)
{
    // The capture's IPv4 header with IHL 6 and a 4-byte option (NOPs + EOL).
    Bytes frame(kCnpCapture.begin(), kCnpCapture.begin() + 34);
    frame[kEthernetSize] = 0x46;
    frame.insert(frame.end(), {0x01, 0x01, 0x01, 0x00});
    frame.insert(frame.end(), kCnpCapture.begin() + 34, kCnpCapture.end());
    const uint32_t base = IcrcOf(frame);
    const uint32_t udp = kEthernetSize + 24;
    for (uint32_t at : {udp + 6, udp + 7, udp + 8 + 4})
    {
        Bytes changed = frame;
        changed[at] ^= 0xFF;
        EXPECT_EQ(IcrcOf(changed), base) << "offset " << at;
    }
    Bytes changed = frame;
    changed[kEthernetSize + 20] = 0x07; // the option itself is invariant
    EXPECT_NE(IcrcOf(changed), base);
}

TEST(RoceV2Packet, WriteFirstHasTheRealLayout)
{
    const uint32_t payloadSize = 64;
    uint8_t payload[payloadSize];
    for (uint32_t k = 0; k < payloadSize; ++k)
    {
        payload[k] = static_cast<uint8_t>(k);
    }
    Ptr<Packet> p = Create<Packet>(payload, payloadSize);
    p->AddTrailer(IcrcTrailer());
    RethHeader reth;
    reth.SetVirtualAddress(0x00007F0000001000ULL);
    reth.SetRkey(0x00ABCDEF);
    reth.SetDmaLength(4096);
    p->AddHeader(reth);
    BthHeader bth;
    bth.SetOpcode(BthHeader::RC_WRITE_FIRST);
    bth.SetMigReq(true);
    bth.SetDestQp(0x000011);
    bth.SetPsn(0x000100);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(0xC000);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetTos(0x02); // DSCP 0, ECT(0)
    ip.SetIdentification(0x1234);
    ip.SetDontFragment();
    ip.SetTtl(64);
    ip.SetProtocol(17);
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.1.2"));
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);

    Bytes l3 = CopyBytes(p);
    IcrcTrailer icrc;
    icrc.SetIcrc(IcrcTrailer::Compute(l3.data(), l3.size() - IcrcTrailer::SIZE));
    IcrcTrailer placeholder;
    p->RemoveTrailer(placeholder);
    p->AddTrailer(icrc);
    EthernetHeader eth(false);
    eth.SetDestination(Mac48Address("02:00:00:00:00:02"));
    eth.SetSource(Mac48Address("02:00:00:00:00:01"));
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);

    ASSERT_EQ(p->GetSize(), 14u + 20 + 8 + 12 + 16 + payloadSize + 4);
    const Bytes frame = CopyBytes(p);
    EXPECT_EQ(frame[12], 0x08); // EtherType IPv4
    EXPECT_EQ(frame[13], 0x00);
    EXPECT_EQ(frame[16], 0x00); // IPv4 total length 124
    EXPECT_EQ(frame[17], 124);
    EXPECT_EQ(frame[36], 0x12); // UDP destination port 4791
    EXPECT_EQ(frame[37], 0xB7);
    EXPECT_EQ(frame[38], 0x00); // UDP length 104
    EXPECT_EQ(frame[39], 104);
    EXPECT_EQ(Bytes(frame.begin() + 42, frame.begin() + 54),
              (Bytes{0x06, 0x40, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x01, 0x00}));
    EXPECT_EQ(Bytes(frame.begin() + 54, frame.begin() + 70),
              (Bytes{0x00,
                     0x00,
                     0x7F,
                     0x00,
                     0x00,
                     0x00,
                     0x10,
                     0x00,
                     0x00,
                     0xAB,
                     0xCD,
                     0xEF,
                     0x00,
                     0x00,
                     0x10,
                     0x00}));
    EXPECT_EQ(frame[70], 0x00); // payload
    EXPECT_EQ(frame[70 + payloadSize - 1], payloadSize - 1);
    // Expected value computed independently, with Python's zlib.crc32 over 8 x 0xFF followed
    // by this frame from the IPv4 header on, variant fields set to 0xFF.
    EXPECT_EQ(icrc.GetIcrc(), 0x6605d94eu);
    EXPECT_EQ(IcrcOf(frame), icrc.GetIcrc());

    // A receiver peels it back in order.
    EthernetHeader rxEth(false);
    Ipv4Header rxIp;
    UdpHeader rxUdp;
    BthHeader rxBth;
    RethHeader rxReth;
    IcrcTrailer rxIcrc;
    p->RemoveHeader(rxEth);
    p->RemoveHeader(rxIp);
    p->RemoveHeader(rxUdp);
    p->RemoveHeader(rxBth);
    ASSERT_TRUE(BthHeader::CarriesReth(rxBth.GetOpcode()));
    p->RemoveHeader(rxReth);
    p->RemoveTrailer(rxIcrc);
    EXPECT_EQ(rxUdp.GetDestinationPort(), 4791);
    EXPECT_EQ(rxBth.GetPsn(), 0x100u);
    EXPECT_EQ(rxReth.GetDmaLength(), 4096u);
    EXPECT_EQ(rxIcrc.GetIcrc(), icrc.GetIcrc());
    EXPECT_EQ(p->GetSize(), payloadSize);
}

// ---------------------------------------------------------------------------------------------
// PFC

TEST(PfcHeader, FrameIsTheSixtyByteMinimum)
{
    PfcHeader pfc;
    EXPECT_EQ(pfc.GetSerializedSize(), 46u);
    EXPECT_EQ(pfc.GetOpcode(), PfcHeader::OPCODE);
    pfc.SetClassEnableVector((1 << 0) | (1 << 3));
    pfc.SetPauseTime(0, 0xFFFF);
    pfc.SetPauseTime(3, 0x1234);
    pfc.SetPauseTime(7, 0x0001); // not enabled: carried all the same

    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(pfc);
    EthernetHeader eth(false);
    eth.SetDestination(PfcHeader::DestinationAddress());
    eth.SetSource(Mac48Address("00:11:22:33:44:55"));
    eth.SetLengthType(PfcHeader::ETHERTYPE);
    p->AddHeader(eth);

    Bytes expected = {
        0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,             // destination
        0x00, 0x11, 0x22, 0x33, 0x44, 0x55,             // source
        0x88, 0x08,                                     // MAC control
        0x01, 0x01,                                     // opcode: PFC
        0x00, 0x09,                                     // class-enable vector: priorities 0 and 3
        0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, // pause time, priorities 0-3
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, // priorities 4-7
    };
    expected.resize(60, 0x00); // pad
    EXPECT_EQ(CopyBytes(p), expected);

    EthernetHeader rxEth(false);
    p->RemoveHeader(rxEth);
    EXPECT_EQ(rxEth.GetLengthType(), 0x8808);
    PfcHeader got;
    EXPECT_EQ(p->RemoveHeader(got), 46u);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(got.GetOpcode(), 0x0101);
    EXPECT_EQ(got.GetClassEnableVector(), 0x09);
    EXPECT_EQ(got.GetPauseTime(0), 0xFFFF);
    EXPECT_EQ(got.GetPauseTime(1), 0);
    EXPECT_EQ(got.GetPauseTime(3), 0x1234);
    EXPECT_EQ(got.GetPauseTime(7), 1);
}

TEST(PfcHeader, KeepsAForeignOpcodeForTheReceiverToCheck)
{
    Bytes pause(46, 0x00);
    pause[1] = 0x01; // 802.3x PAUSE
    pause[2] = 0xAB; // reserved octet of the vector
    pause[3] = 0x80;
    PfcHeader got = FromBytes<PfcHeader>(pause);
    EXPECT_EQ(got.GetOpcode(), 0x0001);
    EXPECT_NE(got.GetOpcode(), PfcHeader::OPCODE);
    EXPECT_EQ(got.GetClassEnableVector(), 0x80);

    PfcHeader pfc;
    pfc.SetClassEnableVector(0xFF01);
    EXPECT_EQ(pfc.GetClassEnableVector(), 0x01);
}

TEST(PfcHeaderDeathTest, RejectsPriorityEight)
{
    PfcHeader pfc;
    EXPECT_DEATH(pfc.SetPauseTime(8, 1), "priority");
    EXPECT_DEATH(pfc.GetPauseTime(8), "priority");
}

TEST(IcrcTrailerDeathTest, RejectsWhatIsNotIpv4Udp)
{
    Bytes l3(kCnpCapture.begin() + kEthernetSize, kCnpCapture.end() - IcrcTrailer::SIZE);
    Bytes tcp = l3;
    tcp[9] = 6;
    EXPECT_DEATH(IcrcTrailer::Compute(tcp.data(), tcp.size()), "not UDP");
    Bytes ipv6 = l3;
    ipv6[0] = 0x60;
    EXPECT_DEATH(IcrcTrailer::Compute(ipv6.data(), ipv6.size()), "not IPv4");
    EXPECT_DEATH(IcrcTrailer::Compute(l3.data(), 20 + 8 + 11), "too short");
}
