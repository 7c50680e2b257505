/*
 * The result directory: summary.json, ops.csv, the resolved scenario, and the summary table
 * printed at the end of a run.
 */
#ifndef MCAST4AI_RESULT_WRITER_H
#define MCAST4AI_RESULT_WRITER_H

#include "fabric/model/op-ledger.h"
#include "workload/model/metrics.h"
#include "workload/model/straggler-log.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Writes result files in the formats DESIGN.md fixes.
 */
class ResultWriter
{
public:
    /// Create dir (and parents); throws std::runtime_error with the reason on failure.
    static void MakeDirectory(const std::string& dir);
    /// A result file opened for writing; throws std::runtime_error naming it if it cannot be.
    static std::ofstream Create(const std::string& path);
    static void WriteJson(const nlohmann::json& j, const std::string& path);
    /// ops.csv: one row per operation in registration order, so equal runs give identical
    /// files, each followed by a row per phase it has (kind `phase`); with receivers, also a
    /// row per receiver completion (kind `receiver`). ops: the fabric's per-operation network
    /// counters (the network columns; empty without).
    static void WriteOpsCsv(const Metrics& metrics,
                            const std::string& path,
                            bool receivers = false,
                            const OpLedger* ops = nullptr);
    /// The ops.csv columns after `dst`: what the network did to an operation.
    static const char* NetworkColumns();
    /// steps.csv: one row per step of every collective iteration.
    static void WriteStepsCsv(const Metrics& metrics, const std::string& path);
    /// stragglers.csv: one row per straggler event, in the order they fired.
    static void WriteStragglersCsv(const StragglerLog& log,
                                   const std::vector<std::string>& workloads,
                                   const std::string& path);
    static void PrintTable(const nlohmann::json& summary, std::ostream& os);
};

} // namespace ns3

#endif /* MCAST4AI_RESULT_WRITER_H */
