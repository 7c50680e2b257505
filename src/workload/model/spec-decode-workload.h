/*
 * Speculative decoding: a draft host proposes k tokens per step to V verifier replicas as one
 * P2MP message and waits for every verdict before the next step. The latency-critical,
 * tiny-message end of P2MP, where a mechanism's set-up cost or header can dominate.
 */
#ifndef MCAST4AI_SPEC_DECODE_WORKLOAD_H
#define MCAST4AI_SPEC_DECODE_WORKLOAD_H

#include "workload/model/collective-workload.h"

namespace ns3
{

class ConfigSchemaObject;

/**
 * \brief Workload type `spec-decode`: one step per iteration (a row of ops.csv).
 *
 * The first rank is the draft, the others verify. A step's graph: the proposal, tokens x
 * token_bytes, from the draft to every verifier (through p2mp.mechanism, or a copy per
 * verifier with algorithm unicast); then each verifier's verdict, verdict_bytes, back to the
 * draft once the proposal has arrived there. The step ends with the last verdict.
 *
 * Per-token latency is the step latency over the tokens a step yields: with acceptance rate
 * a and k proposed tokens, E = (1 - a^(k+1)) / (1 - a) on average (Leviathan et al., "Fast
 * Inference from Transformers via Speculative Decoding", ICML 2023, eq. 1).
 */
class SpecDecodeWorkload : public CollectiveWorkload
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& w);

    /// E: expected tokens a step yields with k proposals at acceptance rate a.
    static double ExpectedTokensPerStep(uint32_t k, double a);

    void Report(std::map<std::string, double>& figures) const override;
    void ReportSamples(std::map<std::string, std::vector<double>>& samples) const override;

protected:
    /// An operation's bytes (ops.csv) are its proposal's: tokens x token_bytes.
    void DoInstall() override;
    /// A step's source is the draft, its receivers the verifiers.
    void DescribeOp(Metrics::OpRecord& record) const override;
    /// bytes: the proposal's (DoInstall sets them).
    CollectiveSchedule BuildSchedule(uint32_t ranks,
                                     uint64_t bytes,
                                     uint64_t chunkBytes) const override;

private:
    double m_tokensPerStep{1}; ///< E, from tokens and acceptance
    int64_t m_request{0};      ///< the ids its ops.csv rows carry
    int64_t m_session{0};
    uint64_t m_verdictBytes{0}; ///< each verifier's reply
};

} // namespace ns3

#endif /* MCAST4AI_SPEC_DECODE_WORKLOAD_H */
