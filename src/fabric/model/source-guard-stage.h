/*
 * Source-address validation at the edge (ingress filtering, as BCP 38 asks of an access
 * network): a frame that enters the fabric from a host must carry that host's IPv4 source
 * address. A host that forges another's address, an ACK in a receiver's name for instance,
 * is stopped at its own ToR before any aggregation point can be fooled by it.
 */
#ifndef MCAST4AI_SOURCE_GUARD_STAGE_H
#define MCAST4AI_SOURCE_GUARD_STAGE_H

#include "fabric/model/switch-stage.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief Refuses frames from a host port whose source address is not the attached host's.
 *
 * It must be the first stage of its switch, so that no later stage (ACK aggregation) sees a
 * forged frame.
 */
class SourceGuardStage : public SwitchStage
{
public:
    static TypeId GetTypeId();

    /// hostOnPort[p]: the host attached to port p, or NOT_A_HOST for a switch-facing port.
    static constexpr uint32_t NOT_A_HOST = UINT32_MAX;
    void SetHostPorts(std::vector<uint32_t> hostOnPort);

    bool Receive(uint32_t inPort, FabricFrame& frame) override;

    /// Frames refused because their source address was not the attached host's.
    uint64_t GetRefused() const;

    /// Signature of the Refused trace: ingress port, attached host, host the frame claimed.
    typedef void (*RefusedTracedCallback)(uint32_t port, uint32_t host, uint32_t claimed);

private:
    std::vector<uint32_t> m_hostOnPort;
    uint64_t m_refused{0};
    TracedCallback<uint32_t, uint32_t, uint32_t> m_refusedTrace;
};

} // namespace ns3

#endif /* MCAST4AI_SOURCE_GUARD_STAGE_H */
