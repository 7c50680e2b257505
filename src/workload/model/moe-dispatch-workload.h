/*
 * One mixture-of-experts layer per iteration: every rank dispatches each of its tokens to the
 * ranks holding the token's top-k experts as one P2MP message, the experts compute, and each
 * expert rank returns its outputs to the tokens' home ranks by unicast (the combine). The
 * scale-up draft's point is that only the pair matters, so the layer is one operation.
 */
#ifndef MCAST4AI_MOE_DISPATCH_WORKLOAD_H
#define MCAST4AI_MOE_DISPATCH_WORKLOAD_H

#include "workload/model/collective-workload.h"
#include "workload/model/recorded-routing.h"

#include <random>

namespace ns3
{

class ConfigSchemaObject;

/**
 * \brief Workload type `moe-dispatch`: dispatch, expert compute and combine of one layer per
 * iteration (a row of ops.csv), with the routing drawn afresh for every layer.
 *
 * Placement: with E experts over R ranks and E >= R, expert e lives on rank floor(e R / E);
 * with E < R, each rank holds one expert, expert e on the ranks r with floor(r E / R) = e,
 * and a token from home h uses the replica h mod (its replica count), so ranks of one residue
 * form expert-parallel groups that each hold every expert.
 *
 * A token goes once to each rank holding one of its experts (as DeepEP does), never to its
 * home; the combine returns one output per (token, rank). A layer's graph: the dispatch
 * messages (step 0); each rank's expert compute, expert_us after the last dispatch message
 * reached it (step 1); the combine WRITEs from each expert rank once its compute is done
 * (step 2).
 */
class MoeDispatchWorkload : public CollectiveWorkload
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& w);

    /// What one layer's routing gave (summed over the layers built so far).
    struct LayerStats
    {
        uint64_t tokens{0};          ///< tokens routed
        uint64_t expertHits{0};      ///< tokens x top_k
        uint64_t localHits{0};       ///< experts found on the token's home rank
        uint64_t tokenCopies{0};     ///< (token, remote rank) pairs: tokens dispatched
        uint64_t messages{0};        ///< dispatch messages
        uint64_t combineMessages{0}; ///< combine WRITEs
        uint64_t distinctSets{0};    ///< distinct remote receiver sets, summed over ranks
        /// Per layer, the busiest expert's tokens over the mean (tokens x top_k / experts):
        /// the routing's imbalance, summed over layers.
        double expertLoadRatio{0};
    };

    /**
     * Expected distinct receiver sets among T tokens of one rank when each token's set is one
     * of M equally likely sets: M (1 - (1 - 1/M)^T) (occupancy of M bins by T balls).
     */
    static double ExpectedDistinctSets(double m, uint64_t t);
    /// The rank holding expert e for tokens of home rank h.
    static uint32_t ExpertRank(uint32_t e, uint32_t h, uint32_t experts, uint32_t ranks);

    const LayerStats& GetStats() const;
    /// Layers built so far (every iteration, once the run is over).
    uint32_t GetLayersBuilt() const;
    /// Dispatch bytes per token and combine bytes per (token, rank) on the wire.
    uint64_t GetDispatchTokenBytes() const;
    uint64_t GetCombineTokenBytes() const;

    void Report(std::map<std::string, double>& figures) const override;
    void ReportSamples(std::map<std::string, std::vector<double>>& samples) const override;
    /// As a collective's, and loss-tolerant layers refused as loss-tolerant data is.
    Refusal SpreadRefusal(const WorkloadConfig& w, Time lookahead) const override;

protected:
    void DoInstall() override;
    /// Layer 0's graph.
    CollectiveSchedule BuildSchedule(uint32_t ranks,
                                     uint64_t bytes,
                                     uint64_t chunkBytes) const override;
    bool VariesByIteration() const override;
    CollectiveSchedule BuildIterationSchedule(uint32_t ranks, uint32_t iteration) override;
    /// The layers `loss_tolerant_layers` names.
    bool IsLossTolerantIteration(uint32_t i) const override;

private:
    /// Draw a layer's routing and turn it into its graph; adds to m_stats.
    CollectiveSchedule BuildLayer(uint32_t ranks, uint32_t layer) const;
    /// top_k distinct experts for one token.
    void DrawExperts(std::mt19937_64& rng, std::vector<uint32_t>& pool, uint32_t* out) const;

    uint32_t m_experts{256};
    uint32_t m_topK{8};
    uint32_t m_tokensPerRank{128};
    uint64_t m_dispatchTokenBytes{7168};
    uint64_t m_combineTokenBytes{14336};
    bool m_perToken{false};
    double m_zipf{0};       ///< 0: uniform gating
    bool m_recorded{false}; ///< gating recorded: experts from m_routing
    RecordedRouting m_routing;
    std::vector<double> m_weights;     ///< zipf: 1 / (e + 1)^s
    std::vector<double> m_cumulative;  ///< zipf: their running sums
    uint64_t m_expertNs{0};            ///< expert_us
    std::vector<bool> m_tolerantLayer; ///< by layer: loss_tolerant_layers
    mutable LayerStats m_stats;        // built lazily by the const BuildSchedule too
    mutable uint32_t m_layersBuilt{0};
};

} // namespace ns3

#endif /* MCAST4AI_MOE_DISPATCH_WORKLOAD_H */
