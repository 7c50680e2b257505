/*
 * Bift: table shape per SI, RFC 8279 section 6.5 replication with section 6.7 ECMP, end-to-end
 * BIER delivery over whole fabrics, and XPU-ID lists taking the same ports. Expected counts are
 * derived by hand in the comments.
 */
#include "p2mp/model/bift.h"
#include "test-topologies.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

namespace
{

using mcast4ai_test::FatTree;
using mcast4ai_test::Ft16;
using mcast4ai_test::LeafSpine;
using mcast4ai_test::Ls;

using ns3::Bift;
using ns3::TopologyConfig;
using ns3::TopologyGraph;
using ns3::TopologyKind;
using Words = std::vector<uint64_t>;

// Chi-square critical values at p = 0.001 for 1, 7 and 63 degrees of freedom.
constexpr double kChi2Df1 = 10.828;
constexpr double kChi2Df7 = 24.322;
constexpr double kChi2Df63 = 103.442;

Words
BitsOf(uint32_t words, std::initializer_list<uint32_t> bits)
{
    Words w(words, 0);
    for (uint32_t b : bits)
    {
        w[b / 64] |= uint64_t{1} << (b % 64);
    }
    return w;
}

Words
Range(uint32_t words, uint32_t from, uint32_t to) // bits [from, to)
{
    Words w(words, 0);
    for (uint32_t b = from; b < to; ++b)
    {
        w[b / 64] |= uint64_t{1} << (b % 64);
    }
    return w;
}

uint32_t
PopCount(const Words& w)
{
    uint32_t n = 0;
    for (uint64_t x : w)
    {
        n += static_cast<uint32_t>(__builtin_popcountll(x));
    }
    return n;
}

double
ChiSquare(const std::vector<uint32_t>& counts, double expected)
{
    double chi2 = 0;
    for (uint32_t c : counts)
    {
        chi2 += (c - expected) * (c - expected) / expected;
    }
    return chi2;
}

// Every copy is a subset of the input, the copies are pairwise disjoint, ports ascend and are
// distinct, and (when every input bit belongs to a reachable host) their union is the input.
void
ExpectPartition(const Bift::Copies& copies, const Words& input, bool allKnown)
{
    Words uni(input.size(), 0);
    for (std::size_t c = 0; c < copies.size(); ++c)
    {
        if (c > 0)
        {
            EXPECT_LT(copies[c - 1].first, copies[c].first);
        }
        ASSERT_EQ(copies[c].second.size(), input.size());
        EXPECT_GT(PopCount(copies[c].second), 0u) << "empty copy";
        for (std::size_t w = 0; w < input.size(); ++w)
        {
            EXPECT_EQ(copies[c].second[w] & ~input[w], 0u) << "bit not in the input";
            EXPECT_EQ(copies[c].second[w] & uni[w], 0u) << "copies overlap";
            uni[w] |= copies[c].second[w];
        }
    }
    if (allKnown)
    {
        EXPECT_EQ(uni, input);
    }
}

TEST(BiftLeafSpine, TableShapeBsl64)
{
    const TopologyGraph& g = Ls();
    // 64 hosts / BSL 64 = 1 SI of 1 word.
    const Bift leaf0 = Bift::Build(g, 64, 64);
    EXPECT_EQ(leaf0.SetCount(), 1u);
    EXPECT_EQ(leaf0.Words(), 1u);
    EXPECT_EQ(leaf0.Node(), 64u);
    // Leaf 0: hosts 0..15 each on its own port (16 singleton entries) + every other host on
    // {16, 17} (1 entry) = 17. Entries are ordered by port set: {0} < {1} < ... < {15} < {16,17}.
    ASSERT_EQ(leaf0.Entries(0).size(), 17u);
    EXPECT_EQ(leaf0.EntryCount(), 17u);
    for (uint16_t p = 0; p < 16; ++p)
    {
        EXPECT_EQ(leaf0.Entries(0)[p].ports, (std::vector<uint16_t>{p}));
        EXPECT_EQ(leaf0.Entries(0)[p].mask, BitsOf(1, {p}));
    }
    EXPECT_EQ(leaf0.Entries(0)[16].ports, (std::vector<uint16_t>{16, 17}));
    EXPECT_EQ(leaf0.Entries(0)[16].mask, Range(1, 16, 64)); // the 48 remote hosts

    // Leaf 1 (hosts 16..31): the uplink F-BM is hosts 0..15 and 32..63.
    const Bift leaf1 = Bift::Build(g, 65, 64);
    ASSERT_EQ(leaf1.EntryCount(), 17u);
    EXPECT_EQ(leaf1.Entries(0)[3].mask, BitsOf(1, {19}));
    EXPECT_EQ(leaf1.Entries(0)[16].mask[0], Range(1, 0, 16)[0] | Range(1, 32, 64)[0]);

    // Spine: one entry per leaf (port l, the 16 hosts of leaf l) = 4.
    for (uint32_t spine = 68; spine < 70; ++spine)
    {
        const Bift s = Bift::Build(g, spine, 64);
        ASSERT_EQ(s.EntryCount(), 4u);
        for (uint16_t l = 0; l < 4; ++l)
        {
            EXPECT_EQ(s.Entries(0)[l].ports, (std::vector<uint16_t>{l}));
            EXPECT_EQ(s.Entries(0)[l].mask, Range(1, 16 * l, 16 * l + 16));
        }
    }

    // Whole fabric: 4 leaves x 17 + 2 spines x 4 = 76 entries.
    std::size_t total = 0;
    for (uint32_t sw = 64; sw < 70; ++sw)
    {
        total += Bift::Build(g, sw, 64).EntryCount();
    }
    EXPECT_EQ(total, 76u);
    EXPECT_THROW(leaf0.Entries(1), std::out_of_range);
}

TEST(BiftLeafSpine, WiderBslKeepsOneSi)
{
    const TopologyGraph& g = Ls();
    // BSL 256 > 64 hosts: still 1 SI, now 4 words; bits 64..255 belong to no host.
    const Bift leaf0 = Bift::Build(g, 64, 256);
    EXPECT_EQ(leaf0.SetCount(), 1u);
    EXPECT_EQ(leaf0.Words(), 4u);
    EXPECT_EQ(leaf0.EntryCount(), 17u);
    EXPECT_EQ(leaf0.Entries(0)[16].mask, Range(4, 16, 64));
    // More words per F-BM: more bytes.
    EXPECT_GT(leaf0.Bytes(), Bift::Build(g, 64, 64).Bytes());
    EXPECT_GT(leaf0.Bytes(), 17 * sizeof(Bift::Entry));
}

TEST(BiftFatTree, K16Bsl256HasFourSis)
{
    const TopologyGraph& g = Ft16();
    // 1024 hosts / 256 = 4 SIs of 4 words; SI s holds pods 4s..4s+3.
    const Bift edge0 = Bift::Build(g, 1024, 256);
    EXPECT_EQ(edge0.SetCount(), 4u);
    EXPECT_EQ(edge0.Words(), 4u);
    // Edge 0 (hosts 0..7). SI 0: 8 singletons + the uplink set {8..15} for hosts 8..255 = 9.
    // SIs 1..3: every host is remote, one uplink entry each. Total 9 + 3 = 12.
    ASSERT_EQ(edge0.Entries(0).size(), 9u);
    EXPECT_EQ(edge0.Entries(0)[8].ports, (std::vector<uint16_t>{8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_EQ(edge0.Entries(0)[8].mask, Range(4, 8, 256));
    for (uint32_t si = 1; si < 4; ++si)
    {
        ASSERT_EQ(edge0.Entries(si).size(), 1u);
        EXPECT_EQ(edge0.Entries(si)[0].mask, Range(4, 0, 256));
    }
    EXPECT_EQ(edge0.EntryCount(), 12u);

    // Edge 40 (pod 5, hosts 320..327 = SI 1 bits 64..71): SI 1 has the 9, the others 1: 12.
    const Bift edge40 = Bift::Build(g, 1024 + 40, 256);
    EXPECT_EQ(edge40.Entries(1).size(), 9u);
    EXPECT_EQ(edge40.Entries(1)[0].mask, BitsOf(4, {64}));
    EXPECT_EQ(edge40.EntryCount(), 12u);

    // Aggregation 0 of pod 0: SI 0 = its 8 edges (8 hosts each) + the core uplinks for pods
    // 1..3 (192 hosts) = 9; SIs 1..3 one uplink entry each: 12.
    const Bift agg0 = Bift::Build(g, 1152, 256);
    ASSERT_EQ(agg0.Entries(0).size(), 9u);
    EXPECT_EQ(agg0.Entries(0)[2].mask, Range(4, 16, 24));
    EXPECT_EQ(agg0.Entries(0)[8].mask, Range(4, 64, 256));
    EXPECT_EQ(agg0.EntryCount(), 12u);

    // Core: one port per pod, 4 pods per SI -> 4 entries per SI, 16 in all.
    const Bift core0 = Bift::Build(g, 1280, 256);
    for (uint32_t si = 0; si < 4; ++si)
    {
        ASSERT_EQ(core0.Entries(si).size(), 4u);
        EXPECT_EQ(core0.Entries(si)[1].ports,
                  (std::vector<uint16_t>{static_cast<uint16_t>(4 * si + 1)}));
        EXPECT_EQ(core0.Entries(si)[1].mask, Range(4, 64, 128));
    }
    EXPECT_EQ(core0.EntryCount(), 16u);

    // Whole fabric: 128 edges x 12 + 128 aggregations x 12 + 64 cores x 16 = 4096 entries.
    std::size_t total = 0;
    for (uint32_t sw = 1024; sw < g.NodeCount(); ++sw)
    {
        total += Bift::Build(g, sw, 256).EntryCount();
    }
    EXPECT_EQ(total, 4096u);

    // BSL 4096 >= 1024 hosts: one SI; edge 0 has 8 singletons + 1 uplink entry = 9.
    EXPECT_EQ(Bift::Build(g, 1024, 4096).SetCount(), 1u);
    EXPECT_EQ(Bift::Build(g, 1024, 4096).EntryCount(), 9u);
}

TEST(BiftLeafSpine, ReplicateAtLeafAndSpine)
{
    const TopologyGraph& g = Ls();
    const Bift leaf0 = Bift::Build(g, 64, 64);
    const Bift spine0 = Bift::Build(g, 68, 64);
    const Bift leaf1 = Bift::Build(g, 65, 64);
    Bift::Copies out;

    // Host 0 broadcasts to everyone else: bits 1..63. Leaf 0: hosts 1..15 on ports 1..15 (15
    // copies, one bit each; port 0 gets nothing since bit 0 is clear) + 1 uplink copy with the
    // 48 remote bits 16..63 = 16 copies.
    const Words others = Range(1, 1, 64);
    leaf0.Replicate(0, others.data(), 7, out);
    ASSERT_EQ(out.size(), 16u);
    for (uint16_t p = 1; p < 16; ++p)
    {
        EXPECT_EQ(out[p - 1].first, p);
        EXPECT_EQ(out[p - 1].second, BitsOf(1, {p}));
    }
    EXPECT_TRUE(out[15].first == 16 || out[15].first == 17);
    EXPECT_EQ(out[15].second, Range(1, 16, 64));
    EXPECT_EQ(PopCount(out[15].second), 48u);
    ExpectPartition(out, others, true);
    const Words up = out[15].second;

    // All 64 bits: host 0 gets its copy too: 17.
    const Words all = Range(1, 0, 64);
    leaf0.Replicate(0, all.data(), 7, out);
    ASSERT_EQ(out.size(), 17u);
    EXPECT_EQ(out[0].first, 0u);
    ExpectPartition(out, all, true);

    // The spine receives the 48 remote bits: one copy per remote leaf (ports 1, 2, 3) with 16
    // bits each = 3 copies.
    spine0.Replicate(0, up.data(), 7, out);
    ASSERT_EQ(out.size(), 3u);
    for (uint16_t l = 1; l < 4; ++l)
    {
        EXPECT_EQ(out[l - 1].first, l);
        EXPECT_EQ(out[l - 1].second, Range(1, 16 * l, 16 * l + 16));
    }
    // With all 64 bits, the spine also serves leaf 0: 4 copies.
    spine0.Replicate(0, all.data(), 7, out);
    EXPECT_EQ(out.size(), 4u);
    ExpectPartition(out, all, true);

    // Leaf 1 receives hosts 16..31: 16 host copies on ports 0..15 and no uplink copy.
    const Words mine = Range(1, 16, 32);
    leaf1.Replicate(0, mine.data(), 7, out);
    ASSERT_EQ(out.size(), 16u);
    EXPECT_EQ(out.back().first, 15u);
    ExpectPartition(out, mine, true);

    // Leaf 1 with hosts 3 and 40 (both remote): one uplink entry -> 1 copy carrying both.
    const Words remote = BitsOf(1, {3, 40});
    leaf1.Replicate(0, remote.data(), 7, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].second, remote);

    // Nothing to send: no copy.
    const Words none(1, 0);
    leaf1.Replicate(0, none.data(), 7, out);
    EXPECT_TRUE(out.empty());
}

TEST(BiftLeafSpine, UnknownBitsAndSisAreDropped)
{
    const TopologyGraph& g = Ls();
    // BSL 128: bits 64..127 have no host, so no entry: they are dropped (RFC 8279 section 6.5).
    const Bift spine = Bift::Build(g, 69, 128);
    Bift::Copies out;
    const Words padding = Range(2, 64, 128);
    spine.Replicate(0, padding.data(), 1, out);
    EXPECT_TRUE(out.empty());
    // Hosts 20 (leaf 1) plus padding: one copy on port 1 with bit 20 only.
    Words mixed = padding;
    mixed[0] |= uint64_t{1} << 20;
    spine.Replicate(0, mixed.data(), 1, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].first, 1u);
    EXPECT_EQ(out[0].second, BitsOf(2, {20}));
    // SI 1 does not exist in a 64-host fabric.
    spine.Replicate(1, mixed.data(), 1, out);
    EXPECT_TRUE(out.empty());
}

TEST(BiftFatTree, ReplicateEdgeAggCore)
{
    const TopologyGraph& g = Ft16();
    Bift::Copies out;
    // SI 0 with every bit but host 0's. Edge 0: hosts 1..7 locally (7 copies) + 1 uplink copy
    // with bits 8..255 = 8 copies.
    const Words si0 = Range(4, 1, 256);
    Bift::Build(g, 1024, 256).Replicate(0, si0.data(), 3, out);
    ASSERT_EQ(out.size(), 8u);
    EXPECT_GE(out[7].first, 8u);
    EXPECT_EQ(PopCount(out[7].second), 248u);
    ExpectPartition(out, si0, true);
    const Words up = out[7].second;
    // An aggregation of pod 0 gets bits 8..255: 7 edges (edges 1..7, 8 bits each) + 1 core copy
    // for pods 1..3 (192 bits) = 8 copies.
    Bift::Build(g, 1152 + 3, 256).Replicate(0, up.data(), 3, out);
    ASSERT_EQ(out.size(), 8u);
    EXPECT_EQ(out[0].first, 1u);
    EXPECT_EQ(PopCount(out[7].second), 192u);
    const Words coreBits = out[7].second;
    // A core gets pods 1..3 of SI 0: 3 copies on ports 1, 2, 3 (64 bits each).
    Bift::Build(g, 1280 + 30, 256).Replicate(0, coreBits.data(), 3, out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].first, 1u);
    EXPECT_EQ(out[2].first, 3u);
    EXPECT_EQ(PopCount(out[1].second), 64u);
    // SI 3 at edge 0: everything is remote -> a single uplink copy with all 256 bits.
    const Words si3 = Range(4, 0, 256);
    Bift::Build(g, 1024, 256).Replicate(3, si3.data(), 3, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].second, si3);
}

