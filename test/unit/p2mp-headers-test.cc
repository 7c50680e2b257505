/*
 * Wire formats of the P2MP headers: the BIER BitString and header (RFC 8296, non-MPLS form), the
 * XPU-ID list variant and the new protocol's group shim. Expected bytes are spelled out by hand
 * from the layouts in the headers' class comments; the BitString octets follow the RFC's rule
 * that the last octet's least significant bit is BitPosition 1.
 */
#include "ns3/packet.h"
#include "packet-bytes.h"
#include "wire/model/bier-header.h"
#include "wire/model/bit-string.h"
#include "wire/model/group-shim-header.h"
#include "wire/model/xpu-list-header.h"

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

/// Pushes \p header in front of a 7-byte payload and pops it back into a fresh object.
template<typename H>
H
RoundTrip(const H& header)
{
    const Bytes payload = {0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6};
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    p->AddHeader(header);
    EXPECT_EQ(p->GetSize(), header.GetSerializedSize() + payload.size());
    H out;
    EXPECT_EQ(p->RemoveHeader(out), header.GetSerializedSize());
    EXPECT_EQ(CopyBytes(p), payload);
    return out;
}

/// Parses \p bytes as an \p H, as a receiver would; \p consumed gets what Deserialize took.
template<typename H>
H
FromBytes(const Bytes& bytes, uint32_t* consumed = nullptr)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    H out;
    uint32_t n = p->RemoveHeader(out);
    if (consumed != nullptr)
    {
        *consumed = n;
    }
    return out;
}

BitString
Bits(uint32_t length, const std::vector<uint32_t>& indices)
{
    BitString bs(length);
    for (uint32_t k : indices)
    {
        bs.Set(k);
    }
    return bs;
}

