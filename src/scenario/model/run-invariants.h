/*
 * Conservation laws a finished run must obey, checked at its end.
 */
#ifndef MCAST4AI_RUN_INVARIANTS_H
#define MCAST4AI_RUN_INVARIANTS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TopologyBuilder;
struct ScenarioConfig;

/**
 * \brief The laws every run must obey, whatever it simulated; a violation is a bug in the
 * model, and the runner reports it and exits 4 instead of writing results that lie.
 *
 * - Frames are conserved on every cable direction: what one port transmitted has reached the
 *   other (lost or not) or is still on the cable, frame for frame and byte for byte.
 * - No queue pair was acknowledged for a PSN it never sent.
 * - Every P2MP message its root saw acknowledged by all its receivers was delivered to each
 *   of them (P2mpDelivery::ReportUndelivered); one that was not is lost without a report.
 * - A lossless fabric (PFC on, headroom sized by the model) drops nothing in its switches.
 * - Every switch's MMU counts exactly the frames it holds (FabricSwitch::CheckBuffers), so
 *   its counters return to zero when the fabric drains.
 */
class RunInvariants
{
public:
    /// The counts of one cable direction, from its transmitting port to its receiving one.
    struct Cable
    {
        std::string name; ///< e.g. "switch 3 port 1 -> host 7"
        uint64_t txFrames{0};
        uint64_t txBytes{0};
        uint64_t arrivedFrames{0};
        uint64_t arrivedBytes{0};
        uint64_t inFlightFrames{0};
        uint64_t inFlightBytes{0};
    };

    /// One line per cable direction that does not conserve its frames or bytes.
    static std::vector<std::string> CheckCables(const std::vector<Cable>& cables);

    /// Every cable direction of the fabric, as its ports and cable count them now.
    static std::vector<Cable> Cables(const TopologyBuilder& fabric);

    /// Every law, on the fabric as the run left it; one line per violation.
    static std::vector<std::string> Check(const TopologyBuilder& fabric,
                                          const ScenarioConfig& config);
};

} // namespace ns3

#endif /* MCAST4AI_RUN_INVARIANTS_H */
