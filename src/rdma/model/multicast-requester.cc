#include "rdma/model/multicast-requester.h"

#include "ns3/log.h"
#include "wire/model/bth-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastRequester");

MulticastRequester::MulticastRequester(Ptr<P2mpEncapsulator> sender,
                                       uint32_t groupQpn,
                                       Ptr<AckAggregator> localAgg,
                                       bool ackFree,
                                       uint64_t flow)
    : m_sender(sender),
      m_localAgg(localAgg),
      m_flow(flow),
      m_groupQpn(groupQpn),
      m_ackFree(ackFree)
{
    NS_LOG_LOGIC("group QPN " << groupQpn << (localAgg ? ", ACKs aggregated at its NIC" : "")
                              << (ackFree ? ", no ACKs" : ""));
}

bool
MulticastRequester::PassesCnp(Time interval)
{
    if (!m_aggregateCnps || !m_localAgg)
    {
        return true;
    }
    return m_localAgg->ReceiveCnp(m_flow, interval).kind == AckAggregator::Action::CNP;
}

void
MulticastRequester::Built(uint64_t psn,
                          bool first,
                          const P2mpEncapsulator::Target& target,
                          uint64_t firstPsn,
                          uint64_t lastPsn)
{
    if (!m_localAgg)
    {
        return;
    }
    if (m_localAgg->WatchesResends())
    {
        // The receivers' NAKs are reduced here: one waits for this resend (one NAK per loss).
        m_localAgg->DataPassed(m_flow, static_cast<uint32_t>(psn & BthHeader::PSN_MASK));
    }
    if (first)
    {
        m_localAgg->ExpectMessage(m_flow, *target.receivers, firstPsn, lastPsn);
    }
}

AckAggregator::Action
MulticastRequester::CheckSilent()
{
    if (!m_localAgg || !m_localAgg->TimesOutReceivers())
    {
        return AckAggregator::Action();
    }
    return m_localAgg->CheckSilent(m_flow);
}

} // namespace ns3