std::vector<uint32_t>
SetIndices(const BitString& bs)
{
    std::vector<uint32_t> out;
    bs.ForEachSet(
        [&out](uint32_t k)
        {
            out.push_back(k);
        });
    return out;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// BitString

TEST(BitString, LengthsArePowersOfTwoFrom64To4096)
{
    for (uint32_t bits = 64; bits <= 4096; bits *= 2)
    {
        EXPECT_TRUE(BitString::IsValidLength(bits)) << bits;
        BitString bs(bits);
        EXPECT_EQ(bs.Length(), bits);
        EXPECT_EQ(bs.SizeBytes(), bits / 8);
        EXPECT_EQ(bs.Words().size(), bits / 64);
        EXPECT_FALSE(bs.Any());
    }
    EXPECT_EQ(BitString().Length(), 256u);
    for (uint32_t bits : {0u, 1u, 32u, 63u, 96u, 100u, 255u, 8192u})
    {
        EXPECT_FALSE(BitString::IsValidLength(bits)) << bits;
    }
}

TEST(BitStringDeathTest, RejectsInvalidLength)
{
    EXPECT_DEATH(BitString(100), "power of two");
}

TEST(BitString, SetClearTestCountLowest)
{
    BitString bs(512);
    EXPECT_EQ(bs.LowestSet(), 512u);
    EXPECT_EQ(bs.Count(), 0u);
    bs.Set(511);
    bs.Set(64);
    bs.Set(63);
    EXPECT_TRUE(bs.Any());
    EXPECT_TRUE(bs.Test(511));
    EXPECT_TRUE(bs.Test(64));
    EXPECT_TRUE(bs.Test(63));
    EXPECT_FALSE(bs.Test(0));
    EXPECT_FALSE(bs.Test(65));
    EXPECT_EQ(bs.Count(), 3u);
    EXPECT_EQ(bs.LowestSet(), 63u);
    bs.Set(63); // idempotent
    EXPECT_EQ(bs.Count(), 3u);
    bs.Clear(63);
    EXPECT_FALSE(bs.Test(63));
    EXPECT_EQ(bs.LowestSet(), 64u);
    bs.Clear(63); // clearing a clear bit is harmless
    EXPECT_EQ(bs.Count(), 2u);
    bs.Reset();
    EXPECT_FALSE(bs.Any());
    EXPECT_EQ(bs.Length(), 512u);
}

TEST(BitString, Algebra)
{
    const BitString a = Bits(512, {1, 5, 70, 200});
    const BitString b = Bits(512, {5, 70, 300, 511});
    EXPECT_EQ(a & b, Bits(512, {5, 70}));
    EXPECT_EQ(a | b, Bits(512, {1, 5, 70, 200, 300, 511}));
    EXPECT_EQ(a.AndNot(b), Bits(512, {1, 200}));
    EXPECT_EQ(b.AndNot(a), Bits(512, {300, 511}));
    EXPECT_TRUE(a.Intersects(b));
    EXPECT_FALSE(a.Intersects(Bits(512, {0, 2, 511})));
    EXPECT_FALSE(a.Intersects(BitString(512)));

    BitString c = a;
    c &= b;
    EXPECT_EQ(c, Bits(512, {5, 70}));
    c |= Bits(512, {0});
    EXPECT_EQ(c, Bits(512, {0, 5, 70}));
    c.AndNotAssign(Bits(512, {5, 6}));
    EXPECT_EQ(c, Bits(512, {0, 70}));

    // Operands are untouched by the non-assigning forms.
    EXPECT_EQ(a, Bits(512, {1, 5, 70, 200}));
    EXPECT_EQ(b, Bits(512, {5, 70, 300, 511}));
}

TEST(BitString, EqualityNeedsSameLengthAndBits)
{
    EXPECT_EQ(Bits(64, {3}), Bits(64, {3}));
    EXPECT_NE(Bits(64, {3}), Bits(64, {4}));
    EXPECT_NE(BitString(64), BitString(128));
    EXPECT_NE(Bits(64, {3}), Bits(128, {3}));
}

TEST(BitString, ForEachSetVisitsAscending)
{
    const BitString bs = Bits(4096, {4095, 0, 63, 64, 127, 128, 1000, 2048, 1});
    EXPECT_EQ(SetIndices(bs), (std::vector<uint32_t>{0, 1, 63, 64, 127, 128, 1000, 2048, 4095}));
    EXPECT_TRUE(SetIndices(BitString(4096)).empty());

    // Every bit of a full string, in order.
    BitString all(128);
    for (uint32_t k = 0; k < 128; ++k)
    {
        all.Set(k);
    }
    std::vector<uint32_t> expected(128);
    for (uint32_t k = 0; k < 128; ++k)
    {
        expected[k] = k;
    }
    EXPECT_EQ(SetIndices(all), expected);
    EXPECT_EQ(all.Count(), 128u);
}

TEST(BitString, WireOrderPutsBitPositionOneInLastOctetLsb)
{
    // BFR-ids 1, 2 and 64 = indices 0, 1, 63 of a 64-bit string: index 63 is the top bit of
    // the first octet, indices 0 and 1 the two low bits of the last one.
    const BitString bs = Bits(64, {0, 1, 63});
    Bytes raw(8);
    bs.WriteBytes(raw.data());
    EXPECT_EQ(raw, (Bytes{0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03}));
    EXPECT_EQ(bs.ToHex(), "8000000000000003");

    // 256 bits: index k sits in octet 31 - k/8 at bit k%8.
    const BitString wide = Bits(256, {8, 100, 255});
    Bytes expected(32, 0);
    expected[31 - 8 / 8] = 0x01;   // index 8: octet 30, bit 0
    expected[31 - 100 / 8] = 0x10; // index 100: octet 19, bit 4
    expected[31 - 255 / 8] = 0x80; // index 255: octet 0, bit 7
    Bytes rawWide(32);
    wide.WriteBytes(rawWide.data());
    EXPECT_EQ(rawWide, expected);

    BitString back(256);
    back.ReadBytes(rawWide.data());
    EXPECT_EQ(back, wide);
}

TEST(BitString, BufferSerializationMatchesRawBytes)
{
    const BitString bs = Bits(128, {0, 9, 64, 65, 127});
    Buffer buffer;
    buffer.AddAtStart(bs.SizeBytes());
    Buffer::Iterator w = buffer.Begin();
    bs.Serialize(w);
    EXPECT_EQ(w.GetDistanceFrom(buffer.Begin()), 16u);

    Bytes fromBuffer(16);
    buffer.CopyData(fromBuffer.data(), 16);
    EXPECT_EQ(fromBuffer, (Bytes{0x80, 0, 0, 0, 0, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0x02, 0x01}));

    BitString back(128);
    Buffer::Iterator r = buffer.Begin();
    back.Deserialize(r);
    EXPECT_EQ(back, bs);
    EXPECT_EQ(r.GetDistanceFrom(buffer.Begin()), 16u);
}

TEST(BitString, AssignWordsUsesTheWordLayout)
{
    BitString bs = Bits(128, {3});
    const uint64_t words[] = {0x8000000000000001ULL, 0x4ULL};
    bs.AssignWords(words);
    EXPECT_EQ(SetIndices(bs), (std::vector<uint32_t>{0, 63, 66}));
    EXPECT_EQ(bs.Words(), (std::vector<uint64_t>{0x8000000000000001ULL, 0x4ULL}));
}

TEST(BitString, PrintsLengthAndIndices)
{
    std::ostringstream os;
    os << Bits(64, {0, 1, 63});
    EXPECT_EQ(os.str(), "64:{0,1,63}");
}

// ---------------------------------------------------------------------------------------------
// BIER header

TEST(BierHeader, BslCodeMapping)
{
    const uint32_t bits[] = {64, 128, 256, 512, 1024, 2048, 4096};
    for (uint8_t code = 1; code <= 7; ++code)
    {
        EXPECT_EQ(BierHeader::BslCode(bits[code - 1]), code);
        EXPECT_EQ(BierHeader::BitsFromCode(code), bits[code - 1]);
    }
    for (uint8_t code : {0, 8, 9, 14, 15})
    {
        EXPECT_EQ(BierHeader::BitsFromCode(code), 0u) << +code;
    }
    for (uint32_t b : {0u, 32u, 100u, 8192u})
    {
        EXPECT_EQ(BierHeader::BslCode(b), 0) << b;
    }
}

TEST(BierHeader, SizeIsTwelvePlusBslOctetsForEveryCode)
{
    const uint32_t expected[] = {20, 28, 44, 76, 140, 268, 524};
    for (uint8_t code = 1; code <= 7; ++code)
    {
        BierHeader h;
        h.SetBitString(BitString(BierHeader::BitsFromCode(code)));
        EXPECT_EQ(h.GetBslCode(), code);
        EXPECT_EQ(h.GetSerializedSize(), expected[code - 1]);
        EXPECT_EQ(BierHeader::SizeFor(BierHeader::BitsFromCode(code)), expected[code - 1]);
        EXPECT_EQ(HeaderBytes(h).size(), expected[code - 1]);
    }
}

TEST(BierHeader, Defaults)
{
    BierHeader h;
    EXPECT_EQ(h.GetBiftId(), 1u);
    EXPECT_EQ(h.GetSetIdentifier(), 0);
    EXPECT_EQ(h.GetTrafficClass(), 0);
    EXPECT_TRUE(h.GetBottomOfStack());
    EXPECT_EQ(h.GetTtl(), BierHeader::DEFAULT_TTL);
    EXPECT_EQ(h.GetNibble(), 0x5);
    EXPECT_EQ(h.GetVersion(), 0);
    EXPECT_EQ(h.GetBslCode(), 3);
    EXPECT_EQ(h.GetBitString(), BitString(256));
    EXPECT_EQ(h.GetProto(), BierHeader::PROTO_IPV4);
    EXPECT_EQ(h.GetSerializedSize(), 44u);
}

TEST(BierHeader, SerializesEveryFieldAtItsBit)
{
    BierHeader h;
    h.SetBiftId(0xABCDE);
    h.SetTrafficClass(5);
    h.SetBottomOfStack(true);
    h.SetTtl(0x3F);
    h.SetEntropy(0x12345);
    h.SetOam(2);
    h.SetDscp(46);
    h.SetProto(BierHeader::PROTO_IPV4);
    h.SetBfirId(0x0102);
    h.SetBitString(Bits(64, {0, 1, 63})); // BFR-ids 1, 2 and 64
    EXPECT_EQ(HeaderBytes(h),
              (Bytes{
                  0xAB, 0xCD, 0xEB, 0x3F, // BIFT-id ABCDE, TC 5, S 1, TTL 63
                  0x50, 0x11, 0x23, 0x45, // 0101, Ver 0, BSL 1, Entropy 12345
                  0x8B, 0x84,             // OAM 2, Rsv 0, DSCP 46, Proto 4
                  0x01, 0x02,             // BFIR-id
                  0x80, 0x00, 0x00, 0x00, // BitString: BFR-id 64 ...
                  0x00, 0x00, 0x00, 0x03, // ... BFR-ids 2 and 1
              }));
}

TEST(BierHeader, SetIdentifierIsBiftIdMinusOne)
{
    BierHeader h;
    h.SetSetIdentifier(2);
    EXPECT_EQ(h.GetBiftId(), 3u);
    EXPECT_EQ(h.GetSetIdentifier(), 2);
    EXPECT_EQ(BierHeader::BiftIdForSet(0), 1u);
    EXPECT_EQ(BierHeader::BiftIdForSet(1023), 1024u);
    const Bytes b = HeaderBytes(h);
    // BIFT-id 3 in the top 20 bits; S 1 and TTL 64 in the low 12.
    EXPECT_EQ(Bytes(b.begin(), b.begin() + 4), (Bytes{0x00, 0x00, 0x31, 0x40}));
}

TEST(BierHeader, FieldsAreMaskedToTheirWidth)
{
    BierHeader h;
    h.SetBiftId(0xFFFFFFFF);
    h.SetTrafficClass(0xFF);
    h.SetTtl(0xFF);
    h.SetEntropy(0xFFFFFFFF);
    h.SetOam(0xFF);
    h.SetRsv(0xFF);
    h.SetDscp(0xFF);
    h.SetProto(0xFF);
    h.SetNibble(0xFF);
    h.SetVersion(0xFF);
    EXPECT_EQ(h.GetBiftId(), 0xFFFFFu);
    EXPECT_EQ(h.GetTrafficClass(), 7);
    EXPECT_EQ(h.GetEntropy(), 0xFFFFFu);
    EXPECT_EQ(h.GetOam(), 3);
    EXPECT_EQ(h.GetRsv(), 3);
    EXPECT_EQ(h.GetDscp(), 63);
    EXPECT_EQ(h.GetProto(), 63);
    EXPECT_EQ(h.GetNibble(), 0xF);
    EXPECT_EQ(h.GetVersion(), 0xF);
    h.SetBitString(BitString(64));
    const Bytes b = HeaderBytes(h);
    // The BSL nibble survives every neighbour being all ones.
    EXPECT_EQ(Bytes(b.begin(), b.begin() + 12),
              (Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00}));
}

