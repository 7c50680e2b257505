#include "workload/model/moe-dispatch-workload.h"

#include "core/model/config-schema-object.h"
#include "core/model/mix64.h"
#include "fabric/model/traffic-ledger.h"
#include "ns3/log.h"
#include "p2mp/model/p2mp-delivery.h"
#include "rdma/model/rdma-limits.h"
#include "workload/model/recorded-routing.h"
#include "workload/model/workload-schema-keys.h"
#include "workload/model/workload-type-registry.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoeDispatchWorkload");

namespace
{
/// `gating`: how a token's experts are drawn.
enum class Gating : uint8_t
{
    UNIFORM,
    ZIPF,
    RECORDED
};

MCAST4AI_ENUM_NAMES(
    Gating, {{Gating::UNIFORM, "uniform"}, {Gating::ZIPF, "zipf"}, {Gating::RECORDED, "recorded"}});

/// `batching`: how tokens are packed into messages.
enum class Batching : uint8_t
{
    PER_DESTINATION_SET,
    PER_TOKEN
};

MCAST4AI_ENUM_NAMES(Batching,
                    {{Batching::PER_DESTINATION_SET, "per-destination-set"},
                     {Batching::PER_TOKEN, "per-token"}});

/// The keys of a moe-dispatch entry of its own, as Declare binds them (`ranks`, `start_us`
/// and the collectives' keys are the CollectiveWorkload's). 0: an optional key not given.
struct MoeDispatchKeys
{
    uint32_t experts{0};
    uint32_t topK{0};
    uint32_t tokensPerRank{0};
    uint64_t hidden{0};
    uint64_t dispatchBytesPerElement{0};
    uint64_t dispatchTokenBytes{0};
    uint64_t combineBytesPerElement{0};
    uint64_t combineTokenBytes{0};
    Gating gating{Gating::UNIFORM};
    double zipfExponent{0};
    std::string routingFile;
    Batching batching{Batching::PER_DESTINATION_SET};
    double expertUs{0};
    std::vector<uint32_t> lossTolerantLayers;
};
} // namespace
NS_OBJECT_ENSURE_REGISTERED(MoeDispatchWorkload);
MCAST4AI_REGISTER_WORKLOAD("moe-dispatch",
                           MoeDispatchWorkload,
                           &MoeDispatchWorkload::Declare,
                           "Mixture-of-experts dispatch and combine: every rank sends each of "
                           "its tokens to the ranks holding the token's `top_k` experts as one "
                           "P2MP message, and the experts' outputs come back by unicast; one "
                           "layer per iteration.");

namespace
{

using json = nlohmann::json;

/// Reject a key given together with the one it replaces.
std::optional<std::string>
NotBoth(const ConfigSchemaView& v, const std::string& a, const std::string& b)
{
    if (v.Get(a) && v.Get(b))
    {
        return "give " + v.Path(a) + " or " + v.Path(b) + ", not both";
    }
    return std::nullopt;
}

} // namespace

TypeId
MoeDispatchWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoeDispatchWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<MoeDispatchWorkload>();
    return tid;
}

