#include "rdma/model/ack-aggregator.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "wire/model/bth-header.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AckAggregator");
NS_OBJECT_ENSURE_REGISTERED(AckAggregator);

TypeId
AckAggregator::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::AckAggregator")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<AckAggregator>()
              .AddAttribute("SelectiveNaks",
                            "NAKs are selective (reorder-tolerant NICs): a child's NAK goes "
                            "upstream with its own missing PSN, not the group's minimum",
                            BooleanValue(false),
                            MakeBooleanAccessor(&AckAggregator::m_selectiveNaks),
                            MakeBooleanChecker())
              .AddAttribute("OneNakPerLoss",
                            "Send one NAK upstream per loss: a child's NAK is not sent on when "
                            "it asks for nothing the root is not resending already (a NAK "
                            "for the same loss went up and its resend has not passed here "
                            "yet, or the child acknowledged past it since); false: every "
                            "child's NAK goes upstream",
                            BooleanValue(true),
                            MakeBooleanAccessor(&AckAggregator::m_oneNakPerLoss),
                            MakeBooleanChecker())
              .AddAttribute("Validate",
                            "Refuse ACKs that cannot be a real receiver's: for PSNs beyond "
                            "every message announced on the flow (counted and dropped)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&AckAggregator::m_validate),
                            MakeBooleanChecker())
              .AddAttribute("ReceiverTimeout",
                            "Drop a receiver from a flow once it has owed packets without "
                            "acknowledging any for this long and the aggregate has not moved "
                            "for as long: checked as the flow's ACKs arrive and when its owner "
                            "calls CheckSilent (data passing a switch, the root's RTO); zero: "
                            "never",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&AckAggregator::m_receiverTimeout),
                            MakeTimeChecker(Seconds(0)))
              .AddTraceSource("Refused",
                              "An ACK, NAK or CNP was refused (flow key, child, PSN as on the "
                              "wire, AckAggregator::Refusal)",
                              MakeTraceSourceAccessor(&AckAggregator::m_refusedTrace),
                              "ns3::AckAggregator::RefusedTracedCallback")
              .AddTraceSource("ReceiverDropped",
                              "The receiver timeout dropped a silent receiver from a flow "
                              "(flow key, receiver host)",
                              MakeTraceSourceAccessor(&AckAggregator::m_droppedTrace),
                              "ns3::AckAggregator::ReceiverDroppedTracedCallback")
              .AddTraceSource("Aggregated",
                              "An aggregated ACK went upstream (flow key, PSN acknowledged)",
                              MakeTraceSourceAccessor(&AckAggregator::m_aggregatedTrace),
                              "ns3::AckAggregator::AggregatedTracedCallback");
    return tid;
}

AckAggregator::AckAggregator()
{
}

uint64_t
AckAggregator::FlowKey(uint32_t senderHost, uint32_t senderQpn)
{
    return (static_cast<uint64_t>(senderHost) << 24) | (senderQpn & BthHeader::PSN_MASK);
}

void
AckAggregator::Owe(Flow& f, const Child& c, int delta)
{
    if (c.expected >= c.needed)
    {
        return; // owes nothing: does not hold the aggregate back
    }
    auto it = f.owing.try_emplace(c.expected, 0).first;
    it->second += delta;
    if (it->second == 0)
    {
        f.owing.erase(it);
    }
}

void
AckAggregator::ExpectMessage(uint64_t flow,
                             const std::vector<uint32_t>& children,
                             uint64_t firstPsn,
                             uint64_t lastPsn)
{
    Flow& f = m_flows[flow];
    if (f.maxNeeded == 0)
    {
        f.emitted = firstPsn; // a new flow
    }
    const bool timing = m_receiverTimeout.IsStrictlyPositive();
    const Time now = timing ? Simulator::Now() : Time();
    if (timing && f.owing.empty())
    {
        f.advanced = now; // nothing was owed: the silence is counted from here
    }
    for (uint32_t id : children)
    {
        if (timing && !f.dropped.empty()
            && std::find(f.dropped.begin(), f.dropped.end(), id) != f.dropped.end())
        {
            continue; // out of the set for good
        }
        auto [it, added] = f.children.try_emplace(id);
        Child& c = it->second;
        if (timing && (added || c.expected >= c.needed))
        {
            c.progress = now; // begins to owe now
        }
        if (added)
        {
            // Every child has acknowledged everything below the aggregate already sent up
            // (one whose entry was freed included): a resent message asks nothing of them.
            c.expected = std::max(firstPsn, f.emitted);
            ++m_entries;
            ++m_installs;
        }
        else
        {
            Owe(f, c, -1);
            if (c.expected >= c.needed)
            {
                // Caught up with everything asked of it: skip messages it was not part of.
                c.expected = std::max(c.expected, firstPsn);
            }
        }
        c.needed = std::max(c.needed, lastPsn + 1);
        Owe(f, c, +1);
    }
    f.maxNeeded = std::max(f.maxNeeded, lastPsn + 1);
    m_peakEntries = std::max(m_peakEntries, m_entries);
}

