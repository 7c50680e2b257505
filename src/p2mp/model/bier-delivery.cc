#include "p2mp/model/bier-delivery.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "p2mp/model/p2mp-sender.h"
#include "wire/model/bier-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BierDelivery");
NS_OBJECT_ENSURE_REGISTERED(BierDelivery);

namespace
{

/// p2mp.bier
void
DeclareKeys(ConfigSchemaObject& bier)
{
    bier.IntegerIn("bsl_bits", {64, 128, 256, 512, 1024, 2048, 4096})
        .Unit("bits")
        .Doc("BitString length; one copy per set identifier leaves the source")
        .Attribute("BslBits");
}

} // namespace

MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(
    P2mpDelivery::Registry(), "bier", BierDelivery, "bier", "BIER (RFC 8279/8296)", DeclareKeys);

TypeId
BierDelivery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BierDelivery")
                            .SetParent<P2mpDelivery>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<BierDelivery>()
                            .AddAttribute("BslBits",
                                          "BitString length (RFC 8296: 64 to 4096 bits)",
                                          UintegerValue(256),
                                          MakeUintegerAccessor(&BierDelivery::m_bslBits),
                                          MakeUintegerChecker<uint32_t>(64, 4096));
    return tid;
}

bool
BierDelivery::IsMulticast() const
{
    return true;
}

Ptr<P2mpEncapsulator>
BierDelivery::CreateEncapsulator(uint32_t root, uint16_t entropy)
{
    NS_LOG_FUNCTION(this << root << entropy);
    Ptr<P2mpSender> sender = CreateObject<P2mpSender>();
    sender->Setup(P2mpSender::BIER, root, m_bslBits, entropy);
    return sender;
}

uint32_t
BierDelivery::MaxHeaderBytes(uint32_t hosts) const
{
    return 12 + m_bslBits / 8;
}

bool
BierDelivery::ExtendsBier() const
{
    return true;
}

void
BierDelivery::DoInstall(const Fabric& fabric)
{
    NS_LOG_FUNCTION(this << fabric.switches.size() << m_bslBits);
    for (uint32_t i = 0; i < fabric.switches.size(); ++i)
    {
        AddStage(fabric, i, NewReplicator(fabric, i, m_bslBits));
    }
}

} // namespace ns3
