/*
 * The settings of every host's RDMA NIC and its DCQCN, as a scenario's `nic` section gives
 * them (the NIC's keys are declared in nic-schema.cc, each congestion-control model's in its
 * own file); plain data, read by the scenario layer. Keys only a model reads (the receive
 * path's, DCQCN's and HPCC's parameters) are not members: they set the model's attributes
 * from `spec`.
 */
#ifndef MCAST4AI_NIC_CONFIG_H
#define MCAST4AI_NIC_CONFIG_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * What the scenario itself reads of nic.dcqcn. The model's parameters (g, the timers, the
 * rate steps, ...) are not here: they set Dcqcn's and RdmaNic's attributes from the JSON the
 * schema writes, with `preset`'s values where a key is not given (dcqcn.cc declares them, once).
 * A config built in code picks a preset here and sets single parameters in NicConfig::spec,
 * e.g. spec["dcqcn"]["g"]. A scenario read and then given another preset in code is refused
 * when written (its kept section holds the first preset's values): change it in the JSON.
 */
struct DcqcnConfig
{
    /// The preset a scenario gets when it names none (dcqcn.cc declares the presets).
    static constexpr const char* DEFAULT_PRESET = "hpcc-simulator";

    bool enabled{true};
    std::string preset{DEFAULT_PRESET}; // where the other keys' values come from
    bool rateTrace{false};              // write dcqcn-rates.csv into the result directory
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
    std::string congestionControl{"dcqcn"}; // a registered model's name, or "none"
    DcqcnConfig dcqcn;
    nlohmann::json spec; // the whole section, every model's own keys included (nic.hpcc)
};

} // namespace ns3

#endif /* MCAST4AI_NIC_CONFIG_H */
