#include "fabric/model/op-ledger.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpLedger");
NS_OBJECT_ENSURE_REGISTERED(OpLedger);

TypeId
OpLedger::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::OpLedger")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<OpLedger>()
              .AddTraceSource("Hop",
                              "A port sent a data frame of a tagged operation (frame, link, wait "
                              "and paused ns in the switch queue it left, CE marked there)",
                              MakeTraceSourceAccessor(&OpLedger::m_hopTrace),
                              "ns3::OpLedger::HopTracedCallback")
              .AddTraceSource("Failed",
                              "An operation failed (its tag): a receiver it was for will not "
                              "have it",
                              MakeTraceSourceAccessor(&OpLedger::m_failedTrace),
                              "ns3::OpLedger::FailedTracedCallback");
    return tid;
}

int OpLedger::s_shift = 0;

OpLedger::OpLedger()
{
    // A unit of about a nanosecond at the resolution in force (the runner uses picoseconds:
    // 1,024 ps); the resolution is fixed before the first fabric is built.
    double stepNs = Time::FromInteger(1, Time::GetResolution()).GetSeconds() * 1e9;
    s_shift = 0;
    while (stepNs * (1 << (s_shift + 1)) <= 1.0 + 1e-9 && s_shift < 30)
    {
        ++s_shift;
    }
    m_nsPerUnit = stepNs * (1 << s_shift);
}

uint32_t
OpLedger::AddLink(const std::string& from, const std::string& to)
{
    m_links.emplace_back(from, to);
    return static_cast<uint32_t>(m_links.size() - 1);
}

std::string
OpLedger::LinkName(uint32_t link) const
{
    const auto& [from, to] = m_links.at(link);
    return from + ">" + to;
}

void
OpLedger::Sent(const FrameInfo& fi, uint32_t link)
{
    Row& r = RowOf(fi.op);
    r.linkBytes += fi.size;
    r.p2mpLinkBytes += m_p2mpOwner[fi.owner] ? fi.size : 0;
    ++r.frameHops;
    if (!m_pending)
    {
        // A NIC's port: no queue of ours behind it.
        if (!m_hopTrace.IsEmpty())
        {
            m_hopTrace(fi, link, 0.0, 0.0, false);
        }
        return;
    }
    m_pending = false;
    double wait = m_pendingWait * m_nsPerUnit;
    double pause = m_pendingPause * m_nsPerUnit;
    ++r.switchHops;
    r.queueSteps += static_cast<uint64_t>(m_pendingWait) << s_shift;
    r.pauseSteps += static_cast<uint64_t>(m_pendingPause) << s_shift;
    r.ecnMarks += m_pendingMark;
    // Most hops leave by a link their row names already, after no longer wait: they need no
    // clock.
    int64_t now = -1;
    auto clock = [&now]()
    {
        return now < 0 ? (now = Simulator::Now().GetTimeStep()) : now;
    };
    bool longer = wait > r.maxQueueNs;
    if (!longer && wait == r.maxQueueNs && wait > 0 && link < r.maxQueueLink)
    {
        // An equal wait met at the same instant on a lower link names it, whichever of that
        // instant's events ran first (two processes may run them in either order).
        longer = clock() == r.maxQueueAt;
    }
    if (longer)
    {
        r.maxQueueNs = wait;
        r.maxQueueLink = link;
        r.maxQueueAt = clock();
    }
    // The path is the switches' egress links: a NIC's own port is the same for every packet.
    const uint32_t named = r.pathLinks;
    if (!r.Names(link))
    {
        r.NoteLink(link, clock());
    }
    if (m_keepTimes && r.pathLinks != named && named < MAX_PATH_LINKS)
    {
        // A link named at now goes among the links named at now: they share the time.
        TimesOf(fi.op).firstUse[named] = now;
    }
    if (!m_hopTrace.IsEmpty())
    {
        m_hopTrace(fi, link, wait, pause, m_pendingMark);
    }
}

void
OpLedger::Dropped(const FrameInfo& fi)
{
    ++RowOf(fi.op).drops;
    m_pending = false;
}

void
OpLedger::Retransmitted(uint32_t tag)
{
    ++RowOf(tag).retransmissions;
}

void
OpLedger::Lost(uint32_t tag, uint64_t bytes)
{
    RowOf(tag).lostBytes += bytes;
}

