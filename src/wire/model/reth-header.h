/*
 * InfiniBand RDMA Extended Transport Header (IBA vol.1 §9.3.3): names the remote buffer of an
 * RDMA WRITE. It follows the BTH only on the first packet of a message (WRITE_FIRST/ONLY).
 */
#ifndef MCAST4AI_RETH_HEADER_H
#define MCAST4AI_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The 16-byte RETH: virtual address, R_Key, DMA length.
 */
class RethHeader : public Header
{
public:
    /// Size on the wire, for callers that budget MTUs before building a packet.
    static constexpr uint32_t SIZE = 16;

    /// All fields zero.
    RethHeader();

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

    void SetVirtualAddress(uint64_t va);
    uint64_t GetVirtualAddress() const;
    void SetRkey(uint32_t rkey);
    uint32_t GetRkey() const;
    /// \param length bytes of the whole message, not of this packet
    void SetDmaLength(uint32_t length);
    uint32_t GetDmaLength() const;

private:
    uint64_t m_virtualAddress; //!< bytes 0-7
    uint32_t m_rkey;           //!< bytes 8-11
    uint32_t m_dmaLength;      //!< bytes 12-15
};

} // namespace ns3

#endif // MCAST4AI_RETH_HEADER_H
