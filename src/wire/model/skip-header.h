/*
 * The PSN-skip notice of loss-tolerant data: a requester that gives up on a PSN (its
 * retransmission budget spent) sends this instead of the data, so that the responder moves
 * past the hole and reports the bytes lost. It is the RoCE counterpart of SCTP's FORWARD TSN
 * (RFC 3758), which the inference-transport draft cites for partial reliability. The packet is
 * a BTH with the manufacturer-specific opcode BthHeader::RC_SKIP and the PSN skipped, then this
 * 4-byte header, then the ICRC.
 */
#ifndef MCAST4AI_SKIP_HEADER_H
#define MCAST4AI_SKIP_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The 4-byte skip extended header: the opcode the skipped packet had (8 bits) and its
 * payload bytes (24 bits).
 *
 * The opcode tells the responder whether the skipped packet ended a message (so that the
 * message completes, short of the skipped bytes). FrameInfo reads the two fields into
 * syndrome and msn, where an AETH's would be.
 */
class SkipHeader : public Header
{
public:
    /// Size on the wire.
    static constexpr uint32_t SIZE = 4;

    SkipHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// The opcode of the packet given up on (SEND/WRITE MIDDLE, LAST ...).
    void SetSkippedOpcode(uint8_t opcode);
    uint8_t GetSkippedOpcode() const;
    /// Its payload bytes; only the low 24 bits are kept (a packet is at most an MTU).
    void SetSkippedBytes(uint32_t bytes);
    uint32_t GetSkippedBytes() const;

private:
    uint8_t m_opcode;
    uint32_t m_bytes;
};

} // namespace ns3

#endif /* MCAST4AI_SKIP_HEADER_H */
