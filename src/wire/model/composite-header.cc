#include "wire/model/composite-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CompositeHeader");
NS_OBJECT_ENSURE_REGISTERED(CompositeHeader);

TypeId
CompositeHeader::GetTypeId()
{
    // No constructor: the composite cannot be rebuilt from bytes.
    static TypeId tid = TypeId("ns3::CompositeHeader").SetParent<Header>().SetGroupName("Mcast4ai");
    return tid;
}

TypeId
CompositeHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
CompositeHeader::Append(const Header& h)
{
    NS_ABORT_MSG_IF(m_count == MAX_HEADERS, "CompositeHeader holds at most " << MAX_HEADERS);
    m_headers[m_count++] = &h;
    m_size += h.GetSerializedSize();
}

uint32_t
CompositeHeader::GetSerializedSize() const
{
    return m_size;
}

void
CompositeHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this << &start << m_count);
    for (std::size_t k = 0; k < m_count; ++k)
    {
        m_headers[k]->Serialize(start);
        start.Next(m_headers[k]->GetSerializedSize());
    }
}

uint32_t
CompositeHeader::Deserialize(Buffer::Iterator start)
{
    NS_FATAL_ERROR("CompositeHeader is write-only: remove its component headers one by one");
    return 0;
}

void
CompositeHeader::Print(std::ostream& os) const
{
    for (std::size_t k = 0; k < m_count; ++k)
    {
        os << (k ? " " : "") << m_headers[k]->GetInstanceTypeId().GetName() << " (";
        m_headers[k]->Print(os);
        os << ")";
    }
}

} // namespace ns3
