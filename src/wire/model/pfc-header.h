/*
 * IEEE 802.1Qbb Priority-based Flow Control frame body: the MAC-control payload that follows a
 * 14-byte Ethernet header with EtherType 0x8808, sent to 01:80:C2:00:00:01.
 */
#ifndef MCAST4AI_PFC_HEADER_H
#define MCAST4AI_PFC_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \brief The 46-byte PFC payload: opcode, class-enable vector, eight pause times, zero pad.
 *
 * 46 bytes so that, with its Ethernet header, the frame is the 60-byte minimum (64 with FCS)
 * that a real switch sends. The opcode is kept as received rather than checked, so that a
 * receiver can tell PFC (0x0101) from other MAC-control frames such as 802.3x PAUSE (0x0001).
 */
class PfcHeader : public Header
{
public:
    /// MAC-control opcode of a PFC frame.
    static constexpr uint16_t OPCODE = 0x0101;
    /// EtherType of MAC-control frames.
    static constexpr uint16_t ETHERTYPE = 0x8808;
    /// Priorities (traffic classes) a PFC frame addresses.
    static constexpr uint8_t PRIORITIES = 8;
    /// Size on the wire, for callers that budget link time before building a frame.
    static constexpr uint32_t SIZE = 46;

    /// Opcode OPCODE, no class enabled, all pause times 0.
    PfcHeader();

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

    /// \return the opcode as sent; OPCODE for frames this class built
    uint16_t GetOpcode() const;
    /**
     * \param vector bit i set means the pause time of priority i is valid; the upper octet is
     *        reserved and dropped (also on receive)
     */
    void SetClassEnableVector(uint16_t vector);
    uint16_t GetClassEnableVector() const;
    /**
     * Leaves the class-enable vector alone: a time of 0 with its bit set is an XON.
     * \param priority 0-7; aborts otherwise
     * \param quanta pause duration in units of 512 bit times at the port speed
     */
    void SetPauseTime(uint8_t priority, uint16_t quanta);
    /// \param priority 0-7; aborts otherwise
    uint16_t GetPauseTime(uint8_t priority) const;

    /// \return 01:80:C2:00:00:01, the reserved MAC-control group address switches never forward
    static Mac48Address DestinationAddress();

private:
    uint16_t m_opcode;                              //!< bytes 0-1
    uint16_t m_classEnableVector;                   //!< bytes 2-3
    std::array<uint16_t, PRIORITIES> m_pauseTime{}; //!< bytes 4-19, priority 0 first
};

} // namespace ns3

#endif // MCAST4AI_PFC_HEADER_H
