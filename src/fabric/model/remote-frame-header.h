/*
 * What a frame carries besides its bytes when it crosses from one process of a distributed
 * run to another: its parsed fields, the side-band ones (owner, operation, queue stamp)
 * included, which the bytes do not hold.
 */
#ifndef MCAST4AI_REMOTE_FRAME_HEADER_H
#define MCAST4AI_REMOTE_FRAME_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"
#include "wire/model/frame-info.h"

namespace ns3
{

/**
 * \brief Envelope of a frame sent between processes (FabricRemoteChannel); never on a wire.
 *
 * It holds the frame's FrameInfo as the sending process has it, byte for byte: the processes
 * of one run are the same program on the same kind of machine. The receiver strips it and
 * delivers the frame with these fields, so that per-workload and per-operation counters
 * (FrameInfo::owner, FrameInfo::op) follow a frame across processes as they do across ports.
 * With them: when the frame arrives, how long before that its transmission started (when one
 * process would have scheduled its arrival) and the sender's tie key, which place the arrival
 * among the receiver's events of the same instant (QuadHeapScheduler::SetNextRemote).
 */
class RemoteFrameHeader : public Header
{
public:
    RemoteFrameHeader() = default;
    RemoteFrameHeader(const FrameInfo& info, Time arrival, Time delay, uint32_t tie);

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    const FrameInfo& GetInfo() const;
    Time GetArrival() const;
    Time GetDelay() const;
    uint32_t GetTie() const;

private:
    FrameInfo m_info;
    int64_t m_arrival{0}; ///< time steps
    int64_t m_delay{0};   ///< time steps
    uint32_t m_tie{0};
};

} // namespace ns3

#endif // MCAST4AI_REMOTE_FRAME_HEADER_H
