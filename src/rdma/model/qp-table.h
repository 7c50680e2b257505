/*
 * The queue pair numbers of one RDMA NIC: its queue pairs by QPN and in creation order, and the
 * P2MP flows it takes part in by group QPN (as the flow's requester or as one of its
 * receivers). A receiver's responder takes the next QPN as a queue pair would, so the queue
 * pairs created after it are numbered as if it were one.
 *
 * In a run spread over processes every process holds every NIC, but a NIC another process
 * simulates is a stand-in (SetStandIn): its table only counts numbers, so that the far ends of
 * this process's connections get the QPNs they get everywhere, and holds no entry per number.
 */
#ifndef MCAST4AI_QP_TABLE_H
#define MCAST4AI_QP_TABLE_H

#include "ns3/ptr.h"
#include "rdma/model/queue-pair.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \brief Queue pairs and P2MP flows of one NIC, by number.
 */
class QpTable
{
public:
    /// QPN 0 and 1 are the special QPs; connected QPs are numbered from here.
    static constexpr uint32_t FIRST_QPN = 0x100;

    /// The QPN the next Add() or Reserve() takes.
    uint32_t NextQpn() const
    {
        return FIRST_QPN + m_numbered;
    }

    /**
     * From now on (before any number is taken) the table is a stand-in's: it counts numbers
     * but keeps no queue pair by number, none in GetNQps(), and no group.
     */
    void SetStandIn();
    bool IsStandIn() const
    {
        return m_standIn;
    }

    /// Take the next QPN for qp (which must already carry it). A stand-in keeps qp only to
    /// dispose of it.
    void Add(Ptr<QueuePair> qp);
    /// Take the next QPN for something that is not a queue pair (a group responder, or a queue
    /// pair another process makes).
    uint32_t Reserve();

    /// The queue pair of qpn, or null (a reserved number, or none).
    Ptr<QueuePair> Get(uint32_t qpn) const
    {
        uint32_t index = qpn - FIRST_QPN;
        return index < m_qps.size() ? m_qps[index] : nullptr;
    }

    /// Queue pairs and reserved numbers by index (qpn - FIRST_QPN); null where reserved.
    const std::vector<Ptr<QueuePair>>& GetAll() const
    {
        return m_qps;
    }

    /// Index (qpn - FIRST_QPN) of qp.
    static uint32_t IndexOf(const QueuePair& qp)
    {
        return qp.GetQpn() - FIRST_QPN;
    }

    /// Queue pairs, reserved numbers left out.
    uint32_t GetNQps() const
    {
        return m_created.size();
    }

    /// Queue pair i (0 .. GetNQps() - 1) in creation order.
    Ptr<QueuePair> GetByCreation(uint32_t i) const
    {
        return m_qps[m_created[i]];
    }

    /// A P2MP flow this NIC takes part in.
    struct Group
    {
        bool requester{false}; ///< it sends the flow: index is its queue pair's
        uint32_t index{0};     ///< else: its receiver's, in the caller's own numbering
    };

    /// Packets of groupQpn are this NIC's P2MP requester qp's ACKs.
    void AddGroupRequester(uint32_t groupQpn, const QueuePair& qp);
    /// Packets of groupQpn go to this NIC's receiver number index.
    void AddGroupReceiver(uint32_t groupQpn, uint32_t index);
    /// The part this NIC has in groupQpn; false if none.
    bool FindGroup(uint32_t groupQpn, Group& group) const
    {
        auto it = m_groups.find(groupQpn);
        if (it == m_groups.end())
        {
            return false;
        }
        group.requester = (it->second & REQUESTER) != 0;
        group.index = it->second & ~REQUESTER;
        return true;
    }

    void Clear();

private:
    /// In m_groups: the group QPN is a P2MP requester's (the rest is its queue pair index).
    static constexpr uint32_t REQUESTER = 0x80000000;

    std::vector<Ptr<QueuePair>> m_qps; // index = qpn - FIRST_QPN; null where reserved
    std::vector<uint32_t> m_created;   // indices of m_qps's queue pairs, in creation order
    uint32_t m_numbered{0};            // numbers taken: m_qps.size() unless a stand-in
    bool m_standIn{false};
    std::vector<Ptr<QueuePair>> m_standInQps; // a stand-in's queue pairs, to dispose of
    // By group QPN: REQUESTER | a queue pair index, or a receiver index.
    std::unordered_map<uint32_t, uint32_t> m_groups;
};

} // namespace ns3

#endif /* MCAST4AI_QP_TABLE_H */