// Random BitStrings at every switch: copies always partition the input.
TEST(BiftProperties, CopiesPartitionTheBitString)
{
    std::mt19937_64 rng(42);
    struct Case
    {
        const TopologyGraph* g;
        uint32_t bsl;
    };
    for (const Case& c :
         {Case{&Ls(), 64}, Case{&Ls(), 128}, Case{&Ft16(), 256}, Case{&Ft16(), 512}})
    {
        const uint32_t hosts = c.g->HostCount();
        for (uint32_t sw = hosts; sw < c.g->NodeCount(); sw += (hosts > 64 ? 7 : 1))
        {
            const Bift b = Bift::Build(*c.g, sw, c.bsl);
            Bift::Copies out;
            for (uint32_t si = 0; si < b.SetCount(); ++si)
            {
                for (int trial = 0; trial < 5; ++trial)
                {
                    Words in(b.Words());
                    for (auto& w : in)
                    {
                        w = rng() & rng(); // about a quarter of the bits
                    }
                    // Keep only bits of real hosts so the union must equal the input.
                    for (uint32_t bit = 0; bit < c.bsl; ++bit)
                    {
                        if (si * c.bsl + bit >= hosts)
                        {
                            in[bit / 64] &= ~(uint64_t{1} << (bit % 64));
                        }
                    }
                    b.Replicate(si, in.data(), static_cast<uint32_t>(rng()), out);
                    ExpectPartition(out, in, true);
                }
            }
        }
    }
}

