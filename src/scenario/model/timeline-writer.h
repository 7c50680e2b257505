/*
 * timeline.json (output.timeline): the run in the Trace Event Format, the JSON that Perfetto
 * and Chrome's trace viewer open. Events are streamed as the run makes them, within a byte
 * bound; operations and their phases are written at the end, from the metrics.
 */
#ifndef MCAST4AI_TIMELINE_WRITER_H
#define MCAST4AI_TIMELINE_WRITER_H

#include "ns3/nstime.h"
#include "workload/model/metrics.h"
#include "workload/model/timeline-segment.h"
#include "workload/model/workload.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace ns3
{

class TopologyBuilder;
class FabricNetDevice;
class FabricSwitch;

/**
 * \brief Writes a run as Trace Event Format JSON.
 *
 * Processes (Perfetto's groups of tracks): 1 "operations", an async track per workload with
 * its operations and, nested, their phases (every ops.csv row of kind op and phase, with the
 * join key as arguments); 2 "requests", a track per operation that reports segments (a KV
 * request's queueing, prefill, kv-transfer, first-token, decode, replicas), which follow each
 * other and add up to its ops.csv duration; 3 "hosts", three tracks per host that has any:
 * compute, waiting for data and sending, each a slice per interval its activity count was
 * above zero; 4 "ports", counters per link end: bytes queued, PFC-paused (0/1) and transmit
 * rate (Gb/s) over the sampling interval, written when they change. An arrow (flow event) goes
 * from a segment to the host slice it caused (a request's KV transfer to its prefill host's
 * sending).
 */
class TimelineWriter
{
public:
    /// Opens path; throws std::runtime_error if it cannot be written.
    TimelineWriter(const std::string& path,
                   uint64_t maxBytes,
                   const TopologyBuilder& fabric,
                   Ptr<Metrics> metrics);
    ~TimelineWriter();
    /// Follow one workload's Activity and Segment traces.
    void Attach(Ptr<Workload> workload);
    /// Read every port's counters; those that changed since the last sample are written.
    void Sample(Time interval);
    /// Close the open host slices at end, write the operations and the closing bracket.
    void Finish(Time end);

private:
    struct Activity
    {
        int32_t count{0};
        Time since;
    };
    struct Port
    {
        std::string name; ///< "edge0>host1": the link it transmits on
        Ptr<FabricNetDevice> device;
        Ptr<FabricSwitch> sw; ///< its switch (queued bytes), null for a host's NIC
        uint32_t index{0};    ///< port of sw
        uint64_t queued{0};
        bool paused{false};
        uint64_t txBytes{0};
        double gbps{0};
    };

    void OnActivity(uint32_t host, HostActivity kind, int32_t delta);
    void OnSegment(const TimelineSegment& segment);
    /// Write the buffered segments of one operation, all or none.
    void FlushSegments();
    /// The events of one segment: its slice, and an arrow to what it caused.
    void SegmentEvents(const TimelineSegment& s, std::vector<std::string>& events);
    /// Write one event (a JSON object) if within the byte bound, else count it dropped.
    void Emit(const std::string& event, bool always = false);
    /// A counter sample, within half the bound.
    void EmitCounter(const std::string& event);
    void Write(const std::string& event);
    /// A host's activity slice on thread tid (named the first time); open: still going at
    /// the run's end.
    void HostSlice(uint64_t tid, Time since, Time end, bool open);
    /// Name a thread the first time it is used.
    void NameThread(uint32_t pid, uint64_t tid, const std::string& name);
    std::string JoinKeyArgs(uint64_t handle) const;

    std::ofstream m_out;
    uint64_t m_maxBytes;
    uint64_t m_written{0};
    uint64_t m_dropped{0};
    bool m_first{true};
    bool m_full{false}; ///< an event was dropped: every later streamed one is too
    bool m_countersFull{false};
    uint64_t m_counterBytes{0};
    std::vector<TimelineSegment> m_segments; ///< of one operation, not yet written
    Ptr<Metrics> m_metrics;
    std::vector<std::string> m_hostNames;
    std::vector<Activity> m_activity; ///< host * 3 + kind
    std::vector<bool> m_named;        ///< hosts' threads, host * 3 + kind
    std::vector<bool> m_namedOp;      ///< requests' threads, by operation handle
    std::vector<Port> m_ports;
    Time m_lastSample;
};

} // namespace ns3

#endif /* MCAST4AI_TIMELINE_WRITER_H */