TEST(BierHeader, RoundTripsThroughPacketForEveryLength)
{
    for (uint8_t code = 1; code <= 7; ++code)
    {
        const uint32_t bits = BierHeader::BitsFromCode(code);
        BierHeader h;
        h.SetSetIdentifier(7);
        h.SetTrafficClass(3);
        h.SetBottomOfStack(false);
        h.SetTtl(9);
        h.SetEntropy(0xFEDCB);
        h.SetOam(1);
        h.SetRsv(2);
        h.SetDscp(26);
        h.SetProto(BierHeader::PROTO_IPV6);
        h.SetBfirId(65535);
        h.SetBitString(Bits(bits, {0, bits / 2 - 1, bits / 2, bits - 1}));

        BierHeader out = RoundTrip(h);
        EXPECT_TRUE(out.IsBslValid());
        EXPECT_EQ(out.GetBslCode(), code);
        EXPECT_EQ(out.GetSetIdentifier(), 7);
        EXPECT_EQ(out.GetTrafficClass(), 3);
        EXPECT_FALSE(out.GetBottomOfStack());
        EXPECT_EQ(out.GetTtl(), 9);
        EXPECT_EQ(out.GetNibble(), 0x5);
        EXPECT_EQ(out.GetVersion(), 0);
        EXPECT_EQ(out.GetEntropy(), 0xFEDCBu);
        EXPECT_EQ(out.GetOam(), 1);
        EXPECT_EQ(out.GetRsv(), 2);
        EXPECT_EQ(out.GetDscp(), 26);
        EXPECT_EQ(out.GetProto(), BierHeader::PROTO_IPV6);
        EXPECT_EQ(out.GetBfirId(), 65535);
        EXPECT_EQ(out.GetBitString(), h.GetBitString());
        EXPECT_EQ(HeaderBytes(out), HeaderBytes(h));
    }
}