// Walk one BIER packet through the fabric with every switch's BIFT: each listed receiver gets
// exactly one copy carrying only its own bit, over a shortest path; nobody else gets one.
void
ExpectBierDelivery(const TopologyGraph& g,
                   uint32_t bsl,
                   uint32_t source,
                   const std::vector<uint32_t>& receivers,
                   uint32_t entropy)
{
    std::vector<Bift> bifts;
    for (uint32_t sw = g.HostCount(); sw < g.NodeCount(); ++sw)
    {
        bifts.push_back(Bift::Build(g, sw, bsl));
    }
    const uint32_t words = bsl / 64;
    const uint32_t sets = (g.HostCount() + bsl - 1) / bsl;
    std::vector<Words> perSi(sets, Words(words, 0));
    for (uint32_t r : receivers)
    {
        perSi[r / bsl][(r % bsl) / 64] |= uint64_t{1} << (r % 64);
    }
    std::map<uint32_t, uint32_t> delivered;
    uint32_t copiesFromSource = 0;
    struct Pkt
    {
        uint32_t node;
        uint32_t si;
        Words bits;
        uint32_t hops;
    };
    std::vector<Pkt> queue;
    for (uint32_t si = 0; si < sets; ++si)
    {
        if (PopCount(perSi[si]) > 0)
        {
            queue.push_back(Pkt{g.LeafOf(source), si, perSi[si], 1}); // one copy per SI
            ++copiesFromSource;
        }
    }
    Bift::Copies out;
    while (!queue.empty())
    {
        Pkt p = std::move(queue.back());
        queue.pop_back();
        if (g.IsHost(p.node))
        {
            ++delivered[p.node];
            EXPECT_EQ(p.si, p.node / bsl);
            EXPECT_EQ(PopCount(p.bits), 1u);
            EXPECT_EQ(p.hops, g.HopCount(source, p.node)) << "not a shortest path";
            continue;
        }
        ASSERT_LE(p.hops, 8u) << "loop";
        bifts[p.node - g.HostCount()].Replicate(p.si, p.bits.data(), entropy, out);
        for (auto& [port, bits] : out)
        {
            queue.push_back(Pkt{g.Ports(p.node)[port].peer, p.si, bits, p.hops + 1});
        }
    }
    std::set<uint32_t> expected(receivers.begin(), receivers.end());
    EXPECT_EQ(delivered.size(), expected.size());
    for (const auto& [host, n] : delivered)
    {
        EXPECT_EQ(n, 1u) << "host " << host << " got duplicates";
        EXPECT_TRUE(expected.count(host)) << "host " << host << " was not a receiver";
    }
    std::set<uint32_t> sis;
    for (uint32_t r : receivers)
    {
        sis.insert(r / bsl);
    }
    EXPECT_EQ(copiesFromSource, sis.size()); // one copy per SI with receivers
}

