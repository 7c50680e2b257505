/*
 * Several headers written into a packet as one, so the packet's buffer grows once.
 */
#ifndef MCAST4AI_COMPOSITE_HEADER_H
#define MCAST4AI_COMPOSITE_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \brief A write-only Header made of other headers, outermost first.
 *
 * Packet::AddHeader grows an ns-3 buffer to exactly the bytes it needs, so building a frame of
 * five headers one by one costs five allocations and five copies of the bytes already written.
 * Adding them as one composite costs one. The bytes are the components' own serialisations,
 * back to back, so the frame is byte-identical to one built header by header, with one
 * exception a caller must handle: a header that reads the buffer size from its iterator (ns-3's
 * UdpHeader writes its length that way) sees the whole composite, so its size must be forced
 * (UdpHeader::ForcePayloadSize).
 *
 * Components are referenced, not copied: they must outlive the composite's AddHeader, and
 * must not change size after Append. The composite cannot be deserialised; read the components
 * back one by one. For the same reason it does not mix with ns-3's packet printing or checking
 * (Packet::EnablePrinting / EnableChecking record one CompositeHeader item), and a component's
 * checksum over "the rest of the buffer" (UdpHeader::EnableChecksums) would cover the whole
 * composite: neither is used in this module.
 */
class CompositeHeader : public Header
{
public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// Append h behind the headers already in the composite.
    void Append(const Header& h);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

private:
    static constexpr std::size_t MAX_HEADERS = 8;
    std::array<const Header*, MAX_HEADERS> m_headers{};
    std::size_t m_count{0};
    uint32_t m_size{0};
};

} // namespace ns3

#endif // MCAST4AI_COMPOSITE_HEADER_H
