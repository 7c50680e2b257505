#include "rdma/model/rdma-nic-counters.h"

#include "core/model/counter-set.h"
#include "fabric/model/op-ledger.h"
#include "fabric/model/traffic-ledger.h"

#include <string>

namespace ns3
{

void
RdmaNicCounters::RecordDisplacement(uint64_t ahead)
{
    uint32_t bucket = 0;
    while (bucket + 1 < DISPLACEMENT_BUCKETS && (ahead >> (bucket + 1)) != 0)
    {
        ++bucket;
    }
    ++displacement[bucket];
    earlyArrival(ahead);
}

void
RdmaNicCounters::RecordDuplicate()
{
    ++spurious;
    duplicateArrival();
}

void
RdmaNicCounters::RecordLost(uint8_t owner, uint32_t op, uint32_t bytes)
{
    ++lostPackets;
    lostBytes += bytes;
    lost(bytes);
    if (ledger)
    {
        TrafficLedger::Counters& row = ledger->Row(owner);
        ++row.lostPackets;
        row.lostBytes += bytes;
    }
    if (ops && op)
    {
        ops->Lost(op, bytes);
    }
}

void
RdmaNicCounters::AddTo(CounterSet& c) const
{
    c.Add("sender_nic_bytes", dataBytes + headerBytes);
    c.Add("header_bytes", headerBytes);
    c.Add("data_packets", dataPackets);
    c.Add("p2mp_packets", mcastPackets);
    c.Add("p2mp_copies", mcastCopies);
    c.Add("acks_at_senders", acksReceived);
    c.Add("acks_beyond_sent", acksBeyondSent);
    c.Add("acks_refused.not_from_aggregator", acksRefused);
    c.Add("cnps", cnpsSent);
    c.Add("naks", naksSent);
    c.Add("spurious_retransmissions", spurious);
    c.Add("reorder.drops", reorderDrops);
    c.Add("lost_packets", lostPackets);
    c.Add("lost_bytes", lostBytes);
    c.AddHistogram("reorder.displacement", displacement.data(), displacement.size());
    c.Add("telemetry.probes", probesSent);
    c.Add("telemetry.probe_acks", probeAcksReceived);
    c.Add("telemetry.probe_acks_sent", probeAcksSent);
    c.Add("telemetry.probe_bytes", probeBytes);
}

} // namespace ns3