void
MoeDispatchWorkload::Declare(ConfigSchemaObject& w)
{
    w.BindStruct<MoeDispatchKeys>();
    WorkloadSchemaKeys::Ranks(w)
        .MinItems(2)
        .AllOrCount()
        .Doc("the expert-parallel ranks: each is a token's home and holds experts; \"all\" or "
             "a count n, the first n hosts")
        .Bind(&WorkloadConfig::ranks);
    w.Integer("experts", 2, 65536)
        .Default(256)
        .Doc("routed experts (256: DeepSeek-V3)")
        .Bind(&MoeDispatchKeys::experts);
    w.Integer("top_k", 1, 256)
        .Default(8)
        .Doc("experts per token (8: DeepSeek-V3)")
        .Bind(&MoeDispatchKeys::topK);
    w.LessOrEqual("top_k", "experts");
    w.Integer("tokens_per_rank", 1, 1u << 20)
        .Default(128)
        .Doc("tokens each rank routes per layer (128: a decode batch)")
        .Bind(&MoeDispatchKeys::tokensPerRank);
    w.Integer("hidden", 1, 1u << 20)
        .Default(7168)
        .Doc("hidden size (7168: DeepSeek-V3)")
        .Bind(&MoeDispatchKeys::hidden);
    w.Integer("dispatch_bytes_per_element", 1, 8)
        .Doc("bytes per hidden element dispatched; 1 (FP8) when neither this nor "
             "dispatch_token_bytes is given")
        .Bind(&MoeDispatchKeys::dispatchBytesPerElement);
    w.Integer("dispatch_token_bytes", 1, 1u << 24)
        .Unit("bytes")
        .Doc("bytes per dispatched token, to give a kernel's format exactly (DeepEP's FP8 "
             "dispatch: 7,408 = 7,168 + 224 of scales + 16 of metadata); instead of "
             "dispatch_bytes_per_element")
        .Bind(&MoeDispatchKeys::dispatchTokenBytes);
    w.Integer("combine_bytes_per_element", 1, 8)
        .Doc("bytes per hidden element combined; 2 (BF16) when neither this nor "
             "combine_token_bytes is given")
        .Bind(&MoeDispatchKeys::combineBytesPerElement);
    w.Integer("combine_token_bytes", 1, 1u << 24)
        .Unit("bytes")
        .Doc("bytes per combined (token, rank) output; instead of combine_bytes_per_element")
        .Bind(&MoeDispatchKeys::combineTokenBytes);
    w.Rule(
        "dispatch_token_bytes",
        {"dispatch_token_bytes", "dispatch_bytes_per_element"},
        [](const ConfigSchemaView& v)
        {
            return NotBoth(v, "dispatch_token_bytes", "dispatch_bytes_per_element");
        },
        "dispatch_token_bytes replaces dispatch_bytes_per_element");
    w.Rule(
        "combine_token_bytes",
        {"combine_token_bytes", "combine_bytes_per_element"},
        [](const ConfigSchemaView& v)
        {
            return NotBoth(v, "combine_token_bytes", "combine_bytes_per_element");
        },
        "combine_token_bytes replaces combine_bytes_per_element");
    w.Rule(
        "tokens_per_rank",
        {"tokens_per_rank",
         "hidden",
         "dispatch_token_bytes",
         "dispatch_bytes_per_element",
         "combine_token_bytes",
         "combine_bytes_per_element"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            // A rank's tokens may all go to one rank, packed in one message each way.
            auto tokenBytes = [&v](const char* token, const char* perElement, uint64_t dflt)
            {
                const nlohmann::json* t = v.Get(token);
                const nlohmann::json* e = v.Get(perElement);
                return t ? t->get<uint64_t>()
                         : v.Get("hidden")->get<uint64_t>() * (e ? e->get<uint64_t>() : dflt);
            };
            const uint64_t most
                = std::max(tokenBytes("dispatch_token_bytes", "dispatch_bytes_per_element", 1),
                           tokenBytes("combine_token_bytes", "combine_bytes_per_element", 2));
            const uint64_t bytes = v.Get("tokens_per_rank")->get<uint64_t>() * most;
            if (bytes <= RdmaLimits::MAX_MESSAGE_BYTES)
            {
                return std::nullopt;
            }
            return "a rank's tokens packed into one message could be " + std::to_string(bytes)
                   + " bytes, above RDMA's limit of 2^31 bytes per message";
        },
        "tokens_per_rank x bytes per token <= 2^31");
    w.Enum<Gating>("gating")
        .Default("uniform")
        .Doc("uniform: every set of top_k experts equally likely; zipf: expert e drawn with "
             "weight 1 / (e + 1)^zipf_exponent, without replacement (hot experts: the "
             "lowest-numbered, on the first ranks); recorded: each token's experts from "
             "routing_file, as a router recorded them")
        .Bind(&MoeDispatchKeys::gating);
    w.String("routing_file")
        .Doc("gating recorded: a text file of \"LAYER TOKEN E1 ... Ek\" lines ('#' comments), "
             "relative to the working directory; token t of rank r is r x tokens_per_rank + "
             "t; every token of layers 0..iterations-1 once, top_k distinct experts each")
        .Bind(&MoeDispatchKeys::routingFile);
    w.Rule(
        "routing_file",
        {"gating", "routing_file", "ranks", "tokens_per_rank", "top_k", "experts", "iterations"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const bool recorded
                = v.Get("gating") && v.Get("gating")->get<Gating>() == Gating::RECORDED;
            const json* file = v.Get("routing_file");
            if (recorded != (file != nullptr))
            {
                return recorded ? "is needed with " + v.Path("gating") + " \"recorded\""
                                : "applies only with " + v.Path("gating") + " \"recorded\"";
            }
            const json* ranks = v.Get("ranks");
            const json* tokens = v.Get("tokens_per_rank");
            const json* topK = v.Get("top_k");
            const json* experts = v.Get("experts");
            const json* layers = v.Get("iterations");
            if (!file || !ranks || !ranks->is_array() || !tokens || !topK || !experts || !layers)
            {
                return std::nullopt;
            }
            RecordedRouting routing;
            return RecordedRouting::Read(file->get<std::string>(),
                                         layers->get<uint32_t>(),
                                         static_cast<uint32_t>(ranks->size())
                                             * tokens->get<uint32_t>(),
                                         topK->get<uint32_t>(),
                                         experts->get<uint32_t>(),
                                         routing);
        },
        "routing_file goes with gating recorded, and covers every token of every layer");
    w.Number("zipf_exponent", ConfigSchemaBounds::Between(0, 16))
        .Doc("the exponent s of zipf gating (needed with it, and only with it)")
        .Bind(&MoeDispatchKeys::zipfExponent);
    w.Rule(
        "zipf_exponent",
        {"gating", "zipf_exponent"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            bool zipf = v.Get("gating") && v.Get("gating")->get<Gating>() == Gating::ZIPF;
            if (zipf && !v.Get("zipf_exponent"))
            {
                return "is needed with " + v.Path("gating") + " \"zipf\"";
            }
            if (!zipf && v.Get("zipf_exponent"))
            {
                return "applies only with " + v.Path("gating") + " \"zipf\"";
            }
            return std::nullopt;
        },
        "zipf_exponent goes with gating zipf");
    w.Enum<Batching>("batching")
        .Default("per-destination-set")
        .Doc("per-destination-set: one dispatch message per distinct receiver set per rank and "
             "one combine WRITE per (expert rank, home rank), as dispatch kernels pack tokens; "
             "per-token: one message per token and one WRITE per (token, rank)")
        .Bind(&MoeDispatchKeys::batching);
    w.Number("expert_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("a rank's expert compute, from the last dispatch message reaching it to its "
             "first combine WRITE")
        .Bind(&MoeDispatchKeys::expertUs);
    WorkloadSchemaKeys::Iterations(w, 4).Doc("MoE layers, one after the other");
    w.IntegerArray("loss_tolerant_layers", "layer indices", 0, 999999)
        .Distinct()
        .Doc("differentiated reliability by model layer: these layers' dispatch and combine "
             "data is loss-tolerant with the workload's `max_retransmissions` (0 by default), "
             "on connections of their own; the other layers' is reliable. Instead of "
             "`loss_tolerant`, which makes every layer tolerant; see "
             "docs/rdma-dcqcn.md#loss-tolerant-data")
        .Bind(&MoeDispatchKeys::lossTolerantLayers);
    w.Rule(
        "loss_tolerant_layers",
        {"loss_tolerant_layers", "iterations", "loss_tolerant", "ranks"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* layers = v.Get("loss_tolerant_layers");
            if (!layers)
            {
                return std::nullopt;
            }
            const json* tolerant = v.Get("loss_tolerant");
            if (tolerant && *tolerant == true)
            {
                return "cannot go with " + v.Path("loss_tolerant")
                       + " true, which makes every layer loss-tolerant already";
            }
            const json* iterations = v.Get("iterations");
            for (const json& l : *layers)
            {
                if (iterations && l.get<uint64_t>() >= iterations->get<uint64_t>())
                {
                    return "layer " + l.dump() + " is not below " + v.Path("iterations") + " ("
                           + iterations->dump() + ")";
                }
            }
            // The tolerant layers' P2MP channels take group QPNs above the reliable ones',
            // within the workload's 4096.
            const json* ranks = v.Get("ranks");
            if (ranks && ranks->size() > 2048)
            {
                return "at most 2048 ranks with loss-tolerant layers, got "
                       + std::to_string(ranks->size());
            }
            return std::nullopt;
        },
        "`loss_tolerant_layers` below `iterations`, not with `loss_tolerant`, at most 2048 ranks");
    w.Rule(
        "max_retransmissions",
        {"max_retransmissions", "loss_tolerant", "loss_tolerant_layers"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* tolerant = v.Get("loss_tolerant");
            if (!v.Get("max_retransmissions") || (tolerant && *tolerant == true)
                || v.Get("loss_tolerant_layers"))
            {
                return std::nullopt;
            }
            return "applies only with " + v.Path("loss_tolerant") + " true or "
                   + v.Path("loss_tolerant_layers") + ": every loss of reliable data is recovered";
        },
        "`max_retransmissions` only with `loss_tolerant` true or `loss_tolerant_layers`");
    WorkloadSchemaKeys::ComputeUs(w).Doc(
        "compute between one layer's combine and the next layer's dispatch (attention)");
    WorkloadSchemaKeys::Barrier(w).Doc(
        "every rank starts layer i+1 compute_us after layer i completed on all ranks; "
        "false: a rank does so once it has its own combine outputs and has sent "
        "everything");
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when the first layer starts")
        .Bind(&WorkloadConfig::startUs);
}

