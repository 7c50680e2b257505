#include "workload/model/collective-spread.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveSpread");
NS_OBJECT_ENSURE_REGISTERED(CollectiveSpread);

TypeId
CollectiveSpread::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CollectiveSpread")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<CollectiveSpread>()
                            .AddAttribute("HeardBarrier",
                                          "For tests only: start a barrier's next iteration "
                                          "compute_us after this process heard that the last "
                                          "one completed, not after it completed (the wrong "
                                          "model test/mpi/equality.sh must reject)",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&CollectiveSpread::m_heardBarrier),
                                          MakeBooleanChecker());
    return tid;
}

void
CollectiveSpread::DoDispose()
{
    m_messenger = nullptr;
    m_posted = PostedCallback();
    m_complete = CompleteCallback();
    m_pending.clear();
    Object::DoDispose();
}

void
CollectiveSpread::Install(Ptr<RankMessenger> messenger,
                          uint32_t parts,
                          PostedCallback posted,
                          CompleteCallback complete)
{
    m_messenger = messenger;
    m_parts = parts;
    m_posted = posted;
    m_complete = complete;
    m_postedHandler = messenger->AddHandler(MakeCallback(&CollectiveSpread::ReceivePosted, this));
    m_partHandler = messenger->AddHandler(MakeCallback(&CollectiveSpread::ReceivePart, this));
}

Time
CollectiveSpread::BarrierFrom(const Part& all) const
{
    return m_heardBarrier ? Simulator::Now() : all.last;
}

void
CollectiveSpread::Posted(uint32_t rank, uint32_t pair, uint32_t iteration, uint32_t t)
{
    PackedBytes message;
    message.Put(pair);
    message.Put(iteration);
    message.Put(t);
    m_messenger->Send(rank, m_postedHandler, message);
}

void
CollectiveSpread::ReceivePosted(PackedBytes& message)
{
    const auto pair = message.Take<uint32_t>();
    const auto iteration = message.Take<uint32_t>();
    const auto t = message.Take<uint32_t>();
    m_posted(pair, iteration, t);
}

void
CollectiveSpread::PartDone(uint32_t iteration, const Part& part)
{
    NS_LOG_LOGIC("iteration " << iteration << ": this process's part is done, last at "
                              << part.last.As(Time::US));
    PackedBytes message;
    message.Put(iteration);
    Pack(part, message);
    m_messenger->SendToOthers(m_partHandler, message);
    Add(iteration, part);
}

void
CollectiveSpread::ReceivePart(PackedBytes& message)
{
    const auto iteration = message.Take<uint32_t>();
    Add(iteration, Unpack(message));
}

void
CollectiveSpread::Add(uint32_t iteration, const Part& part)
{
    Pending& p = m_pending[iteration];
    if (p.in++ == 0)
    {
        p.merged = part;
    }
    else
    {
        Merge(p.merged, part);
    }
    if (p.in < m_parts)
    {
        return;
    }
    NS_LOG_LOGIC("iteration " << iteration << ": every part is in, last at "
                              << p.merged.last.As(Time::US));
    const Part merged = std::move(p.merged);
    m_pending.erase(iteration);
    m_complete(iteration, merged);
}

void
CollectiveSpread::Merge(Part& a, const Part& b)
{
    // An iteration ends at its last arrival; one nobody received anything in, as its last
    // rank starts it.
    if (a.arrivals == b.arrivals)
    {
        a.last = std::max(a.last, b.last);
    }
    else if (b.arrivals)
    {
        a.last = b.last;
    }
    a.arrivals = a.arrivals || b.arrivals;
    a.firstStart = std::min(a.firstStart, b.firstStart);
    NS_ABORT_MSG_IF(a.steps.size() != b.steps.size() || a.phaseEnd.size() != b.phaseEnd.size(),
                    "CollectiveSpread: two processes built different graphs of one iteration");
    for (std::size_t k = 0; k < a.steps.size(); ++k)
    {
        Step& x = a.steps[k];
        const Step& y = b.steps[k];
        if (y.transfers > 0)
        {
            x.start = x.transfers > 0 ? std::min(x.start, y.start) : y.start;
            x.transfers += y.transfers;
        }
        if (y.arrived
            && (!x.arrived || y.end > x.end
                || (y.end == x.end
                    && std::make_pair(y.lastDst, y.lastSrc)
                           > std::make_pair(x.lastDst, x.lastSrc))))
        {
            x.arrived = true;
            x.end = y.end;
            x.lastSrc = y.lastSrc;
            x.lastDst = y.lastDst;
        }
    }
    for (std::size_t p = 0; p < a.phaseEnd.size(); ++p)
    {
        if (b.phaseStarted[p])
        {
            a.phaseStart[p]
                = a.phaseStarted[p] ? std::min(a.phaseStart[p], b.phaseStart[p]) : b.phaseStart[p];
            a.phaseStarted[p] = true;
        }
        a.phaseEnd[p] = std::max(a.phaseEnd[p], b.phaseEnd[p]);
    }
}

void
CollectiveSpread::Pack(const Part& part, PackedBytes& out)
{
    out.Put<uint8_t>(part.arrivals);
    out.Put(part.last.GetTimeStep());
    out.Put(part.firstStart.GetTimeStep());
    out.Put<uint32_t>(part.steps.size());
    for (const Step& s : part.steps)
    {
        out.Put(s.transfers);
        out.Put(s.start.GetTimeStep());
        out.Put<uint8_t>(s.arrived);
        out.Put(s.end.GetTimeStep());
        out.Put(s.lastSrc);
        out.Put(s.lastDst);
    }
    out.Put<uint32_t>(part.phaseEnd.size());
    for (std::size_t p = 0; p < part.phaseEnd.size(); ++p)
    {
        out.Put<uint8_t>(part.phaseStarted[p]);
        out.Put(part.phaseStart[p].GetTimeStep());
        out.Put(part.phaseEnd[p].GetTimeStep());
    }
}

CollectiveSpread::Part
CollectiveSpread::Unpack(PackedBytes& in)
{
    Part part;
    part.arrivals = in.Take<uint8_t>();
    part.last = TimeStep(in.Take<int64_t>());
    part.firstStart = TimeStep(in.Take<int64_t>());
    part.steps.resize(in.Take<uint32_t>());
    for (Step& s : part.steps)
    {
        s.transfers = in.Take<uint32_t>();
        s.start = TimeStep(in.Take<int64_t>());
        s.arrived = in.Take<uint8_t>();
        s.end = TimeStep(in.Take<int64_t>());
        s.lastSrc = in.Take<uint32_t>();
        s.lastDst = in.Take<uint32_t>();
    }
    const auto phases = in.Take<uint32_t>();
    for (uint32_t p = 0; p < phases; ++p)
    {
        part.phaseStarted.push_back(in.Take<uint8_t>());
        part.phaseStart.push_back(TimeStep(in.Take<int64_t>()));
        part.phaseEnd.push_back(TimeStep(in.Take<int64_t>()));
    }
    return part;
}

} // namespace ns3
