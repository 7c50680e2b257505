#include "p2mp/model/p2mp-switch-stage.h"

#include "fabric/model/fabric-switch.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "wire/model/bth-header.h"
#include "wire/model/roce-packet-builder.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("P2mpSwitchStage");
NS_OBJECT_ENSURE_REGISTERED(P2mpSwitchStage);

TypeId
P2mpSwitchStage::GetTypeId()
{
    static TypeId tid = TypeId("ns3::P2mpSwitchStage")
                            .SetParent<SwitchStage>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<P2mpSwitchStage>()
                            .AddAttribute("ComputeIcrc",
                                          "Compute the ICRC of the aggregated ACKs this switch "
                                          "sends (else zero), as the NICs do for pcaps; set "
                                          "before the stage is attached",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&P2mpSwitchStage::m_computeIcrc),
                                          MakeBooleanChecker());
    return tid;
}

void
P2mpSwitchStage::DoDispose()
{
    m_replicator = nullptr;
    m_aggregator = nullptr;
    SwitchStage::DoDispose();
}

void
P2mpSwitchStage::Attach(FabricSwitch* sw)
{
    SwitchStage::Attach(sw);
    if (m_replicator)
    {
        m_replicator->SetSprayChoice(PeekPointer(sw->GetPathChoice()));
    }
    // Each port's MAC is the source of the ACKs this switch sends out of it.
    m_ackFrames.clear();
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        m_ackFrames.push_back(std::make_unique<AckFrameBuilder>(
            Mac48Address::ConvertFrom(sw->GetPort(p)->GetAddress()), m_computeIcrc));
    }
}

void
P2mpSwitchStage::SetReplicator(Ptr<Replicator> replicator)
{
    m_replicator = replicator;
}

Ptr<Replicator>
P2mpSwitchStage::GetReplicator() const
{
    return m_replicator;
}

void
P2mpSwitchStage::SetAckAggregation(AggregationMode mode,
                                   uint32_t pathMtu,
                                   Time cnpInterval,
                                   uint32_t address,
                                   std::vector<bool> hostPorts)
{
    m_aggMode = mode;
    m_pathMtu = pathMtu;
    m_cnpInterval = cnpInterval;
    m_address = address;
    m_hostPort = std::move(hostPorts);
    m_aggregator = mode == AGGREGATE_NONE ? nullptr : CreateObject<AckAggregator>();
}

Ptr<AckAggregator>
P2mpSwitchStage::GetAckAggregator() const
{
    return m_aggregator;
}

void
P2mpSwitchStage::SetPeerAddresses(std::vector<uint32_t> peerAddress)
{
    m_peerAddress = std::move(peerAddress);
}

bool
P2mpSwitchStage::FromExpectedPort(uint32_t inPort, const FrameInfo& fi) const
{
    // On a shortest path every hop is a next hop back toward the source, so a real
    // receiver's ACK (or a neighbour's aggregate) never arrives anywhere else.
    return (inPort < m_peerAddress.size() && fi.srcIp == m_peerAddress[inPort])
           || m_switch->IsNextHop(fi.SrcHost(), inPort);
}

uint64_t
P2mpSwitchStage::GetDeepParsed() const
{
    return m_deepParsed;
}

uint64_t
P2mpSwitchStage::GetAggregatedAcksSent() const
{
    return m_aggregatedSent;
}

void
P2mpSwitchStage::AddCounters(CounterSet& counters) const
{
    counters.Add("switch_state.bift_entries", m_replicator->GetBiftEntries());
    const uint64_t groups = m_replicator->GetGroupTable()->GetPeakSize();
    counters.Add("switch_state.group_table_peak_sum", groups);
    counters.Max("switch_state.group_table_live_peak_max", groups);
    if (m_aggregator)
    {
        const uint64_t entries = m_aggregator->GetPeakEntryCount();
        counters.Add("switch_state.aggregation_peak_sum", entries);
        counters.Max("switch_state.aggregation_live_peak_max", entries);
        counters.Add("switch_state.aggregation_installs", m_aggregator->GetInstalls());
        counters.Add("switch_state.aggregation_frees", m_aggregator->GetFrees());
    }
    counters.Add("bth_parsed_packets", GetDeepParsed());
    counters.Add("aggregated_acks", GetAggregatedAcksSent());
}