TEST(BiftProperties, EndToEndDelivery)
{
    std::vector<uint32_t> lsAll(63);
    std::iota(lsAll.begin(), lsAll.end(), 1); // 0 -> 1..63
    for (uint32_t entropy : {0u, 1u, 4791u, 65535u})
    {
        ExpectBierDelivery(Ls(), 64, 0, lsAll, entropy);
    }
    ExpectBierDelivery(Ls(), 64, 37, {1, 2, 17, 50, 63}, 9);

    std::vector<uint32_t> ftAll;
    for (uint32_t h = 0; h < 1024; ++h)
    {
        if (h != 500)
        {
            ftAll.push_back(h);
        }
    }
    ExpectBierDelivery(Ft16(), 256, 500, ftAll, 12345); // 4 SIs -> 4 copies leave the source
    ExpectBierDelivery(Ft16(), 256, 0, {1, 9, 100, 300, 1023}, 77);
}

TEST(BiftEcmp, EntropySpreadsUplinksUniformly)
{
    // Leaf 0, one remote bit: over 1000 entropies each spine should carry ~500 copies.
    // Chi-square with 1 degree of freedom must stay below 10.83 (p = 0.001).
    const Bift leaf0 = Bift::Build(Ls(), 64, 64);
    const Words remote = BitsOf(1, {40});
    Bift::Copies out;
    std::vector<uint32_t> spines(2, 0);
    for (uint32_t e = 0; e < 1000; ++e)
    {
        leaf0.Replicate(0, remote.data(), e, out);
        ASSERT_EQ(out.size(), 1u);
        ++spines[out[0].first - 16];
    }
    EXPECT_LT(ChiSquare(spines, 500.0), kChi2Df1);

    // Fat-tree: edge 0 over its 8 uplinks (7 dof, 125 expected each), and the core the copy
    // reaches (the aggregation picks among its 8 cores): 64 cores, 63 dof, 15.6 expected. The
    // second test fails if tiers were correlated (polarisation: only 8 cores would be used).
    const TopologyGraph& g = Ft16();
    const Bift edge0 = Bift::Build(g, 1024, 256);
    std::vector<Bift> aggs;
    for (uint32_t a = 0; a < 8; ++a)
    {
        aggs.push_back(Bift::Build(g, 1152 + a, 256));
    }
    const Words farBit = BitsOf(4, {200}); // host 200, pod 3
    std::vector<uint32_t> uplinks(8, 0);
    std::vector<uint32_t> cores(64, 0);
    Bift::Copies out2;
    for (uint32_t e = 0; e < 1000; ++e)
    {
        edge0.Replicate(0, farBit.data(), e, out);
        ASSERT_EQ(out.size(), 1u);
        ++uplinks[out[0].first - 8];
        const uint32_t agg = g.Ports(1024)[out[0].first].peer;
        aggs[agg - 1152].Replicate(0, farBit.data(), e, out2);
        ASSERT_EQ(out2.size(), 1u);
        ++cores[g.Ports(agg)[out2[0].first].peer - 1280];
    }
    EXPECT_LT(ChiSquare(uplinks, 125.0), kChi2Df7);
    EXPECT_LT(ChiSquare(cores, 1000.0 / 64), kChi2Df63);
}

