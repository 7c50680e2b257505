#include "fabric/model/fabric-remote-channel.h"

#ifdef NS3_MPI

#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "fabric/model/fabric-net-device.h"
#include "fabric/model/remote-frame-header.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(FabricRemoteChannel);

namespace
{
/**
 * A frame from the other rank, just before it arrives: schedule its arrival where one process
 * would have, among this process's events of that instant, as an event scheduled when its
 * transmission started (QuadHeapScheduler::SetNextRemote).
 */
void
Deliver(FabricNetDevice* device, Ptr<Packet> p)
{
    ProcessRanks::NoteReceived();
    RemoteFrameHeader envelope;
    p->RemoveHeader(envelope);
    const FrameInfo info = envelope.GetInfo();
    NS_LOG_LOGIC("frame of " << info.size << " B for node " << device->GetNode()->GetId()
                             << " port " << device->GetIfIndex() << " arrives at "
                             << envelope.GetArrival().As(Time::US) << ", scheduled "
                             << envelope.GetDelay().As(Time::NS) << " before");
    QuadHeapScheduler::SetNextRemote(envelope.GetDelay().GetTimeStep(), envelope.GetTie());
    Simulator::ScheduleWithContext(device->GetNode()->GetId(),
                                   envelope.GetArrival() - Simulator::Now(),
                                   [device, p, info]()
                                   {
                                       device->Receive(FabricFrame(p, info));
                                   });
}
} // namespace

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
        const uint32_t tie = ProcessRanks::NextTie();
        // GetPacket builds a deferred frame's bytes and writes a pending CE mark; the copy
        // keeps the envelope out of a packet other copies of a replicated frame share.
        Ptr<Packet> p = frame.GetPacket()->Copy();
        p->AddHeader(RemoteFrameHeader(frame.info, arrival, delay, tie));
        const uint32_t bytes = p->GetSerializedSize();
        NS_ABORT_MSG_IF(bytes > ProcessRanks::MAX_MESSAGE_BYTES,
                        "FabricRemoteChannel: a frame of " << frame.info.size << " B needs "
                                                           << bytes
                                                           << " B between processes, more than "
                                                              "ns-3's MPI buffer holds");
        ProcessRanks::NoteSent(bytes);
        NS_LOG_LOGIC("frame of " << frame.info.size << " B to node " << receiver->GetNode()->GetId()
                                 << " on rank " << receiver->GetNode()->GetSystemId() << ", due "
                                 << due.As(Time::US));
        MpiInterface::SendPacket(p, due, receiver->GetNode()->GetId(), receiver->GetIfIndex());
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
                            .AddConstructor<FabricRemoteChannel>();
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
    Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(MakeBoundCallback(&Deliver, PeekPointer(device)));
    device->AggregateObject(receiver);
}

} // namespace ns3

#endif // NS3_MPI
