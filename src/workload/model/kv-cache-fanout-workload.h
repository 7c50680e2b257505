/*
 * Disaggregated inference: requests arrive, a prefill rank computes each prompt's KV cache,
 * and the cache goes to R decode ranks as one P2MP message; the first of them decodes. Time
 * to first token (TTFT) is queueing + prefill + KV transfer + the first decode step, time per
 * output token (TPOT) the decode steps after it. Where the decode ranks are is the placement
 * policy: the least-loaded GPUs, or the lowest network cost from the prefill rank as the
 * fabric shows it (the token-operations draft, sections 3.2-3.3).
 */
#ifndef MCAST4AI_KV_CACHE_FANOUT_WORKLOAD_H
#define MCAST4AI_KV_CACHE_FANOUT_WORKLOAD_H

#include "fabric/model/fabric-net-device.h"
#include "ns3/nstime.h"
#include "p2mp/model/p2mp-channel.h"
#include "workload/model/workload.h"

#include <deque>
#include <random>
#include <vector>

namespace ns3
{

class ConfigSchemaObject;

/**
 * \brief Workload type `kv-cache-fanout`: one operation (ops.csv row) per request, from its
 * arrival to its last output token.
 *
 * Prefill: a request goes to the prefill rank that frees up first (ties: the lowest index),
 * which computes prompt_tokens x prefill_us_per_token, one request at a time in arrival
 * order. KV bytes = layers x 2 x kv_heads x head_dim x bytes_per_element x prompt tokens.
 *
 * Placement when the prefill ends, of `replicas` decode ranks:
 * - gpu-only: the fewest requests assigned and not finished (ties: the lowest index);
 * - network-aware: the lowest estimated transfer time: the bytes queued at the switch port
 *   toward the decode rank and the KV bytes already on their way to it, over its link rate,
 *   plus the new KV bytes at the rate the last transfer into that rank achieved (its link
 *   rate before any); ties as gpu-only.
 *
 * Decode: each decode rank steps every request it holds together (continuous batching); a
 * step takes decode_step_us + decode_us_per_sequence x (sequences - 1) and gives each one
 * token. A request joins at the next step boundary, at once on an idle rank.
 */
class KvCacheFanoutWorkload : public Workload
{
public:
    static TypeId GetTypeId();
    static void Declare(ConfigSchemaObject& w);

    /// layers x 2 (K and V) x kv_heads x head_dim x bytes_per_element.
    static uint64_t KvBytesPerToken(uint64_t layers,
                                    uint64_t kvHeads,
                                    uint64_t headDim,
                                    uint64_t bytesPerElement);

    /// One request's times, for tests and reports.
    struct Request
    {
        uint64_t handle{0};
        uint32_t prompt{0};
        uint64_t kvBytes{0};
        uint32_t prefill{0};          ///< index into the prefill ranks
        std::vector<uint32_t> decode; ///< indices into the decode ranks; [0] decodes
        Time arrival;
        Time prefillStart;
        Time prefillEnd;
        Time kvArrival; ///< at the decoding rank
        Time firstToken;
        Time lastToken;
        uint32_t tokensLeft{0};
        uint32_t copiesLeft{0}; ///< replicas still to receive the KV
        /// per entry of decode: whether that replica has the KV
        std::vector<bool> has;
        bool decoded{false};
        /// every replica was dropped before it had the KV: nothing decodes it
        bool undecodable{false};
    };

    const std::vector<Request>& GetRequests() const;
    uint64_t GetKvBytesPerToken() const;

    void Report(std::map<std::string, double>& figures) const override;
    void ReportSamples(std::map<std::string, std::vector<double>>& samples) const override;

protected:
    void DoInstall() override;
    void DoDispose() override;

private:
    struct DecodeRank
    {
        uint32_t host{0};
        uint32_t load{0};              ///< requests placed here and not finished
        std::vector<uint32_t> batch;   ///< requests stepping now
        std::vector<uint32_t> joining; ///< arrived during the current step
        bool stepping{false};
        double secondsPerByte{0};     ///< of the last KV transfer into it
        uint64_t inFlight{0};         ///< KV bytes sent toward it, not delivered yet
        Ptr<FabricNetDevice> tor;     ///< the switch port toward it
        double lineSecondsPerByte{0}; ///< its link's
        /// the receiver timeout dropped its host (p2mp.receiver_timeout_us): placed last
        bool dropped{false};
    };

    uint16_t Entropy();
    void Arrive(uint32_t r);
    void StartPrefill(uint32_t p);
    void PrefillDone(uint32_t p, uint32_t r);
    std::vector<uint32_t> Place(const Request& req);
    /// Estimated seconds to move bytes from the prefill rank to decode rank d.
    double NetworkCost(uint32_t d, uint64_t bytes) const;
    void KvDelivered(uint32_t p, uint64_t tag, uint32_t host, uint64_t bytes);
    /// The receiver timeout dropped a replica before it had request tag's KV.
    void KvDropped(uint32_t p, uint64_t tag, uint32_t host, uint64_t bytes);
    void Join(uint32_t d, uint32_t r);
    void Step(uint32_t d);
    void StepDone(uint32_t d);
    void MaybeFinish(uint32_t r);
    /// A copy of prefill rank p's KV message is at (or lost to) host (for a timeline).
    void CopyDone(uint32_t p, uint32_t host);
    /// A finished request's parts, arrival to end, as timeline segments.
    void TimeSegments(const Request& req);

    std::vector<uint32_t> m_prefillHosts;
    std::vector<DecodeRank> m_decode;
    std::vector<int64_t> m_decodeOfHost; ///< host -> decode rank, -1 if none
    std::vector<std::deque<uint32_t>> m_prefillQueue;
    std::vector<bool> m_prefillBusy;
    std::vector<Time> m_prefillFree;          ///< when each prefill rank finishes what it holds
    std::vector<Ptr<P2mpChannel>> m_channels; ///< per prefill rank, to the decode ranks
    std::vector<Request> m_requests;
    std::mt19937_64 m_rng;
    uint64_t m_kvBytesPerToken{0};
    uint32_t m_replicas{1};
    bool m_networkAware{false};
    Time m_prefillPerToken;
    Time m_decodeStep;
    Time m_decodePerSequence;
    uint32_t m_outputTokens{1};
};

} // namespace ns3

#endif /* MCAST4AI_KV_CACHE_FANOUT_WORKLOAD_H */
