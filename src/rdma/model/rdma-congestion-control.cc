#include "rdma/model/rdma-congestion-control.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaCongestionControl")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddAttribute("RetimePacing",
                            "A rate change re-times the gap after the last frame: the next "
                            "frame goes one frame time at the new rate after the last one "
                            "started (HPCC's simulator, rdma-hw.cc ChangeRate). False keeps the "
                            "gap timed at the rate the frame was sent at",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaCongestionControl::m_retimePacing),
                            MakeBooleanChecker())
              .AddAttribute("FabricRtt",
                            "The fabric's longest unloaded round trip between two hosts, as "
                            "the scenario computes it; a model sized by a round trip (HPCC's "
                            "T) uses it unless given its own",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&RdmaCongestionControl::m_fabricRtt),
                            MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

NamedTypeRegistry&
RdmaCongestionControl::Registry()
{
    static NamedTypeRegistry registry("congestion control", RdmaCongestionControl::GetTypeId());
    return registry;
}

const char* const RdmaCongestionControl::NONE = "none";

bool
RdmaCongestionControl::UsesTelemetry() const
{
    return false;
}

bool
RdmaCongestionControl::UsesEcn() const
{
    return true;
}

Time
RdmaCongestionControl::GetFabricRtt() const
{
    return m_fabricRtt;
}

void
RdmaCongestionControl::ReceiveTelemetry(const IoamTraceHeader& /* trace */,
                                        uint64_t /* ackedPsn */,
                                        uint64_t /* nextPsn */)
{
}

uint64_t
RdmaCongestionControl::GetWindowBytes() const
{
    return 0;
}

bool
RdmaCongestionControl::SetStateLog(StateLog /* log */)
{
    return false;
}

void
RdmaCongestionControl::SetPacingListener(PacingListener* listener)
{
    NS_LOG_FUNCTION(this << listener);
    m_pacingListener = listener;
}

void
RdmaCongestionControl::NotifyPacingChanged()
{
    if (m_retimePacing && m_pacingListener)
    {
        NS_LOG_LOGIC(this << ": rate changed, pacing re-timed");
        m_pacingListener->PacingChanged();
    }
}

} // namespace ns3
