/*
 * How a frame is written when it crosses from one process of a distributed run to another.
 */
#ifndef MCAST4AI_REMOTE_FRAME_RECORD_H
#define MCAST4AI_REMOTE_FRAME_RECORD_H

#include "core/model/packed-bytes.h"
#include "ns3/nstime.h"
#include "wire/model/fabric-frame.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief A frame between processes (FabricRemoteChannel, RemoteFrameBatcher); never on a wire.
 *
 * A record holds the receiving port (node and device index), when the frame arrives there, how
 * long before that its transmission started (when one process would have scheduled the
 * arrival), the sender's tie key (QuadHeapScheduler::SetNextRemote orders the arrival with
 * these), the frame's FrameInfo as the sender has it, byte for byte (the side-band fields
 * owner, op and queue stamp included, which the bytes do not hold: the processes of one run
 * are the same program on the same kind of machine), and the frame's bytes:
 *
 * - a frame with bytes: their ns-3 serialisation (a payload without bytes travels as a
 *   length), and whether a CE mark in the fields is still to be written into them, which the
 *   receiver then leaves pending as the sender had it;
 * - a deferred ACK, NAK or CNP (AckFrameBuilder): no bytes, only the builder's source MAC and
 *   ICRC setting, from which the receiving process builds the same bytes if anything reads
 *   them. Most crossing frames of a run with per-packet ACKs are those;
 * - another deferred frame: its bytes, built here.
 */
class RemoteFrameRecord
{
public:
    uint32_t node{0};   ///< the receiving node
    uint32_t device{0}; ///< its device index
    Time arrival;       ///< when the frame arrives there
    Time delay;         ///< how long before arrival its transmission started
    uint32_t tie{0};    ///< the sender's tie key
    FabricFrame frame;

    /// Append this record to out; a deferred frame of another builder gets its bytes first.
    void Write(PackedBytes& out);
    /// The record that comes next in in. Aborts on a record cut short (PackedBytes).
    static RemoteFrameRecord Read(PackedBytes& in);
};

} // namespace ns3

#endif // MCAST4AI_REMOTE_FRAME_RECORD_H
