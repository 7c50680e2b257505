/*
 * RoCEv2 CNP body: see cnp-header.h.
 */
#include "wire/model/cnp-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CnpHeader");

NS_OBJECT_ENSURE_REGISTERED(CnpHeader);

CnpHeader::CnpHeader()
{
}

TypeId
CnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CnpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<CnpHeader>();
    return tid;
}

TypeId
CnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
CnpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
CnpHeader::Serialize(Buffer::Iterator start) const
{
    NS_LOG_FUNCTION(this << &start);
    start.WriteU8(0, SIZE);
}

uint32_t
CnpHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this << &start);
    // Reserved: a receiver must not reject a CNP because a sender put something here.
    start.Next(SIZE);
    return SIZE;
}

void
CnpHeader::Print(std::ostream& os) const
{
    os << "cnp-reserved=" << SIZE << "B";
}

} // namespace ns3