// For each switch, SI and entropy, the port Replicate sends a host's bit to equals the port
// SplitIds sends its BFR-id to: both encodings take the same paths.
void
ExpectSamePorts(const TopologyGraph& g, uint32_t bsl, uint32_t stride, uint32_t entropies)
{
    const uint32_t hosts = g.HostCount();
    std::vector<uint16_t> ids(hosts);
    std::iota(ids.begin(), ids.end(), uint16_t{1});
    std::mt19937 rng(5);
    std::shuffle(ids.begin(), ids.end(), rng);
    Bift::Copies copies;
    Bift::IdGroups groups;
    std::vector<int> viaBits(hosts);
    std::vector<int> viaIds(hosts);
    for (uint32_t sw = hosts; sw < g.NodeCount(); sw += stride)
    {
        const Bift b = Bift::Build(g, sw, bsl);
        for (uint32_t e = 0; e < entropies; ++e)
        {
            std::fill(viaBits.begin(), viaBits.end(), -1);
            std::fill(viaIds.begin(), viaIds.end(), -1);
            for (uint32_t si = 0; si < b.SetCount(); ++si)
            {
                const Words all = Range(b.Words(), 0, bsl);
                b.Replicate(si, all.data(), e, copies);
                for (const auto& [port, bits] : copies)
                {
                    for (uint32_t bit = 0; bit < bsl; ++bit)
                    {
                        if ((bits[bit / 64] >> (bit % 64)) & 1)
                        {
                            viaBits[si * bsl + bit] = port;
                        }
                    }
                }
            }
            Bift::SplitIds(g, sw, ids, e, groups);
            for (std::size_t k = 0; k < groups.size(); ++k)
            {
                if (k > 0)
                {
                    EXPECT_LT(groups[k - 1].first, groups[k].first);
                }
                for (uint16_t id : groups[k].second)
                {
                    viaIds[id - 1] = groups[k].first;
                }
            }
            ASSERT_EQ(viaBits, viaIds) << "switch " << sw << " entropy " << e;
        }
    }
}