void
AckAggregator::ExpectMessageOnWire(uint64_t flow,
                                   const std::vector<uint32_t>& children,
                                   uint32_t firstPsn24,
                                   uint64_t packets)
{
    auto it = m_flows.find(flow);
    uint64_t ref = it == m_flows.end() ? firstPsn24 : it->second.maxNeeded;
    uint64_t first = BthHeader::UnwrapPsn(firstPsn24, ref);
    ExpectMessage(flow, children, first, first + std::max<uint64_t>(packets, 1) - 1);
}

bool
AckAggregator::Knows(uint64_t flow) const
{
    return m_flows.count(flow) != 0;
}

uint64_t
AckAggregator::Aggregate(const Flow& f)
{
    return f.owing.empty() ? f.maxNeeded : f.owing.begin()->first;
}

AckAggregator::Action
AckAggregator::Receive(uint64_t flow, uint32_t child, uint32_t psn24, bool nak, bool fromReceiver)
{
    ++m_acksIn;
    Action a;
    auto fit = m_flows.find(flow);
    if (fit == m_flows.end())
    {
        return a;
    }
    Flow& f = fit->second;
    const bool timing = m_receiverTimeout.IsStrictlyPositive();
    const Time now = timing ? Simulator::Now() : Time();
    auto cit = f.children.find(child);
    if (cit == f.children.end())
    {
        // Not a child this flow waits on here: ignored. A late duplicate of a receiver already
        // done, or an aggregate sent to every parent, is one; only a PSN beyond every message
        // announced cannot be, and is counted.
        uint64_t psn = BthHeader::UnwrapPsn(psn24, f.maxNeeded);
        if (m_validate && (nak ? psn : psn + 1) > f.maxNeeded)
        {
            Refuse(flow, child, psn24, REFUSED_NOT_AWAITED);
            return a;
        }
        return timing && MaybeDropSilent(flow, f, now) ? Advance(flow, f, now) : a;
    }
    Child& c = cit->second;
    uint64_t psn = BthHeader::UnwrapPsn(psn24, c.expected);
    if (m_validate && fromReceiver && psn >= f.maxNeeded)
    {
        // No receiver acknowledges (or NAKs for) a PSN of a message not yet started. The
        // bound is the flow's, not the child's: a resend re-creates a done child's entry
        // behind its real state, and its true cumulative ACK may pass that entry's messages.
        Refuse(flow, child, psn24, REFUSED_OUTSIDE_WINDOW);
        return a;
    }
    // Before the child's state moves: a NAK the root is answering already goes no further.
    const bool redundant = nak && m_oneNakPerLoss && NakIsRedundant(f, c, psn);
    if (nak)
    {
        c.lastNak = psn;
    }
    // An ACK of p means everything through p arrived; a NAK of p means p is the next needed.
    // Not a selective NAK from a downstream aggregation point: that is one receiver's hole
    // behind it, and says nothing of the others there, which may be further behind.
    uint64_t expected = nak ? psn : psn + 1;
    if (expected > c.expected && (!nak || !m_selectiveNaks || fromReceiver))
    {
        Owe(f, c, -1);
        c.expected = expected;
        Owe(f, c, +1);
        c.progress = now;
    }
    if (c.expected >= c.needed)
    {
        // It has acknowledged everything asked of it, so it no longer holds the aggregate
        // back: its entry goes, and a later message adds it again. Live state is then what
        // is in flight, not every receiver the flow ever had.
        f.children.erase(cit);
        --m_entries;
        ++m_frees;
    }
    if (timing)
    {
        MaybeDropSilent(flow, f, now); // after this ACK: its sender is not silent
    }
    if (nak)
    {
        if (redundant)
        {
            NS_LOG_LOGIC("flow " << flow << ": NAK of PSN " << psn << " from child " << child
                                 << " is being repaired already: not sent on");
            ++m_naksSuppressed;
            return a;
        }
        // Go-back-N: back to where the furthest-behind child is, not just to this child's
        // gap. Selective: this child's hole, which is all a selective NAK asks for.
        a.kind = Action::NAK;
        a.psn = m_selectiveNaks ? psn : Aggregate(f);
        ++m_acksOut;
        if (m_oneNakPerLoss && !m_selectiveNaks)
        {
            // The root goes back to a.psn: until its resend passes here, it answers every
            // loss at or after it too.
            const bool was = IsWatching(f);
            f.nakOpen = true;
            f.nakPsn = a.psn;
            f.resendSeen = false;
            f.resendFront = 0;
            Watch(f, was);
        }
        NS_LOG_LOGIC("flow " << flow << ": NAK of PSN " << psn << " from child " << child
                             << ", NAK " << a.psn << " upstream");
        return a;
    }
    return Advance(flow, f, now);
}

