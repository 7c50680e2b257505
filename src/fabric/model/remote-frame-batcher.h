/*
 * Frames one process sends another, gathered into few MPI messages: a distributed run's
 * crossing frames cost mostly per message (MPI's send, receive and test calls, ns-3's packet
 * serialisation, an event to receive each), so a frame waits a little for others going the
 * same way. Built only when ns-3 has MPI.
 */
#ifndef MCAST4AI_REMOTE_FRAME_BATCHER_H
#define MCAST4AI_REMOTE_FRAME_BATCHER_H

#include "fabric/model/remote-frame-record.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <vector>

namespace ns3
{

/**
 * \brief Gathers the frames this process sends over cut cables (FabricRemoteChannel) into one
 * ns-3 MPI message per receiving process, up to ns-3's message size.
 *
 * ns-3's distributed engine lets no process run more than its lookahead (the least delay of a
 * cut cable) ahead of another, so a message sent at t may be due no earlier than t + lookahead,
 * and a frame due at d may wait until d − lookahead before it leaves. A frame is due at the
 * far port when the cable's delay and that port's RxLatency have passed (a picosecond before,
 * see FabricRemoteChannel): cut cables join switches, so a frame may wait for the far switch's
 * forwarding latency (`switch.latency_ns`, 500 ns by default) for others to the same process.
 * They leave together as one message when the earliest of them must, or when the message is
 * full. Each still arrives at its own time, ordered as a frame sent alone is (its record's delay
 * and tie key), so results do not depend on the gathering; only the
 * number of messages does. With no forwarding latency every frame leaves alone, when it is
 * handed over.
 *
 * The receiving process schedules each frame's arrival when the message's earliest frame is
 * due.
 */
class RemoteFrameBatcher : public Object
{
public:
    static TypeId GetTypeId();
    RemoteFrameBatcher();

    /// A cut cable of this process, of that delay: the engine's lookahead is the least.
    void AddCable(Time delay);

    /**
     * Send record's frame to its device, on process rank, due there at due (at least a cut
     * cable's delay from now); it leaves by due − lookahead.
     */
    void Send(uint32_t rank, RemoteFrameRecord& record, Time due);

    /// What the receiving device's MpiReceiver hands over: one message, one or more frames.
    static void Receive(Ptr<Packet> message);

protected:
    void DoDispose() override;

private:
    /// The frames waiting for one receiving process.
    struct Batch
    {
        std::vector<uint8_t> bytes; ///< RemoteFrameRecords
        Time due;                   ///< the earliest frame's
        Time leave;                 ///< when the message must leave: due − lookahead
        uint32_t node{0};           ///< a receiving device of the message: its first frame's
        uint32_t device{0};
        EventId flush;
    };

    /// Hand the frames waiting for rank to ns-3's MPI interface as one message.
    void Flush(uint32_t rank);

    bool m_gather{true};
    Time m_lookahead;           ///< the engine's: the least delay of a cut cable
    std::vector<Batch> m_batch; ///< by receiving rank
    PackedBytes m_record;       ///< the record being added
};

} // namespace ns3

#endif // MCAST4AI_REMOTE_FRAME_BATCHER_H
