/*
 * BIER forwarding driven by an explicit list of receiver IDs (the scale-up draft): one copy
 * leaves the source listing every receiver; each switch splits the list by next hop, at a
 * modelled lookup cost per listed ID.
 */
#ifndef MCAST4AI_BIER_XPU_LIST_DELIVERY_H
#define MCAST4AI_BIER_XPU_LIST_DELIVERY_H

#include "p2mp/model/p2mp-delivery.h"

namespace ns3
{

/**
 * \brief p2mp.mechanism "bier-xpu-list".
 */
class BierXpuListDelivery : public P2mpDelivery
{
public:
    static TypeId GetTypeId();

    bool IsMulticast() const override;
    Ptr<P2mpEncapsulator> CreateEncapsulator(uint32_t root, uint16_t entropy) override;
    uint32_t MaxHeaderBytes(uint32_t hosts) const override;
    bool ExtendsBier() const override;

protected:
    void DoInstall(const Fabric& fabric) override;

private:
    Time m_lookupPerId;
};

} // namespace ns3

#endif /* MCAST4AI_BIER_XPU_LIST_DELIVERY_H */