bool
P2mpSwitchStage::Receive(uint32_t inPort, FabricFrame& frame)
{
    const FrameInfo& fi = frame.info;
    if (fi.p2mp != FrameInfo::P2MP_NONE)
    {
        Replicate(inPort, frame);
        return true;
    }
    if (m_aggregator && fi.roce)
    {
        // ACKs hide their opcode in the UDP payload: an aggregating switch reads every BTH.
        ++m_deepParsed;
        if (fi.opcode == BthHeader::RC_ACKNOWLEDGE || fi.opcode == BthHeader::CNP)
        {
            return InterceptAck(inPort, frame);
        }
    }
    return false;
}

void
P2mpSwitchStage::Replicate(uint32_t inPort, FabricFrame& frame)
{
    if (!m_replicator)
    {
        m_switch->DropFrame(frame, inPort);
        return;
    }
    // The replicator rewrites the packet's bytes, never the arrived frame's fields.
    const FrameInfo& fi = frame.info;
    uint8_t prio = FabricSwitch::PriorityOf(fi);
    bool sourceTor = m_aggMode == AGGREGATE_SOURCE_TOR && m_hostPort[inPort];
    bool hop = m_aggMode == AGGREGATE_HOP_BY_HOP;
    bool expect = (sourceTor || hop) && fi.IsFirstPacket();
    m_copies.clear();
    m_children.clear();
    Time lookup = m_replicator->Replicate(
        frame, inPort, m_copies, (expect && sourceTor) ? &m_children : nullptr);
    if (m_aggregator && fi.roce)
    {
        ++m_deepParsed;
    }
    if (expect)
    {
        uint64_t flow = AckAggregator::FlowKey(fi.SrcHost(), fi.destQp);
        if (hop)
        {
            // Children are the downstream branches; aggregated ACKs go back where data came from.
            for (const auto& c : m_copies)
            {
                m_children.push_back(c.port);
            }
            std::vector<uint32_t>& parents = m_upstream[flow];
            if (std::find(parents.begin(), parents.end(), inPort) == parents.end())
            {
                parents.push_back(inPort);
            }
        }
        uint64_t packets = (static_cast<uint64_t>(fi.dmaLength) + m_pathMtu - 1) / m_pathMtu;
        NS_LOG_LOGIC("flow " << flow << ": expect ACKs of " << m_children.size() << " children for "
                             << packets << " packets");
        m_aggregator->ExpectMessageOnWire(flow, m_children, fi.psn, packets);
    }
    if (m_aggregator && m_aggregator->WatchesResends() && fi.roce)
    {
        // A NAK this switch sent on waits for its resend (one NAK per loss).
        m_aggregator->DataPassed(AckAggregator::FlowKey(fi.SrcHost(), fi.destQp), fi.psn);
    }
    if (m_aggregator && m_aggregator->TimesOutReceivers())
    {
        CheckSilent(inPort, fi);
    }
    if (m_copies.empty())
    {
        NS_LOG_LOGIC("port " << inPort << ": no P2MP forwarding state, dropped");
        m_switch->DropFrame(frame, inPort); // no forwarding state for this frame
        return;
    }
    m_switch->ForwardCopies(inPort, prio, fi.size, m_copies, lookup);
}

void
P2mpSwitchStage::UpstreamPorts(uint64_t flow, const FrameInfo& fi, std::vector<uint32_t>& out)
{
    out.clear();
    if (m_aggMode == AGGREGATE_HOP_BY_HOP)
    {
        auto it = m_upstream.find(flow);
        if (it != m_upstream.end())
        {
            out = it->second;
            return;
        }
    }
    out.push_back(m_switch->RoutePort(fi));
}

void
P2mpSwitchStage::CheckSilent(uint32_t inPort, const FrameInfo& fi)
{
    const uint64_t flow = AckAggregator::FlowKey(fi.SrcHost(), fi.destQp);
    const AckAggregator::Action a = m_aggregator->CheckSilent(flow);
    if (a.kind != AckAggregator::Action::ACK)
    {
        return;
    }
    // The port the root's data came in on leads back to it (ACKs are cumulative: a parent
    // that fed the flow another way gets the next one).
    NS_LOG_LOGIC("flow " << flow << ": a silent receiver dropped, ACK " << a.psn << " upstream");
    SendAggregate(inPort, inPort, fi.srcIp, fi.srcPort, fi.destQp, m_ackPriority, fi.owner, a);
}

