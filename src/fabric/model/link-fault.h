/*
 * A link that fails at a given time and perhaps comes back: the physical side at once (the
 * cable loses what it carries), the control plane a convergence delay later (a callback that
 * recomputes routes around the failure, or back over the link).
 */
#ifndef MCAST4AI_LINK_FAULT_H
#define MCAST4AI_LINK_FAULT_H

#include "fabric/model/fabric-channel.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \brief Takes one cable down at DownAt and, unless UpAt is never, up again at UpAt.
 *
 * Each change reaches the routing ConvergenceDelay later, through the callback given to
 * Install (up = whether the link is now part of the routes). Between the two, switches keep
 * forwarding into the dead link, as they do until the failure is detected and routes move.
 */
class LinkFault : public Object
{
public:
    static TypeId GetTypeId();

    /// The control plane learning of a change: up says whether the link carries routes again.
    typedef Callback<void, bool> ConvergeCallback;

    /// Schedule the fault on channel; converge is called ConvergenceDelay after each change.
    void Install(Ptr<FabricChannel> channel, ConvergeCallback converge);

    Time GetDownAt() const;
    /// Time::Max() when the link never comes back.
    Time GetUpAt() const;
    Time GetConvergenceDelay() const;
    /// When the routes followed each change so far (down, then up).
    const std::vector<Time>& GetConvergedAt() const;
    /// Frames lost on the link while down or cut in flight, both directions.
    uint64_t GetLosses() const;

protected:
    void DoDispose() override;

private:
    void SetUp(bool up);
    void Converge(bool up);

    Time m_downAt;
    Time m_upAt;
    Time m_convergence;
    Ptr<FabricChannel> m_channel;
    ConvergeCallback m_converge;
    std::vector<Time> m_convergedAt;
    TracedCallback<bool> m_linkChange; ///< the carrier: false lost, true back
    TracedCallback<bool> m_converged;  ///< the routes followed: false around, true over it
};

} // namespace ns3

#endif /* MCAST4AI_LINK_FAULT_H */