bool
AckAggregator::NakIsRedundant(Flow& f, const Child& c, uint64_t psn)
{
    if (psn < c.expected)
    {
        return true; // the child acknowledged past it since: a late NAK
    }
    if (!m_selectiveNaks)
    {
        // Go-back-N: the root resends everything from nakPsn on, so a loss at or after it is
        // repaired unless that resend has passed here already (then the child lost the
        // resent copy, or a packet sent after it: a new loss).
        return f.nakOpen && psn >= f.nakPsn && (!f.resendSeen || psn >= f.resendFront);
    }
    // Selective: one resend per PSN. Another child's NAK of a PSN whose resend is on its way
    // adds nothing; the same child NAKing it again (its reorder timeout passed without the
    // resend) does: the resend, or the NAK, was lost.
    auto it = std::find(f.pendingNaks.begin(), f.pendingNaks.end(), psn);
    if (it != f.pendingNaks.end())
    {
        return c.lastNak != psn;
    }
    const bool was = IsWatching(f);
    f.pendingNaks.push_back(psn);
    Watch(f, was);
    return false;
}

void
AckAggregator::Watch(Flow& f, bool wasWatching)
{
    const bool watching = IsWatching(f);
    if (watching && !wasWatching)
    {
        ++m_watching;
    }
    else if (!watching && wasWatching)
    {
        --m_watching;
    }
}

void
AckAggregator::DataPassed(uint64_t flow, uint32_t psn24)
{
    auto fit = m_flows.find(flow);
    if (fit == m_flows.end() || !IsWatching(fit->second))
    {
        return;
    }
    Flow& f = fit->second;
    const uint64_t psn = BthHeader::UnwrapPsn(psn24, f.emitted);
    if (f.nakOpen)
    {
        if (f.resendSeen)
        {
            f.resendFront = std::max(f.resendFront, psn + 1);
        }
        else if (psn <= f.nakPsn)
        {
            // Every packet sent before the NAK reached the root is past nakPsn (it was lost
            // below it): one at or below it is the root going back.
            NS_LOG_LOGIC("flow " << flow << ": resend from PSN " << psn << " passes");
            f.resendSeen = true;
            f.resendFront = psn + 1;
        }
    }
    if (!f.pendingNaks.empty())
    {
        auto it = std::find(f.pendingNaks.begin(), f.pendingNaks.end(), psn);
        if (it != f.pendingNaks.end())
        {
            NS_LOG_LOGIC("flow " << flow << ": resend of PSN " << psn << " passes");
            f.pendingNaks.erase(it);
            Watch(f, true);
        }
    }
}

AckAggregator::Action
AckAggregator::Advance(uint64_t flow, Flow& f, Time now)
{
    Action a;
    uint64_t agg = Aggregate(f);
    if (agg > f.emitted && IsWatching(f))
    {
        // Every child has what a NAK asked for: nothing to wait for below the aggregate.
        f.nakOpen = f.nakOpen && agg <= f.nakPsn;
        f.pendingNaks.erase(std::remove_if(f.pendingNaks.begin(),
                                           f.pendingNaks.end(),
                                           [agg](uint64_t p)
                                           {
                                               return p < agg;
                                           }),
                            f.pendingNaks.end());
        Watch(f, true);
    }
    if (agg > f.emitted)
    {
        f.emitted = agg;
        f.advanced = now;
        a.kind = Action::ACK;
        a.psn = agg - 1;
        ++m_acksOut;
        m_aggregatedTrace(flow, a.psn);
    }
    return a;
}