TEST(BierHeader, ParsesHandWrittenBytes)
{
    const Bytes wire = {
        0x00, 0x00, 0x21, 0x05,                         // BIFT-id 2 (SI 1), TC 0, S 1, TTL 5
        0x50, 0x20, 0x00, 0x07,                         // 0101, Ver 0, BSL 2 (128 bits), Entropy 7
        0x00, 0x04, 0x00, 0x2A,                         // Proto 4, BFIR-id 42
        0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // index 126: BFR-id 1*128 + 126 + 1 = 255
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x80, // indices 8, 7
    };
    uint32_t consumed = 0;
    BierHeader h = FromBytes<BierHeader>(wire, &consumed);
    EXPECT_EQ(consumed, 28u);
    EXPECT_EQ(h.GetSetIdentifier(), 1);
    EXPECT_EQ(h.GetTtl(), 5);
    EXPECT_EQ(h.GetEntropy(), 7u);
    EXPECT_EQ(h.GetBfirId(), 42);
    EXPECT_EQ(h.GetBitString().Length(), 128u);
    EXPECT_EQ(SetIndices(h.GetBitString()), (std::vector<uint32_t>{7, 8, 126}));
    EXPECT_EQ(BierHeader::PeekBslCode(wire.data()), 2);
}

TEST(BierHeader, UnsupportedOrTruncatedBslReadsOnlyTheFixedPart)
{
    Bytes wire = {0x00,
                  0x00,
                  0x11,
                  0x40,
                  0x50,
                  0x00,
                  0x00,
                  0x00,
                  0x00,
                  0x04,
                  0x00,
                  0x01,
                  0xAA,
                  0xBB,
                  0xCC,
                  0xDD};
    // BSL 0: reserved.
    uint32_t consumed = 0;
    BierHeader h = FromBytes<BierHeader>(wire, &consumed);
    EXPECT_EQ(consumed, 12u);
    EXPECT_FALSE(h.IsBslValid());
    EXPECT_EQ(h.GetBslCode(), 0);
    EXPECT_EQ(h.GetSerializedSize(), 12u);
    EXPECT_EQ(h.GetBfirId(), 1);

    // BSL 7 (4096 bits) with only four octets behind the fixed part.
    wire[5] = 0x70;
    h = FromBytes<BierHeader>(wire, &consumed);
    EXPECT_EQ(consumed, 12u);
    EXPECT_FALSE(h.IsBslValid());

    // Fewer octets than the fixed part: nothing is consumed.
    h = FromBytes<BierHeader>(Bytes(wire.begin(), wire.begin() + 11), &consumed);
    EXPECT_EQ(consumed, 0u);
}

