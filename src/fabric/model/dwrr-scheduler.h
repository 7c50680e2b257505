/*
 * Deficit weighted round robin (Shreedhar and Varghese, "Efficient fair queuing using deficit
 * round robin", SIGCOMM 1995): a port visits its weighted classes in turn, each visit adds
 * weight x quantum bytes to the class's deficit, and the class sends while its deficit lasts,
 * so over a busy period each class gets weight / (sum of the busy classes' weights) of the
 * link. Classes of weight 0 are served strictly before the weighted ones (ACKs, CNPs).
 */
#ifndef MCAST4AI_DWRR_SCHEDULER_H
#define MCAST4AI_DWRR_SCHEDULER_H

#include "fabric/model/egress-scheduler.h"

#include <array>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief switch.scheduling "dwrr".
 *
 * A class may overdraw its deficit by one frame (it is charged when the frame leaves, as the
 * size of the next frame is not known at the pick); with a quantum of at least one frame the
 * shares are the weights' all the same.
 */
class DwrrScheduler : public EgressScheduler
{
public:
    static TypeId GetTypeId();
    void SetPorts(uint32_t ports) override;
    uint8_t Pick(uint32_t port, uint8_t eligible) override;
    void Sent(uint32_t port, uint8_t prio, uint32_t bytes) override;

    /// Weights of classes 0..7, "w0,w1,...,w7" (0: strict priority above the weighted ones).
    void SetWeights(std::string weights);
    std::string GetWeights() const;

private:
    struct PortState
    {
        std::array<int64_t, 8> deficit{};
        uint8_t current{0};
    };

    std::array<uint32_t, 8> m_weight{1, 1, 1, 1, 1, 1, 0, 0};
    uint8_t m_strict{0xC0}; ///< classes of weight 0
    uint32_t m_quantum{9216};
    std::vector<PortState> m_ports;
};

} // namespace ns3

#endif /* MCAST4AI_DWRR_SCHEDULER_H */