void
OpLedger::Failed(uint32_t tag)
{
    Row& r = RowOf(tag);
    if (!r.failed)
    {
        NS_LOG_INFO("operation tag " << tag << " failed");
        r.failed = true;
        m_failedTrace(tag);
    }
}

const OpLedger::Row&
OpLedger::Get(uint32_t tag) const
{
    static const Row empty;
    const std::vector<Row>& rows = tag < FIRST_PHASE_TAG ? m_rows : m_phaseRows;
    const uint32_t i = tag < FIRST_PHASE_TAG ? tag : tag - FIRST_PHASE_TAG;
    return i < rows.size() ? rows[i] : empty;
}

OpLedger::Row
OpLedger::Sum(const std::vector<uint32_t>& tags) const
{
    Row sum;
    for (uint32_t tag : tags)
    {
        sum += Get(tag);
    }
    return sum;
}

void
OpLedger::SetP2mpOwner(uint8_t owner)
{
    m_p2mpOwner[owner] = true;
}

void
OpLedger::KeepTimes()
{
    m_keepTimes = true;
}

void
OpLedger::Pack(PackedBytes& out) const
{
    for (const bool phase : {false, true})
    {
        const std::vector<Row>& rows = phase ? m_phaseRows : m_rows;
        const std::vector<RowTimes>& times = phase ? m_phaseTimes : m_times;
        const uint32_t base = phase ? FIRST_PHASE_TAG : 0;
        // A row nothing was counted in is not sent.
        auto counted = [](const Row& r)
        {
            return r.packets || r.frameHops || r.drops || r.retransmissions || r.lostBytes
                   || r.failed;
        };
        out.Put<uint64_t>(std::count_if(rows.begin(), rows.end(), counted));
        for (uint32_t i = 0; i < rows.size(); ++i)
        {
            const Row& r = rows[i];
            if (counted(r))
            {
                out.Put(base + i);
                out.Put(r);
                out.Put(i < times.size() ? times[i] : RowTimes{});
            }
        }
    }
}

void
OpLedger::MergeFrom(PackedBytes& in)
{
    for (int part = 0; part < 2; ++part)
    {
        const auto used = in.Take<uint64_t>();
        for (uint64_t k = 0; k < used; ++k)
        {
            const auto tag = in.Take<uint32_t>();
            const Row other = in.Take<Row>();
            const RowTimes otherTimes = in.Take<RowTimes>();
            Merge(tag, other, otherTimes);
        }
    }
}

void
OpLedger::Merge(uint32_t tag, const Row& other, const RowTimes& otherTimes)
{
    Row& r = RowOf(tag);
    RowTimes& t = TimesOf(tag);
    const Row mine = r;
    const RowTimes mineTimes = t;
    // The counters add up as operator+= adds them; the longest wait and the links are by time.
    r += other;
    // The longest wait: of equal ones, the first met, and of those met at one instant the one
    // on the lowest link, as one process names it.
    const Row& longest = other.maxQueueNs > mine.maxQueueNs
                                 || (other.maxQueueNs == mine.maxQueueNs && other.maxQueueNs > 0
                                     && std::make_pair(other.maxQueueAt, other.maxQueueLink)
                                            < std::make_pair(mine.maxQueueAt, mine.maxQueueLink))
                             ? other
                             : mine;
    r.maxQueueNs = longest.maxQueueNs;
    r.maxQueueLink = longest.maxQueueLink;
    r.maxQueueAt = longest.maxQueueAt;
    // A process names a row's first links in the order it used them and stops at
    // MAX_PATH_LINKS; any link it did not name came after all it named. So the first named
    // links of the union, by time, are the first the whole fabric used.
    std::vector<std::pair<int64_t, uint32_t>> links;
    for (uint32_t i = 0; i < std::min(mine.pathLinks, MAX_PATH_LINKS); ++i)
    {
        links.emplace_back(mineTimes.firstUse[i], mine.path[i]);
    }
    for (uint32_t i = 0; i < std::min(other.pathLinks, MAX_PATH_LINKS); ++i)
    {
        links.emplace_back(otherTimes.firstUse[i], other.path[i]);
    }
    // By first use, links first used at one picosecond by link index (Row::NoteLink).
    std::sort(links.begin(), links.end());
    const bool more = mine.pathLinks > MAX_PATH_LINKS || other.pathLinks > MAX_PATH_LINKS
                      || links.size() > MAX_PATH_LINKS;
    r.pathLinks = more ? MAX_PATH_LINKS + 1 : static_cast<uint32_t>(links.size());
    for (uint32_t i = 0; i < std::min<std::size_t>(links.size(), MAX_PATH_LINKS); ++i)
    {
        t.firstUse[i] = links[i].first;
        r.path[i] = links[i].second;
    }
}