TEST(BierHeader, MutableBitStringEditsInPlace)
{
    BierHeader h;
    h.SetBitString(Bits(64, {0, 5, 9}));
    h.MutableBitString().AndNotAssign(Bits(64, {5}));
    EXPECT_EQ(h.GetBitString(), Bits(64, {0, 9}));
    h.MutableBitString() = BitString(1024);
    EXPECT_EQ(h.GetBslCode(), 5);
    EXPECT_EQ(h.GetSerializedSize(), 140u);
}

// ---------------------------------------------------------------------------------------------
// XPU-ID list

TEST(XpuListHeader, SizeIsFixedPlusCountPlusIdsRoundedToFour)
{
    const uint32_t expected[] = {16, 16, 20, 20, 24, 24, 28};
    for (uint32_t n = 0; n < 7; ++n)
    {
        EXPECT_EQ(XpuListHeader::SizeFor(n), expected[n]) << n;
        XpuListHeader h;
        h.SetIds(std::vector<uint16_t>(n, 9));
        EXPECT_EQ(h.GetSerializedSize(), expected[n]);
        EXPECT_EQ(HeaderBytes(h).size(), expected[n]);
    }
    for (uint32_t n : {64u, 65u, 1000u, 65535u})
    {
        const uint32_t raw = 12 + 2 + 2 * n;
        EXPECT_EQ(XpuListHeader::SizeFor(n), (raw + 3) / 4 * 4) << n;
    }
}

