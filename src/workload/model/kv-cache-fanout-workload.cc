#include "workload/model/kv-cache-fanout-workload.h"

#include "core/model/config-schema.h"
#include "core/model/mix64.h"
#include "core/model/sim-limits.h"
#include "fabric/model/fabric-channel.h"
#include "fabric/model/fabric-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "p2mp/model/p2mp-delivery.h"
#include "rdma/model/rdma-limits.h"
#include "rdma/model/rdma-nic.h"
#include "workload/model/workload-schema-keys.h"
#include "workload/model/workload-type-registry.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("KvCacheFanoutWorkload");
NS_OBJECT_ENSURE_REGISTERED(KvCacheFanoutWorkload);
MCAST4AI_REGISTER_WORKLOAD("kv-cache-fanout",
                           KvCacheFanoutWorkload,
                           &KvCacheFanoutWorkload::Declare,
                           "Disaggregated prefill and decode: each request's KV cache goes from "
                           "its prefill rank to `replicas` decode ranks as one P2MP message; "
                           "reports TTFT and TPOT. One operation per request.");

namespace
{

/// `prompt_tokens.type`: what prompt lengths are drawn from.
enum class PromptDistribution : uint8_t
{
    FIXED,
    UNIFORM,
    CDF
};

MCAST4AI_ENUM_NAMES(PromptDistribution,
                    {{PromptDistribution::FIXED, "fixed"},
                     {PromptDistribution::UNIFORM, "uniform"},
                     {PromptDistribution::CDF, "cdf"}});

/// `arrival.type`: when requests arrive.
enum class Arrival : uint8_t
{
    POISSON,
    LIST
};

MCAST4AI_ENUM_NAMES(Arrival, {{Arrival::POISSON, "poisson"}, {Arrival::LIST, "list"}});

/// `placement`: how a request's decode ranks are chosen.
enum class Placement : uint8_t
{
    GPU_ONLY,
    NETWORK_AWARE
};

MCAST4AI_ENUM_NAMES(Placement,
                    {{Placement::GPU_ONLY, "gpu-only"},
                     {Placement::NETWORK_AWARE, "network-aware"}});

/// One point of a prompt-length CDF.
struct CdfPoint
{
    uint64_t tokens{0};
    double p{0};
};

/// `prompt_tokens`: the distribution, and all that depends on which one it is.
struct PromptKeys
{
    PromptDistribution type{PromptDistribution::FIXED};
    uint64_t tokens{0};
    uint64_t min{0};
    uint64_t max{0};
    std::vector<CdfPoint> points;

    /// Tokens of the longest prompt it allows.
    uint64_t Longest() const
    {
        switch (type)
        {
            case PromptDistribution::UNIFORM:
                return max;
            case PromptDistribution::CDF:
                return points.back().tokens;
            case PromptDistribution::FIXED:
                break;
        }
        return tokens;
    }

