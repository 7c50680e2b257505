/*
 * A cable whose two ends are simulated by two processes of a distributed run: its frames
 * travel between them through ns-3's MPI interface. Built only when ns-3 has MPI.
 */
#ifndef MCAST4AI_FABRIC_REMOTE_CHANNEL_H
#define MCAST4AI_FABRIC_REMOTE_CHANNEL_H

#include "fabric/model/fabric-channel.h"

namespace ns3
{

/**
 * \brief A FabricChannel cut between two ranks (FabricPartition): ns-3's
 * PointToPointRemoteChannel, for fabric cables.
 *
 * Every rank builds the whole fabric, so both ends exist on both ranks, but only one end is
 * simulated on each: a port transmits only on its own rank, into a direction towards the other
 * rank. That direction's event fires where the frame's last bit leaves the port; it gives the
 * frame its bytes (a deferred frame is built, a pending CE mark written), wraps them with the
 * frame's fields (RemoteFrameHeader) and hands them to MpiInterface::SendPacket, due at the
 * far port when the cable's delay and that port's RxLatency have passed: the time a single
 * process gives it. The far rank's MpiReceiver on that port strips the envelope and delivers
 * the frame as the cable would.
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
};

} // namespace ns3

#endif // MCAST4AI_FABRIC_REMOTE_CHANNEL_H
