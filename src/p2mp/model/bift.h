/*
 * BIER Bit Index Forwarding Table (RFC 8279 section 6) of one switch, derived from the fabric's
 * ECMP routing, and the replication procedure of section 6.5 with the ECMP rule of section 6.7.
 */
#ifndef MCAST4AI_BIFT_H
#define MCAST4AI_BIFT_H

#include "fabric/model/path-choice.h"
#include "topology/model/topology-graph.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief The BIFT of one switch for one BitString length (BSL).
 *
 * Only hosts are BFERs: host h has BFR-id h + 1, set identifier SI = h / BSL and bit index
 * h % BSL inside that SI's BitString. A BitString is a run of BSL / 64 little-endian words:
 * bit index k lives in word k / 64 at bit k % 64 (the layout of BitString's word vector).
 *
 * Per SI the table holds one entry per DISTINCT next-hop port set used by the SI's hosts, with
 * the forwarding bit mask F-BM = the hosts that use that set. Remote hosts share the uplink set,
 * so a ToR holds (its hosts in this SI) + 1 entries and a spine one entry per leaf.
 *
 * ECMP (RFC 8279 section 6.7): an entry with several ports forwards on ONE of them, chosen by
 * ChoosePort() from the packet's entropy, the switch node and the set's lowest port. The choice
 * does not depend on table layout, so SplitIds() (XPU-ID lists) takes exactly the same ports.
 */
class Bift
{
public:
    /// One BIFT row: the candidate ports (ascending) and the F-BM (Words() words).
    struct Entry
    {
        std::vector<uint16_t> ports;
        std::vector<uint64_t> mask;
    };

    /// Copies produced by one replication: (egress port, that copy's BitString words / ID list).
    using Copies = std::vector<std::pair<uint16_t, std::vector<uint64_t>>>;
    using IdGroups = std::vector<std::pair<uint16_t, std::vector<uint16_t>>>;

    /// Smallest and largest BitString lengths of RFC 8296 (BSL codes 1..7).
    static constexpr uint32_t kMinBsl = 64;
    static constexpr uint32_t kMaxBsl = 4096;

    /// An empty table (no SI); use Build().
    Bift() = default;

    /**
     * \param g a topology with routes computed
     * \param switchNode a switch of g
     * \param bslBits the BitString length: a power of two in [64, 4096]
     * \return the switch's BIFT
     * \throws std::invalid_argument for a bad node or BSL; std::logic_error without routes
     */
    static Bift Build(const TopologyGraph& g, uint32_t switchNode, uint32_t bslBits);

    /// \return the number of set identifiers, ceil(H / BSL)
    uint32_t SetCount() const;
    /// \return the words of one BitString, BSL / 64
    uint32_t Words() const;
    uint32_t BslBits() const;
    /// \return the switch this table belongs to
    uint32_t Node() const;

    /**
     * \param si a set identifier < SetCount()
     * \return the entries of that SI, ordered by port set (lexicographically)
     * \throws std::out_of_range for a bad SI
     */
    const std::vector<Entry>& Entries(uint32_t si) const;

    /**
     * RFC 8279 section 6.5: while bits remain, take the lowest set bit, send a copy carrying
     * BitString AND F-BM on the port ChoosePort() picks from the entry, and clear F-BM from the
     * remaining bits. Bits of unknown BFERs (no entry, e.g. padding beyond the last host) are
     * dropped. Copies that land on the same port are ORed, so each port gets at most one.
     *
     * Cost: O(copies x Words()) plus one word scan; allocation-free when `out` is reused across
     * calls (its inner vectors keep their capacity). An SI >= SetCount() yields no copies.
     *
     * \param si the packet's set identifier
     * \param bitString Words() words
     * \param entropy the packet's entropy (the UDP source port)
     * \param out replaced by the copies, ascending by port
     * \param spray when given (a per-packet path choice, load_balancing.mode spray-*), it
     *        picks among an entry's equal-cost ports instead of the entropy rule
     * \param fi the packet's fields, for spray
     */
    void Replicate(uint32_t si,
                   const uint64_t* bitString,
                   uint32_t entropy,
                   Copies& out,
                   PathChoice* spray = nullptr,
                   const FrameInfo* fi = nullptr) const;

    /**
     * XPU-ID-list forwarding: group an explicit list of receiver BFR-ids by the egress port the
     * same ECMP rule as Replicate() picks, keeping the list order within each group.
     *
     * Cost per ID: one NextHopPorts() lookup (three array reads) and one 64-bit mix; finding the
     * ID's group is O(1) when consecutive IDs share a port (sorted lists), else O(groups).
     * IDs 0, beyond the last host or equal to switchNode's own host (when switchNode is a host)
     * are dropped; duplicates are forwarded as given.
     *
     * \param g the topology (routes computed)
     * \param switchNode the replicating node
     * \param bfrIds receiver BFR-ids (host + 1)
     * \param entropy the packet's entropy
     * \param out replaced by (port, IDs) groups, ascending by port
     * \param spray, fi as for Replicate()
     */
    static void SplitIds(const TopologyGraph& g,
                         uint32_t switchNode,
                         const std::vector<uint16_t>& bfrIds,
                         uint32_t entropy,
                         IdGroups& out,
                         PathChoice* spray = nullptr,
                         const FrameInfo* fi = nullptr);

    /**
     * The ECMP choice shared by Replicate() and SplitIds():
     * ports[Mix64(node << 32 | entropy, ports[0]) % ports.size()]. The node term decorrelates
     * tiers (no polarisation), the lowest port distinguishes sets of one switch.
     *
     * \param ports a non-empty candidate set
     * \param node the replicating node
     * \param entropy the packet's entropy
     * \return one port of the set
     */
    static uint16_t ChoosePort(const std::vector<uint16_t>& ports, uint32_t node, uint32_t entropy);

    /// \return the number of entries over all SIs (the BIFT state the metrics report)
    std::size_t EntryCount() const;
    /// \return the approximate memory the table holds, in bytes
    std::size_t Bytes() const;

private:
    static constexpr uint16_t kNoEntry = 0xFFFF;

    uint32_t m_node{0};
    uint32_t m_bslBits{0};
    uint32_t m_words{0};
    std::size_t m_entryCount{0};
    std::vector<std::vector<Entry>> m_entries; // [si] -> entries
    std::vector<uint8_t> m_disjoint;           // [si] -> no two entries share a port
    std::vector<uint16_t> m_bitEntry;          // [si * bsl + bit] -> entry index or kNoEntry
};

} // namespace ns3

#endif /* MCAST4AI_BIFT_H */
