/*
 * A cable whose two ends are simulated by two processes of a distributed run: its frames
 * travel between them through ns-3's MPI interface. Built only when ns-3 has MPI.
 */
#ifndef MCAST4AI_FABRIC_REMOTE_CHANNEL_H
#define MCAST4AI_FABRIC_REMOTE_CHANNEL_H

#include "fabric/model/fabric-channel.h"
#include "fabric/model/remote-frame-batcher.h"

namespace ns3
{

/**
 * \brief A FabricChannel cut between two ranks (FabricPartition): ns-3's
 * PointToPointRemoteChannel, for fabric cables.
 *
 * Every rank builds the whole fabric, so both ends exist on both ranks, but only one end is
 * simulated on each: a port transmits only on its own rank, into a direction towards the other
 * rank. That direction's event fires where the frame's last bit leaves the port; it writes the
 * frame as a RemoteFrameRecord (its fields, its bytes or, for a deferred ACK, its builder's)
 * and hands it to the process's RemoteFrameBatcher, due at the far port when the cable's delay
 * and that port's RxLatency have passed: the time a single process gives it. The batcher sends
 * it through ns-3's MPI interface with other frames to the same process; there, its arrival
 * is scheduled on the far port as the cable would.
 *
 * ns-3's engine reads the cable's Delay attribute for its lookahead: no rank may run further
 * ahead of another than the shortest cut cable's delay.
 */
class FabricRemoteChannel : public FabricChannel
{
public:
    static TypeId GetTypeId();
    FabricRemoteChannel();

    /// FabricChannel::Attach, and a receiver for the frames the other rank sends the device.
    void Attach(Ptr<FabricNetDevice> device) override;

private:
    class RemoteDirection;
    Ptr<RemoteFrameBatcher> m_batcher;
};

} // namespace ns3

#endif // MCAST4AI_FABRIC_REMOTE_CHANNEL_H
