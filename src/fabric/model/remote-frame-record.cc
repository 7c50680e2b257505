#include "fabric/model/remote-frame-record.h"

#include "ns3/abort.h"
#include "wire/model/ack-frame-builder.h"

#include <cstring>
#include <map>
#include <memory>
#include <utility>

namespace ns3
{

namespace
{
/// What follows the fields.
enum class Bytes : uint8_t
{
    PACKET,            ///< a length and the packet's serialisation
    PACKET_CE_PENDING, ///< the same, the fields' CE mark not yet in the bytes
    ACK_BUILDER        ///< an AckFrameBuilder's source MAC and ICRC setting
};

template<typename T>
void
Put(std::vector<uint8_t>& out, const T& v)
{
    const std::size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &v, sizeof(T));
}

template<typename T>
T
Take(const uint8_t* data, std::size_t size, std::size_t& at)
{
    NS_ABORT_MSG_IF(at + sizeof(T) > size, "RemoteFrameRecord: a record cut short");
    T v;
    std::memcpy(&v, data + at, sizeof(T));
    at += sizeof(T);
    return v;
}

/**
 * This process's builder for a sender's deferred frames: one per source MAC and ICRC setting,
 * for the life of the process (a frame points at its builder, and builders hold no state).
 */
const AckFrameBuilder*
BuilderFor(Mac48Address source, bool icrc)
{
    static std::map<std::pair<uint64_t, bool>, std::unique_ptr<AckFrameBuilder>> builders;
    uint8_t mac[6];
    source.CopyTo(mac);
    uint64_t key = 0;
    std::memcpy(&key, mac, sizeof mac);
    auto& b = builders[{key, icrc}];
    if (!b)
    {
        b = std::make_unique<AckFrameBuilder>(source, icrc);
    }
    return b.get();
}
} // namespace

void
RemoteFrameRecord::Write(std::vector<uint8_t>& out)
{
    Put(out, node);
    Put(out, device);
    Put(out, arrival.GetTimeStep());
    Put(out, delay.GetTimeStep());
    Put(out, tie);
    const auto* ack = dynamic_cast<const AckFrameBuilder*>(frame.GetBuilder());
    if (!ack && !frame.HasBytes())
    {
        frame.GetPacket(); // a builder the receiver does not know: its bytes
    }
    Put(out, frame.info);
    if (ack)
    {
        Put(out, Bytes::ACK_BUILDER);
        uint8_t mac[6];
        ack->GetSource().CopyTo(mac);
        Put(out, mac);
        Put(out, static_cast<uint8_t>(ack->GetComputeIcrc()));
        return;
    }
    Put(out, frame.HasPendingCe() ? Bytes::PACKET_CE_PENDING : Bytes::PACKET);
    Ptr<const Packet> p = frame.PeekBytes();
    const uint32_t length = p->GetSerializedSize();
    Put(out, length);
    const std::size_t at = out.size();
    out.resize(at + length);
    NS_ABORT_MSG_UNLESS(p->Serialize(out.data() + at, length),
                        "RemoteFrameRecord: a packet did not serialise");
}

RemoteFrameRecord
RemoteFrameRecord::Read(const uint8_t* data, std::size_t size, std::size_t& at)
{
    RemoteFrameRecord r;
    r.node = Take<uint32_t>(data, size, at);
    r.device = Take<uint32_t>(data, size, at);
    r.arrival = TimeStep(Take<int64_t>(data, size, at));
    r.delay = TimeStep(Take<int64_t>(data, size, at));
    r.tie = Take<uint32_t>(data, size, at);
    const auto info = Take<FrameInfo>(data, size, at);
    const auto bytes = Take<Bytes>(data, size, at);
    if (bytes == Bytes::ACK_BUILDER)
    {
        uint8_t mac[6];
        for (uint8_t& m : mac)
        {
            m = Take<uint8_t>(data, size, at);
        }
        Mac48Address source;
        source.CopyFrom(mac);
        const bool icrc = Take<uint8_t>(data, size, at);
        r.frame = FabricFrame::Deferred(BuilderFor(source, icrc), info);
        return r;
    }
    NS_ABORT_MSG_IF(bytes != Bytes::PACKET && bytes != Bytes::PACKET_CE_PENDING,
                    "RemoteFrameRecord: unknown bytes kind " << static_cast<int>(bytes));
    const auto length = Take<uint32_t>(data, size, at);
    NS_ABORT_MSG_IF(at + length > size, "RemoteFrameRecord: a record cut short");
    r.frame = FabricFrame(Create<Packet>(data + at, length, true), info);
    at += length;
    if (bytes == Bytes::PACKET_CE_PENDING)
    {
        r.frame.MarkCe(); // the fields have it already; the bytes get it when read
    }
    return r;
}

} // namespace ns3
