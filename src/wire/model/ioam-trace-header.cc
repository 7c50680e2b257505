/*
 * The IOAM pre-allocated trace: layout in ioam-trace-header.h.
 */
#include "wire/model/ioam-trace-header.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IoamTraceHeader");

NS_OBJECT_ENSURE_REGISTERED(IoamTraceHeader);

namespace
{
/// IOAM-Type of the pre-allocated trace option (IANA IOAM Option-Type registry).
constexpr uint8_t IOAM_PREALLOCATED_TRACE = 0;
constexpr uint32_t MASK_24 = 0x00FFFFFF;
} // namespace

bool
IoamTraceHeader::NodeData::operator==(const NodeData& o) const
{
    return hopLimit == o.hopLimit && nodeId == o.nodeId && ingressIf == o.ingressIf
           && egressIf == o.egressIf && seconds == o.seconds && nanoseconds == o.nanoseconds
           && transitDelayNs == o.transitDelayNs && utilisation == o.utilisation
           && sharers == o.sharers && rank == o.rank && queueDepthBytes == o.queueDepthBytes
           && txBytes == o.txBytes && linkRateMbps == o.linkRateMbps;
}

IoamTraceHeader::IoamTraceHeader() = default;

TypeId
IoamTraceHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IoamTraceHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<IoamTraceHeader>();
    return tid;
}

TypeId
IoamTraceHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
IoamTraceHeader::NodeWords(uint32_t traceType)
{
    if (traceType & ~SUPPORTED_BITS)
    {
        return 0;
    }
    uint32_t words = 0;
    for (uint32_t bit : {BIT_NODE_ID,
                         BIT_INTERFACES,
                         BIT_SECONDS,
                         BIT_NANOSECONDS,
                         BIT_TRANSIT,
                         BIT_NAMESPACE_DATA,
                         BIT_QUEUE_DEPTH})
    {
        words += (traceType & bit) != 0;
    }
    return words + ((traceType & BIT_WIDE_NAMESPACE_DATA) ? 2 : 0);
}

uint32_t
IoamTraceHeader::SizeFor(uint32_t hops, uint32_t traceType)
{
    return FIXED_BYTES + 4 * std::min(hops * NodeWords(traceType), MAX_DATA_WORDS);
}

void
IoamTraceHeader::Allocate(uint32_t hops, uint32_t traceType)
{
    NS_LOG_FUNCTION(this << hops << traceType);
    NS_ASSERT_MSG(NodeWords(traceType) > 0, "a trace type of this header's fields");
    m_traceType = traceType;
    m_nodeLen = NodeWords(traceType);
    m_dataWords = (SizeFor(hops, traceType) - FIXED_BYTES) / 4;
    m_remainingWords = m_dataWords;
    m_wellFormed = true;
    m_nodes.clear();
    m_opaque.clear();
}

uint32_t
IoamTraceHeader::AnnouncedBytes(const uint8_t* firstWord)
{
    if (firstWord[0] != IOAM_PREALLOCATED_TRACE || firstWord[1] < FIXED_BYTES / 4)
    {
        return 0;
    }
    return 4u * firstWord[1];
}

uint32_t
IoamTraceHeader::GetSerializedSize() const
{
    return FIXED_BYTES + 4 * m_dataWords;
}

void
IoamTraceHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this << &start);
    uint32_t words = GetSerializedSize() / 4;
    start.WriteU8(IOAM_PREALLOCATED_TRACE);
    start.WriteU8(static_cast<uint8_t>(words));
    start.WriteU8(0);
    start.WriteU8(0); // nothing follows inside the probe
    start.WriteHtonU16(m_namespaceId);
    start.WriteHtonU16(static_cast<uint16_t>(((m_nodeLen & 0x1F) << 11) | ((m_flags & 0xF) << 7)
                                             | (m_remainingWords & 0x7F)));
    start.WriteHtonU32((m_traceType & MASK_24) << 8);
    if (!m_wellFormed)
    {
        for (uint32_t w : m_opaque)
        {
            start.WriteHtonU32(w);
        }
        return;
    }
    for (uint32_t i = 0; i < m_remainingWords; ++i)
    {
        start.WriteHtonU32(0);
    }
    // The latest hop's data sits lowest in the packet, just above the free space.
    for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it)
    {
        // The fields of the bits set, in bit order (RFC 9197 §4.4.1).
        if (m_traceType & BIT_NODE_ID)
        {
            start.WriteHtonU32((static_cast<uint32_t>(it->hopLimit) << 24)
                               | (it->nodeId & MASK_24));
        }
        if (m_traceType & BIT_INTERFACES)
        {
            start.WriteHtonU16(it->ingressIf);
            start.WriteHtonU16(it->egressIf);
        }
        if (m_traceType & BIT_SECONDS)
        {
            start.WriteHtonU32(it->seconds);
        }
        if (m_traceType & BIT_NANOSECONDS)
        {
            start.WriteHtonU32(it->nanoseconds);
        }
        if (m_traceType & BIT_TRANSIT)
        {
            start.WriteHtonU32(it->transitDelayNs);
        }
        if (m_traceType & BIT_NAMESPACE_DATA)
        {
            start.WriteHtonU32((uint32_t{it->utilisation} << 16) | (uint32_t{it->sharers} << 8)
                               | it->rank);
        }
        if (m_traceType & BIT_QUEUE_DEPTH)
        {
            start.WriteHtonU32(it->queueDepthBytes);
        }
        if (m_traceType & BIT_WIDE_NAMESPACE_DATA)
        {
            start.WriteHtonU32(it->txBytes);
            start.WriteHtonU32(it->linkRateMbps);
        }
    }
}

