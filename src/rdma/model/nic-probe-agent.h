/*
 * The NIC's end of telemetry probing: it makes the probes its queue pairs' path steering asks
 * for (an IOAM trace the switches stamp, in the queue pair's class so that it meets the queues
 * its data does), answers the probes other NICs send it (the IOAM decapsulating node: the trace
 * goes back to the sender), and hands the answers to its own probes to the steering that sent
 * them. It makes frames and counts them; the NIC addresses and queues them.
 */
#ifndef MCAST4AI_NIC_PROBE_AGENT_H
#define MCAST4AI_NIC_PROBE_AGENT_H

#include "ns3/mac48-address.h"
#include "wire/model/fabric-frame.h"
#include "wire/model/roce-packet-builder.h"

#include <cstdint>

namespace ns3
{

class QueuePair;
struct RdmaNicCounters;

/**
 * \brief Telemetry probes of one NIC: made, answered, and their answers delivered.
 */
class NicProbeAgent
{
public:
    /// mac: the NIC's; counters: where it counts. The wire bytes it counts include
    /// framingBytes, the port's per-frame framing (preamble, gap), given with each frame.
    void Setup(Mac48Address mac, RdmaNicCounters* counters);

    /**
     * A probe of qp addressed as a says, numbered probeId, with room for hops switches' stamps
     * in IOAM namespace ns; claim: it claims the path (BthHeader::RC_PROBE_CLAIM).
     */
    FabricFrame MakeProbe(const RocePacketBuilder::Addressing& a,
                          const QueuePair& qp,
                          uint32_t probeId,
                          uint16_t ns,
                          uint32_t hops,
                          bool claim,
                          uint32_t framingBytes);

    /**
     * A probe, or a probe's acknowledgement, arrived for qp. An acknowledgement goes to qp's
     * path steering; a probe is answered: reply holds the answer, addressed as replyTo says,
     * and it returns true. A frame without a readable trace is ignored.
     */
    bool Receive(QueuePair& qp,
                 FabricFrame& frame,
                 const RocePacketBuilder::Addressing& replyTo,
                 FabricFrame& reply,
                 uint32_t framingBytes);

private:
    Mac48Address m_mac;
    RdmaNicCounters* m_counters{nullptr};
};

} // namespace ns3

#endif /* MCAST4AI_NIC_PROBE_AGENT_H */
