/*
 * InfiniBand ACK Extended Transport Header (IBA vol.1 §9.3.5): follows the BTH of an
 * RC_ACKNOWLEDGE and says whether it acknowledges (ACK) or refuses (NAK, RNR NAK) the PSN in
 * that BTH.
 */
#ifndef MCAST4AI_AETH_HEADER_H
#define MCAST4AI_AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The 4-byte AETH: syndrome (8 bits) and MSN (24 bits).
 *
 * Syndrome bit 7 is reserved; bits 6-5 give the kind (00 ACK, 01 RNR NAK, 11 NAK; 10 is
 * reserved) and bits 4-0 its value (credit count, RNR timer or NAK code).
 */
class AethHeader : public Header
{
public:
    /// Low five syndrome bits of a NAK (bits 6-5 = 11).
    enum NakCode : uint8_t
    {
        PSN_SEQUENCE_ERROR = 0,
        INVALID_REQUEST = 1,
        REMOTE_ACCESS_ERROR = 2,
        REMOTE_OPERATIONAL_ERROR = 3,
        INVALID_RD_REQUEST = 4,
    };

    /// Credit count meaning "no end-to-end flow control": what the module's ACKs carry.
    static constexpr uint8_t INVALID_CREDIT_COUNT = 0x1F;

    /// Size on the wire, for callers that budget MTUs before building a packet.
    static constexpr uint32_t SIZE = 4;

    /// An ACK with INVALID_CREDIT_COUNT and MSN 0.
    AethHeader();

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

    /// \param credits low five bits kept; the default says the responder does no flow control
    void SetAck(uint8_t credits = INVALID_CREDIT_COUNT);
    /// \param code a NakCode; low five bits kept
    void SetNak(uint8_t code);
    /// \param timer encoded RNR timer (IBA table 45); low five bits kept
    void SetRnrNak(uint8_t timer);
    bool IsAck() const;
    bool IsNak() const;
    bool IsRnrNak() const;
    /// \return the low five syndrome bits; a NakCode only when IsNak()
    uint8_t GetNakCode() const;
    /// \return the low five syndrome bits; a credit count only when IsAck()
    uint8_t GetCreditCount() const;
    /// \return the low five syndrome bits; an RNR timer only when IsRnrNak()
    uint8_t GetRnrTimer() const;
    /// Raw access, for syndromes the helpers above do not build.
    void SetSyndrome(uint8_t syndrome);
    uint8_t GetSyndrome() const;
    /// \param msn message sequence number; only the low 24 bits are kept
    void SetMsn(uint32_t msn);
    uint32_t GetMsn() const;

private:
    uint8_t m_syndrome; //!< byte 0
    uint32_t m_msn;     //!< bytes 1-3
};

} // namespace ns3

#endif // MCAST4AI_AETH_HEADER_H