void
OpLedger::Row::NoteLink(uint32_t link, int64_t now)
{
    // Most operations use one to a handful of links, and one that used more than the row
    // names (a P2MP tree) needs no more looking once time has passed its last named link.
    if (pathLinks > MAX_PATH_LINKS && now != lastUse)
    {
        return;
    }
    const uint32_t named = std::min(pathLinks, MAX_PATH_LINKS);
    if (std::find(path.begin(), path.begin() + named, link) != path.begin() + named)
    {
        return;
    }
    if (now != lastUse)
    {
        // After every named link (time does not go back). Past the named links one more
        // means "and others": a count there would count a link again each time, since only
        // the named ones can be recognised.
        if (pathLinks < MAX_PATH_LINKS)
        {
            path[pathLinks] = link;
            lastUse = now;
            tied = 1;
        }
        ++pathLinks;
        return;
    }
    // First used at the picosecond of the last named links: among them in link order, so that
    // neither the order nor, past MAX_PATH_LINKS, the choice depends on which of that instant's
    // events ran first (the processes of a distributed run run them apart).
    uint32_t at = named;
    if (named < MAX_PATH_LINKS)
    {
        ++pathLinks;
        ++tied;
    }
    else
    {
        pathLinks = MAX_PATH_LINKS + 1;
        if (link > path[named - 1])
        {
            return;
        }
        at = named - 1; // it takes the place of the tied links' last, now one of the others
    }
    path[at] = link;
    for (uint32_t first = at + 1 - tied; at > first && path[at - 1] > path[at]; --at)
    {
        std::swap(path[at - 1], path[at]);
    }
}

void
OpLedger::Row::AddLink(uint32_t link)
{
    if (pathLinks > MAX_PATH_LINKS)
    {
        return;
    }
    if (std::find(path.begin(), path.begin() + pathLinks, link) == path.begin() + pathLinks)
    {
        if (pathLinks < MAX_PATH_LINKS)
        {
            path[pathLinks] = link;
        }
        ++pathLinks;
    }
}

OpLedger::Row&
OpLedger::Row::operator+=(const Row& other)
{
    packets += other.packets;
    linkBytes += other.linkBytes;
    p2mpLinkBytes += other.p2mpLinkBytes;
    frameHops += other.frameHops;
    switchHops += other.switchHops;
    queueSteps += other.queueSteps;
    pauseSteps += other.pauseSteps;
    if (other.maxQueueNs > maxQueueNs)
    {
        maxQueueNs = other.maxQueueNs;
        maxQueueLink = other.maxQueueLink;
        maxQueueAt = other.maxQueueAt;
    }
    ecnMarks += other.ecnMarks;
    drops += other.drops;
    retransmissions += other.retransmissions;
    lostBytes += other.lostBytes;
    failed = failed || other.failed;
    for (uint32_t i = 0; i < std::min(other.pathLinks, MAX_PATH_LINKS); ++i)
    {
        AddLink(other.path[i]);
    }
    // Links past the other's named ones: this row names more than it can tell apart too.
    if (other.pathLinks > MAX_PATH_LINKS)
    {
        pathLinks = std::max(pathLinks, MAX_PATH_LINKS + 1);
    }
    return *this;
}

std::string
OpLedger::PathText(const Row& row) const
{
    std::string text;
    uint32_t named = std::min(row.pathLinks, MAX_PATH_LINKS);
    const std::string* end = nullptr; // the node the current chain ends at
    for (uint32_t i = 0; i < named; ++i)
    {
        const auto& [from, to] = m_links.at(row.path[i]);
        if (end && *end == from)
        {
            text += ">" + to; // the chain goes on
        }
        else
        {
            text += (text.empty() ? "" : " ") + from + ">" + to;
        }
        end = &to;
    }
    if (row.pathLinks > named)
    {
        text += " +more";
    }
    return text;
}

} // namespace ns3
