/*
 * Counters of the fabric's frames by the traffic they belong to (a workload, a straggler),
 * so that a scenario mixing several can tell whose bytes, ACKs and CNPs are whose.
 */
#ifndef MCAST4AI_TRAFFIC_LEDGER_H
#define MCAST4AI_TRAFFIC_LEDGER_H

#include "fabric/model/op-ledger.h"
#include "ns3/object.h"
#include "wire/model/bth-header.h"
#include "wire/model/frame-info.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Per-owner counters of what the ports, NICs and switches did with each frame.
 *
 * Every frame carries an owner (FrameInfo::owner): its NIC stamps it from the queue pair or
 * group responder that made it, a switch's copies and aggregated ACKs inherit it, and frames
 * nothing owns (PFC pauses) keep 0. One ledger serves the whole fabric; each port, NIC and
 * switch adds to the row of the frame's owner, so the rows of all owners sum to the fabric's
 * totals. A row is a few adds per frame in a 256-row table that stays in cache.
 */
class TrafficLedger : public Object
{
public:
    static TypeId GetTypeId();
    TrafficLedger();

    /// Owners a frame can name: FrameInfo::owner is one byte, and 0 is "nobody".
    static constexpr uint32_t MAX_OWNERS = 256;
    static constexpr uint8_t NO_OWNER = 0;

    struct Counters
    {
        uint64_t linkBytes{0};       ///< bytes sent on every link (each hop counted)
        uint64_t packetHops{0};      ///< frames sent on every link
        uint64_t dataPackets{0};     ///< RoCEv2 data frames that left a NIC (copies included)
        uint64_t dataBytes{0};       ///< their RDMA payload bytes
        uint64_t headerBytes{0};     ///< their other bytes
        uint64_t p2mpPackets{0};     ///< P2MP packets that left a NIC ...
        uint64_t p2mpCopies{0};      ///< ... and the frames they took there
        uint64_t p2mpHeaderBytes{0}; ///< the other bytes of those frames (P2MP header included)
        uint64_t acksAtSenders{0};   ///< ACKs and NAKs a NIC received
        uint64_t cnps{0};            ///< CNPs a NIC sent
        uint64_t ecnMarks{0};        ///< frames a switch marked CE
        uint64_t drops{0};           ///< frames a switch dropped
        uint64_t aggregatedAcks{0};  ///< ACKs a switch's aggregation point sent
        uint64_t lostPackets{0};     ///< loss-tolerant packets a responder took as skipped
        uint64_t lostBytes{0};       ///< ... and their payload bytes

        /// Add another row's counts (a workload's two sources).
        Counters& operator+=(const Counters& o)
        {
            linkBytes += o.linkBytes;
            packetHops += o.packetHops;
            dataPackets += o.dataPackets;
            dataBytes += o.dataBytes;
            headerBytes += o.headerBytes;
            p2mpPackets += o.p2mpPackets;
            p2mpCopies += o.p2mpCopies;
            p2mpHeaderBytes += o.p2mpHeaderBytes;
            acksAtSenders += o.acksAtSenders;
            cnps += o.cnps;
            ecnMarks += o.ecnMarks;
            drops += o.drops;
            aggregatedAcks += o.aggregatedAcks;
            lostPackets += o.lostPackets;
            lostBytes += o.lostBytes;
            return *this;
        }
    };

    Counters& Row(uint8_t owner)
    {
        return m_rows[owner];
    }

    const Counters& Get(uint8_t owner) const
    {
        return m_rows[owner];
    }

    /// A port put a frame on its link (the OpLedger's id of it).
    void LinkSent(const FrameInfo& fi, uint32_t link)
    {
        Counters& c = m_rows[fi.owner];
        c.linkBytes += fi.size;
        ++c.packetHops;
        if (fi.roce && fi.opcode == BthHeader::RC_ACKNOWLEDGE && link < m_linkClass.size())
        {
            ++m_acksByClass[m_linkClass[link]];
        }
        if (fi.op && m_ops)
        {
            m_ops->Sent(fi, link);
        }
    }

    /// Tiers of the switches a fabric has: 0 host, 1 leaf (edge), 2 spine (aggregation), 3 core.
    static constexpr uint32_t TIERS = 4;
    /// Link `link` goes from a node of tier `from` to one of tier `to`: its ACK frames count in
    /// that class (ACKsByLinkClass).
    void SetLinkClass(uint32_t link, uint32_t from, uint32_t to);
    /// ACK and NAK frames (switches' aggregates included) put on links of each class, by
    /// from * TIERS + to; classes no link belongs to are absent.
    std::vector<std::pair<uint32_t, uint64_t>> GetAcksByLinkClass() const;

    /// The finer rows, per operation, that tagged frames also count in (none: not counted).
    void SetOpLedger(Ptr<OpLedger> ops);
    /// Its rows and ACK counts by link class (not the per-operation ledger's: OpLedger::Pack).
    void Pack(PackedBytes& out) const;
    /// Add another process's counts (Pack) to these.
    void MergeFrom(PackedBytes& in);
    /// The per-operation ledger, or null. A raw pointer: switches read it per frame.
    OpLedger* GetOpLedger() const
    {
        return PeekPointer(m_ops);
    }

protected:
    void DoDispose() override;

private:
    std::array<Counters, MAX_OWNERS> m_rows;
    std::vector<uint8_t> m_linkClass; // by OpLedger link id: from tier * TIERS + to tier
    std::array<uint64_t, TIERS * TIERS> m_acksByClass{};
    std::array<bool, TIERS * TIERS> m_classUsed{};
    Ptr<OpLedger> m_ops;
};

} // namespace ns3

#endif /* MCAST4AI_TRAFFIC_LEDGER_H */
