#include "workload/model/spec-decode-workload.h"

#include "core/model/config-schema-object.h"
#include "ns3/log.h"
#include "workload/model/workload-schema-keys.h"
#include "workload/model/workload-type-registry.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SpecDecodeWorkload");
NS_OBJECT_ENSURE_REGISTERED(SpecDecodeWorkload);
MCAST4AI_REGISTER_WORKLOAD("spec-decode",
                           SpecDecodeWorkload,
                           &SpecDecodeWorkload::Declare,
                           "Speculative decoding: the first rank (the draft) sends `tokens` "
                           "proposed tokens to the other ranks (the verifiers) as one P2MP "
                           "message and waits for every verdict; one step per iteration.");

namespace
{

/// The keys of a spec-decode entry of its own, as Declare binds them (`ranks`, `algorithm`,
/// `iterations`, `compute_us` and `start_us` are the CollectiveWorkload's).
struct SpecDecodeKeys
{
    uint64_t tokens{0};
    uint64_t tokenBytes{0};
    uint64_t verdictBytes{0};
    double acceptance{0};
    int64_t request{0};
    int64_t session{0};
};

} // namespace

TypeId
SpecDecodeWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SpecDecodeWorkload")
                            .SetParent<CollectiveWorkload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<SpecDecodeWorkload>();
    return tid;
}

void
SpecDecodeWorkload::Declare(ConfigSchemaObject& w)
{
    w.BindStruct<SpecDecodeKeys>();
    WorkloadSchemaKeys::Ranks(w)
        .MinItems(2)
        .AllOrCount()
        .DefaultFrom(
            [](const ConfigSchemaView& v) -> std::optional<nlohmann::json>
            {
                const ConfigSchemaDerived* hosts = v.Variable(WorkloadSchemaKeys::HOSTS);
                if (!hosts)
                {
                    return std::nullopt;
                }
                nlohmann::json first = nlohmann::json::array();
                for (uint64_t h = 0; h < std::min<uint64_t>(5, hosts->value.get<uint64_t>()); ++h)
                {
                    first.push_back(h);
                }
                return first;
            },
            "hosts 0 to 4 (fewer if the fabric has fewer)")
        .Doc("the draft host first, then the verifiers; \"all\" or a count n, the first n hosts "
             "(the default: a draft and 4 verifiers)")
        .Bind(&WorkloadConfig::ranks);
    w.Enum("algorithm", {"multicast", "unicast"})
        .Default("multicast")
        .Doc("multicast: each proposal once from the draft, through p2mp.mechanism; unicast: a "
             "copy per verifier over RDMA WRITEs, whatever the mechanism")
        .Bind(&WorkloadConfig::algorithm);
    w.Integer("tokens", 1, 4096)
        .Default(64)
        .Doc("k: tokens the draft proposes per step")
        .Bind(&SpecDecodeKeys::tokens);
    w.Integer("token_bytes", 1, 1u << 20)
        .Default(4)
        .Unit("bytes")
        .Doc("bytes per proposed token on the wire (4: a 32-bit token id)")
        .Bind(&SpecDecodeKeys::tokenBytes);
    w.Integer("verdict_bytes", 1, 1u << 20)
        .Default(8)
        .Unit("bytes")
        .Doc("bytes of each verifier's reply (the accepted count and the corrected token)")
        .Bind(&SpecDecodeKeys::verdictBytes);
    w.Number("acceptance", ConfigSchemaBounds::Between(0, 1))
        .Default(0.8)
        .Doc("a: the probability that the target model accepts a proposed token; a step then "
             "yields (1 - a^(k+1)) / (1 - a) tokens on average, which turns step latency into "
             "token latency")
        .Bind(&SpecDecodeKeys::acceptance);
    WorkloadSchemaKeys::Iterations(w, 100).Doc("decoding steps, one after the other");
    w.Integer("request", 0, INT32_MAX)
        .Default(0)
        .Doc("id of the request this draft decodes: every step's ops.csv row carries it, the "
             "join key to the network columns")
        .Bind(&SpecDecodeKeys::request);
    w.Integer("session", 0, INT32_MAX)
        .Default(0)
        .Doc("id of the session (conversation) the request belongs to, in ops.csv")
        .Bind(&SpecDecodeKeys::session);
    WorkloadSchemaKeys::ComputeUs(w).Doc(
        "draft and verification compute between one step and the next");
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when the first step starts")
        .Bind(&WorkloadConfig::startUs);
}

double
SpecDecodeWorkload::ExpectedTokensPerStep(uint32_t k, double a)
{
    if (a >= 1)
    {
        return k + 1.0; // every proposal accepted, plus the target's own next token
    }
    return (1 - std::pow(a, k + 1.0)) / (1 - a);
}

void
SpecDecodeWorkload::DoInstall()
{
    const SpecDecodeKeys keys = ReadKeys<SpecDecodeKeys>();
    m_config.bytes = keys.tokens * keys.tokenBytes;
    m_tokensPerStep = ExpectedTokensPerStep(static_cast<uint32_t>(keys.tokens), keys.acceptance);
    m_request = keys.request;
    m_session = keys.session;
    m_verdictBytes = keys.verdictBytes;
    CollectiveWorkload::DoInstall();
}

void
SpecDecodeWorkload::DescribeOp(Metrics::OpRecord& record) const
{
    DescribeFirstRankAsSource(record);
    record.request = m_request;
    record.session = m_session;
}

CollectiveSchedule
SpecDecodeWorkload::BuildSchedule(uint32_t ranks, uint64_t proposal, uint64_t /* chunk */) const
{
    const uint64_t verdict = m_verdictBytes;
    NS_LOG_FUNCTION(this << ranks << proposal << verdict << EnumName(m_config.algorithm));
    CollectiveSchedule schedule(ranks);
    std::vector<uint32_t> verifiers;
    for (uint32_t r = 1; r < ranks; ++r)
    {
        verifiers.push_back(r);
    }
    std::vector<uint32_t> sent(ranks, 0); // the proposal's transfer into each verifier
    if (m_config.algorithm == CollectiveAlgorithm::MULTICAST)
    {
        uint32_t t = schedule.AddMulticast(
            0, std::make_shared<const std::vector<uint32_t>>(verifiers), proposal, 0);
        for (uint32_t r : verifiers)
        {
            sent[r] = t;
        }
    }
    else
    {
        for (uint32_t r : verifiers)
        {
            sent[r] = schedule.AddUnicast(0, r, proposal, 0);
        }
    }
    for (uint32_t r : verifiers)
    {
        schedule.AddDependency(schedule.AddUnicast(r, 0, verdict, 1), sent[r]);
    }
    return schedule;
}

void
SpecDecodeWorkload::Report(std::map<std::string, double>& figures) const
{
    CollectiveWorkload::Report(figures);
    figures["tokens_per_step"] = m_tokensPerStep;
}

void
SpecDecodeWorkload::ReportSamples(std::map<std::string, std::vector<double>>& samples) const
{
    std::vector<double>& tokens = samples["token_us"];
    for (double stepUs : m_context.metrics->Durations(m_context.index))
    {
        tokens.push_back(stepUs / m_tokensPerStep);
    }
}

} // namespace ns3
