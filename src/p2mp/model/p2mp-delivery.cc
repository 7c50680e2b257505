#include "p2mp/model/p2mp-delivery.h"

#include "core/model/ns3-compat.h"
#include "fabric/model/fabric-switch.h"
#include "fabric/model/rank-messenger.h"
#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "p2mp/model/p2mp-channel.h"
#include "rdma/model/rdma-nic.h"
#include "topology/model/topology-graph.h"
#include "wire/model/fabric-address.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("P2mpDelivery");
NS_OBJECT_ENSURE_REGISTERED(P2mpDelivery);

TypeId
P2mpDelivery::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::P2mpDelivery")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              // Names rather than EnumValue: the enum attribute API differs between ns-3
              // releases (templated from 3.41 on); strings are the same in every one.
              .AddAttribute("AckAggregation",
                            "Where receivers' ACKs are reduced to one: none, sender-nic, "
                            "source-tor or hop-by-hop",
                            StringValue("none"),
                            MakeStringAccessor(&P2mpDelivery::SetAckAggregationName,
                                               &P2mpDelivery::GetAckAggregationName),
                            MakeStringChecker())
              .AddAttribute(
                  "AckMode",
                  "How receivers acknowledge: per-packet, every-n, per-message or "
                  "ack-free",
                  StringValue("per-packet"),
                  MakeStringAccessor(&P2mpDelivery::SetAckModeName, &P2mpDelivery::GetAckModeName),
                  MakeStringChecker())
              .AddAttribute("AckEvery",
                            "The N of AckMode every-n",
                            UintegerValue(8),
                            MakeUintegerAccessor(&P2mpDelivery::m_ackEvery),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("AckValidation",
                            "Every ACK aggregator (NIC or switch) refuses ACKs that cannot be a "
                            "real receiver's: AckAggregator::Validate, and the switch's port "
                            "check",
                            BooleanValue(true),
                            MakeBooleanAccessor(&P2mpDelivery::m_validateAcks),
                            MakeBooleanChecker())
              .AddAttribute("ReceiverTimeout",
                            "Every ACK aggregator drops a receiver silent for this long "
                            "(AckAggregator::ReceiverTimeout); zero: never",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&P2mpDelivery::m_receiverTimeout),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute(
                  "OnReceiverTimeout",
                  "What a receiver timeout does to the operations the receiver did "
                  "not have: drop completes them without it (their lost bytes), "
                  "fail fails them (OpLedger::Failed)",
                  EnumValue(TIMEOUT_DROPS),
                  MakeEnumAccessorFor<ReceiverTimeoutPolicy>(&P2mpDelivery::m_onReceiverTimeout),
                  MakeEnumChecker(TIMEOUT_DROPS, "drop", TIMEOUT_FAILS, "fail"))
              .AddTraceSource("Undelivered",
                              "A message done at its root that some receivers never had "
                              "(root, first PSN, last PSN, receivers missing)",
                              MakeTraceSourceAccessor(&P2mpDelivery::m_undeliveredTrace),
                              "ns3::P2mpDelivery::UndeliveredTracedCallback");
    return tid;
}

NamedTypeRegistry&
P2mpDelivery::Registry()
{
    static NamedTypeRegistry registry("P2MP mechanism", P2mpDelivery::GetTypeId());
    return registry;
}

void
P2mpDelivery::DoDispose()
{
    m_controller = nullptr;
    m_messenger = nullptr;
    m_nics.clear();
    m_stages.clear();
    m_aggregators.clear();
    m_channelsByFlow.clear();
    Object::DoDispose();
}

void
P2mpDelivery::Install(const Fabric& fabric)
{
    m_nics = fabric.nics;
    m_stages.assign(fabric.switches.size(), nullptr);
    m_hostSwitch.clear();
    for (uint32_t h = 0; h < fabric.graph->HostCount(); ++h)
    {
        m_hostSwitch.push_back(fabric.graph->LeafOf(h) - fabric.graph->HostCount());
    }
    DoInstall(fabric);
}

void
P2mpDelivery::DoInstall(const Fabric& fabric)
{
}

void
P2mpDelivery::Reconverge()
{
    NS_LOG_FUNCTION(this);
    for (const Ptr<P2mpSwitchStage>& stage : m_stages)
    {
        if (stage)
        {
            stage->GetReplicator()->Reconverge();
        }
    }
    if (m_controller)
    {
        m_controller->Reconverge();
    }
}