bool
MoeDispatchWorkload::IsLossTolerantIteration(uint32_t i) const
{
    return i < m_tolerantLayer.size() && m_tolerantLayer[i];
}

double
MoeDispatchWorkload::ExpectedDistinctSets(double m, uint64_t t)
{
    // M (1 - (1 - 1/M)^T) without cancellation when M is C(256, 8) ~ 4e14.
    return -m * std::expm1(static_cast<double>(t) * std::log1p(-1.0 / m));
}

uint32_t
MoeDispatchWorkload::ExpertRank(uint32_t e, uint32_t h, uint32_t experts, uint32_t ranks)
{
    const uint64_t E = experts;
    const uint64_t R = ranks;
    if (E >= R)
    {
        return static_cast<uint32_t>(e * R / E);
    }
    // Replicas: the ranks r with floor(r E / R) = e, i.e. [ceil(e R / E), ceil((e+1) R / E)).
    uint64_t first = (e * R + E - 1) / E;
    uint64_t next = ((e + 1) * R + E - 1) / E;
    return static_cast<uint32_t>(first + h % (next - first));
}

const MoeDispatchWorkload::LayerStats&
MoeDispatchWorkload::GetStats() const
{
    return m_stats;
}

uint32_t
MoeDispatchWorkload::GetLayersBuilt() const
{
    return m_layersBuilt;
}