TEST(XpuListHeader, SerializesOddCountWithoutPad)
{
    XpuListHeader h;
    h.SetEntropy(0xABCDE);
    h.SetBfirId(7);
    h.SetIds({1, 2, 300});
    EXPECT_EQ(HeaderBytes(h),
              (Bytes{
                  0x00, 0x00, 0x01, 0x40,             // BIFT-id 0, TC 0, S 1, TTL 64
                  0x50, 0xFA, 0xBC, 0xDE,             // 0101, Ver 0, BSL 0xF, Entropy
                  0x00, 0x04,                         // OAM/Rsv/DSCP 0, Proto 4
                  0x00, 0x07,                         // BFIR-id 7
                  0x00, 0x03,                         // N = 3
                  0x00, 0x01, 0x00, 0x02, 0x01, 0x2C, // IDs 1, 2, 300
              }));
}

TEST(XpuListHeader, SerializesEvenCountWithZeroPad)
{
    XpuListHeader h;
    h.SetBiftId(0x12345);
    h.SetTrafficClass(1);
    h.SetBottomOfStack(false);
    h.SetTtl(2);
    h.SetDscp(1);
    h.SetProto(BierHeader::PROTO_ETHERNET);
    h.SetBfirId(0xBEEF);
    h.SetIds({5, 65535});
    EXPECT_EQ(HeaderBytes(h),
              (Bytes{
                  0x12, 0x34, 0x52, 0x02, // BIFT-id 12345, TC 1, S 0, TTL 2
                  0x50, 0xF0, 0x00, 0x00, // 0101, Ver 0, BSL 0xF, Entropy 0
                  0x00, 0x43,             // DSCP 1, Proto 3
                  0xBE, 0xEF,             // BFIR-id
                  0x00, 0x02,             // N = 2
                  0x00, 0x05, 0xFF, 0xFF, // IDs 5, 65535
                  0x00, 0x00,             // pad
              }));

    XpuListHeader empty;
    const Bytes b = HeaderBytes(empty);
    EXPECT_EQ(Bytes(b.begin() + 12, b.end()), (Bytes{0x00, 0x00, 0x00, 0x00}));
}

TEST(XpuListHeader, RoundTripsThroughPacket)
{
    for (uint32_t n : {0u, 1u, 2u, 5u, 64u, 301u})
    {
        XpuListHeader h;
        std::vector<uint16_t> ids;
        for (uint32_t k = 0; k < n; ++k)
        {
            ids.push_back(static_cast<uint16_t>(65535 - 7 * k));
        }
        h.SetIds(ids);
        h.SetBiftId(77);
        h.SetTtl(200);
        h.SetEntropy(0x54321);
        h.SetOam(3);
        h.SetBfirId(12);
        XpuListHeader out = RoundTrip(h);
        EXPECT_TRUE(out.IsXpuList());
        EXPECT_EQ(out.GetIds(), ids);
        EXPECT_EQ(out.GetBiftId(), 77u);
        EXPECT_EQ(out.GetTtl(), 200);
        EXPECT_EQ(out.GetEntropy(), 0x54321u);
        EXPECT_EQ(out.GetOam(), 3);
        EXPECT_EQ(out.GetBfirId(), 12);
        EXPECT_EQ(HeaderBytes(out), HeaderBytes(h));
    }
}

