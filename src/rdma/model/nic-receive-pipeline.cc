#include "rdma/model/nic-receive-pipeline.h"

#include "core/model/ns3-compat.h"
#include "fabric/model/fabric-switch.h"
#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicReceivePipeline");
NS_OBJECT_ENSURE_REGISTERED(NicReceivePipeline);

TypeId
NicReceivePipeline::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NicReceivePipeline")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<NicReceivePipeline>()
              .AddAttribute("PacketRate",
                            "Frames the receive path handles per second, whatever their kind; "
                            "0: unlimited, and RdmaHelper gives the NIC no pipeline",
                            DoubleValue(0),
                            MakeDoubleAccessor(&NicReceivePipeline::m_packetRate),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("PauseThreshold",
                            "Bytes waiting at which the link peer is paused (XOFF); 0: never "
                            "paused, the buffer is unbounded",
                            UintegerValue(0),
                            MakeUintegerAccessor(&NicReceivePipeline::m_pauseThreshold),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("ResumeGap",
                            "XON is this many bytes below XOFF (the mlx5 driver: one MTU-sized "
                            "frame)",
                            UintegerValue(1024 + 78),
                            MakeUintegerAccessor(&NicReceivePipeline::m_resumeGap),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("PauseQuanta",
                            "Pause time of an XOFF, in 512-bit quanta (refreshed at half)",
                            UintegerValue(0xFFFF),
                            MakeUintegerAccessor(&NicReceivePipeline::m_pauseQuanta),
                            MakeUintegerChecker<uint16_t>(1))
              .AddTraceSource("Backlog",
                              "Frames waiting in the receive buffer, at each change",
                              MakeTraceSourceAccessor(&NicReceivePipeline::m_backlogTrace),
                              "ns3::TracedValueCallback::Uint32");
    return tid;
}

NicReceivePipeline::NicReceivePipeline() = default;

void
NicReceivePipeline::Setup(Ptr<FabricNetDevice> device, DeliverCallback deliver)
{
    NS_ABORT_MSG_UNLESS(m_packetRate > 0,
                        "a NicReceivePipeline needs a PacketRate; an unlimited receive path is "
                        "no pipeline at all");
    m_device = device;
    m_deliver = deliver;
    m_interval = Seconds(1.0 / m_packetRate);
    NS_LOG_INFO("receive path: " << m_packetRate / 1e6 << " Mpps (" << m_interval
                                 << " per frame), XOFF at " << m_pauseThreshold << " B");
}

void
NicReceivePipeline::Receive(uint32_t port, FabricFrame& frame)
{
    const Time now = Simulator::Now();
    if (m_waiting.empty() && now >= m_nextFree)
    {
        Deliver(port, frame, now);
        return;
    }
    m_waitingBytes += frame.info.size;
    m_waitingClasses |= static_cast<uint8_t>(1u << FabricSwitch::PriorityOf(frame.info));
    m_waiting.push_back(Waiting{std::move(frame), port, now});
    const auto backlog = static_cast<uint32_t>(m_waiting.size());
    m_maxBacklogPackets = std::max(m_maxBacklogPackets, backlog);
    m_maxBacklogBytes = std::max(m_maxBacklogBytes, m_waitingBytes);
    m_backlogTrace(backlog);
    if (!IsPending(m_serve))
    {
        m_serve = Simulator::Schedule(
            std::max(m_nextFree - now, Time(0)), &NicReceivePipeline::Serve, this);
    }
    if (m_pauseThreshold > 0 && m_waitingBytes >= m_pauseThreshold
        && (m_waitingClasses & ~m_pausedClasses))
    {
        Pause();
    }
}

void
NicReceivePipeline::Deliver(uint32_t port, FabricFrame& frame, Time now)
{
    ++m_packets;
    m_nextFree = now + m_interval;
    m_deliver(port, frame);
}

void
NicReceivePipeline::Serve()
{
    const Time now = Simulator::Now();
    Waiting w = std::move(m_waiting.front());
    m_waiting.pop_front();
    m_waitingBytes -= w.frame.info.size;
    const Time wait = now - w.arrived;
    ++m_delayed;
    m_totalWait += wait;
    m_maxWait = std::max(m_maxWait, wait);
    m_backlogTrace(static_cast<uint32_t>(m_waiting.size()));
    MaybeResume();
    Deliver(w.port, w.frame, now);
    if (!m_waiting.empty() && !IsPending(m_serve))
    {
        m_serve = Simulator::Schedule(m_interval, &NicReceivePipeline::Serve, this);
    }
}

void
NicReceivePipeline::Pause()
{
    m_pausedClasses |= m_waitingClasses;
    ++m_pauses;
    NS_LOG_LOGIC("receive buffer " << m_waitingBytes << " B: XOFF classes 0x" << std::hex
                                   << +m_pausedClasses << std::dec);
    m_refresh.Cancel();
    RefreshPause();
}

void
NicReceivePipeline::SendPfc(uint16_t quanta)
{
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        if (m_pausedClasses & (1u << prio))
        {
            m_device->SendPfc(prio, quanta);
        }
    }
}

void
NicReceivePipeline::RefreshPause()
{
    SendPfc(m_pauseQuanta);
    // Sent again before the peer's timer runs out, as a switch does.
    Time pause = m_device->GetDataRate().CalculateBytesTxTime(64 * uint32_t{m_pauseQuanta});
    m_refresh = Simulator::Schedule(pause / 2, &NicReceivePipeline::RefreshPause, this);
}

void
NicReceivePipeline::MaybeResume()
{
    if (m_pausedClasses == 0 || m_waitingBytes + m_resumeGap > uint64_t{m_pauseThreshold})
    {
        return;
    }
    NS_LOG_LOGIC("receive buffer " << m_waitingBytes << " B: XON");
    SendPfc(0); // quanta 0: resume
    m_pausedClasses = 0;
    m_waitingClasses = 0;
    m_refresh.Cancel();
}

uint64_t
NicReceivePipeline::GetPackets() const
{
    return m_packets;
}

uint64_t
NicReceivePipeline::GetDelayedPackets() const
{
    return m_delayed;
}

uint32_t
NicReceivePipeline::GetMaxBacklogPackets() const
{
    return m_maxBacklogPackets;
}

uint64_t
NicReceivePipeline::GetMaxBacklogBytes() const
{
    return m_maxBacklogBytes;
}

Time
NicReceivePipeline::GetMaxWait() const
{
    return m_maxWait;
}

Time
NicReceivePipeline::GetTotalWait() const
{
    return m_totalWait;
}

uint64_t
NicReceivePipeline::GetPauses() const
{
    return m_pauses;
}

double
NicReceivePipeline::GetPacketRate() const
{
    return m_packetRate;
}

void
NicReceivePipeline::DoDispose()
{
    m_serve.Cancel();
    m_refresh.Cancel();
    m_waiting.clear();
    m_device = nullptr;
    m_deliver = DeliverCallback();
    Object::DoDispose();
}

} // namespace ns3