bool
AckAggregator::MaybeDropSilent(uint64_t flow, Flow& f, Time now)
{
    // Checked as ACKs arrive, not by a timer per flow: a stalled flow still gets them, from
    // the receivers that answer the root's retransmissions.
    if (f.owing.empty() || now - f.advanced < m_receiverTimeout)
    {
        return false;
    }
    const uint64_t before = m_receiversDropped;
    DropSilent(flow, f, now);
    return m_receiversDropped > before;
}

void
AckAggregator::DropSilent(uint64_t flow, Flow& f, Time now)
{
    for (auto it = f.children.begin(); it != f.children.end();)
    {
        const Child& c = it->second;
        const uint32_t host = m_childHost.IsNull() ? it->first : m_childHost(it->first);
        if (c.expected >= c.needed || now - c.progress < m_receiverTimeout
            || host == NOT_A_RECEIVER)
        {
            ++it;
            continue;
        }
        NS_LOG_INFO("flow " << flow << ": receiver " << host << " silent since "
                            << c.progress.As(Time::US) << ", dropped at PSN " << c.expected);
        Owe(f, c, -1);
        f.dropped.push_back(it->first);
        it = f.children.erase(it);
        --m_entries;
        ++m_receiversDropped;
        m_droppedTrace(flow, host);
    }
}

AckAggregator::Action
AckAggregator::CheckSilent(uint64_t flow)
{
    auto fit = m_flows.find(flow);
    if (!TimesOutReceivers() || fit == m_flows.end())
    {
        return Action();
    }
    const Time now = Simulator::Now();
    return MaybeDropSilent(flow, fit->second, now) ? Advance(flow, fit->second, now) : Action();
}

void
AckAggregator::SetChildHost(ChildHostCallback childHost)
{
    m_childHost = childHost;
}

uint64_t
AckAggregator::GetReceiversDropped() const
{
    return m_receiversDropped;
}

void
AckAggregator::Refuse(uint64_t flow, uint32_t child, uint32_t psn24, Refusal why)
{
    NS_LOG_LOGIC("flow " << flow << ": refused from child " << child << " PSN " << psn24
                         << " (reason " << int(why) << ")");
    ++m_refused[why];
    m_refusedTrace(flow, child, psn24, why);
}

uint64_t
AckAggregator::GetRefused(Refusal why) const
{
    return m_refused[why];
}

AckAggregator::Action
AckAggregator::ReceiveCnp(uint64_t flow, Time interval)
{
    Action a;
    auto fit = m_flows.find(flow);
    if (fit == m_flows.end())
    {
        return a;
    }
    Flow& f = fit->second;
    Time now = Simulator::Now();
    if (!f.cnpSent || now - f.lastCnp >= interval)
    {
        f.cnpSent = true;
        f.lastCnp = now;
        a.kind = Action::CNP;
    }
    return a;
}

void
AckAggregator::Forget(uint64_t flow)
{
    auto it = m_flows.find(flow);
    if (it != m_flows.end())
    {
        m_entries -= it->second.children.size();
        const bool was = IsWatching(it->second);
        it->second.nakOpen = false;
        it->second.pendingNaks.clear();
        Watch(it->second, was);
        m_flows.erase(it);
    }
}

uint64_t
AckAggregator::GetFlowCount() const
{
    return m_flows.size();
}

uint64_t
AckAggregator::GetEntryCount() const
{
    return m_entries;
}

uint64_t
AckAggregator::GetPeakEntryCount() const
{
    return m_peakEntries;
}

uint64_t
AckAggregator::GetInstalls() const
{
    return m_installs;
}

uint64_t
AckAggregator::GetFrees() const
{
    return m_frees;
}

uint64_t
AckAggregator::GetAcksIn() const
{
    return m_acksIn;
}

uint64_t
AckAggregator::GetAcksOut() const
{
    return m_acksOut;
}

} // namespace ns3
