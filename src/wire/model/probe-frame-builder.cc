/*
 * Telemetry probes: layout in probe-frame-builder.h.
 */
#include "wire/model/probe-frame-builder.h"

#include "ns3/log.h"
#include "wire/model/bth-header.h"
#include "wire/model/composite-header.h"
#include "wire/model/icrc-trailer.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProbeFrameBuilder");

namespace
{

/// BTH + trace + ICRC + UDP + IPv4 + Ethernet, around an empty payload.
Ptr<Packet>
Build(const RocePacketBuilder::Addressing& a,
      Mac48Address src,
      Mac48Address dst,
      uint8_t opcode,
      uint32_t destQp,
      uint32_t probeId,
      const IoamTraceHeader& trace)
{
    BthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(destQp);
    bth.SetPsn(probeId & BthHeader::PSN_MASK);
    bth.SetAckRequest(BthHeader::IsProbe(opcode));
    CompositeHeader inner;
    inner.Append(bth);
    inner.Append(trace);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(inner);
    RocePacketBuilder::AddEnvelope(p, a, src, dst);
    return p;
}

} // namespace

uint32_t
ProbeFrameBuilder::FrameBytes(uint32_t hops)
{
    return TRACE_OFFSET + IoamTraceHeader::SizeFor(hops) + FrameInfo::ICRC_BYTES;
}

Ptr<Packet>
ProbeFrameBuilder::Probe(const RocePacketBuilder::Addressing& a,
                         Mac48Address src,
                         Mac48Address dst,
                         uint32_t destQp,
                         uint32_t probeId,
                         uint16_t namespaceId,
                         uint32_t hops,
                         bool claim)
{
    IoamTraceHeader trace;
    trace.Allocate(hops);
    trace.SetNamespaceId(namespaceId);
    trace.SetFlags(IoamTraceHeader::FLAG_ACTIVE);
    return Build(a,
                 src,
                 dst,
                 claim ? BthHeader::RC_PROBE_CLAIM : BthHeader::RC_PROBE,
                 destQp,
                 probeId,
                 trace);
}

Ptr<Packet>
ProbeFrameBuilder::Ack(const RocePacketBuilder::Addressing& a,
                       Mac48Address src,
                       Mac48Address dst,
                       uint32_t destQp,
                       uint32_t probeId,
                       const IoamTraceHeader& trace)
{
    return Build(a, src, dst, BthHeader::RC_PROBE_ACK, destQp, probeId, trace);
}

namespace
{

/// The trace in a frame's bytes (size of them), whose first bytes a caller has read up to
/// at least the IOAM header's first word; false if the frame is too short for what the header
/// announces, or not one. bytes must hold the frame as far as the trace goes.
bool
TraceOf(const uint8_t* bytes, uint32_t size, IoamTraceHeader& trace)
{
    constexpr uint32_t AT = ProbeFrameBuilder::TRACE_OFFSET;
    uint32_t announced = IoamTraceHeader::AnnouncedBytes(bytes + AT);
    if (announced == 0 || AT + announced + FrameInfo::ICRC_BYTES > size)
    {
        return false;
    }
    Buffer buffer;
    buffer.AddAtStart(announced);
    buffer.Begin().Write(bytes + AT, announced);
    trace.Deserialize(buffer.Begin());
    return true;
}

} // namespace

bool
ProbeFrameBuilder::ReadTrace(Ptr<const Packet> frame, IoamTraceHeader& trace)
{
    uint32_t size = frame->GetSize();
    if (size < TRACE_OFFSET + IoamTraceHeader::FIXED_BYTES + FrameInfo::ICRC_BYTES)
    {
        return false;
    }
    // The headers and the trace only: a data packet's payload behind them is not read.
    uint8_t first[TRACE_OFFSET + 4];
    frame->CopyData(first, sizeof(first));
    uint32_t announced = IoamTraceHeader::AnnouncedBytes(first + TRACE_OFFSET);
    if (announced == 0)
    {
        return false;
    }
    std::vector<uint8_t> bytes(std::min(size, TRACE_OFFSET + announced));
    frame->CopyData(bytes.data(), bytes.size());
    return TraceOf(bytes.data(), size, trace);
}

ProbeFrameBuilder::StampResult
ProbeFrameBuilder::Stamp(Ptr<const Packet> frame,
                         uint16_t namespaceId,
                         const IoamTraceHeader::NodeData& node,
                         Ptr<Packet>& stamped)
{
    FrameInfo fi;
    IoamTraceHeader trace;
    if (!fi.Parse(frame) || !fi.roce
        || !(BthHeader::IsProbe(fi.opcode) || (fi.traceWords && BthHeader::IsData(fi.opcode)))
        || fi.p2mp != FrameInfo::P2MP_NONE
        || frame->GetSize() < TRACE_OFFSET + IoamTraceHeader::FIXED_BYTES + FrameInfo::ICRC_BYTES)
    {
        NS_LOG_LOGIC("no trace of namespace " << namespaceId << " to write into");
        return UNTOUCHED;
    }
    // One copy of the frame: the trace is read from it and the stamped frame written from it.
    uint32_t size = frame->GetSize();
    std::vector<uint8_t> bytes(size);
    frame->CopyData(bytes.data(), size);
    if (!TraceOf(bytes.data(), size, trace) || trace.GetNamespaceId() != namespaceId
        || !trace.IsWellFormed())
    {
        NS_LOG_LOGIC("no trace of namespace " << namespaceId << " to write into");
        return UNTOUCHED;
    }
    if (!IcrcTrailer::CanCompute(bytes.data() + FrameInfo::ETH_BYTES,
                                 size - FrameInfo::ETH_BYTES - FrameInfo::ICRC_BYTES))
    {
        return UNTOUCHED; // not an IPv4/UDP packet whose ICRC could be recomputed
    }
    IoamTraceHeader::NodeData data = node;
    // Hop_Lim comes from the layer below (RFC 9197 §4.4.2.1): the IPv4 TTL.
    data.hopLimit = bytes[FrameInfo::ETH_BYTES + 8];
    StampResult result = trace.AddNode(data) ? STAMPED : OVERFLOW;
    Buffer buffer;
    buffer.AddAtStart(trace.GetSerializedSize());
    trace.Serialize(buffer.Begin());
    buffer.CopyData(bytes.data() + TRACE_OFFSET, trace.GetSerializedSize());
    stamped = Create<Packet>(bytes.data(), size - FrameInfo::ICRC_BYTES);
    IcrcTrailer icrc;
    bool computed = bytes[size - 1] | bytes[size - 2] | bytes[size - 3] | bytes[size - 4];
    if (computed)
    {
        icrc.SetIcrc(IcrcTrailer::Compute(bytes.data() + FrameInfo::ETH_BYTES,
                                          size - FrameInfo::ETH_BYTES - FrameInfo::ICRC_BYTES));
    }
    stamped->AddTrailer(icrc);
    return result;
}

} // namespace ns3