Ptr<P2mpSwitchStage>
P2mpDelivery::AddStage(const Fabric& fabric, uint32_t index, Ptr<Replicator> r)
{
    Ptr<P2mpSwitchStage> stage = CreateObject<P2mpSwitchStage>();
    stage->SetReplicator(r);
    // A switch's ACKs carry an ICRC exactly when the hosts' do (pcaps on).
    stage->SetAttribute("ComputeIcrc", BooleanValue(m_nics.front()->GetComputeIcrc()));
    if (AggregatesInNetwork() && !IsAckFree())
    {
        uint32_t node = fabric.graph->HostCount() + index;
        std::vector<bool> hostPorts;
        std::vector<uint32_t> peers;
        for (const auto& port : fabric.graph->Ports(node))
        {
            bool host = fabric.graph->IsHost(port.peer);
            hostPorts.push_back(host);
            peers.push_back(host ? FabricAddress::HostIpv4(port.peer).Get()
                                 : SwitchAddress(port.peer - fabric.graph->HostCount()));
        }
        Ptr<RdmaNic> nic = m_nics.front();
        stage->SetAckAggregation(m_ackAggregation == AGGREGATE_SOURCE_TOR
                                     ? P2mpSwitchStage::AGGREGATE_SOURCE_TOR
                                     : P2mpSwitchStage::AGGREGATE_HOP_BY_HOP,
                                 nic->GetMtu(),
                                 nic->GetCnpInterval(),
                                 SwitchAddress(index),
                                 std::move(hostPorts));
        stage->SetPeerAddresses(std::move(peers));
        stage->SetAckPriority(nic->GetControlPriority());
        ConfigureAckAggregator(stage->GetAckAggregator(), nic->IsReorderTolerant());
        if (m_ackAggregation == AGGREGATE_HOP_BY_HOP)
        {
            // Children are ports: only one facing a receiver is a receiver to time out.
            std::vector<uint32_t> hostOnPort;
            for (const auto& port : fabric.graph->Ports(node))
            {
                hostOnPort.push_back(
                    fabric.graph->IsHost(port.peer) ? port.peer : AckAggregator::NOT_A_RECEIVER);
            }
            stage->GetAckAggregator()->SetChildHost(AckAggregator::ChildHostCallback(
                [hostOnPort](uint32_t port)
                {
                    return port < hostOnPort.size() ? hostOnPort[port]
                                                    : AckAggregator::NOT_A_RECEIVER;
                }));
        }
    }
    fabric.switches[index]->AddStage(stage);
    m_stages[index] = stage;
    return stage;
}

Ptr<Replicator>
P2mpDelivery::NewReplicator(const Fabric& fabric, uint32_t index, uint32_t bslBits) const
{
    Ptr<Replicator> r = CreateObject<Replicator>();
    r->Setup(fabric.graph, fabric.graph->HostCount() + index, bslBits);
    return r;
}

Ptr<P2mpChannel>
P2mpDelivery::CreateChannel(uint32_t root,
                            const std::vector<uint32_t>& ranks,
                            uint32_t groupQpn,
                            Callback<uint16_t> entropy,
                            uint8_t owner,
                            uint8_t maxRetransmissions)
{
    Ptr<P2mpChannel> channel = CreateObject<P2mpChannel>();
    channel->Setup(this, root, ranks, groupQpn, entropy, owner, maxRetransmissions);
    return channel;
}

bool
P2mpDelivery::IsMulticast() const
{
    return false;
}

Ptr<P2mpEncapsulator>
P2mpDelivery::CreateEncapsulator(uint32_t root, uint16_t entropy)
{
    return nullptr;
}

uint32_t
P2mpDelivery::MaxHeaderBytes(uint32_t hosts) const
{
    return 0;
}

bool
P2mpDelivery::ExtendsBier() const
{
    return false;
}

Ptr<GroupController>
P2mpDelivery::GetGroupController() const
{
    return m_controller;
}

void
P2mpDelivery::SetMessenger(Ptr<RankMessenger> messenger)
{
    m_messenger = messenger;
    if (m_controller)
    {
        m_controller->SetMessenger(messenger);
    }
}

Ptr<RankMessenger>
P2mpDelivery::GetMessenger() const
{
    return m_messenger;
}

const std::vector<std::string>&
P2mpDelivery::AckAggregationNames()
{
    static const std::vector<std::string> names{"none", "sender-nic", "source-tor", "hop-by-hop"};
    return names;
}

const std::vector<std::string>&
P2mpDelivery::AckModeNames()
{
    static const std::vector<std::string> names{"per-packet", "every-n", "per-message", "ack-free"};
    return names;
}

namespace
{
/// Index of name in names; aborts on a name that is not there.
uint8_t
IndexOf(const std::vector<std::string>& names, const std::string& name, const char* what)
{
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        if (name == names[i])
        {
            return static_cast<uint8_t>(i);
        }
    }
    NS_ABORT_MSG("unknown " << what << " '" << name << "'");
    return 0;
}
} // namespace

void
P2mpDelivery::SetAckAggregationName(std::string name)
{
    m_ackAggregation
        = static_cast<AckAggregation>(IndexOf(AckAggregationNames(), name, "ACK aggregation"));
}

std::string
P2mpDelivery::GetAckAggregationName() const
{
    return AckAggregationNames()[m_ackAggregation];
}

