#include "rdma/model/nic-probe-agent.h"

#include "ns3/log.h"
#include "rdma/model/path-steering.h"
#include "rdma/model/queue-pair.h"
#include "rdma/model/rdma-nic-counters.h"
#include "wire/model/bth-header.h"
#include "wire/model/fabric-address.h"
#include "wire/model/probe-frame-builder.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicProbeAgent");

void
NicProbeAgent::Setup(Mac48Address mac, RdmaNicCounters* counters)
{
    m_mac = mac;
    m_counters = counters;
}

FabricFrame
NicProbeAgent::MakeProbe(const RocePacketBuilder::Addressing& a,
                         const QueuePair& qp,
                         uint32_t probeId,
                         uint16_t ns,
                         uint32_t hops,
                         bool claim,
                         uint32_t framingBytes)
{
    Ptr<Packet> p = ProbeFrameBuilder::Probe(a,
                                             m_mac,
                                             FabricAddress::HostMac(qp.GetRemoteHost()),
                                             qp.GetRemoteQpn(),
                                             probeId,
                                             ns,
                                             hops,
                                             claim);
    FabricFrame frame = FabricFrame::From(p);
    frame.info.owner = qp.GetOwner();
    ++m_counters->probesSent;
    m_counters->probeBytes += p->GetSize() + framingBytes;
    NS_LOG_LOGIC("QP " << qp.GetQpn() << ": probe " << probeId << " on port " << a.srcPort
                       << (claim ? " (a claim)" : ""));
    return frame;
}

bool
NicProbeAgent::Receive(QueuePair& qp,
                       FabricFrame& frame,
                       const RocePacketBuilder::Addressing& replyTo,
                       FabricFrame& reply,
                       uint32_t framingBytes)
{
    IoamTraceHeader trace;
    if (!ProbeFrameBuilder::ReadTrace(frame.GetPacket(), trace))
    {
        NS_LOG_WARN("QP " << qp.GetQpn() << ": a probe without a readable trace, ignored");
        return false;
    }
    const FrameInfo& fi = frame.info;
    if (fi.opcode == BthHeader::RC_PROBE_ACK)
    {
        ++m_counters->probeAcksReceived;
        if (Ptr<PathSteering> steering = qp.GetPathSteering())
        {
            NS_LOG_LOGIC("QP " << qp.GetQpn() << ": probe " << fi.psn << " answered");
            steering->ProbeAnswered(fi.psn, trace);
        }
        return false;
    }
    // The IOAM decapsulating node: the trace goes back to the sender, ahead of data as ACKs.
    Ptr<Packet> ack = ProbeFrameBuilder::Ack(
        replyTo, m_mac, FabricAddress::HostMac(fi.SrcHost()), qp.GetRemoteQpn(), fi.psn, trace);
    reply = FabricFrame::From(ack);
    reply.info.owner = qp.GetOwner();
    ++m_counters->probeAcksSent;
    m_counters->probeBytes += ack->GetSize() + framingBytes;
    NS_LOG_LOGIC("QP " << qp.GetQpn() << ": probe " << fi.psn << " from host " << fi.SrcHost()
                       << " answered");
    return true;
}

} // namespace ns3