void
P2mpSwitchStage::SendAggregate(uint32_t inPort,
                               uint32_t out,
                               uint32_t rootIp,
                               uint16_t srcPort,
                               uint32_t destQp,
                               uint8_t prio,
                               uint8_t owner,
                               const AckAggregator::Action& a)
{
    // A valid RoCEv2 ACK of our own: BTH opcode 0x11, PSN = the minimum over the receivers.
    RocePacketBuilder::Addressing ad;
    ad.srcIp = m_address;
    ad.dstIp = rootIp;
    ad.srcPort = srcPort;
    ad.priority = prio;
    FabricFrame ack = m_ackFrames[out]->Make(ad,
                                             destQp,
                                             static_cast<uint32_t>(a.psn & 0xFFFFFF),
                                             a.kind == AckAggregator::Action::NAK,
                                             0);
    ack.info.owner = owner; // the flow's: an aggregate is still its ACK
    ++m_aggregatedSent;
    if (Ptr<TrafficLedger> ledger = m_switch->GetTrafficLedger())
    {
        ++ledger->Row(owner).aggregatedAcks;
    }
    m_switch->Forward(inPort, out, prio, std::move(ack));
}

void
P2mpSwitchStage::SetAckPriority(uint8_t priority)
{
    m_ackPriority = priority;
}

bool
P2mpSwitchStage::InterceptAck(uint32_t inPort, FabricFrame& frame)
{
    const FrameInfo& fi = frame.info;
    uint64_t flow = AckAggregator::FlowKey(fi.DstHost(), fi.destQp);
    if (m_aggregator->IsValidating() && fi.srcIp == m_address)
    {
        // Nothing but this switch speaks with its address: an ACK in its name that comes in
        // is forged (and would otherwise pass as its aggregate, before it knows the flow).
        m_aggregator->Refuse(flow, fi.SrcHost(), fi.psn, AckAggregator::REFUSED_WRONG_PORT);
        return true;
    }
    if (!m_aggregator->Knows(flow) || !m_switch->HasRoute(fi.DstHost()))
    {
        return false;
    }
    uint32_t child = m_aggMode == AGGREGATE_HOP_BY_HOP ? inPort : fi.SrcHost();
    if (m_aggregator->IsValidating() && !FromExpectedPort(inPort, fi))
    {
        m_aggregator->Refuse(flow, child, fi.psn, AckAggregator::REFUSED_WRONG_PORT);
        return true;
    }
    uint8_t prio = FabricSwitch::PriorityOf(fi);
    UpstreamPorts(flow, fi, m_parents);
    if (fi.opcode == BthHeader::CNP)
    {
        if (m_aggregator->ReceiveCnp(flow, m_cnpInterval).kind == AckAggregator::Action::CNP)
        {
            // The CNP itself goes on, at most once per interval (one parent is enough: the
            // requester's rate does not depend on the path the CNP took).
            m_switch->Forward(inPort, m_parents.front(), prio, std::move(frame));
        }
        return true;
    }
    bool nak = ((fi.syndrome >> 5) & 0x3) == 0x3;
    // Hop by hop, a child behind a switch port sends aggregates, not a receiver's own ACKs.
    bool fromReceiver = m_aggMode != AGGREGATE_HOP_BY_HOP || m_hostPort[inPort];
    AckAggregator::Action a = m_aggregator->Receive(flow, child, fi.psn, nak, fromReceiver);
    if (a.kind == AckAggregator::Action::NOTHING)
    {
        return true;
    }
    NS_LOG_LOGIC("flow " << flow << ": aggregated " << (nak ? "NAK" : "ACK") << " psn " << a.psn
                         << " to " << m_parents.size() << " parent(s)");
    // Every parent that fed this flow gets it: with a tree per message (the new protocol,
    // several messages in flight) data may have come down more than one way, and ACKs are
    // cumulative, so a parent that does not need one ignores it.
    for (uint32_t out : m_parents)
    {
        SendAggregate(inPort, out, fi.dstIp, fi.srcPort, fi.destQp, prio, fi.owner, a);
    }
    return true;
}

} // namespace ns3