TEST(BiftXpuList, SplitIdsTakesTheSamePortsAsReplicate)
{
    ExpectSamePorts(Ls(), 64, 1, 50);
    ExpectSamePorts(Ft16(), 256, 13, 8);
}

TEST(BiftXpuList, SplitIdsGroupsInListOrder)
{
    const TopologyGraph& g = Ls();
    Bift::IdGroups out;
    // At leaf 0: BFR-ids 40 (host 39, remote), 3 (host 2, port 2), 0 (invalid), 17 (host 16,
    // remote), 65 (host 64: no such host), 2 (host 1, port 1), 64 (host 63, remote).
    // Expected: port 1 [2], port 2 [3], one uplink [40, 17, 64] in list order: 3 groups.
    Bift::SplitIds(g, 64, {40, 3, 0, 17, 65, 2, 64}, 11, out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].first, 1u);
    EXPECT_EQ(out[0].second, (std::vector<uint16_t>{2}));
    EXPECT_EQ(out[1].first, 2u);
    EXPECT_EQ(out[1].second, (std::vector<uint16_t>{3}));
    EXPECT_TRUE(out[2].first == 16 || out[2].first == 17);
    EXPECT_EQ(out[2].second, (std::vector<uint16_t>{40, 17, 64}));
    // The uplink is the one Replicate picks for the same entropy.
    const Bift leaf0 = Bift::Build(g, 64, 64);
    Bift::Copies copies;
    const Words remote = BitsOf(1, {39});
    leaf0.Replicate(0, remote.data(), 11, copies);
    ASSERT_EQ(copies.size(), 1u);
    EXPECT_EQ(copies[0].first, out[2].first);
    // Reusing `out` for a smaller list leaves no stale groups.
    Bift::SplitIds(g, 64, {5}, 11, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].second, (std::vector<uint16_t>{5}));
    Bift::SplitIds(g, 64, {}, 11, out);
    EXPECT_TRUE(out.empty());
}