    /// A prompt length drawn from it.
    uint32_t Draw(std::mt19937_64& rng) const
    {
        // Drawn first whatever the type: the generator's sequence is part of the results.
        double u = UnitInterval(rng());
        switch (type)
        {
            case PromptDistribution::FIXED:
                return static_cast<uint32_t>(tokens);
            case PromptDistribution::UNIFORM:
                return static_cast<uint32_t>(min + rng() % (max - min + 1));
            case PromptDistribution::CDF:
                break;
        }
        // Piecewise linear between points; below the first point's p, its length.
        double prevTokens = static_cast<double>(points[0].tokens);
        double prevP = 0;
        for (const CdfPoint& pt : points)
        {
            const double t = static_cast<double>(pt.tokens);
            if (u <= pt.p)
            {
                double f = pt.p > prevP ? (u - prevP) / (pt.p - prevP) : 1.0;
                return static_cast<uint32_t>(std::llround(prevTokens + f * (t - prevTokens)));
            }
            prevTokens = t;
            prevP = pt.p;
        }
        return static_cast<uint32_t>(prevTokens);
    }
};

/// `arrival`.
struct ArrivalKeys
{
    Arrival type{Arrival::POISSON};
    double ratePerS{0};
    std::vector<int64_t> timesUs;
};

/// The keys of a kv-cache-fanout entry, as Declare binds them.
struct KvCacheFanoutKeys
{
    std::vector<uint32_t> prefillRanks;
    std::vector<uint32_t> decodeRanks;
    uint32_t requests{0};
    uint32_t turnsPerSession{1};
    ArrivalKeys arrival;
    PromptKeys promptTokens;
    uint64_t layers{0};
    uint64_t kvHeads{0};
    uint64_t headDim{0};
    uint64_t bytesPerElement{0};
    uint32_t replicas{1};
    Placement placement{Placement::GPU_ONLY};
    double prefillUsPerToken{0};
    double decodeStepUs{0};
    double decodeUsPerSequence{0};
    uint32_t outputTokens{1};
};

using json = nlohmann::json;

/// Half of the hosts, [from, to) of them, as the default of a rank list.
ConfigSchemaDefaultFunction
HalfOfTheHosts(bool second)
{
    return [second](const ConfigSchemaView& v) -> std::optional<json>
    {
        const ConfigSchemaDerived* hosts = v.Variable(WorkloadSchemaKeys::HOSTS);
        if (!hosts)
        {
            return std::nullopt;
        }
        uint64_t n = hosts->value.get<uint64_t>();
        json list = json::array();
        for (uint64_t h = second ? n / 2 : 0; h < (second ? n : n / 2); ++h)
        {
            list.push_back(h);
        }
        return list;
    };
}

bool
Overlap(const json& a, const json& b)
{
    for (const json& x : a)
    {
        if (std::find(b.begin(), b.end(), x) != b.end())
        {
            return true;
        }
    }
    return false;
}

} // namespace

TypeId
KvCacheFanoutWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::KvCacheFanoutWorkload")
                            .SetParent<Workload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<KvCacheFanoutWorkload>();
    return tid;
}