TEST(XpuListHeader, SharesBierFixedPartAndEtherType)
{
    EXPECT_EQ(XpuListHeader::ETHERTYPE, BierHeader::ETHERTYPE);
    XpuListHeader x;
    x.SetBfirId(99);
    x.SetEntropy(0x11111);
    x.AddId(4);
    const Bytes wire = HeaderBytes(x);
    EXPECT_EQ(BierHeader::PeekBslCode(wire.data()), BierHeader::BSL_CODE_XPU_LIST);

    // A BIER parser sees the same fixed fields, and no BitString behind BSL 0xF.
    uint32_t consumed = 0;
    BierHeader b = FromBytes<BierHeader>(wire, &consumed);
    EXPECT_EQ(consumed, 12u);
    EXPECT_FALSE(b.IsBslValid());
    EXPECT_EQ(b.GetBslCode(), 0xF);
    EXPECT_EQ(b.GetBfirId(), 99);
    EXPECT_EQ(b.GetEntropy(), 0x11111u);
}

TEST(XpuListHeader, TruncatedListReadsOnlyWhatIsThere)
{
    const Bytes wire = {0x00,
                        0x00,
                        0x01,
                        0x40,
                        0x50,
                        0xF0,
                        0x00,
                        0x00,
                        0x00,
                        0x04,
                        0x00,
                        0x01,
                        0x00,
                        0x09, // N = 9 announced ...
                        0x00,
                        0x01,
                        0x00,
                        0x02}; // ... two present
    uint32_t consumed = 0;
    XpuListHeader h = FromBytes<XpuListHeader>(wire, &consumed);
    EXPECT_EQ(consumed, 18u);
    EXPECT_EQ(h.GetIds(), (std::vector<uint16_t>{1, 2}));
}

// ---------------------------------------------------------------------------------------------
// Group shim (new protocol)

TEST(GroupShimHeader, SerializesFixedPart)
{
    GroupShimHeader h;
    EXPECT_EQ(h.GetSerializedSize(), 12u);
    h.SetAckAggregation(true);
    h.SetEntropy(0xC0DE);
    h.SetGroupId(0xDEADBEEF);
    h.SetSourceId(0x0203);
    EXPECT_EQ(HeaderBytes(h),
              (Bytes{
                  0x12, // Version 1, flags: ACK aggregation
                  0x04, // NextProto IPv4
                  0xC0,
                  0xDE, // Entropy
                  0xDE,
                  0xAD,
                  0xBE,
                  0xEF, // Group ID
                  0x02,
                  0x03, // source
                  0x00,
                  0x00, // reserved
              }));
    EXPECT_EQ(GroupShimHeader::PeekGroupId(HeaderBytes(h).data()), 0xDEADBEEFu);
}

TEST(GroupShimHeader, SerializesAddressList)
{
    GroupShimHeader h;
    h.SetAckFree(true);
    h.SetEntropy(42);
    h.SetGroupId(9);
    h.SetSourceId(1);
    h.SetAddressList(
        {{7, 0x11223344, 0x00007F00DEAD0000ULL}, {0x1234, 0xCAFEBABE, 0xFFFFFFFF00000001ULL}});
    EXPECT_TRUE(h.HasAddressList());
    EXPECT_EQ(h.GetFlags(), GroupShimHeader::FLAG_ADDRESS_LIST | GroupShimHeader::FLAG_ACK_FREE);
    EXPECT_EQ(h.GetSerializedSize(), 48u);
    EXPECT_EQ(HeaderBytes(h),
              (Bytes{
                  0x15, 0x04, 0x00, 0x2A, // Version 1, flags list + ACK-free, IPv4, Entropy 42
                  0x00, 0x00, 0x00, 0x09, // Group ID 9
                  0x00, 0x01, 0x00, 0x00, // source 1, reserved
                  0x00, 0x02, 0x00, 0x00, // N = 2, reserved
                  0x00, 0x07, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44, // receiver 7, R_Key
                  0x00, 0x00, 0x7F, 0x00, 0xDE, 0xAD, 0x00, 0x00, // virtual address
                  0x12, 0x34, 0x00, 0x00, 0xCA, 0xFE, 0xBA, 0xBE, // receiver 0x1234, R_Key
                  0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, // virtual address
              }));
}