uint64_t
MoeDispatchWorkload::GetDispatchTokenBytes() const
{
    return m_dispatchTokenBytes;
}

uint64_t
MoeDispatchWorkload::GetCombineTokenBytes() const
{
    return m_combineTokenBytes;
}

void
MoeDispatchWorkload::DoInstall()
{
    const MoeDispatchKeys keys = ReadKeys<MoeDispatchKeys>();
    m_experts = keys.experts;
    m_topK = keys.topK;
    m_tokensPerRank = keys.tokensPerRank;
    // FP8 dispatch and BF16 combine when neither size is given.
    m_dispatchTokenBytes
        = keys.dispatchTokenBytes
              ? keys.dispatchTokenBytes
              : keys.hidden * (keys.dispatchBytesPerElement ? keys.dispatchBytesPerElement : 1);
    m_combineTokenBytes
        = keys.combineTokenBytes
              ? keys.combineTokenBytes
              : keys.hidden * (keys.combineBytesPerElement ? keys.combineBytesPerElement : 2);
    m_perToken = keys.batching == Batching::PER_TOKEN;
    m_tolerantLayer.assign(IterationCount(), false);
    for (uint32_t l : keys.lossTolerantLayers)
    {
        m_tolerantLayer.at(l) = true;
    }
    m_zipf = keys.gating == Gating::ZIPF ? keys.zipfExponent : 0.0;
    m_recorded = keys.gating == Gating::RECORDED;
    if (m_recorded)
    {
        const uint32_t ranks = static_cast<uint32_t>(
            m_config.ranks.empty() ? GetHostCount() : m_config.ranks.size());
        // Checked when the scenario was loaded; a file changed since is a plain error.
        auto e = RecordedRouting::Read(keys.routingFile,
                                       IterationCount(),
                                       ranks * m_tokensPerRank,
                                       m_topK,
                                       m_experts,
                                       m_routing);
        NS_ABORT_MSG_IF(e, "moe-dispatch: " << *e);
    }
    m_expertNs = static_cast<uint64_t>(std::llround(keys.expertUs * 1e3));
    if (m_zipf > 0)
    {
        m_weights.resize(m_experts);
        m_cumulative.resize(m_experts);
        double sum = 0;
        for (uint32_t e = 0; e < m_experts; ++e)
        {
            m_weights[e] = std::pow(e + 1.0, -m_zipf);
            sum += m_weights[e];
            m_cumulative[e] = sum;
        }
    }
    // An operation's bytes (ops.csv): the tokens its ranks route, each counted once.
    uint32_t ranks
        = m_config.ranks.empty() ? GetHostCount() : static_cast<uint32_t>(m_config.ranks.size());
    m_config.bytes = uint64_t{ranks} * m_tokensPerRank * m_dispatchTokenBytes;
    CollectiveWorkload::DoInstall();
}