uint32_t
IoamTraceHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this << &start);
    uint8_t type = start.ReadU8();
    uint32_t words = start.ReadU8();
    start.ReadU8();
    start.ReadU8();
    m_namespaceId = start.ReadNtohU16();
    uint16_t w = start.ReadNtohU16();
    m_nodeLen = (w >> 11) & 0x1F;
    m_flags = (w >> 7) & 0xF;
    m_remainingWords = w & 0x7F;
    m_traceType = (start.ReadNtohU32() >> 8) & MASK_24;
    m_dataWords = words >= FIXED_BYTES / 4 ? words - FIXED_BYTES / 4 : 0;
    m_nodes.clear();
    m_opaque.clear();
    uint32_t filled = m_dataWords >= m_remainingWords ? m_dataWords - m_remainingWords : 0;
    m_wellFormed = type == IOAM_PREALLOCATED_TRACE && m_nodeLen > 0
                   && m_nodeLen == NodeWords(m_traceType) && m_remainingWords <= m_dataWords
                   && filled % m_nodeLen == 0;
    if (!m_wellFormed)
    {
        NS_LOG_LOGIC("trace type " << m_traceType << ", node length " << +m_nodeLen << ", "
                                   << m_remainingWords << " of " << m_dataWords
                                   << " words free: not a trace this header reads, kept opaque");
        for (uint32_t i = 0; i < m_dataWords; ++i)
        {
            m_opaque.push_back(start.ReadNtohU32());
        }
        return GetSerializedSize();
    }
    start.Next(4 * m_remainingWords);
    m_nodes.resize(filled / m_nodeLen);
    for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it)
    {
        if (m_traceType & BIT_NODE_ID)
        {
            uint32_t id = start.ReadNtohU32();
            it->hopLimit = static_cast<uint8_t>(id >> 24);
            it->nodeId = id & MASK_24;
        }
        if (m_traceType & BIT_INTERFACES)
        {
            it->ingressIf = start.ReadNtohU16();
            it->egressIf = start.ReadNtohU16();
        }
        if (m_traceType & BIT_SECONDS)
        {
            it->seconds = start.ReadNtohU32();
        }
        if (m_traceType & BIT_NANOSECONDS)
        {
            it->nanoseconds = start.ReadNtohU32();
        }
        if (m_traceType & BIT_TRANSIT)
        {
            it->transitDelayNs = start.ReadNtohU32();
        }
        if (m_traceType & BIT_NAMESPACE_DATA)
        {
            uint32_t data = start.ReadNtohU32();
            it->utilisation = static_cast<uint16_t>(data >> 16);
            it->sharers = static_cast<uint8_t>(data >> 8);
            it->rank = static_cast<uint8_t>(data);
        }
        if (m_traceType & BIT_QUEUE_DEPTH)
        {
            it->queueDepthBytes = start.ReadNtohU32();
        }
        if (m_traceType & BIT_WIDE_NAMESPACE_DATA)
        {
            it->txBytes = start.ReadNtohU32();
            it->linkRateMbps = start.ReadNtohU32();
        }
    }
    return GetSerializedSize();
}

void
IoamTraceHeader::Print(std::ostream& os) const
{
    os << "IOAM trace ns=" << m_namespaceId << " flags=0x" << std::hex << int(m_flags) << std::dec
       << " remaining=" << m_remainingWords << "/" << m_dataWords << " words";
    for (const NodeData& n : m_nodes)
    {
        os << " [node " << n.nodeId << " if " << n.ingressIf << ">" << n.egressIf << " delay "
           << n.transitDelayNs << " ns util " << double(n.utilisation) / UTILISATION_ONE
           << " sharers " << int(n.sharers) << " rank " << int(n.rank) << " queue "
           << n.queueDepthBytes << " B tx " << n.txBytes << " B rate " << n.linkRateMbps
           << " Mb/s]";
    }
}

void
IoamTraceHeader::SetNamespaceId(uint16_t id)
{
    m_namespaceId = id;
}

uint16_t
IoamTraceHeader::GetNamespaceId() const
{
    return m_namespaceId;
}

void
IoamTraceHeader::SetFlags(uint8_t flags)
{
    m_flags = flags & 0xF;
}

uint8_t
IoamTraceHeader::GetFlags() const
{
    return m_flags;
}

uint32_t
IoamTraceHeader::GetRemainingWords() const
{
    return m_remainingWords;
}

uint32_t
IoamTraceHeader::GetTraceType() const
{
    return m_traceType;
}

bool
IoamTraceHeader::AddNode(const NodeData& node)
{
    if (!m_wellFormed)
    {
        return false; // not a trace this node can write into: left as it came
    }
    if (m_remainingWords < m_nodeLen)
    {
        m_flags |= FLAG_OVERFLOW;
        return false;
    }
    m_nodes.push_back(node);
    m_remainingWords -= m_nodeLen;
    return true;
}

const std::vector<IoamTraceHeader::NodeData>&
IoamTraceHeader::GetNodes() const
{
    return m_nodes;
}

bool
IoamTraceHeader::IsWellFormed() const
{
    return m_wellFormed;
}

} // namespace ns3
