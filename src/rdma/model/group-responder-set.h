/*
 * The receiving ends of the P2MP flows at one host: per group, the responder half of a queue
 * pair (RcResponder) and where its ACKs go, with no requester and no rate controller, so that a
 * receiver of many groups holds a few dozen bytes per group. On a reorder-tolerant NIC they look
 * at an open hole, or at a message whose rest stopped arriving, when the reorder timeout says,
 * through one event per NIC at the earliest look due.
 */
#ifndef MCAST4AI_GROUP_RESPONDER_SET_H
#define MCAST4AI_GROUP_RESPONDER_SET_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "rdma/model/rc-responder.h"
#include "wire/model/frame-info.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \brief The group responders of one NIC and their hole and tail checks.
 */
class GroupResponderSet
{
public:
    /// A responder has a whole message (receiver host, msn, bytes, the message's last PSN).
    typedef Callback<void, uint32_t, uint64_t, uint64_t, uint64_t> ReceiveCallback;

    /// nic: where their ACKs, NAKs and CNPs go out and what they read their settings from.
    void Setup(RdmaNic* nic);

    /**
     * A responder for one group: its ACKs go to peer; qpn names it (the number it took at the
     * NIC); ackEvery and silent as RcResponder::SetMulticast; maxRetransmissions as
     * RcResponder::SetMaxRetransmissions. Returns its index.
     */
    uint32_t Add(const RcResponder::Peer& peer,
                 uint32_t qpn,
                 uint32_t ackEvery,
                 bool silent,
                 uint8_t maxRetransmissions,
                 ReceiveCallback receive);

    uint32_t GetN() const
    {
        return m_responders.size();
    }

    /// Responder index's reliability budget (RcResponder::SetMaxRetransmissions).
    void SetMaxRetransmissions(uint32_t index, uint8_t maxRetransmissions);
    /// Packets responder index received in order (its next expected PSN).
    uint64_t GetReceivedPackets(uint32_t index) const;

    /// A data packet for responder index.
    void Receive(uint32_t index, const FrameInfo& fi);

    void Clear();

private:
    struct Responder
    {
        RcResponder rx;
        RcResponder::Peer peer; ///< the sender's P2MP QP
        uint32_t qpn{0};        ///< the QPN it took (logs)
        ReceiveCallback receive;
        Time checkDue{Time::Max()}; ///< its queued look; Max: none
    };

    /// A whole message of responder r reaches its callback.
    void Deliver(Responder& r, uint64_t msn, uint64_t bytes, uint64_t lastPsn);
    /// Responder index may owe something (an open hole, an unfinished message): queue its
    /// next look (RcResponder::NextHoleCheck) if it is due before the one queued. A look
    /// queued earlier that progress made premature runs and queues the next (a lazy re-arm).
    void ArmCheck(uint32_t index);
    /// The one check event goes off at the earliest look due.
    void ScheduleChecks();
    /// Looks that are due: NAK holes and stalled tails (RcResponder::CheckHoleNow).
    void ChecksDue();

    RdmaNic* m_nic{nullptr};
    // A deque: responders keep their address while more are created.
    std::deque<Responder> m_responders;

    /// A responder's next look; an entry whose due is not its responder's checkDue was
    /// superseded by an earlier one and is skipped.
    struct Check
    {
        Time due;
        uint32_t index{0};

        bool operator>(const Check& o) const
        {
            return due != o.due ? due > o.due : index > o.index;
        }
    };

    std::priority_queue<Check, std::vector<Check>, std::greater<Check>> m_checks;
    EventId m_checkEvent;
    Time m_checkAt;
};

} // namespace ns3

#endif /* MCAST4AI_GROUP_RESPONDER_SET_H */
