#include "fabric/model/switch-mmu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");
NS_OBJECT_ENSURE_REGISTERED(SwitchMmu);

TypeId
SwitchMmu::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SwitchMmu")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<SwitchMmu>()
              .AddAttribute("BufferBytes",
                            "Total packet buffer of the switch",
                            UintegerValue(32u * 1024 * 1024),
                            MakeUintegerAccessor(&SwitchMmu::m_bufferBytes),
                            MakeUintegerChecker<uint64_t>(1))
              .AddAttribute("ReserveBytes",
                            "Guaranteed buffer per ingress (port, priority) queue",
                            UintegerValue(4096),
                            MakeUintegerAccessor(&SwitchMmu::m_reserveBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("Alpha",
                            "Dynamic threshold: a queue may use alpha x the free shared buffer",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&SwitchMmu::m_alpha),
                            MakeDoubleChecker<double>(0.0))
              .AddAttribute("PfcEnabled",
                            "Lossless priorities pause their upstream instead of dropping",
                            BooleanValue(true),
                            MakeBooleanAccessor(&SwitchMmu::m_pfcEnabled),
                            MakeBooleanChecker())
              .AddAttribute("HysteresisBytes",
                            "XON is sent when the queue's shared part is this far below XOFF",
                            UintegerValue(2 * 1500),
                            MakeUintegerAccessor(&SwitchMmu::m_hysteresisBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("HeadroomBytes",
                            "PFC headroom of every ingress (port, lossless priority); "
                            "PER_PORT: each port's from its link (FabricHelper::HeadroomBytes)",
                            UintegerValue(PER_PORT),
                            MakeUintegerAccessor(&SwitchMmu::m_headroomBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("EcnKminBytes",
                            "Egress queue length where RED marking starts; PER_PORT: 4 KiB "
                            "per Gb/s of the port",
                            UintegerValue(PER_PORT),
                            MakeUintegerAccessor(&SwitchMmu::m_kminBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("EcnKmaxBytes",
                            "Egress queue length where the marking probability reaches "
                            "EcnPmax; PER_PORT: 16 KiB per Gb/s of the port",
                            UintegerValue(PER_PORT),
                            MakeUintegerAccessor(&SwitchMmu::m_kmaxBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("EcnPmax",
                            "RED marking probability at kmax",
                            DoubleValue(0.2),
                            MakeDoubleAccessor(&SwitchMmu::m_pmax),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("LosslessPriorities",
                            "Bit mask of priorities protected by PFC",
                            UintegerValue(0xFF),
                            MakeUintegerAccessor(&SwitchMmu::m_losslessMask),
                            MakeUintegerChecker<uint8_t>())
              .AddTraceSource("UsedBytes",
                              "Bytes of buffer in use",
                              MakeTraceSourceAccessor(&SwitchMmu::m_used),
                              "ns3::TracedValueCallback::Uint64");
    return tid;
}

SwitchMmu::SwitchMmu()
    : m_used(0)
{
}

void
SwitchMmu::Setup(uint32_t nPorts)
{
    NS_LOG_FUNCTION(this << nPorts);
    m_nPorts = nPorts;
    m_ingress.assign(nPorts * 8, IngressQueue());
    m_egress.assign(nPorts * 8, 0);
    m_headroom.assign(nPorts, 0);
    m_kmin.assign(nPorts, UINT64_MAX);
    m_kmax.assign(nPorts, UINT64_MAX);
    SetHeadroom(0, 0); // computes the pool
}

void
SwitchMmu::SetHeadroom(uint32_t port, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << port << bytes);
    if (port < m_nPorts)
    {
        m_headroom[port] = bytes;
    }
    // Reserves and headroom are carved out of the buffer; what is left is shared.
    uint64_t lossless = 0;
    for (uint8_t p = 0; p < 8; ++p)
    {
        lossless += (m_losslessMask >> p) & 1u;
    }
    uint64_t carved = static_cast<uint64_t>(m_nPorts) * 8 * m_reserveBytes;
    if (m_pfcEnabled)
    {
        for (uint64_t h : m_headroom)
        {
            carved += h * lossless;
        }
    }
    // Over-commitment is the builder's to report (with the JSON path); the pool stays empty.
    m_carved = carved;
    m_sharedPool = carved < m_bufferBytes ? m_bufferBytes - carved : 0;
}

void
SwitchMmu::SetEcnThresholds(uint32_t port, uint64_t kminBytes, uint64_t kmaxBytes)
{
    NS_LOG_FUNCTION(this << port << kminBytes << kmaxBytes);
    m_kmin[port] = kminBytes;
    m_kmax[port] = std::max(kminBytes, kmaxBytes);
}

void
SwitchMmu::SetPortDefaults(uint32_t port,
                           uint64_t headroomBytes,
                           uint64_t kminBytes,
                           uint64_t kmaxBytes)
{
    auto pick = [](uint64_t fixed, uint64_t perPort)
    {
        return fixed == PER_PORT ? perPort : fixed;
    };
    NS_LOG_LOGIC("port " << port << ": headroom " << pick(m_headroomBytes, headroomBytes)
                         << ", ECN " << pick(m_kminBytes, kminBytes) << " to "
                         << pick(m_kmaxBytes, kmaxBytes) << " bytes");
    SetHeadroom(port, pick(m_headroomBytes, headroomBytes));
    SetEcnThresholds(port, pick(m_kminBytes, kminBytes), pick(m_kmaxBytes, kmaxBytes));
}

SwitchMmu::IngressQueue&
SwitchMmu::Ingress(uint32_t port, uint8_t prio)
{
    return m_ingress[port * 8 + prio];
}

const SwitchMmu::IngressQueue&
SwitchMmu::Ingress(uint32_t port, uint8_t prio) const
{
    return m_ingress[port * 8 + prio];
}

void
SwitchMmu::Prefetch(uint32_t inPort, uint32_t outPort, uint8_t prio) const
{
    __builtin_prefetch(&m_ingress[inPort * 8 + prio]);
    __builtin_prefetch(&m_egress[outPort * 8 + prio]);
}

uint64_t
SwitchMmu::SharedPart(const IngressQueue& q) const
{
    uint64_t outside = q.bytes - q.headroom;
    return outside > m_reserveBytes ? outside - m_reserveBytes : 0;
}

uint64_t
SwitchMmu::GetPfcThreshold() const
{
    uint64_t free = m_sharedPool > m_sharedUsed ? m_sharedPool - m_sharedUsed : 0;
    return static_cast<uint64_t>(m_alpha * static_cast<double>(free));
}

bool
SwitchMmu::IsLossless(uint8_t prio) const
{
    return m_pfcEnabled && ((m_losslessMask >> prio) & 1u);
}

bool
SwitchMmu::EgressRoom(uint32_t outPort, uint8_t prio, uint32_t bytes) const
{
    if (IsLossless(prio))
    {
        return true; // lossless classes are held back at ingress, by PFC
    }
    // Lossy: egress dynamic threshold against the whole free buffer.
    uint64_t used = m_used;
    uint64_t free = m_bufferBytes > used ? m_bufferBytes - used : 0;
    uint64_t eg = m_egress[outPort * 8 + prio];
    return static_cast<double>(eg + bytes) <= m_alpha * static_cast<double>(free);
}

bool
SwitchMmu::AdmitIngress(uint32_t inPort, uint8_t prio, uint32_t bytes)
{
    IngressQueue& q = Ingress(inPort, prio);
    uint64_t before = SharedPart(q);
    if (IsLossless(prio))
    {
        q.bytes += bytes;
        uint64_t grow = SharedPart(q) - before;
        if (q.paused || m_sharedUsed + grow > m_sharedPool)
        {
            // Frames in flight after XOFF land in headroom; overflowing it breaks losslessness.
            if (q.headroom + bytes > m_headroom[inPort])
            {
                NS_LOG_LOGIC("port " << inPort << " class " << +prio << ": headroom full ("
                                     << q.headroom << " of " << m_headroom[inPort]
                                     << " B), refused");
                q.bytes -= bytes;
                return false;
            }
            q.headroom += bytes;
        }
        else
        {
            m_sharedUsed += grow;
        }
    }
    else
    {
        if (m_used + bytes > m_bufferBytes)
        {
            NS_LOG_LOGIC("port " << inPort << " class " << +prio << ": buffer full (" << m_used
                                 << " B), refused");
            return false;
        }
        q.bytes += bytes;
        m_sharedUsed += SharedPart(q) - before;
    }
    m_used += bytes;
    m_peakUsed = std::max<uint64_t>(m_peakUsed, m_used);
    return true;
}

bool
SwitchMmu::AdmitEgress(uint32_t outPort, uint8_t prio, uint32_t bytes)
{
    if (!EgressRoom(outPort, prio, bytes))
    {
        return false;
    }
    m_egress[outPort * 8 + prio] += bytes;
    return true;
}

bool
SwitchMmu::Admit(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes)
{
    // The egress check comes first: a frame the egress refuses never takes ingress buffer.
    if (!EgressRoom(outPort, prio, bytes) || !AdmitIngress(inPort, prio, bytes))
    {
        NS_LOG_LOGIC("frame of " << bytes << " B from port " << inPort << " to " << outPort
                                 << " class " << +prio << " refused");
        return false;
    }
    m_egress[outPort * 8 + prio] += bytes;
    return true;
}

void
SwitchMmu::ReleaseIngress(uint32_t inPort, uint8_t prio, uint32_t bytes)
{
    IngressQueue& q = Ingress(inPort, prio);
    // Drain headroom first: it is what un-pauses the upstream soonest.
    uint64_t before = SharedPart(q);
    q.headroom -= std::min<uint64_t>(q.headroom, bytes);
    q.bytes -= bytes;
    m_sharedUsed -= before - SharedPart(q);
    m_used -= bytes;
}

void
SwitchMmu::ReleaseEgress(uint32_t outPort, uint8_t prio, uint32_t bytes)
{
    m_egress[outPort * 8 + prio] -= bytes;
}

void
SwitchMmu::Release(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes)
{
    ReleaseEgress(outPort, prio, bytes);
    ReleaseIngress(inPort, prio, bytes);
}

bool
SwitchMmu::ShouldPause(uint32_t inPort, uint8_t prio) const
{
    if (!m_pfcEnabled || !((m_losslessMask >> prio) & 1u))
    {
        return false;
    }
    const IngressQueue& q = Ingress(inPort, prio);
    return !q.paused && (q.headroom > 0 || SharedPart(q) > GetPfcThreshold());
}

bool
SwitchMmu::ShouldResume(uint32_t inPort, uint8_t prio) const
{
    const IngressQueue& q = Ingress(inPort, prio);
    if (!q.paused || q.headroom > 0)
    {
        return false;
    }
    uint64_t shared = SharedPart(q);
    uint64_t threshold = GetPfcThreshold();
    return shared == 0 || shared + m_hysteresisBytes <= threshold;
}

void
SwitchMmu::SetPaused(uint32_t inPort, uint8_t prio, bool paused)
{
    NS_LOG_LOGIC("port " << inPort << " class " << +prio << (paused ? ": XOFF" : ": XON")
                         << ", ingress " << Ingress(inPort, prio).bytes << " B, threshold "
                         << GetPfcThreshold() << " B");
    Ingress(inPort, prio).paused = paused;
}

bool
SwitchMmu::IsPaused(uint32_t inPort, uint8_t prio) const
{
    return Ingress(inPort, prio).paused;
}

double
SwitchMmu::EcnMarkProbability(uint32_t outPort, uint8_t prio) const
{
    uint64_t q = m_egress[outPort * 8 + prio];
    uint64_t kmin = m_kmin[outPort];
    uint64_t kmax = m_kmax[outPort];
    if (q <= kmin)
    {
        return 0.0;
    }
    if (q >= kmax)
    {
        return 1.0;
    }
    return m_pmax * static_cast<double>(q - kmin) / static_cast<double>(kmax - kmin);
}

bool
SwitchMmu::IsPfcEnabled() const
{
    return m_pfcEnabled;
}

uint64_t
SwitchMmu::GetEgressBytes(uint32_t outPort, uint8_t prio) const
{
    return m_egress[outPort * 8 + prio];
}

uint64_t
SwitchMmu::GetIngressBytes(uint32_t inPort, uint8_t prio) const
{
    return Ingress(inPort, prio).bytes;
}

uint64_t
SwitchMmu::GetUsedBytes() const
{
    return m_used;
}

uint64_t
SwitchMmu::GetPeakUsedBytes() const
{
    return m_peakUsed;
}

uint64_t
SwitchMmu::GetCarvedBytes() const
{
    return m_carved;
}

uint64_t
SwitchMmu::GetSharedPoolBytes() const
{
    return m_sharedPool;
}

} // namespace ns3
