/*
 * The rate control of one sending queue pair, as the NIC drives it: it learns the line rate,
 * hears of every CNP, is told of every frame sent, and answers how long to wait before the
 * next one; a telemetry-driven model also reads the in-band telemetry its ACKs echo and may
 * bound the bytes in flight. DCQCN and HPCC are the models; a NIC chooses its model by TypeId
 * name, as ns-3's TCP chooses a TcpCongestionOps.
 */
#ifndef MCAST4AI_RDMA_CONGESTION_CONTROL_H
#define MCAST4AI_RDMA_CONGESTION_CONTROL_H

#include "core/model/named-type-registry.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "wire/model/ioam-trace-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Reaction point of one queue pair.
 */
class RdmaCongestionControl : public Object
{
public:
    static TypeId GetTypeId();
    /// The names of the congestion-control models and their TypeIds.
    static NamedTypeRegistry& Registry();
    /// The scenario name of no model at all: queue pairs send at line rate, and no NIC is a
    /// notification point.
    static const char* const NONE;

    /// Start sending at this rate.
    virtual void SetLineRate(DataRate rate) = 0;
    /// A CNP (congestion notification) arrived for this queue pair.
    virtual void ReceiveCnp() = 0;
    /// A frame of this many wire bytes (framing included) left the NIC.
    virtual void BytesSent(uint32_t wireBytes) = 0;
    /// Time to wait after sending wireBytes before the next frame may go.
    virtual Time PacingDelay(uint32_t wireBytes) const = 0;
    /// The current sending rate.
    virtual DataRate GetRate() const = 0;
    /// The slowest rate the model may hold its queue pair to (its floor; 0: none): the run's
    /// watchdog waits long enough for a frame at this rate (at the links' rate without one).
    virtual DataRate GetMinRate() const = 0;

    /**
     * Whether the model reads in-band telemetry. Its queue pair's unicast data packets then
     * carry an IOAM trace of IoamTraceHeader::INT_TRACE_TYPE that the switches stamp and the
     * responder echoes in its ACK (ReceiveTelemetry). Rate models (DCQCN) do not.
     */
    virtual bool UsesTelemetry() const;
    /// Whether the model reacts to ECN marks (through CNPs): its data is sent ECN-capable and
    /// receivers notify. Telemetry models (HPCC) do not, so their data is not ECN-capable.
    virtual bool UsesEcn() const;
    /**
     * An ACK echoed the trace of a data packet.
     * \param trace the hops' records, in path order
     * \param ackedPsn the last PSN the ACK acknowledges
     * \param nextPsn the PSN the queue pair sends next (HPCC's snd_nxt)
     */
    virtual void ReceiveTelemetry(const IoamTraceHeader& trace,
                                  uint64_t ackedPsn,
                                  uint64_t nextPsn);
    /// The most bytes the queue pair may have unacknowledged; 0 for no window (rate alone).
    virtual uint64_t GetWindowBytes() const;

    /// What a model tells of its rate: its queue pair, which re-times the gap after its last
    /// frame. A plain virtual call, not a Callback: a queue pair's bound Callback is a few
    /// hundred bytes, and a 1,024-XPU fabric of four planes has a million sending pairs.
    class PacingListener
    {
    public:
        virtual ~PacingListener() = default;
        virtual void PacingChanged() = 0;
    };

    /// Called when the rate changes (unless RetimePacing is false); null: nobody listens.
    void SetPacingListener(PacingListener* listener);

    /// A rate log's row: the current rate and the target rate (bit/s) and alpha, as the model
    /// defines them (output.dcqcn-rates.csv writes DCQCN's).
    typedef Callback<void, double, double, double> StateLog;
    /**
     * Give log the model's state now and after every change of its rate or target.
     *
eturn false, and log is never called, if the model keeps no such state (the default)
     */
    virtual bool SetStateLog(StateLog log);

protected:
    /// The models call this whenever their rate changes.
    void NotifyPacingChanged();

    /// The fabric's longest unloaded round trip (FabricRtt), for a model sized by one.
    Time GetFabricRtt() const;

private:
    bool m_retimePacing{true};
    Time m_fabricRtt;
    PacingListener* m_pacingListener{nullptr};
};

} // namespace ns3

#endif /* MCAST4AI_RDMA_CONGESTION_CONTROL_H */
