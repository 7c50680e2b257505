#include "fabric/model/remote-frame-header.h"

#include <cstring>
#include <type_traits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RemoteFrameHeader);

static_assert(std::is_trivially_copyable<FrameInfo>::value,
              "RemoteFrameHeader copies a FrameInfo as bytes");

RemoteFrameHeader::RemoteFrameHeader(const FrameInfo& info, Time arrival, Time delay, uint32_t tie)
    : m_info(info),
      m_arrival(arrival.GetTimeStep()),
      m_delay(delay.GetTimeStep()),
      m_tie(tie)
{
}

TypeId
RemoteFrameHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RemoteFrameHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<RemoteFrameHeader>();
    return tid;
}

TypeId
RemoteFrameHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RemoteFrameHeader::GetSerializedSize() const
{
    return sizeof(FrameInfo) + 2 * sizeof(int64_t) + sizeof(uint32_t);
}

void
RemoteFrameHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t bytes[sizeof(FrameInfo)];
    std::memcpy(bytes, &m_info, sizeof(FrameInfo));
    start.Write(bytes, sizeof(FrameInfo));
    start.WriteU64(static_cast<uint64_t>(m_arrival));
    start.WriteU64(static_cast<uint64_t>(m_delay));
    start.WriteU32(m_tie);
}

uint32_t
RemoteFrameHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t bytes[sizeof(FrameInfo)];
    start.Read(bytes, sizeof(FrameInfo));
    std::memcpy(&m_info, bytes, sizeof(FrameInfo));
    m_arrival = static_cast<int64_t>(start.ReadU64());
    m_delay = static_cast<int64_t>(start.ReadU64());
    m_tie = start.ReadU32();
    return GetSerializedSize();
}

void
RemoteFrameHeader::Print(std::ostream& os) const
{
    os << "frame of " << m_info.size << " B, owner " << m_info.owner << ", op " << m_info.op;
}

const FrameInfo&
RemoteFrameHeader::GetInfo() const
{
    return m_info;
}

Time
RemoteFrameHeader::GetArrival() const
{
    return TimeStep(m_arrival);
}

Time
RemoteFrameHeader::GetDelay() const
{
    return TimeStep(m_delay);
}

uint32_t
RemoteFrameHeader::GetTie() const
{
    return m_tie;
}

} // namespace ns3
