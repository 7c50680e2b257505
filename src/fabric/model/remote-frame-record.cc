#include "fabric/model/remote-frame-record.h"

#include "ns3/abort.h"
#include "wire/model/ack-frame-builder.h"

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

constexpr std::size_t MAC_BYTES = 6;

/**
 * This process's builder for a sender's deferred frames: one per source MAC and ICRC setting,
 * for the life of the process (a frame points at its builder, and builders hold no state).
 */
const AckFrameBuilder*
BuilderFor(Mac48Address source, bool icrc)
{
    static std::map<std::pair<Mac48Address, bool>, std::unique_ptr<AckFrameBuilder>> builders;
    auto& b = builders[{source, icrc}];
    if (!b)
    {
        b = std::make_unique<AckFrameBuilder>(source, icrc);
    }
    return b.get();
}
} // namespace

void
RemoteFrameRecord::Write(PackedBytes& out)
{
    out.Put(node);
    out.Put(device);
    out.Put(arrival.GetTimeStep());
    out.Put(delay.GetTimeStep());
    out.Put(tie);
    const auto* ack = dynamic_cast<const AckFrameBuilder*>(frame.GetBuilder());
    if (!ack && !frame.HasBytes())
    {
        frame.GetPacket(); // a builder the receiver does not know: its bytes
    }
    out.Put(frame.info);
    if (ack)
    {
        out.Put(Bytes::ACK_BUILDER);
        ack->GetSource().CopyTo(out.PutRaw(MAC_BYTES));
        out.Put(static_cast<uint8_t>(ack->GetComputeIcrc()));
        return;
    }
    out.Put(frame.HasPendingCe() ? Bytes::PACKET_CE_PENDING : Bytes::PACKET);
    Ptr<const Packet> p = frame.PeekBytes();
    const uint32_t length = p->GetSerializedSize();
    out.Put(length);
    NS_ABORT_MSG_UNLESS(p->Serialize(out.PutRaw(length), length),
                        "RemoteFrameRecord: a packet did not serialise");
}

RemoteFrameRecord
RemoteFrameRecord::Read(PackedBytes& in)
{
    RemoteFrameRecord r;
    r.node = in.Take<uint32_t>();
    r.device = in.Take<uint32_t>();
    r.arrival = TimeStep(in.Take<int64_t>());
    r.delay = TimeStep(in.Take<int64_t>());
    r.tie = in.Take<uint32_t>();
    const auto info = in.Take<FrameInfo>();
    const auto bytes = in.Take<Bytes>();
    if (bytes == Bytes::ACK_BUILDER)
    {
        Mac48Address source;
        source.CopyFrom(in.TakeRaw(MAC_BYTES));
        const bool icrc = in.Take<uint8_t>();
        r.frame = FabricFrame::Deferred(BuilderFor(source, icrc), info);
        return r;
    }
    NS_ABORT_MSG_IF(bytes != Bytes::PACKET && bytes != Bytes::PACKET_CE_PENDING,
                    "RemoteFrameRecord: unknown bytes kind " << static_cast<int>(bytes));
    const auto length = in.Take<uint32_t>();
    r.frame = FabricFrame(Create<Packet>(in.TakeRaw(length), length, true), info);
    if (bytes == Bytes::PACKET_CE_PENDING)
    {
        r.frame.MarkCe(); // the fields have it already; the bytes get it when read
    }
    return r;
}

} // namespace ns3
