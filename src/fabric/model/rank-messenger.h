/*
 * Messages between the processes of a distributed run that are not frames: what one process
 * decides and another must know (a P2MP message's last PSN, a group's switch entries, that a
 * process's operations are done).
 */
#ifndef MCAST4AI_RANK_MESSENGER_H
#define MCAST4AI_RANK_MESSENGER_H

#include "core/model/packed-bytes.h"
#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \brief Simulated messages between the processes of a distributed run, each handed to a
 * handler on the receiving process one delay after it was sent.
 *
 * The delay is the engine's lookahead (the cut cables' delay): the least ns-3 lets a message be
 * due ahead. What a process sends this way must not be needed sooner on the other side; a
 * sender states why it is not (a P2MP message's receivers are a cut cable away at least, a
 * group is used only after its install latency). A handler runs one picosecond after the
 * message is due, ordered among that instant's events by its sender and its place in the
 * sender's messages (QuadHeapScheduler::SetNextRemote): the same order on every run, however
 * the messages were read. Messages go to each rank's mailbox, a port of a host it simulates
 * (a host's cable is never cut, so no frame arrives there from another process). The messages
 * one instant sends to one rank share MPI messages, sent by an event after the instant's
 * senders (one MPI message each cost a pending send buffer per message: tens of thousands at
 * an MoE layer's first instant). A body longer than one MPI message holds
 * (ProcessRanks::MAX_MESSAGE_BYTES) goes in fragments, sent and handled at the same instants,
 * and the handler gets it whole with the last.
 *
 * Handlers are numbered in the order they are added, which must be the same on every process:
 * the model is built identically everywhere.
 */
class RankMessenger : public Object
{
public:
    static TypeId GetTypeId();

    /// Takes the message's body, read from its start.
    typedef Callback<void, PackedBytes&> Handler;

    /// mailboxes[r]: the port rank r receives on; delay: the engine's lookahead.
    void Install(std::vector<Ptr<NetDevice>> mailboxes, Time delay);
    /// A handler for messages; its number, the same on every process.
    uint32_t AddHandler(Handler handler);
    /**
     * A handler known by key (below 2^31, one per handler in the run) instead of the order it
     * was added in: for objects made while the run goes, which two processes may make in
     * different orders (a P2MP channel of a later MoE layer). Its number.
     */
    uint32_t AddHandler(Handler handler, uint32_t key);
    /// Send body to handler on rank (not this one).
    void Send(uint32_t rank, uint32_t handler, const PackedBytes& body);
    /// Send body to handler on every other rank.
    void SendToOthers(uint32_t handler, const PackedBytes& body);
    /// How long after it is sent a message is handled.
    Time GetDelay() const;
    /// Events of its own (a message's receipt and its handler): not the model's.
    uint64_t GetEvents() const;
    /// MPI messages this process sent them in: those of one instant to one rank share one.
    uint64_t GetSent() const;
    /// Messages this process sent, a fragment each.
    uint64_t GetParts() const;

protected:
    void DoDispose() override;

private:
    void Receive(Ptr<Packet> p);
    /// Send every rank's outbox: the messages of this instant.
    void Flush();
    /// Send rank's outbox as one MPI message.
    void SendOutbox(uint32_t rank);
    /// A message's (fragment's) turn, one picosecond after it is due.
    void Handle(uint32_t handler, uint32_t from, bool more, const std::vector<uint8_t>& bytes);

    std::vector<Ptr<NetDevice>> m_mailboxes;
    /// A keyed handler's number: KEYED | key.
    static constexpr uint32_t KEYED = 0x80000000;

    std::vector<Handler> m_handlers;
    std::unordered_map<uint32_t, Handler> m_keyed; ///< by key
    /// By sending rank: the fragments of its message handled so far (its fragments come in
    /// order, one after the other, at one instant).
    std::vector<std::vector<uint8_t>> m_partial;
    /// By receiving rank: this rank, then the messages (headers and bodies) not sent yet.
    std::vector<PackedBytes> m_outbox;
    bool m_flushing{false}; ///< a Flush is scheduled at this instant
    Time m_delay;
    uint64_t m_events{0};
    uint64_t m_sent{0};
    uint64_t m_parts{0};
};

} // namespace ns3

#endif // MCAST4AI_RANK_MESSENGER_H
