/*
 * BIER (RFC 8279/8296): one copy per set identifier leaves the source, carrying a BitString
 * of its receivers; every switch replicates by its BIFT. Aggregating ACKs in switches makes
 * it "extended BIER".
 */
#ifndef MCAST4AI_BIER_DELIVERY_H
#define MCAST4AI_BIER_DELIVERY_H

#include "p2mp/model/p2mp-delivery.h"

namespace ns3
{

/**
 * \brief p2mp.mechanism "bier".
 */
class BierDelivery : public P2mpDelivery
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
    uint32_t m_bslBits{256};
};

} // namespace ns3

#endif /* MCAST4AI_BIER_DELIVERY_H */
