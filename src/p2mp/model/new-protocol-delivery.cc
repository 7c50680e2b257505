#include "p2mp/model/new-protocol-delivery.h"

#include "core/model/ns3-compat.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"
#include "p2mp/model/p2mp-sender.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NewProtocolDelivery");
NS_OBJECT_ENSURE_REGISTERED(NewProtocolDelivery);

namespace
{

/// p2mp.new_protocol: each key sets the attribute it names, and defaults to its initial value.
void
DeclareKeys(ConfigSchemaObject& np)
{
    np.Number("install_us", ConfigSchemaBounds::AtLeast(0))
        .Unit("µs")
        .Doc("controller: group request to group entries usable")
        .Attribute("InstallLatency");
    np.Number("controller_installs_per_s", ConfigSchemaBounds::AtLeast(0))
        .Unit("1/s")
        .Doc("controller throughput: group installations served per second, one at a time in "
             "request order, before install_us; 0: no limit. No published figure for an AI "
             "fabric controller: sweep it (docs/p2mp.md)")
        .Attribute("ControllerRate");
    np.Number("switch_writes_per_s", ConfigSchemaBounds::AtLeast(0))
        .Unit("1/s")
        .Doc("group-table entry writes each switch makes per second, one at a time, after the "
             "controller served the request; 0: no limit")
        .Attribute("SwitchWriteRate");
    np.Integer("table_entries", 1, 16777216)
        .Doc("group-table capacity of every switch")
        .Attribute("TableEntries");
    np.Number("idle_teardown_us", ConfigSchemaBounds::AtLeast(0))
        .Auto("never: a group stays installed until evicted")
        .Unit("µs")
        .Doc("controller: tear a group's switch entries down once no message has used it for "
             "this long (one teardown message per switch, counted); its next message installs "
             "it again, paying install_us")
        .Attribute("IdleTeardown");
    np.Enum("on_table_full", {"evict-lru", "fallback-unicast"})
        .Doc("what a full group table does with a new group")
        .Attribute("OnTableFull");
}

} // namespace

MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(P2mpDelivery::Registry(),
                                       "new-protocol",
                                       NewProtocolDelivery,
                                       "new_protocol",
                                       "the purpose-built protocol",
                                       DeclareKeys);

TypeId
NewProtocolDelivery::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NewProtocolDelivery")
              .SetParent<P2mpDelivery>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<NewProtocolDelivery>()
              .AddAttribute("InstallLatency",
                            "Controller: from a group request to its entries being usable",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&NewProtocolDelivery::m_installLatency),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ControllerRate",
                            "Controller: group installations served per second (0: no limit)",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&NewProtocolDelivery::m_controllerRate),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("SwitchWriteRate",
                            "Group-table entry writes per second of each switch (0: no limit)",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&NewProtocolDelivery::m_switchWriteRate),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("TableEntries",
                            "Group-table capacity of every switch",
                            UintegerValue(4096),
                            MakeUintegerAccessor(&NewProtocolDelivery::m_tableEntries),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("IdleTeardown",
                            "Controller: tear an idle group's entries down after this long "
                            "(Time::Max, the default: never)",
                            TimeValue(Time::Max()),
                            MakeTimeAccessor(&NewProtocolDelivery::m_idleTeardown),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute(
                  "OnTableFull",
                  "What a full group table does with a new group: evict its least "
                  "recently used idle group, or send the new group by unicast",
                  EnumValue(EVICT_LRU),
                  MakeEnumAccessorFor<TableFull>(&NewProtocolDelivery::m_onTableFull),
                  MakeEnumChecker(EVICT_LRU, "evict-lru", FALLBACK_UNICAST, "fallback-unicast"))
              .AddAttribute(
                  "AddressMapping",
                  "How a receiver finds a message's memory region: a region "
                  "registered for the group, or each receiver's remote address "
                  "carried in the message's first packet",
                  EnumValue(GROUP_REGION),
                  MakeEnumAccessorFor<AddressMapping>(&NewProtocolDelivery::m_addressMapping),
                  MakeEnumChecker(
                      GROUP_REGION, "group-region", PER_RECEIVER_LIST, "per-receiver-list"));
    return tid;
}

bool
NewProtocolDelivery::IsMulticast() const
{
    return true;
}

Ptr<P2mpEncapsulator>
NewProtocolDelivery::CreateEncapsulator(uint32_t root, uint16_t entropy)
{
    NS_LOG_FUNCTION(this << root << entropy);
    Ptr<P2mpSender> sender = CreateObject<P2mpSender>();
    sender->Setup(P2mpSender::NEW_PROTOCOL, root, 0, entropy);
    sender->SetAddressList(m_addressMapping == PER_RECEIVER_LIST);
    // The shim tells switches and receivers how this flow is acknowledged.
    sender->SetShimFlags(AggregatesInNetwork() && !IsAckFree(), IsAckFree());
    return sender;
}

uint32_t
NewProtocolDelivery::MaxHeaderBytes(uint32_t hosts) const
{
    // The 12-byte shim, plus a 16-byte entry per receiver when the first packet lists them.
    return m_addressMapping == PER_RECEIVER_LIST ? 16 + 16 * hosts : 12;
}

void
NewProtocolDelivery::DoInstall(const Fabric& fabric)
{
    NS_LOG_FUNCTION(this << fabric.switches.size() << m_tableEntries);
    std::vector<Ptr<GroupTable>> tables;
    for (uint32_t i = 0; i < fabric.switches.size(); ++i)
    {
        Ptr<Replicator> r = NewReplicator(fabric, i, 0);
        r->GetGroupTable()->SetAttribute("Capacity", UintegerValue(m_tableEntries));
        tables.push_back(r->GetGroupTable());
        AddStage(fabric, i, r);
    }
    m_controller = CreateObject<GroupController>();
    m_controller->SetAttribute("InstallLatency", TimeValue(m_installLatency));
    m_controller->SetAttribute("ControllerRate", DoubleValue(m_controllerRate));
    m_controller->SetAttribute("SwitchWriteRate", DoubleValue(m_switchWriteRate));
    m_controller->SetAttribute("EvictLru", BooleanValue(m_onTableFull == EVICT_LRU));
    m_controller->SetAttribute("IdleTeardown", TimeValue(m_idleTeardown));
    m_controller->Setup(fabric.graph, tables);
}

} // namespace ns3
