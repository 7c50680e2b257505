/*
 * The source side of a P2MP mechanism: turns one RoCEv2 packet of a message into the frames
 * that leave the sending NIC. BIER: one frame per set identifier the receivers span, each with
 * its BitString (RFC 8279: the source is the BFIR). XPU-ID list: one frame listing the
 * receivers. New protocol: one frame with the group's shim (and, on a message's first packet,
 * the receivers' addresses when no group memory region is pre-registered).
 */
#ifndef MCAST4AI_P2MP_SENDER_H
#define MCAST4AI_P2MP_SENDER_H

#include "ns3/mac48-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "rdma/model/p2mp-encapsulator.h"
#include "wire/model/bier-header.h"
#include "wire/model/group-shim-header.h"
#include "wire/model/xpu-list-header.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \brief Encapsulates one sender's P2MP packets.
 */
class P2mpSender : public P2mpEncapsulator
{
public:
    static TypeId GetTypeId();

    enum Mechanism : uint8_t
    {
        BIER,
        XPU_LIST,
        NEW_PROTOCOL
    };

    void Setup(Mechanism mechanism, uint32_t sourceHost, uint32_t bslBits, uint16_t entropy);
    /// Carry each receiver's remote address in the first packet of a message (new protocol).
    void SetAddressList(bool enabled);
    /// The new protocol's shim announces in-network ACK aggregation and ack-free delivery.
    void SetShimFlags(bool ackAggregation, bool ackFree);
    Mechanism GetMechanism() const;

    /**
     * Frames for one packet: `inner` is the UDP/IPv4-wrapped RoCEv2 packet. `first` marks the
     * message's first packet. Frames are appended to out; the last reuses `inner`.
     */
    void Encapsulate(Ptr<Packet> inner,
                     const Target& target,
                     bool first,
                     Mac48Address srcMac,
                     std::vector<Ptr<Packet>>& out) override;

    /// Copies that leave the source for one packet of this target (SIs spanned, or 1).
    uint32_t CopiesFor(const Target& target) override;

private:
    void Prepare(const Target& target);

    Mechanism m_mechanism{BIER};
    uint32_t m_source{0};
    uint32_t m_bsl{256};
    uint16_t m_entropy{0};
    bool m_addressList{false};
    bool m_flagAggregation{false};
    bool m_flagAckFree{false};

    // Headers of the message being sent, rebuilt when the receiver set changes. The set is
    // held, not just its address: a message's list is freed once the message completes, and
    // the next message's list may be allocated at the same address with other receivers.
    std::shared_ptr<const std::vector<uint32_t>> m_preparedFor;
    uint32_t m_preparedGroup{0};
    std::vector<BierHeader> m_bier;
    XpuListHeader m_xpu;
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_SENDER_H */
