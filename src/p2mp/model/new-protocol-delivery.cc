#include "p2mp/model/new-protocol-delivery.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "p2mp/model/p2mp-sender.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NewProtocolDelivery");
NS_OBJECT_ENSURE_REGISTERED(NewProtocolDelivery);
MCAST4AI_REGISTER_NAMED_TYPE(P2mpDelivery::Registry(), "new-protocol", NewProtocolDelivery);

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
              .AddAttribute("EvictLru",
                            "A full table evicts its least recently used idle group (otherwise the "
                            "request falls back to unicast)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&NewProtocolDelivery::m_evictLru),
                            MakeBooleanChecker())
              .AddAttribute("AddressList",
                            "Carry each receiver's remote address in a message's first packet "
                            "(no group memory region pre-registered)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&NewProtocolDelivery::m_addressList),
                            MakeBooleanChecker());
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
    sender->SetAddressList(m_addressList);
    // The shim tells switches and receivers how this flow is acknowledged.
    sender->SetShimFlags(AggregatesInNetwork() && !IsAckFree(), IsAckFree());
    return sender;
}

uint32_t
NewProtocolDelivery::MaxHeaderBytes(uint32_t hosts) const
{
    // The 12-byte shim, plus a 16-byte entry per receiver when the first packet lists them.
    return m_addressList ? 16 + 16 * hosts : 12;
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
    m_controller->SetAttribute("EvictLru", BooleanValue(m_evictLru));
    m_controller->SetAttribute("IdleTeardown", TimeValue(m_idleTeardown));
    m_controller->Setup(fabric.graph, tables);
}

} // namespace ns3