TEST(BiftBuild, RejectsBadArguments)
{
    const TopologyGraph& g = Ls();
    EXPECT_THROW(Bift::Build(g, 3, 64), std::invalid_argument);  // a host
    EXPECT_THROW(Bift::Build(g, 70, 64), std::invalid_argument); // no such node
    EXPECT_THROW(Bift::Build(g, 64, 32), std::invalid_argument);
    EXPECT_THROW(Bift::Build(g, 64, 96), std::invalid_argument);
    EXPECT_THROW(Bift::Build(g, 64, 8192), std::invalid_argument);
    TopologyConfig t;
    t.kind = TopologyKind::LEAF_SPINE;
    t.leaves = 2;
    t.spines = 1;
    t.hostsPerLeaf = 2;
    const TopologyGraph noRoutes = TopologyGraph::Build(t);
    EXPECT_THROW(Bift::Build(noRoutes, 4, 64), std::logic_error);
    const Bift empty;
    EXPECT_EQ(empty.SetCount(), 0u);
    EXPECT_EQ(empty.EntryCount(), 0u);
}

} // namespace

// After a failure the BIFT is rebuilt from the recomputed routes (P2mpDelivery::Reconverge):
// leaf-spine 2 x 2 x 2 (hosts 0-3, leaf0 = node 4 with ports host0, host1, spine0, spine1)
// with leaf0 - spine0 down sends leaf1's hosts out of the spine1 port alone, and a host whose
// link is down has no bit in any entry.
TEST(BiftFailures, RebuiltAroundADownLink)
{
    TopologyGraph g = LeafSpine(2, 2, 2);
    const Bift before = Bift::Build(g, 4, 64);
    ASSERT_EQ(before.Entries(0).size(), 3u);
    EXPECT_EQ(before.Entries(0)[2].ports, (std::vector<uint16_t>{2, 3}));
    g.SetLinkUp(4, 2, false);
    g.ComputeRoutes();
    const Bift after = Bift::Build(g, 4, 64);
    ASSERT_EQ(after.Entries(0).size(), 3u);
    EXPECT_EQ(after.Entries(0)[2].ports, (std::vector<uint16_t>{3}));
    EXPECT_EQ(after.Entries(0)[2].mask, BitsOf(1, {2, 3}));
    g.SetLinkUp(3, 0, false); // host3's NIC
    g.ComputeRoutes();
    const Bift leaf1 = Bift::Build(g, 5, 64);
    for (const Bift::Entry& e : leaf1.Entries(0))
    {
        EXPECT_EQ(e.mask[0] & (uint64_t{1} << 3), 0u) << "host3 is unreachable";
    }
}
