#include "p2mp/model/bier-xpu-list-delivery.h"

#include "ns3/log.h"
#include "p2mp/model/p2mp-sender.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BierXpuListDelivery");
NS_OBJECT_ENSURE_REGISTERED(BierXpuListDelivery);

namespace
{

/// p2mp.xpu_list
void
DeclareKeys(ConfigSchemaObject& xpu)
{
    xpu.Number("lookup_ns_per_id", ConfigSchemaBounds::AtLeast(0))
        .Unit("ns")
        .Doc("switch forwarding time per listed receiver ID")
        .Attribute("LookupPerId");
}

} // namespace

MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(P2mpDelivery::Registry(),
                                       "bier-xpu-list",
                                       BierXpuListDelivery,
                                       "xpu_list",
                                       "BIER with XPU-ID lists",
                                       DeclareKeys);

TypeId
BierXpuListDelivery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BierXpuListDelivery")
                            .SetParent<P2mpDelivery>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<BierXpuListDelivery>()
                            .AddAttribute("LookupPerId",
                                          "Switch forwarding time per listed receiver ID",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&BierXpuListDelivery::m_lookupPerId),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

bool
BierXpuListDelivery::IsMulticast() const
{
    return true;
}

Ptr<P2mpEncapsulator>
BierXpuListDelivery::CreateEncapsulator(uint32_t root, uint16_t entropy)
{
    NS_LOG_FUNCTION(this << root << entropy);
    Ptr<P2mpSender> sender = CreateObject<P2mpSender>();
    sender->Setup(P2mpSender::XPU_LIST, root, 0, entropy);
    return sender;
}

uint32_t
BierXpuListDelivery::MaxHeaderBytes(uint32_t hosts) const
{
    // 16 bytes of fixed header and a 16-bit ID per receiver.
    return 16 + 2 * hosts;
}

bool
BierXpuListDelivery::ExtendsBier() const
{
    return true;
}

void
BierXpuListDelivery::DoInstall(const Fabric& fabric)
{
    NS_LOG_FUNCTION(this << fabric.switches.size());
    for (uint32_t i = 0; i < fabric.switches.size(); ++i)
    {
        Ptr<Replicator> r = NewReplicator(fabric, i, 0);
        r->SetAttribute("LookupPerId", TimeValue(m_lookupPerId));
        AddStage(fabric, i, r);
    }
}

} // namespace ns3
