#include "fabric/model/op-ledger.h"

#include "ns3/log.h"

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
    r.queueNs += wait;
    r.pauseNs += pause;
    r.ecnMarks += m_pendingMark;
    if (wait > r.maxQueueNs)
    {
        r.maxQueueNs = wait;
        r.maxQueueLink = link;
    }
    // The path is the switches' egress links: a NIC's own port is the same for every packet.
    r.NoteLink(link);
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
OpLedger::Row::NoteLink(uint32_t link)
{
    // Most operations use one to a handful of links, and one that used more than the row
    // names (a P2MP tree) needs no more looking.
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
        // Past the named links one more means "and others": a count there would count a
        // link again each time, since only the named ones can be recognised.
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
    queueNs += other.queueNs;
    pauseNs += other.pauseNs;
    if (other.maxQueueNs > maxQueueNs)
    {
        maxQueueNs = other.maxQueueNs;
        maxQueueLink = other.maxQueueLink;
    }
    ecnMarks += other.ecnMarks;
    drops += other.drops;
    retransmissions += other.retransmissions;
    lostBytes += other.lostBytes;
    failed = failed || other.failed;
    for (uint32_t i = 0; i < std::min(other.pathLinks, MAX_PATH_LINKS); ++i)
    {
        NoteLink(other.path[i]);
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