void
KvCacheFanoutWorkload::Declare(ConfigSchemaObject& w)
{
    w.BindStruct<KvCacheFanoutKeys>();
    w.IntegerArray("prefill_ranks", "host indices")
        .MinItems(1)
        .DefaultFrom(HalfOfTheHosts(false), "the first half of the hosts")
        .Doc("the hosts that run prefill")
        .Bind(&KvCacheFanoutKeys::prefillRanks);
    w.IntegerArray("decode_ranks", "host indices")
        .MinItems(1)
        .DefaultFrom(HalfOfTheHosts(true), "the second half of the hosts")
        .Doc("the hosts that decode")
        .Bind(&KvCacheFanoutKeys::decodeRanks);
    w.Rule(
        "decode_ranks",
        {"prefill_ranks", "decode_ranks"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* p = v.Get("prefill_ranks");
            const json* d = v.Get("decode_ranks");
            if (p && d && Overlap(*p, *d))
            {
                return "must not share a host with " + v.Path("prefill_ranks");
            }
            return std::nullopt;
        },
        "a host prefills or decodes, not both");
    w.Integer("requests", 1, 1000000)
        .Default(100)
        .Doc("requests, one operation each")
        .Bind(&KvCacheFanoutKeys::requests);
    w.Integer("turns_per_session", 1, 1000000)
        .Default(1)
        .Doc("requests per session: request r is turn r mod T of session r / T, and ops.csv "
             "carries both ids (the join key; placement does not prefer a session's earlier "
             "decode rank)")
        .Bind(&KvCacheFanoutKeys::turnsPerSession);
    ConfigSchemaObject& arrival = w.Object("arrival")
                                      .Doc("when the requests arrive (from start_us)")
                                      .Bind(&KvCacheFanoutKeys::arrival)
                                      .Fields();
    arrival.Discriminator("type")
        .Default("poisson")
        .Doc("poisson, or a list of times")
        .Bind(&ArrivalKeys::type);
    arrival.Variant("poisson", "exponential gaps at `rate_per_s`")
        .Number("rate_per_s", ConfigSchemaBounds::Between(0.001, 1e9))
        .Default(100.0)
        .Note("a mean gap of at most 1000 s, the simulated-time horizon")
        .Doc("mean arrivals per second")
        .Bind(&ArrivalKeys::ratePerS);
    arrival.Variant("list", "the times in `times_us`, one per request")
        .IntegerArray("times_us", "times in µs")
        .Required()
        .Unit("µs")
        .MinItems(1)
        .Doc("arrival times after start_us, µs, as many as `requests`")
        .Bind(&ArrivalKeys::timesUs);
    w.Rule(
        "requests",
        {"requests", "arrival"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* n = v.Get("requests");
            const json* a = v.Get("arrival");
            if (!n || !a || a->value("type", json("poisson")).get<Arrival>() != Arrival::LIST
                || !a->contains("times_us"))
            {
                return std::nullopt;
            }
            if (a->at("times_us").size() != n->get<uint64_t>())
            {
                return "is " + n->dump() + " but " + v.Path("arrival") + ".times_us lists "
                       + std::to_string(a->at("times_us").size()) + " times";
            }
            return std::nullopt;
        },
        "a listed arrival per request");
    ConfigSchemaObject& prompt = w.Object("prompt_tokens")
                                     .Doc("each request's prompt length, in tokens")
                                     .Bind(&KvCacheFanoutKeys::promptTokens)
                                     .Fields();
    prompt.Discriminator("type")
        .Default("fixed")
        .Doc("fixed, uniform, or a CDF")
        .Bind(&PromptKeys::type);
    prompt.Variant("fixed", "every prompt `tokens` long")
        .Integer("tokens", 1, 1u << 24)
        .Default(1024)
        .Doc("tokens of every prompt")
        .Bind(&PromptKeys::tokens);
    ConfigSchemaObject& uni = prompt.Variant("uniform", "uniform in [`min`, `max`]");
    uni.Integer("min", 1, 1u << 24).Required().Doc("fewest tokens").Bind(&PromptKeys::min);
    uni.Integer("max", 1, 1u << 24).Required().Doc("most tokens").Bind(&PromptKeys::max);
    uni.LessOrEqual("min", "max");
    ConfigSchemaObject& cdf
        = prompt.Variant("cdf", "a piecewise-linear CDF of prompt lengths in `points`");
    ConfigSchemaObject& pt = cdf.ObjectArray("points", "{tokens, p} objects")
                                 .Required()
                                 .MinItems(1)
                                 .Doc("(tokens, P(length <= tokens)) points, tokens ascending, p "
                                      "not decreasing, the last with p = 1")
                                 .Bind(&PromptKeys::points)
                                 .Fields();
    pt.Integer("tokens", 1, 1u << 24).Required().Doc("a length").Bind(&CdfPoint::tokens);
    pt.Number("p", ConfigSchemaBounds::Between(0, 1))
        .Required()
        .Doc("P(length <= tokens)")
        .Bind(&CdfPoint::p);
    cdf.Rule(
        "points",
        {"points"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* points = v.Get("points");
            if (!points)
            {
                return std::nullopt;
            }
            for (std::size_t i = 1; i < points->size(); ++i)
            {
                const json& a = (*points)[i - 1];
                const json& b = (*points)[i];
                if (b["tokens"] <= a["tokens"] || b["p"].get<double>() < a["p"].get<double>())
                {
                    return "point " + std::to_string(i)
                           + ": tokens must increase and p must not decrease";
                }
            }
            if (points->back()["p"].get<double>() != 1.0)
            {
                return std::string("the last point's p must be 1");
            }
            return std::nullopt;
        },
        "a valid CDF");
    w.Enum("model", {"llama-3-8b", "llama-3-70b"})
        .Default("llama-3-8b")
        .Doc("a public grouped-query-attention model whose shape sets the defaults of layers, "
             "kv_heads, head_dim and bytes_per_element (Meta's Llama 3 configurations: 8B has "
             "32 layers, 70B 80, both 8 KV heads of 128 in BF16)");
    w.Preset("model",
             "llama-3-70b",
             {{"layers", 80}},
             "Llama 3 70B: 80 layers, 8 KV heads of 128, BF16 (327,680 bytes per token)");
    w.Integer("layers", 1, 1024)
        .Default(32)
        .Doc("transformer layers")
        .Bind(&KvCacheFanoutKeys::layers);
    w.Integer("kv_heads", 1, 1024)
        .Default(8)
        .Doc("key/value heads (GQA)")
        .Bind(&KvCacheFanoutKeys::kvHeads);
    w.Integer("head_dim", 1, 65536)
        .Default(128)
        .Doc("dimension of a head")
        .Bind(&KvCacheFanoutKeys::headDim);
    w.Integer("bytes_per_element", 1, 8)
        .Default(2)
        .Doc("bytes per KV element (2: BF16)")
        .Bind(&KvCacheFanoutKeys::bytesPerElement);
    w.Integer("replicas", 1, 4096)
        .Default(1)
        .Doc("decode ranks that receive each request's KV as one P2MP message; the first "
             "decodes")
        .Bind(&KvCacheFanoutKeys::replicas);
    w.Rule(
        "replicas",
        {"replicas", "decode_ranks"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* r = v.Get("replicas");
            const json* d = v.Get("decode_ranks");
            if (r && d && r->get<uint64_t>() > d->size())
            {
                return "must be at most the " + std::to_string(d->size()) + " hosts of "
                       + v.Path("decode_ranks") + ", got " + r->dump();
            }
            return std::nullopt;
        },
        "replicas <= decode ranks");
    w.Enum<Placement>("placement")
        .Default("gpu-only")
        .Doc("gpu-only: the least-loaded decode ranks; network-aware: the lowest estimated KV "
             "transfer time from the prefill rank (bytes queued toward the rank and on their "
             "way to it, the rate of the last transfer into it)")
        .Bind(&KvCacheFanoutKeys::placement);
    w.Number("prefill_us_per_token", ConfigSchemaBounds::AtLeast(0))
        .Default(20.0)
        .Unit("µs")
        .Doc("prefill compute per prompt token (20: an 8B model's 16 GFLOP per token at 800 "
             "TFLOP/s)")
        .Bind(&KvCacheFanoutKeys::prefillUsPerToken);
    w.Number("decode_step_us", ConfigSchemaBounds::Above(0))
        .Default(10000.0)
        .Unit("µs")
        .Doc("a decode step of a batch of one (10 ms: a typical time per output token)")
        .Bind(&KvCacheFanoutKeys::decodeStepUs);
    w.Number("decode_us_per_sequence", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("what each further sequence in a decode rank's batch adds to its step")
        .Bind(&KvCacheFanoutKeys::decodeUsPerSequence);
    w.Integer("output_tokens", 1, 1u << 20)
        .Default(16)
        .Doc("tokens each request generates")
        .Bind(&KvCacheFanoutKeys::outputTokens);
    // Products of keys each in range can still leave what the model represents.
    w.Rule(
        "prompt_tokens",
        {"prompt_tokens", "layers", "kv_heads", "head_dim", "bytes_per_element"},
        [&prompt](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            PromptKeys p;
            prompt.Read(*v.Get("prompt_tokens"), &p, typeid(PromptKeys));
            const uint64_t tokens = p.Longest();
            const uint64_t perToken = KvBytesPerToken(v.Get("layers")->get<uint64_t>(),
                                                      v.Get("kv_heads")->get<uint64_t>(),
                                                      v.Get("head_dim")->get<uint64_t>(),
                                                      v.Get("bytes_per_element")->get<uint64_t>());
            if (tokens * perToken <= RdmaLimits::MAX_MESSAGE_BYTES)
            {
                return std::nullopt;
            }
            return "a prompt of " + std::to_string(tokens) + " tokens has "
                   + std::to_string(tokens * perToken)
                   + " bytes of KV cache, sent as one message, above RDMA's limit of 2^31 bytes";
        },
        "the longest prompt's KV bytes <= 2^31");
    w.Rule(
        "prefill_us_per_token",
        {"prefill_us_per_token", "prompt_tokens"},
        [&prompt](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            PromptKeys p;
            prompt.Read(*v.Get("prompt_tokens"), &p, typeid(PromptKeys));
            const double us
                = v.Get("prefill_us_per_token")->get<double>() * static_cast<double>(p.Longest());
            if (us <= SimLimits::MAX_TIME_US)
            {
                return std::nullopt;
            }
            return "the longest prompt's prefill would take " + ConfigSchema::FormatNumber(us)
                   + " us, past the simulated-time horizon of 1000 s";
        },
        "prefill of the longest prompt within the horizon");
    w.Rule(
        "output_tokens",
        {"output_tokens", "decode_step_us", "decode_us_per_sequence", "requests"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const double step = v.Get("decode_step_us")->get<double>()
                                + v.Get("decode_us_per_sequence")->get<double>()
                                      * v.Get("requests")->get<double>();
            const double us = step * v.Get("output_tokens")->get<double>();
            if (us <= SimLimits::MAX_TIME_US)
            {
                return std::nullopt;
            }
            return "decoding could take " + ConfigSchema::FormatNumber(us)
                   + " us (output_tokens x the step of a full batch), past the simulated-time "
                     "horizon of 1000 s";
        },
        "decoding within the horizon");
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when arrivals begin")
        .Bind(&WorkloadConfig::startUs);
}

uint64_t
KvCacheFanoutWorkload::KvBytesPerToken(uint64_t layers,
                                       uint64_t kvHeads,
                                       uint64_t headDim,
                                       uint64_t bytesPerElement)
{
    return layers * 2 * kvHeads * headDim * bytesPerElement;
}

const std::vector<KvCacheFanoutWorkload::Request>&
KvCacheFanoutWorkload::GetRequests() const
{
    return m_requests;
}

uint64_t
KvCacheFanoutWorkload::GetKvBytesPerToken() const
{
    return m_kvBytesPerToken;
}

void
KvCacheFanoutWorkload::DoDispose()
{
    for (Ptr<P2mpChannel>& c : m_channels)
    {
        c->Dispose();
    }
    m_channels.clear();
    m_decode.clear();
    Workload::DoDispose();
}

void
KvCacheFanoutWorkload::DoInstall()
{
    const KvCacheFanoutKeys keys = ReadKeys<KvCacheFanoutKeys>();
    m_rng.seed(WorkloadSeed());
    m_prefillHosts = keys.prefillRanks;
    std::vector<uint32_t> decodeHosts = keys.decodeRanks;
    m_kvBytesPerToken
        = KvBytesPerToken(keys.layers, keys.kvHeads, keys.headDim, keys.bytesPerElement);
    m_replicas = keys.replicas;
    m_networkAware = keys.placement == Placement::NETWORK_AWARE;
    m_prefillPerToken = Time::FromDouble(keys.prefillUsPerToken, Time::US);
    m_decodeStep = Time::FromDouble(keys.decodeStepUs, Time::US);
    m_decodePerSequence = Time::FromDouble(keys.decodeUsPerSequence, Time::US);
    m_outputTokens = keys.outputTokens;

    m_decodeOfHost.assign(GetHostCount(), -1);
    std::sort(decodeHosts.begin(), decodeHosts.end());
    for (uint32_t h : decodeHosts)
    {
        DecodeRank d;
        d.host = h;
        Ptr<FabricNetDevice> dev = m_context.nics[h]->GetDevice();
        d.tor = dev->GetFabricChannel()->GetPeer(dev);
        d.lineSecondsPerByte = 8.0 / static_cast<double>(dev->GetDataRate().GetBitRate());
        d.secondsPerByte = d.lineSecondsPerByte;
        m_decodeOfHost[h] = static_cast<int64_t>(m_decode.size());
        m_decode.push_back(d);
    }
    const uint32_t np = static_cast<uint32_t>(m_prefillHosts.size());
    m_prefillQueue.assign(np, {});
    m_prefillBusy.assign(np, false);
    m_prefillFree.assign(np, Time(0));
    for (uint32_t p = 0; p < np; ++p)
    {
        Ptr<P2mpChannel> c
            = m_context.delivery->CreateChannel(m_prefillHosts[p],
                                                decodeHosts,
                                                GroupQpnBase() + p,
                                                MakeCallback(&KvCacheFanoutWorkload::Entropy, this),
                                                m_context.p2mpOwner);
        c->SetDeliveredCallback(MakeCallback(&KvCacheFanoutWorkload::KvDelivered, this, p));
        c->SetDroppedCallback(MakeCallback(&KvCacheFanoutWorkload::KvDropped, this, p));
        m_channels.push_back(c);
    }

    const uint32_t n = keys.requests;
    const uint32_t turns = keys.turnsPerSession;
    const bool poisson = keys.arrival.type == Arrival::POISSON;
    const double rate = keys.arrival.ratePerS;
    Time start = Time::FromDouble(m_config.startUs, Time::US);
    double t = 0;
    m_requests.resize(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        Request& req = m_requests[r];
        if (poisson)
        {
            double u = UnitInterval(m_rng()) + 0x1.0p-54; // in (0, 1): log(u) is finite
            t += -std::log(u) / rate;
            req.arrival = start + Seconds(t);
        }
        else
        {
            req.arrival = start + MicroSeconds(keys.arrival.timesUs[r]);
        }
        req.prompt = keys.promptTokens.Draw(m_rng);
        req.kvBytes = uint64_t{req.prompt} * m_kvBytesPerToken;
        req.tokensLeft = m_outputTokens;
        Metrics::OpRecord rec;
        rec.op = r;
        rec.request = r;
        rec.session = r / turns;
        rec.bytes = req.kvBytes;
        rec.receivers = m_replicas;
        req.handle = AddOp(rec);
        Simulator::Schedule(req.arrival, &KvCacheFanoutWorkload::Arrive, this, r);
    }
    NS_LOG_INFO(n << " requests, " << m_kvBytesPerToken << " KV bytes per token, " << np
                  << " prefill and " << m_decode.size() << " decode ranks");
}

uint16_t
KvCacheFanoutWorkload::Entropy()
{
    return EntropyPort(m_rng());
}

void
KvCacheFanoutWorkload::Arrive(uint32_t r)
{
    Request& req = m_requests[r];
    StartOp(req.handle);
    // The prefill rank that frees up first takes it; it queues there in arrival order.
    uint32_t best = 0;
    for (uint32_t p = 1; p < m_prefillHosts.size(); ++p)
    {
        if (m_prefillFree[p] < m_prefillFree[best])
        {
            best = p;
        }
    }
    req.prefill = best;
    Time now = Simulator::Now();
    m_prefillFree[best] = std::max(m_prefillFree[best], now) + m_prefillPerToken * req.prompt;
    m_prefillQueue[best].push_back(r);
    NS_LOG_LOGIC("request " << r << " (" << req.prompt << " tokens) to prefill rank " << best);
    if (!m_prefillBusy[best])
    {
        StartPrefill(best);
    }
}

void
KvCacheFanoutWorkload::StartPrefill(uint32_t p)
{
    if (m_prefillQueue[p].empty())
    {
        m_prefillBusy[p] = false;
        return;
    }
    uint32_t r = m_prefillQueue[p].front();
    m_prefillQueue[p].pop_front();
    m_prefillBusy[p] = true;
    Request& req = m_requests[r];
    req.prefillStart = Simulator::Now();
    if (IsTimed())
    {
        Activity(m_prefillHosts[p], HostActivity::COMPUTE, +1);
    }
    Simulator::Schedule(
        m_prefillPerToken * req.prompt, &KvCacheFanoutWorkload::PrefillDone, this, p, r);
}

double
KvCacheFanoutWorkload::NetworkCost(uint32_t d, uint64_t bytes) const
{
    // The fabric's view: what already waits at the switch port toward the rank, what is on
    // its way there, and how fast the last transfer into it went.
    const DecodeRank& rank = m_decode[d];
    return (rank.tor->GetQueuedBytes() + rank.inFlight) * rank.lineSecondsPerByte
           + bytes * rank.secondsPerByte;
}

std::vector<uint32_t>
KvCacheFanoutWorkload::Place(const Request& req)
{
    std::vector<uint32_t> order(m_decode.size());
    std::vector<double> cost(m_decode.size(), 0.0);
    for (uint32_t d = 0; d < m_decode.size(); ++d)
    {
        order[d] = d;
        if (m_networkAware)
        {
            cost[d] = NetworkCost(d, req.kvBytes);
        }
    }
    std::stable_sort(order.begin(),
                     order.end(),
                     [&](uint32_t a, uint32_t b)
                     {
                         // A rank whose host was dropped is out of the P2MP set: last.
                         if (m_decode[a].dropped != m_decode[b].dropped)
                         {
                             return m_decode[b].dropped;
                         }
                         if (cost[a] != cost[b])
                         {
                             return cost[a] < cost[b];
                         }
                         return m_decode[a].load < m_decode[b].load;
                     });
    order.resize(m_replicas);
    return order;
}

void
KvCacheFanoutWorkload::PrefillDone(uint32_t p, uint32_t r)
{
    Request& req = m_requests[r];
    req.prefillEnd = Simulator::Now();
    req.decode = Place(req);
    req.copiesLeft = m_replicas;
    req.has.assign(req.decode.size(), false);
    std::vector<uint32_t> hosts;
    for (uint32_t d : req.decode)
    {
        ++m_decode[d].load;
        m_decode[d].inFlight += req.kvBytes;
        hosts.push_back(m_decode[d].host);
    }
    m_context.metrics->SetOpHosts(req.handle, m_prefillHosts[p], m_decode[req.decode[0]].host);
    NS_LOG_LOGIC("request " << r << ": " << req.kvBytes << " KV bytes from host "
                            << m_prefillHosts[p] << " to decode host "
                            << m_decode[req.decode[0]].host);
    if (IsTimed())
    {
        Activity(m_prefillHosts[p], HostActivity::COMPUTE, -1);
        Activity(m_prefillHosts[p], HostActivity::SEND, static_cast<int32_t>(hosts.size()));
        for (uint32_t h : hosts)
        {
            Activity(h, HostActivity::WAIT, +1);
        }
    }
    std::sort(hosts.begin(), hosts.end());
    m_channels[p]->Send(
        r, std::make_shared<const std::vector<uint32_t>>(hosts), req.kvBytes, OpTag(req.handle));
    StartPrefill(p);
}

void
KvCacheFanoutWorkload::KvDelivered(uint32_t p, uint64_t tag, uint32_t host, uint64_t bytes)
{
    uint32_t r = static_cast<uint32_t>(tag);
    Request& req = m_requests[r];
    uint32_t d = static_cast<uint32_t>(m_decodeOfHost.at(host));
    Time took = Simulator::Now() - req.prefillEnd;
    if (bytes > 0)
    {
        m_decode[d].secondsPerByte = took.GetSeconds() / static_cast<double>(bytes);
    }
    m_decode[d].inFlight -= req.kvBytes;
    --req.copiesLeft;
    req.has[std::find(req.decode.begin(), req.decode.end(), d) - req.decode.begin()] = true;
    CopyDone(p, host);
    m_context.metrics->AddReceiverCompletion(req.handle, host);
    if (d == req.decode[0])
    {
        req.kvArrival = Simulator::Now();
        Join(d, r);
    }
    MaybeFinish(r);
}

void
KvCacheFanoutWorkload::KvDropped(uint32_t p, uint64_t tag, uint32_t host, uint64_t /* bytes */)
{
    uint32_t r = static_cast<uint32_t>(tag);
    Request& req = m_requests[r];
    uint32_t d = static_cast<uint32_t>(m_decodeOfHost.at(host));
    m_decode[d].dropped = true;
    m_decode[d].inFlight -= req.kvBytes;
    --req.copiesLeft;
    CopyDone(p, host);
    const std::size_t i = std::find(req.decode.begin(), req.decode.end(), d) - req.decode.begin();
    NS_LOG_INFO("request " << r << ": decode host " << host << " dropped before it had the KV");
    if (i == 0)
    {
        // The decoding replica will not have the KV: a replica that has it, or may still
        // have it, decodes instead, from now (when the failure is known) or at its arrival.
        std::size_t j = 1;
        while (j < req.decode.size() && m_decode[req.decode[j]].dropped)
        {
            ++j;
        }
        if (j == req.decode.size())
        {
            req.undecodable = true; // the operation records it: its lost_bytes, or failed
        }
        else
        {
            std::swap(req.decode[0], req.decode[j]);
            std::vector<bool>::swap(req.has[0], req.has[j]);
            m_context.metrics->SetOpHosts(
                req.handle, m_prefillHosts[p], m_decode[req.decode[0]].host);
            if (req.has[0])
            {
                req.kvArrival = Simulator::Now();
                Join(req.decode[0], r);
            }
        }
    }
    MaybeFinish(r);
}

void
KvCacheFanoutWorkload::Join(uint32_t d, uint32_t r)
{
    DecodeRank& rank = m_decode[d];
    rank.joining.push_back(r);
    if (!rank.stepping)
    {
        Step(d);
    }
}

void
KvCacheFanoutWorkload::Step(uint32_t d)
{
    DecodeRank& rank = m_decode[d];
    rank.batch.insert(rank.batch.end(), rank.joining.begin(), rank.joining.end());
    rank.joining.clear();
    if (rank.batch.empty())
    {
        if (rank.stepping && IsTimed())
        {
            Activity(rank.host, HostActivity::COMPUTE, -1);
        }
        rank.stepping = false;
        return;
    }
    if (!rank.stepping && IsTimed())
    {
        Activity(rank.host, HostActivity::COMPUTE, +1); // steps back to back: one span
    }
    rank.stepping = true;
    Time step = m_decodeStep + m_decodePerSequence * (rank.batch.size() - 1);
    Simulator::Schedule(step, &KvCacheFanoutWorkload::StepDone, this, d);
}

void
KvCacheFanoutWorkload::StepDone(uint32_t d)
{
    DecodeRank& rank = m_decode[d];
    Time now = Simulator::Now();
    std::vector<uint32_t> still;
    for (uint32_t r : rank.batch)
    {
        Request& req = m_requests[r];
        if (req.tokensLeft == m_outputTokens)
        {
            req.firstToken = now;
        }
        req.lastToken = now;
        if (--req.tokensLeft > 0)
        {
            still.push_back(r);
            continue;
        }
        req.decoded = true;
        MaybeFinish(r);
    }
    rank.batch = std::move(still);
    Step(d);
}

void
KvCacheFanoutWorkload::MaybeFinish(uint32_t r)
{
    Request& req = m_requests[r];
    if (!(req.decoded || req.undecodable) || req.copiesLeft > 0)
    {
        return;
    }
    for (uint32_t d : req.decode)
    {
        --m_decode[d].load;
    }
    if (IsTimed())
    {
        TimeSegments(req);
    }
    CompleteOp(req.handle);
}

void
KvCacheFanoutWorkload::CopyDone(uint32_t p, uint32_t host)
{
    if (IsTimed())
    {
        Activity(m_prefillHosts[p], HostActivity::SEND, -1);
        Activity(host, HostActivity::WAIT, -1);
    }
}

void
KvCacheFanoutWorkload::TimeSegments(const Request& req)
{
    // Arrival to the operation's end, part by part, each from where the last one ended: the
    // last token, or the last replica's copy if later. A request no replica could decode ends
    // with its KV transfer. Empty parts (no queueing) are left out.
    const Time end = Simulator::Now();
    Time from = req.arrival;
    auto add = [&](const char* name, Time to, bool causedSend)
    {
        if (to <= from)
        {
            return;
        }
        TimelineSegment seg;
        seg.op = req.handle;
        seg.name = name;
        seg.start = from;
        seg.end = to;
        if (causedSend)
        {
            seg.causedHost = m_prefillHosts[req.prefill];
            seg.causedActivity = HostActivity::SEND;
        }
        Segment(seg);
        from = to;
    };
    add("queueing", req.prefillStart, false);
    add("prefill", req.prefillEnd, false);
    if (!req.decoded)
    {
        add("kv-transfer", end, true);
        return;
    }
    add("kv-transfer", req.kvArrival, true);
    add("first-token", req.firstToken, false);
    add("decode", req.lastToken, false);
    add("replicas", end, false);
}

void
KvCacheFanoutWorkload::Report(std::map<std::string, double>& figures) const
{
    figures["kv_bytes_per_token"] = static_cast<double>(m_kvBytesPerToken);
    double prompt = 0;
    for (const Request& req : m_requests)
    {
        prompt += req.prompt;
    }
    figures["mean_prompt_tokens"] = m_requests.empty() ? 0.0 : prompt / m_requests.size();
}

void
KvCacheFanoutWorkload::ReportSamples(std::map<std::string, std::vector<double>>& samples) const
{
    std::vector<double>& ttft = samples["ttft_us"];
    std::vector<double>& tpot = samples["tpot_us"];
    std::vector<double>& queue = samples["queue_us"];
    std::vector<double>& transfer = samples["kv_transfer_us"];
    auto us = [](Time t)
    {
        return t.GetNanoSeconds() / 1e3;
    };
    for (const Request& req : m_requests)
    {
        if (!req.decoded || m_context.metrics->GetOps()[req.handle].failed)
        {
            continue; // a failed request is not a completion (p2mp.on_receiver_timeout fail)
        }
        ttft.push_back(us(req.firstToken - req.arrival));
        queue.push_back(us(req.prefillStart - req.arrival));
        transfer.push_back(us(req.kvArrival - req.prefillEnd));
        if (m_outputTokens > 1)
        {
            tpot.push_back(us(req.lastToken - req.firstToken) / (m_outputTokens - 1));
        }
    }
}

} // namespace ns3
