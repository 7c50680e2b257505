/*
 * InfiniBand Base Transport Header (IBA vol.1 §9.2), as carried by RoCEv2 right after the UDP
 * header (destination port 4791). Every RoCEv2 packet the module emits starts with one.
 */
#ifndef MCAST4AI_BTH_HEADER_H
#define MCAST4AI_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The 12-byte BTH.
 *
 * Kept bit-exact so that pcaps open in Wireshark as RoCE and sizes on the wire are real.
 * Reserved bits are sent as zero and ignored on receive, but one: the module sets the first
 * reserved bit after AckReq (byte 8 bit 6) on a data packet or ACK that carries an IOAM trace
 * right after the BTH, for a telemetry-driven congestion control (RoCEv2 defines no place
 * for in-band telemetry; HPCC's own implementation adds a header of its own).
 */
class BthHeader : public Header
{
public:
    /// Opcodes the module uses: RC transport (high bits 000), the RoCEv2 CNP, and four from
    /// the manufacturer-specific range (high bits 110): loss-tolerant data's PSN skip, the
    /// telemetry probe, its acknowledgement and the claiming probe.
    enum Opcode : uint8_t
    {
        RC_SEND_FIRST = 0x00,
        RC_SEND_MIDDLE = 0x01,
        RC_SEND_LAST = 0x02,
        RC_SEND_ONLY = 0x04,
        RC_WRITE_FIRST = 0x06,
        RC_WRITE_MIDDLE = 0x07,
        RC_WRITE_LAST = 0x08,
        RC_WRITE_ONLY = 0x0A,
        RC_ACKNOWLEDGE = 0x11,
        CNP = 0x81,
        /// A PSN given up on: a SkipHeader follows (loss-tolerant data, skip-header.h)
        RC_SKIP = 0xC0,
        /// A telemetry probe: an IoamTraceHeader follows, which switches stamp on the way
        /// (probe-frame-builder.h)
        RC_PROBE = 0xC1,
        /// The probe's acknowledgement: its trace echoed back to the sender, not stamped
        RC_PROBE_ACK = 0xC2,
        /// A telemetry probe that also claims its path: switches count its ingress among the
        /// senders of the egress queue it leaves by, as a data frame's, for a while after
        /// (telemetry-stage.h); answered with RC_PROBE_ACK like any probe
        RC_PROBE_CLAIM = 0xC3,
    };

    /// Size on the wire, for callers that budget MTUs before building a packet.
    static constexpr uint32_t SIZE = 12;

    /// Opcode 0 (RC_SEND_FIRST), P_Key 0xFFFF (default partition), every other field 0.
    BthHeader();

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

    void SetOpcode(uint8_t opcode);
    uint8_t GetOpcode() const;
    void SetSolicitedEvent(bool se);
    bool GetSolicitedEvent() const;
    /// Real RC NICs send MigReq=1; the default stays 0 and is left to the caller.
    void SetMigReq(bool migReq);
    bool GetMigReq() const;
    /// \param padCount bytes of pad before the ICRC (0-3; higher bits are dropped)
    void SetPadCount(uint8_t padCount);
    uint8_t GetPadCount() const;
    /// \param version transport header version (4 bits; 0 is the only defined one)
    void SetTransportVersion(uint8_t version);
    uint8_t GetTransportVersion() const;
    void SetPartitionKey(uint16_t pkey);
    uint16_t GetPartitionKey() const;
    /// FECN: set by an ECN-marking switch path in native IB; RoCEv2 uses the IP ECN bits instead.
    void SetFecn(bool fecn);
    bool GetFecn() const;
    /// BECN: set in RoCEv2 CNPs.
    void SetBecn(bool becn);
    bool GetBecn() const;
    /// \param qp destination queue pair number; only the low 24 bits are kept
    void SetDestQp(uint32_t qp);
    uint32_t GetDestQp() const;
    void SetAckRequest(bool ackReq);
    bool GetAckRequest() const;
    /// \param psn packet sequence number; only the low 24 bits are kept
    void SetPsn(uint32_t psn);
    uint32_t GetPsn() const;

    /// \return true if a RETH follows the BTH (the first packet of an RDMA WRITE)
    /// PSNs are 24-bit on the wire.
    static constexpr uint32_t PSN_MASK = 0xFFFFFF;

    /// The full (64-bit) PSN nearest to ref whose low 24 bits are psn24: requesters,
    /// responders and ACK aggregators all count PSNs past the 24-bit wrap this way.
    static constexpr uint64_t UnwrapPsn(uint32_t psn24, uint64_t ref)
    {
        uint64_t fwd = (psn24 - ref) & PSN_MASK;
        if (fwd < (PSN_MASK + 1) / 2)
        {
            return ref + fwd;
        }
        uint64_t back = PSN_MASK + 1 - fwd;
        return ref >= back ? ref - back : 0;
    }

    static constexpr bool CarriesReth(uint8_t op)
    {
        return op == RC_WRITE_FIRST || op == RC_WRITE_ONLY;
    }

    /// \return true if an AETH follows the BTH
    static constexpr bool CarriesAeth(uint8_t op)
    {
        return op == RC_ACKNOWLEDGE;
    }

    /// \return true for the SEND and WRITE opcodes, the ones that carry message payload
    static constexpr bool IsData(uint8_t op)
    {
        return op == RC_SEND_FIRST || op == RC_SEND_MIDDLE || op == RC_SEND_LAST
               || op == RC_SEND_ONLY || op == RC_WRITE_FIRST || op == RC_WRITE_MIDDLE
               || op == RC_WRITE_LAST || op == RC_WRITE_ONLY;
    }

    /// \return true for the telemetry probes switches stamp: RC_PROBE and RC_PROBE_CLAIM
    static constexpr bool IsProbe(uint8_t op)
    {
        return op == RC_PROBE || op == RC_PROBE_CLAIM;
    }

    /// \return true for what a requester sends its responder: data, or a PSN skip
    static constexpr bool IsRequest(uint8_t op)
    {
        return IsData(op) || op == RC_SKIP;
    }

    /// \return true if the packet starts a message (FIRST or ONLY)
    static constexpr bool IsFirst(uint8_t op)
    {
        return op == RC_SEND_FIRST || op == RC_SEND_ONLY || op == RC_WRITE_FIRST
               || op == RC_WRITE_ONLY;
    }

    /// \return true if the packet ends a message (LAST or ONLY)
    static constexpr bool IsLast(uint8_t op)
    {
        return op == RC_SEND_LAST || op == RC_SEND_ONLY || op == RC_WRITE_LAST
               || op == RC_WRITE_ONLY;
    }

    /// Mark the packet as carrying an IoamTraceHeader right after the BTH (the module's use
    /// of a reserved bit, see above).
    void SetTelemetry(bool telemetry);
    bool GetTelemetry() const;
    /// The bit in byte 8 that SetTelemetry sets.
    static constexpr uint8_t TELEMETRY_BIT = 0x40;

    /// \return the enum name of a known opcode, "UNKNOWN" otherwise (never null)
    static const char* OpcodeName(uint8_t op);

private:
    uint8_t m_opcode;      //!< byte 0
    bool m_solicitedEvent; //!< byte 1 bit 7
    bool m_migReq;         //!< byte 1 bit 6
    uint8_t m_padCount;    //!< byte 1 bits 5-4
    uint8_t m_tver;        //!< byte 1 bits 3-0
    uint16_t m_pkey;       //!< bytes 2-3
    bool m_fecn;           //!< byte 4 bit 7
    bool m_becn;           //!< byte 4 bit 6
    uint32_t m_destQp;     //!< bytes 5-7
    bool m_ackRequest;     //!< byte 8 bit 7
    bool m_telemetry;      //!< byte 8 bit 6 (reserved in IBA): an IOAM trace follows
    uint32_t m_psn;        //!< bytes 9-11
};

} // namespace ns3

#endif // MCAST4AI_BTH_HEADER_H
