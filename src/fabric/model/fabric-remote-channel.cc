#include "fabric/model/fabric-remote-channel.h"

#ifdef NS3_MPI

#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "fabric/model/fabric-net-device.h"
#include "fabric/model/remote-frame-batcher.h"
#include "ns3/log.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(FabricRemoteChannel);

/**
 * The direction towards the other rank's port. Its event fires when the last bit leaves this
 * port (latency 0), so that the message goes out one cable delay ahead of its arrival: the
 * lookahead the engine grants.
 */
class FabricRemoteChannel::RemoteDirection : public FabricChannel::Direction
{
public:
    void Prefetch() const override
    {
    }

    void SetLatency(Time t) override
    {
        wire = t;
        cable = channel->GetDelay();
        latency = Time(0);
    }

protected:
    void Notify() override
    {
        FabricFrame frame = std::move(inFlight.front());
        inFlight.pop_front();
        const Time now = Simulator::Now();
        const Time arrival = now + wire;
        // One process schedules the arrival when the transmission starts, a frame time ago;
        // the receiver orders it among its events as scheduled then. The message itself is due
        // just before (one cable delay ahead of now at the earliest: the lookahead).
        const Time delay = wire + Sender()->FrameTime(frame.info.size);
        const Time due = std::max(arrival - TimeStep(1), now + cable);
        RemoteFrameRecord record;
        record.node = receiver->GetNode()->GetId();
        record.device = receiver->GetIfIndex();
        record.arrival = arrival;
        record.delay = delay;
        record.tie = ProcessRanks::NextTie();
        record.frame = std::move(frame);
        const uint32_t rank = receiver->GetNode()->GetSystemId();
        ProcessRanks::NoteExtraEvent(); // this event: one process has none between the ends
        NS_LOG_LOGIC("frame of " << record.frame.info.size << " B to node " << record.node
                                 << " on rank " << rank << ", due " << due.As(Time::US));
        channel->m_batcher->Send(rank, record, due);
    }

private:
    /// The port that transmits into this direction: the channel's other device.
    FabricNetDevice* Sender() const
    {
        return PeekPointer(channel->GetPeer(receiver));
    }

public:
    FabricRemoteChannel* channel{nullptr};
    Time wire;  ///< the cable's delay plus the far port's RxLatency
    Time cable; ///< the cable's delay: the least a message may be due ahead
};

TypeId
FabricRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricRemoteChannel")
                            .SetParent<FabricChannel>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<FabricRemoteChannel>()
                            .AddAttribute("Batcher",
                                          "What gathers this process's frames to other "
                                          "processes into MPI messages: one for every cut "
                                          "cable of the process",
                                          PointerValue(),
                                          MakePointerAccessor(&FabricRemoteChannel::m_batcher),
                                          MakePointerChecker<RemoteFrameBatcher>());
    return tid;
}

FabricRemoteChannel::FabricRemoteChannel()
{
    // Both directions: on each rank only the local port transmits, always towards the other.
    for (std::size_t to = 0; to < 2; ++to)
    {
        Ptr<RemoteDirection> d(new RemoteDirection, false);
        d->channel = this;
        SetDirection(to, d);
    }
}

void
FabricRemoteChannel::Attach(Ptr<FabricNetDevice> device)
{
    FabricChannel::Attach(device);
    NS_ABORT_MSG_UNLESS(m_batcher, "FabricRemoteChannel: no Batcher");
    m_batcher->AddCable(GetDelay());
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(MakeCallback(&RemoteFrameBatcher::Receive));
    device->AggregateObject(receiver);
}

} // namespace ns3

#endif // NS3_MPI