TEST(GroupShimHeader, SizeFormula)
{
    EXPECT_EQ(GroupShimHeader::SizeFor(false), 12u);
    for (uint32_t n : {0u, 1u, 2u, 16u, 255u})
    {
        EXPECT_EQ(GroupShimHeader::SizeFor(true, n), 16 + 16 * n);
        GroupShimHeader h;
        h.SetAddressList(std::vector<GroupShimHeader::Entry>(n));
        EXPECT_EQ(h.GetSerializedSize(), 16 + 16 * n);
        EXPECT_EQ(HeaderBytes(h).size(), 16 + 16 * n);
    }
    GroupShimHeader h;
    h.SetAddressList(std::vector<GroupShimHeader::Entry>(3));
    h.ClearAddressList();
    EXPECT_FALSE(h.HasAddressList());
    EXPECT_EQ(h.GetSerializedSize(), 12u);
    h.SetAddressList(std::vector<GroupShimHeader::Entry>(3));
    h.SetFlags(GroupShimHeader::FLAG_ACK_FREE);
    EXPECT_TRUE(h.GetAddressList().empty());
    EXPECT_EQ(h.GetSerializedSize(), 12u);
}

TEST(GroupShimHeader, RoundTripsThroughPacket)
{
    GroupShimHeader h;
    h.SetAckAggregation(true);
    h.SetNextProto(GroupShimHeader::NEXT_PROTO_IPV4);
    h.SetEntropy(0xFFFF);
    h.SetGroupId(0x80000001);
    h.SetSourceId(65535);
    GroupShimHeader out = RoundTrip(h);
    EXPECT_EQ(out.GetVersion(), 1);
    EXPECT_EQ(out.GetFlags(), GroupShimHeader::FLAG_ACK_AGGREGATION);
    EXPECT_TRUE(out.GetAckAggregation());
    EXPECT_FALSE(out.GetAckFree());
    EXPECT_FALSE(out.HasAddressList());
    EXPECT_EQ(out.GetEntropy(), 0xFFFF);
    EXPECT_EQ(out.GetGroupId(), 0x80000001u);
    EXPECT_EQ(out.GetSourceId(), 65535);

    std::vector<GroupShimHeader::Entry> list;
    for (uint16_t r = 0; r < 40; ++r)
    {
        list.push_back(
            {static_cast<uint16_t>(r * 3 + 1), 0x1000u + r, 0x7F0000000000ULL + r * 4096});
    }
    h.SetAddressList(list);
    out = RoundTrip(h);
    EXPECT_TRUE(out.HasAddressList());
    EXPECT_TRUE(out.GetAckAggregation());
    EXPECT_EQ(out.GetAddressList(), list);
    EXPECT_EQ(HeaderBytes(out), HeaderBytes(h));
}

TEST(GroupShimHeader, ReservedOctetsAreIgnoredAndTruncatedListIsClamped)
{
    Bytes wire = {0x11, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00,
                  0x06, 0xFF, 0xFF, 0x00, 0x03, 0xFF, 0xFF, // N = 3 announced, reserved non-zero
                  0x00, 0x08, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x09, // one whole entry ...
                  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, //
                  0x00, 0x0B};                                    // ... and a fragment
    uint32_t consumed = 0;
    GroupShimHeader h = FromBytes<GroupShimHeader>(wire, &consumed);
    EXPECT_EQ(consumed, 32u);
    EXPECT_EQ(h.GetGroupId(), 5u);
    EXPECT_EQ(h.GetSourceId(), 6);
    ASSERT_EQ(h.GetAddressList().size(), 1u);
    EXPECT_EQ(h.GetAddressList()[0], (GroupShimHeader::Entry{8, 9, 10}));
    // Re-serialized, the reserved octets are zero again.
    const Bytes again = HeaderBytes(h);
    EXPECT_EQ(again[10], 0);
    EXPECT_EQ(again[11], 0);
    EXPECT_EQ(again[13], 1); // N now counts the entry actually carried
    EXPECT_EQ(again[14], 0);
    EXPECT_EQ(again[18], 0);
}

TEST(GroupShimHeader, PrintMentionsGroupAndList)
{
    GroupShimHeader h;
    h.SetGroupId(77);
    h.SetAddressList({{3, 0xAB, 0x1000}});
    std::ostringstream os;
    h.Print(os);
    EXPECT_NE(os.str().find("group=77"), std::string::npos);
    EXPECT_NE(os.str().find("3:0xab@0x1000"), std::string::npos);
}
