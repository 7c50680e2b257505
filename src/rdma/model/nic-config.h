/*
 * The settings of every host's RDMA NIC and its DCQCN, as a scenario's `nic` section gives
 * them (the NIC's keys are declared in nic-schema.cc, each congestion-control model's in its
 * own file); plain data, read by the scenario layer.
 */
#ifndef MCAST4AI_NIC_CONFIG_H
#define MCAST4AI_NIC_CONFIG_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/// DCQCN's parameters; the initialisers are the default preset's (`hpcc-simulator`, dcqcn.cc).
struct DcqcnConfig
{
    bool enabled{true};
    // Where the defaults below come from: paper, nvidia-cx6 or hpcc-simulator.
    std::string preset{"hpcc-simulator"};
    double cnpIntervalUs{0}; // notification point: at most one CNP per QP per interval
    double g{1.0 / 256};     // alpha gain
    double alphaUpdateUs{1}; // K: the alpha update period
    std::string alphaUpdate{"per-period"}; // "per-cnp" (the paper) or "per-period" (firmware)
    double rateDecreaseIntervalUs{4};      // at most one cut per interval; 0: every CNP cuts
    double rateIncreaseUs{300};            // T: rate-increase timer
    uint64_t byteCounterBytes{0};          // B: bytes per byte-counter stage; 0: none
    uint32_t fastRecoverySteps{2};         // F: stages below F are fast recovery
    double rateAiMbps{5};
    double rateHaiMbps{50};
    double rateStepReferenceGbps{25}; // AI/HAI are per this line rate, scaled; 0: as given
    double minRateMbps{1000};
    double rateOnFirstCnpMbps{0}; // 0: the first cut decreases like any other
    double initialAlpha{1.0};     // alpha at the first CNP
    bool clampTargetRate{false};  // every cut sets target = current rate (the paper)
    bool rateTrace{false};        // write dcqcn-rates.csv into the result directory
};

struct NicConfig
{
    uint32_t mtuBytes{1024};  // RDMA path MTU: payload bytes per packet
    uint32_t ackEvery{1};     // coalesce: one ACK per N in-order packets (and at message end)
    double rtoUs{1000.0};     // retransmission timeout
    uint32_t dataPriority{3}; // PFC priority class of RDMA data
    uint32_t ctrlPriority{6}; // class of ACK/NAK/CNP, served before data
    std::string reorder{"go-back-n"};       // receivers: go-back-n or tolerant
    uint32_t reorderWindow{4096};           // tolerant: bitmap size in packets
    double reorderTimeoutUs{100.0};         // tolerant: a hole this old is NAKed selectively
    double receiveMpps{0};                  // receive path packet rate; 0: unlimited
    uint32_t receivePauseBytes{0};          // receive buffer XOFF; 0: never paused
    std::string congestionControl{"dcqcn"}; // a registered model's name, or "none"
    DcqcnConfig dcqcn;
    nlohmann::json spec; // the whole section, every model's own keys included (nic.hpcc)
};

} // namespace ns3

#endif /* MCAST4AI_NIC_CONFIG_H */