Workload::Refusal
MoeDispatchWorkload::SpreadRefusal(const WorkloadConfig& w, Time lookahead) const
{
    MoeDispatchKeys keys;
    WorkloadTypeRegistry::ReadBound(w.type, w.spec, &keys, typeid(MoeDispatchKeys));
    if (!keys.lossTolerantLayers.empty())
    {
        return {"loss_tolerant_layers",
                "its loss-tolerant connections are made at first use, by the sender's process "
                "alone"};
    }
    return CollectiveWorkload::SpreadRefusal(w, lookahead);
}

bool
MoeDispatchWorkload::VariesByIteration() const
{
    return true;
}

CollectiveSchedule
MoeDispatchWorkload::BuildSchedule(uint32_t ranks, uint64_t /* bytes */, uint64_t) const
{
    return BuildLayer(ranks, 0);
}

CollectiveSchedule
MoeDispatchWorkload::BuildIterationSchedule(uint32_t ranks, uint32_t iteration)
{
    return BuildLayer(ranks, iteration);
}

void
MoeDispatchWorkload::DrawExperts(std::mt19937_64& rng,
                                 std::vector<uint32_t>& pool,
                                 uint32_t* out) const
{
    if (m_zipf == 0)
    {
        // Partial Fisher-Yates with our own draws: the same sets on every C++ library. The
        // pool stays a permutation, so each token's k-subset is uniform whatever came before.
        for (uint32_t i = 0; i < m_topK; ++i)
        {
            uint32_t j = i + static_cast<uint32_t>(rng() % (m_experts - i));
            std::swap(pool[i], pool[j]);
            out[i] = pool[i];
        }
        return;
    }
    // Weighted draws without replacement: rejection while it is cheap, then an exact draw
    // over the experts not taken yet, so a steep exponent cannot stall it.
    const double total = m_cumulative.back();
    for (uint32_t i = 0; i < m_topK; ++i)
    {
        uint32_t e = m_experts;
        for (int tries = 0; tries < 32 && e == m_experts; ++tries)
        {
            double u = UnitInterval(rng()) * total;
            uint32_t c = static_cast<uint32_t>(
                std::upper_bound(m_cumulative.begin(), m_cumulative.end(), u)
                - m_cumulative.begin());
            c = std::min(c, m_experts - 1);
            if (std::find(out, out + i, c) == out + i)
            {
                e = c;
            }
        }
        if (e == m_experts)
        {
            double left = 0;
            for (uint32_t c = 0; c < m_experts; ++c)
            {
                if (std::find(out, out + i, c) == out + i)
                {
                    left += m_weights[c];
                }
            }
            double u = UnitInterval(rng()) * left;
            for (uint32_t c = 0; c < m_experts; ++c)
            {
                if (std::find(out, out + i, c) != out + i)
                {
                    continue;
                }
                e = c;
                u -= m_weights[c];
                if (u < 0)
                {
                    break;
                }
            }
        }
        out[i] = e;
    }
}