void
P2mpDelivery::SetAckModeName(std::string name)
{
    m_ackMode = static_cast<AckMode>(IndexOf(AckModeNames(), name, "ACK mode"));
}

std::string
P2mpDelivery::GetAckModeName() const
{
    return AckModeNames()[m_ackMode];
}

P2mpDelivery::AckAggregation
P2mpDelivery::GetAckAggregation() const
{
    return m_ackAggregation;
}

P2mpDelivery::AckMode
P2mpDelivery::GetAckMode() const
{
    return m_ackMode;
}

uint32_t
P2mpDelivery::GetResponderAckEvery() const
{
    switch (m_ackMode)
    {
        case ACK_PER_PACKET:
            return 1;
        case ACK_EVERY_N:
            return m_ackEvery;
        default:
            return 0;
    }
}

bool
P2mpDelivery::IsAckFree() const
{
    return m_ackMode == ACK_FREE;
}

void
P2mpDelivery::ConfigureAckAggregator(Ptr<AckAggregator> aggregator, bool selectiveNaks)
{
    aggregator->SetAttribute("SelectiveNaks", BooleanValue(selectiveNaks));
    aggregator->SetAttribute("Validate", BooleanValue(m_validateAcks));
    if (m_receiverTimeout.IsStrictlyPositive())
    {
        aggregator->SetAttribute("ReceiverTimeout", TimeValue(m_receiverTimeout));
        aggregator->TraceConnectWithoutContext("ReceiverDropped",
                                               MakeCallback(&P2mpDelivery::ReceiverDropped, this));
    }
    m_aggregators.push_back(aggregator);
}

bool
P2mpDelivery::TimesOutReceivers() const
{
    return m_receiverTimeout.IsStrictlyPositive();
}

bool
P2mpDelivery::FailsOnReceiverTimeout() const
{
    return m_onReceiverTimeout == TIMEOUT_FAILS;
}

void
P2mpDelivery::RegisterChannel(uint64_t flow, P2mpChannel* channel)
{
    m_channelsByFlow[flow] = channel;
}

void
P2mpDelivery::UnregisterChannel(uint64_t flow)
{
    m_channelsByFlow.erase(flow);
}

void
P2mpDelivery::ReceiverDropped(uint64_t flow, uint32_t host)
{
    auto it = m_channelsByFlow.find(flow);
    if (it != m_channelsByFlow.end())
    {
        it->second->DropReceiver(host);
    }
}

uint64_t
P2mpDelivery::GetReceiversDropped() const
{
    uint64_t n = 0;
    for (const auto& a : m_aggregators)
    {
        n += a->GetReceiversDropped();
    }
    return n;
}

uint32_t
P2mpDelivery::AckSourceOf(uint32_t root) const
{
    if (!m_validateAcks || !AggregatesInNetwork() || IsAckFree() || root >= m_hostSwitch.size())
    {
        return 0;
    }
    return SwitchAddress(m_hostSwitch[root]);
}

uint64_t
P2mpDelivery::GetAcksRefused(AckAggregator::Refusal why) const
{
    uint64_t n = 0;
    for (const auto& a : m_aggregators)
    {
        n += a->GetRefused(why);
    }
    return n;
}

bool
P2mpDelivery::AggregatesInNetwork() const
{
    return m_ackAggregation == AGGREGATE_SOURCE_TOR || m_ackAggregation == AGGREGATE_HOP_BY_HOP;
}

const std::vector<Ptr<RdmaNic>>&
P2mpDelivery::GetNics() const
{
    return m_nics;
}

Ptr<P2mpSwitchStage>
P2mpDelivery::GetStage(uint32_t index) const
{
    return index < m_stages.size() ? m_stages[index] : nullptr;
}

uint32_t
P2mpDelivery::GetNStages() const
{
    return m_stages.size();
}

void
P2mpDelivery::ReportUndelivered(
    uint32_t root, uint64_t firstPsn, uint64_t lastPsn, uint32_t missing, uint32_t receivers)
{
    const std::string line = "the P2MP message from host " + std::to_string(root) + " at PSN "
                             + std::to_string(firstPsn) + ".." + std::to_string(lastPsn) + ": "
                             + std::to_string(missing) + " of " + std::to_string(receivers)
                             + " receivers";
    NS_LOG_WARN(line << " never had it, though every receiver acknowledged it");
    m_undelivered += missing;
    if (m_undeliveredExamples.size() < 5)
    {
        m_undeliveredExamples.push_back(line);
    }
    m_undeliveredTrace(root, firstPsn, lastPsn, missing);
}

uint64_t
P2mpDelivery::GetUndelivered() const
{
    return m_undelivered;
}

const std::vector<std::string>&
P2mpDelivery::GetUndeliveredExamples() const
{
    return m_undeliveredExamples;
}

uint32_t
P2mpDelivery::SwitchAddress(uint32_t switchIndex)
{
    return FabricAddress::SwitchIpv4(switchIndex);
}

} // namespace ns3
