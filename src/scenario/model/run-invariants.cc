#include "scenario/model/run-invariants.h"

#include "fabric/model/fabric-channel.h"
#include "fabric/model/fabric-net-device.h"
#include "fabric/model/fabric-switch.h"
#include "ns3/log.h"
#include "p2mp/model/p2mp-delivery.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/scenario-config.h"
#include "scenario/model/topology-builder.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RunInvariants");

namespace
{

/// The cable direction from port `from` (named `name`) to its peer, if it is cabled.
void
AddCable(Ptr<FabricNetDevice> from, const std::string& name, std::vector<RunInvariants::Cable>& out)
{
    Ptr<FabricChannel> channel = from->GetFabricChannel();
    if (!channel)
    {
        return;
    }
    Ptr<FabricNetDevice> to = channel->GetPeer(from);
    Ptr<FabricChannel::Direction> d = channel->GetTransmitDirection(PeekPointer(from));
    if (!to || !d)
    {
        return;
    }
    RunInvariants::Cable c;
    c.name = name;
    c.txFrames = from->GetTxFrames();
    c.txBytes = from->GetTxBytes();
    c.arrivedFrames = to->GetArrivedFrames();
    c.arrivedBytes = to->GetArrivedBytes();
    c.inFlightFrames = d->inFlight.size();
    for (std::size_t i = 0; i < d->inFlight.size(); ++i)
    {
        c.inFlightBytes += d->inFlight[i].info.size;
    }
    out.push_back(c);
}

} // namespace

std::vector<std::string>
RunInvariants::CheckCables(const std::vector<Cable>& cables)
{
    std::vector<std::string> out;
    for (const Cable& c : cables)
    {
        if (c.txFrames != c.arrivedFrames + c.inFlightFrames
            || c.txBytes != c.arrivedBytes + c.inFlightBytes)
        {
            std::ostringstream os;
            os << c.name << ": sent " << c.txFrames << " frames (" << c.txBytes << " B), but "
               << c.arrivedFrames << " (" << c.arrivedBytes << " B) arrived and "
               << c.inFlightFrames << " (" << c.inFlightBytes << " B) are on the cable";
            out.push_back(os.str());
        }
    }
    return out;
}

std::vector<RunInvariants::Cable>
RunInvariants::Cables(const TopologyBuilder& fabric)
{
    std::vector<Cable> cables;
    for (uint32_t h = 0; h < fabric.GetHostCount(); ++h)
    {
        AddCable(
            fabric.GetNic(h)->GetDevice(), "host " + std::to_string(h) + " -> its switch", cables);
    }
    for (uint32_t s = 0; s < fabric.GetSwitchCount(); ++s)
    {
        Ptr<FabricSwitch> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            AddCable(sw->GetPort(p),
                     "switch " + std::to_string(s) + " port " + std::to_string(p) + " -> its peer",
                     cables);
        }
    }
    return cables;
}

std::vector<std::string>
RunInvariants::Check(const TopologyBuilder& fabric, const ScenarioConfig& config)
{
    std::vector<std::string> out = CheckCables(Cables(fabric));
    uint64_t beyond = 0;
    for (uint32_t h = 0; h < fabric.GetHostCount(); ++h)
    {
        beyond += fabric.GetNic(h)->GetCounters().acksBeyondSent;
    }
    if (beyond > 0)
    {
        out.push_back(std::to_string(beyond)
                      + " ACK(s) acknowledged a PSN their queue pair never sent");
    }
    if (Ptr<P2mpDelivery> d = fabric.GetDelivery(); d && d->GetUndelivered() > 0)
    {
        std::string v = std::to_string(d->GetUndelivered())
                        + " P2MP receiver deliveries missing from messages every receiver "
                          "acknowledged, e.g. ";
        for (size_t i = 0; i < d->GetUndeliveredExamples().size(); ++i)
        {
            v += (i ? "; " : "") + d->GetUndeliveredExamples()[i];
        }
        out.push_back(v);
    }
    for (uint32_t s = 0; s < fabric.GetSwitchCount(); ++s)
    {
        for (const std::string& v : fabric.GetSwitch(s)->CheckBuffers())
        {
            out.push_back("switch " + std::to_string(s) + " " + v);
        }
    }
    if (config.sw.pfc.enabled && config.sw.pfc.headroomKb < 0)
    {
        uint64_t drops = 0;
        for (uint32_t s = 0; s < fabric.GetSwitchCount(); ++s)
        {
            // Injected drops (FabricSwitch::SetDropFilter) are faults asked for, refused
            // frames (forged sources) a policy's doing and unroutable ones a failure's: none
            // is a buffer's.
            Ptr<FabricSwitch> sw = fabric.GetSwitch(s);
            drops += sw->GetDrops() - sw->GetInjectedDrops() - sw->GetRefusedDrops()
                     - sw->GetUnroutableDrops();
        }
        if (drops > 0)
        {
            out.push_back(std::to_string(drops)
                          + " frame(s) dropped by switch buffers with PFC on and headroom sized "
                            "by the model (a lossless fabric)");
        }
    }
    for (const std::string& v : out)
    {
        NS_LOG_WARN("invariant violated: " << v);
    }
    return out;
}

} // namespace ns3