CollectiveSchedule
MoeDispatchWorkload::BuildLayer(uint32_t ranks, uint32_t layer) const
{
    NS_LOG_FUNCTION(this << ranks << layer);
    // Each layer's routing from its own stream: layer i draws the same whatever came before.
    std::mt19937_64 rng(Mix64(WorkloadSeed() ^ (0x9E3779B97F4A7C15ULL * (layer + 1))));
    std::vector<uint32_t> pool(m_experts);
    for (uint32_t e = 0; e < m_experts; ++e)
    {
        pool[e] = e;
    }
    std::vector<uint32_t> chosen(m_topK);
    std::vector<uint32_t> set;
    CollectiveSchedule schedule(ranks);
    ++m_layersBuilt;
    // Counted apart (ops.csv rows of kind phase): the dispatch is what P2MP mechanisms change.
    schedule.SetPhase("dispatch");

    // Dispatch (step 0). inbound[e]: dispatch transfers reaching rank e; back[e][h]: tokens
    // of home h whose outputs rank e returns (per-token: one WRITE each).
    std::vector<std::vector<uint32_t>> inbound(ranks);
    std::vector<std::map<uint32_t, uint32_t>> back(ranks);
    std::vector<uint64_t> expertLoad(m_experts, 0); // tokens routed to each expert
    for (uint32_t h = 0; h < ranks; ++h)
    {
        std::map<std::vector<uint32_t>, uint32_t> bySet; // per-destination-set: set -> tokens
        for (uint32_t k = 0; k < m_tokensPerRank; ++k)
        {
            if (m_recorded)
            {
                const uint32_t* e = m_routing.Experts(layer, h * m_tokensPerRank + k);
                std::copy(e, e + m_topK, chosen.begin());
            }
            else
            {
                DrawExperts(rng, pool, chosen.data());
            }
            set.clear();
            for (uint32_t e : chosen)
            {
                ++expertLoad[e];
                uint32_t r = ExpertRank(e, h, m_experts, ranks);
                if (r == h)
                {
                    ++m_stats.localHits;
                }
                else
                {
                    set.push_back(r);
                }
            }
            std::sort(set.begin(), set.end());
            set.erase(std::unique(set.begin(), set.end()), set.end());
            ++m_stats.tokens;
            m_stats.expertHits += m_topK;
            m_stats.tokenCopies += set.size();
            if (set.empty())
            {
                continue; // every expert on the home rank: nothing crosses the fabric
            }
            if (!m_perToken)
            {
                ++bySet[set];
                continue;
            }
            uint32_t t = schedule.AddMulticast(
                h, std::make_shared<const std::vector<uint32_t>>(set), m_dispatchTokenBytes, 0);
            ++m_stats.messages;
            for (uint32_t r : set)
            {
                inbound[r].push_back(t);
                ++back[r][h];
            }
        }
        m_stats.distinctSets += bySet.size();
        for (const auto& [s, tokens] : bySet)
        {
            uint32_t t = schedule.AddMulticast(h,
                                               std::make_shared<const std::vector<uint32_t>>(s),
                                               tokens * m_dispatchTokenBytes,
                                               0);
            ++m_stats.messages;
            for (uint32_t r : s)
            {
                inbound[r].push_back(t);
                back[r][h] += tokens;
            }
        }
    }
    const double meanLoad = double(ranks) * m_tokensPerRank * m_topK / m_experts;
    m_stats.expertLoadRatio += *std::max_element(expertLoad.begin(), expertLoad.end()) / meanLoad;
    // Expert compute (step 1), then the combine (step 2), per expert rank.
    schedule.SetPhase("combine");
    for (uint32_t e = 0; e < ranks; ++e)
    {
        if (inbound[e].empty())
        {
            continue;
        }
        uint32_t compute = schedule.AddLocal(e, m_expertNs, 1);
        for (uint32_t t : inbound[e])
        {
            schedule.AddDependency(compute, t);
        }
        for (const auto& [h, tokens] : back[e])
        {
            uint32_t writes = m_perToken ? tokens : 1;
            uint64_t bytes = (m_perToken ? 1 : tokens) * m_combineTokenBytes;
            for (uint32_t w = 0; w < writes; ++w)
            {
                schedule.AddDependency(schedule.AddUnicast(e, h, bytes, 2), compute);
                ++m_stats.combineMessages;
            }
        }
    }
    NS_LOG_INFO("layer " << layer << ": " << schedule.GetTransferCount() << " transfers");
    return schedule;
}

void
MoeDispatchWorkload::Report(std::map<std::string, double>& figures) const
{
    CollectiveWorkload::Report(figures);
    const double layers = std::max<uint32_t>(m_layersBuilt, 1);
    const LayerStats& s = m_stats;
    figures["dispatch_token_bytes"] = static_cast<double>(m_dispatchTokenBytes);
    figures["combine_token_bytes"] = static_cast<double>(m_combineTokenBytes);
    figures["dispatch_messages_per_layer"] = s.messages / layers;
    figures["combine_messages_per_layer"] = s.combineMessages / layers;
    figures["local_expert_hits_per_layer"] = s.localHits / layers;
    figures["token_copies_per_layer"] = s.tokenCopies / layers;
    figures["expert_load_max_over_mean"] = s.expertLoadRatio / layers;
    figures["tokens_per_message"] = s.messages ? double(s.tokens) / s.messages : 0.0;
    // What the fabric delivered (the receivers' own counts), against what routing asked for.
    const std::vector<uint64_t>& delivered = GetDeliveredBytesByStep();
    figures["dispatch_bytes_delivered"] = delivered.empty() ? 0.0 : double(delivered[0]);
    figures["combine_bytes_delivered"] = delivered.size() < 3 ? 0.0 : double(delivered[2]);
    // Copies of a dispatch message on its sender's uplink, as each channel counted them: the
    // receivers with unicast (and for messages that fell back to it), one per BIER set
    // identifier, one with the XPU list and the new protocol.
    if (s.messages > 0)
    {
        figures["uplink_copies_per_message"] = GetP2mpCopies() / s.messages;
    }
    figures["dispatch_messages_via_unicast"] = static_cast<double>(GetP2mpMessagesViaUnicast());
    Ptr<TrafficLedger> ledger
        = m_context.nics.empty() ? nullptr : m_context.nics.front()->GetTrafficLedger();
    if (ledger && m_context.p2mpOwner != TrafficLedger::NO_OWNER)
    {
        // Dispatch is this workload's only P2MP traffic: its frames' non-payload bytes.
        const TrafficLedger::Counters& c = ledger->Get(m_context.p2mpOwner);
        if (c.p2mpCopies > 0)
        {
            figures["dispatch_header_bytes_per_copy"] = double(c.p2mpHeaderBytes) / c.p2mpCopies;
        }
    }
    if (m_zipf == 0 && !m_recorded && !m_perToken && m_topK >= 2 && m_experts <= GetRanks().size())
    {
        // At most one expert per rank maps each k-subset of experts to its own receiver set,
        // so a rank's T tokens occupy M = C(E, k) equally likely sets.
        double m = 1;
        for (uint32_t i = 0; i < m_topK; ++i)
        {
            m = m * (m_experts - i) / (i + 1);
        }
        figures["expected_dispatch_messages_per_layer"]
            = GetRanks().size() * ExpectedDistinctSets(m, m_tokensPerRank);
    }
}

void
MoeDispatchWorkload::ReportSamples(std::map<std::string, std::vector<double>>& samples) const
{
    // Steps: 0 the dispatch, 1 the expert compute, 2 the combine (Kahn depth of the graph).
    std::map<uint64_t, std::vector<const Metrics::StepRecord*>> byOp;
    for (const Metrics::StepRecord& step : m_context.metrics->GetSteps())
    {
        byOp[step.handle].push_back(&step);
    }
    const std::vector<Metrics::OpRecord>& ops = m_context.metrics->GetOps();
    std::vector<double>& dispatch = samples["dispatch_us"];
    std::vector<double>& combine = samples["combine_us"];
    std::vector<double>& layer = samples["layer_us"];
    for (const Metrics::OpRecord& op : ops)
    {
        if (op.workload != m_context.index || !op.done)
        {
            continue;
        }
        uint64_t handle = &op - ops.data();
        layer.push_back((op.end - op.start).GetNanoSeconds() / 1e3);
        for (const Metrics::StepRecord* step : byOp[handle])
        {
            if (step->transfers == 0)
            {
                continue;
            }
            if (step->step == 0)
            {
                dispatch.push_back((step->end - op.start).GetNanoSeconds() / 1e3);
            }
            else if (step->step == 2)
            {
                combine.push_back((step->end - step->start).GetNanoSeconds() / 1e3);
            }
        }
    }
}

} // namespace ns3
