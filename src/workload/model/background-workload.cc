#include "workload/model/background-workload.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "workload/model/workload-schema-keys.h"
#include "workload/model/workload-type-registry.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundWorkload");

namespace
{
/// `pattern`: who sends to whom.
enum class BackgroundPattern : uint8_t
{
    LONG_LIVED,
    POISSON
};

MCAST4AI_ENUM_NAMES(BackgroundPattern,
                    {{BackgroundPattern::LONG_LIVED, "long-lived"},
                     {BackgroundPattern::POISSON, "poisson"}});

/// `sizes.type`: what message sizes are drawn from.
enum class SizeDistribution : uint8_t
{
    FIXED,
    CDF
};

MCAST4AI_ENUM_NAMES(SizeDistribution,
                    {{SizeDistribution::FIXED, "fixed"}, {SizeDistribution::CDF, "cdf"}});

/// One point of a size CDF.
struct SizePoint
{
    double bytes{0};
    double p{0};
};

/// `sizes`.
struct SizeKeys
{
    SizeDistribution type{SizeDistribution::FIXED};
    uint64_t bytes{0};
    std::vector<SizePoint> points;
    std::string file; ///< "": points given
};

/// The keys of a background entry of its own, as Declare binds them (`ranks` and `start_us`
/// are WorkloadConfig's).
struct BackgroundKeys
{
    BackgroundPattern pattern{BackgroundPattern::LONG_LIVED};
    double load{0};
    SizeKeys sizes;
    double endUs{0}; ///< 0: until the run ends
};
} // namespace
NS_OBJECT_ENSURE_REGISTERED(BackgroundWorkload);
MCAST4AI_REGISTER_WORKLOAD("background",
                           BackgroundWorkload,
                           &BackgroundWorkload::Declare,
                           "Unicast cross-traffic, long-lived or Poisson, sizes fixed or from a "
                           "CDF; one background operation per message, which the run does not "
                           "wait for.");

namespace
{

using json = nlohmann::json;
using Cdf = std::vector<std::pair<double, double>>;

/// Parse "bytes probability" lines ('#' starts a comment); an error names the line.
std::optional<std::string>
ReadCdfFile(const std::string& path, Cdf& cdf)
{
    std::ifstream in(path);
    if (!in)
    {
        return "cannot read " + path;
    }
    std::string line;
    for (uint32_t n = 1; std::getline(in, line); ++n)
    {
        line = line.substr(0, line.find('#'));
        std::istringstream is(line);
        double bytes;
        double p;
        if (!(is >> bytes))
        {
            continue; // blank
        }
        std::string rest;
        if (!(is >> p) || (is >> rest))
        {
            return path + " line " + std::to_string(n) + ": expected \"bytes probability\"";
        }
        cdf.emplace_back(bytes, p);
    }
    return std::nullopt;
}

/// Sizes ascending and >= 1, probabilities non-decreasing in [0, 1] ending at 1.
std::optional<std::string>
CheckCdf(const Cdf& cdf)
{
    if (cdf.empty())
    {
        return std::string("the CDF has no points");
    }
    for (std::size_t i = 0; i < cdf.size(); ++i)
    {
        const auto& [b, p] = cdf[i];
        if (b < 1 || p < 0 || p > 1)
        {
            return "point " + std::to_string(i) + ": bytes must be >= 1 and p in [0, 1]";
        }
        if (i > 0 && (b <= cdf[i - 1].first || p < cdf[i - 1].second))
        {
            return "point " + std::to_string(i) + ": bytes must increase and p must not decrease";
        }
    }
    if (cdf.back().second != 1.0)
    {
        return "the last point's p must be 1, got " + std::to_string(cdf.back().second);
    }
    return std::nullopt;
}

Cdf
PointsOf(const json& sizes)
{
    Cdf cdf;
    for (const json& pt : sizes.at("points"))
    {
        cdf.emplace_back(pt.at("bytes").get<double>(), pt.at("p").get<double>());
    }
    return cdf;
}

} // namespace

TypeId
BackgroundWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BackgroundWorkload")
                            .SetParent<Workload>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<BackgroundWorkload>();
    return tid;
}

void
BackgroundWorkload::Declare(ConfigSchemaObject& w)
{
    w.BindStruct<BackgroundKeys>();
    w.Enum<BackgroundPattern>("pattern")
        .Default("long-lived")
        .Doc("long-lived: every source keeps one message in flight to one peer (a random "
             "derangement of `ranks`), back to back; poisson: every source starts messages at "
             "exponential intervals, each to a random other rank, offering `load`")
        .Bind(&BackgroundKeys::pattern);
    WorkloadSchemaKeys::Ranks(w)
        .MinItems(2)
        .AllOrCount()
        .Doc("the hosts that send and receive it; \"all\" or a count n, the first n hosts")
        .Bind(&WorkloadConfig::ranks);
    w.Number("load", ConfigSchemaBounds::AboveUpTo(0, 1))
        .Default(0.3)
        .Doc("poisson: the load each source offers, as a fraction of its link's rate (mean "
             "size / mean interval = load x rate)")
        .Bind(&BackgroundKeys::load);
    ConfigSchemaObject& sizes = w.Object("sizes")
                                    .Required()
                                    .Doc("what each message's size is drawn from")
                                    .Bind(&BackgroundKeys::sizes)
                                    .Fields();
    sizes.Discriminator("type").Required().Doc("fixed, or a CDF").Bind(&SizeKeys::type);
    sizes.Variant("fixed", "every message `bytes` long")
        .Integer("bytes", 1)
        .Required()
        .Unit("bytes")
        .Doc("size of every message")
        .Bind(&SizeKeys::bytes);
    ConfigSchemaObject& cdf = sizes.Variant(
        "cdf", "a piecewise-linear CDF of sizes, given as `points` or read from `file`");
    ConfigSchemaObject& pt = cdf.ObjectArray("points", "{bytes, p} objects")
                                 .MinItems(1)
                                 .Doc("(bytes, P(size <= bytes)) points, ascending, the last "
                                      "with p = 1; sizes between two points are uniform")
                                 .Bind(&SizeKeys::points)
                                 .Fields();
    pt.Number("bytes", ConfigSchemaBounds::AtLeast(1))
        .Required()
        .Unit("bytes")
        .Doc("a size")
        .Bind(&SizePoint::bytes);
    pt.Number("p", ConfigSchemaBounds::Between(0, 1))
        .Required()
        .Doc("P(size <= bytes)")
        .Bind(&SizePoint::p);
    cdf.String("file")
        .Doc("a text file of \"bytes probability\" lines (`#` comments), relative to the working "
             "directory, as the CDF files of HPCC's traffic generator")
        .Bind(&SizeKeys::file);
    cdf.Rule(
        "",
        {"points", "file"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* points = v.Get("points");
            const json* file = v.Get("file");
            if ((points != nullptr) == (file != nullptr))
            {
                return "give exactly one of " + v.Path("points") + " and " + v.Path("file");
            }
            Cdf c;
            if (file)
            {
                if (auto e = ReadCdfFile(file->get<std::string>(), c))
                {
                    return v.Path("file") + ": " + *e;
                }
            }
            else
            {
                c = PointsOf(json{{"points", *points}});
            }
            if (auto e = CheckCdf(c))
            {
                return (file ? v.Path("file") : v.Path("points")) + ": " + *e;
            }
            return std::nullopt;
        },
        "exactly one of points and file, a valid CDF");
    w.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when the first messages start")
        .Bind(&WorkloadConfig::startUs);
    w.Number("end_us", ConfigSchemaBounds::Above(0))
        .Unit("µs")
        .Note("none: until the run ends")
        .Doc("no message starts after it; those in flight finish")
        .Bind(&BackgroundKeys::endUs);
    WorkloadSchemaKeys::EndAfterStart(w);
}

void
BackgroundWorkload::DoDispose()
{
    m_qps.clear();
    Workload::DoDispose();
}

double
BackgroundWorkload::GetMeanBytes() const
{
    if (m_cdf.empty())
    {
        return static_cast<double>(m_fixedBytes);
    }
    double mean = m_cdf[0].first * m_cdf[0].second;
    for (std::size_t i = 1; i < m_cdf.size(); ++i)
    {
        mean += (m_cdf[i].second - m_cdf[i - 1].second) * (m_cdf[i].first + m_cdf[i - 1].first) / 2;
    }
    return mean;
}

uint64_t
BackgroundWorkload::GetMessages() const
{
    return m_messages;
}

uint64_t
BackgroundWorkload::DrawBytes()
{
    if (m_cdf.empty())
    {
        return m_fixedBytes;
    }
    double u = std::uniform_real_distribution<double>(0, 1)(m_rng);
    auto it = std::lower_bound(m_cdf.begin(),
                               m_cdf.end(),
                               u,
                               [](const std::pair<double, double>& pt, double x)
                               {
                                   return pt.second < x;
                               });
    if (it == m_cdf.begin())
    {
        return static_cast<uint64_t>(it->first);
    }
    auto prev = std::prev(it);
    double span = it->second - prev->second;
    double f = span > 0 ? (u - prev->second) / span : 1.0;
    return std::max<uint64_t>(1, std::llround(prev->first + f * (it->first - prev->first)));
}

void
BackgroundWorkload::DoInstall()
{
    const BackgroundKeys keys = ReadKeys<BackgroundKeys>();
    m_rng.seed(WorkloadSeed());
    m_hosts = m_config.ranks;
    if (m_hosts.empty())
    {
        for (uint32_t h = 0; h < GetHostCount(); ++h)
        {
            m_hosts.push_back(h);
        }
    }
    m_longLived = keys.pattern == BackgroundPattern::LONG_LIVED;
    m_start = MicroSeconds(1) * m_config.startUs;
    if (keys.endUs > 0)
    {
        m_end = MicroSeconds(1) * keys.endUs;
    }
    if (keys.sizes.type == SizeDistribution::FIXED)
    {
        m_fixedBytes = keys.sizes.bytes;
    }
    else if (!keys.sizes.file.empty())
    {
        ReadCdfFile(keys.sizes.file, m_cdf); // validated when loaded
    }
    else
    {
        for (const SizePoint& pt : keys.sizes.points)
        {
            m_cdf.emplace_back(pt.bytes, pt.p);
        }
    }
    const uint32_t n = static_cast<uint32_t>(m_hosts.size());
    if (m_longLived)
    {
        // A random derangement: rotate a shuffled order by one, so nobody sends to itself.
        std::vector<uint32_t> order(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            order[i] = i;
        }
        std::shuffle(order.begin(), order.end(), m_rng);
        m_peer.assign(n, 0);
        for (uint32_t i = 0; i < n; ++i)
        {
            m_peer[order[i]] = order[(i + 1) % n];
        }
        // One connection per source, its messages back to back.
        m_current.assign(n, 0);
        for (uint32_t i = 0; i < n; ++i)
        {
            m_qps.push_back(Connect(i, m_peer[i]));
            m_qps.back()->SetCompletionCallback(
                MakeCallback(&BackgroundWorkload::LongLivedDone, this, i));
        }
    }
    else
    {
        double rate = m_context.nics[m_hosts[0]]->GetDevice()->GetDataRate().GetBitRate();
        m_meanGapUs = GetMeanBytes() * 8 / (keys.load * rate) * 1e6;
    }
    NS_LOG_INFO("background over " << n << " hosts, mean size " << GetMeanBytes() << " B"
                                   << (m_longLived ? ", long-lived" : ", poisson"));
    for (uint32_t i = 0; i < n; ++i)
    {
        Simulator::Schedule(m_start, &BackgroundWorkload::Arrival, this, i);
    }
}

bool
BackgroundWorkload::Running() const
{
    return m_end.IsZero() || Simulator::Now() < m_end;
}

void
BackgroundWorkload::Arrival(uint32_t source)
{
    if (!Running())
    {
        return;
    }
    if (m_longLived)
    {
        Post(source, m_peer[source]);
        return;
    }
    uint32_t n = static_cast<uint32_t>(m_hosts.size());
    uint32_t dst = std::uniform_int_distribution<uint32_t>(0, n - 2)(m_rng);
    Post(source, dst >= source ? dst + 1 : dst);
    double gap = std::exponential_distribution<double>(1.0 / m_meanGapUs)(m_rng);
    Simulator::Schedule(MicroSeconds(1) * gap, &BackgroundWorkload::Arrival, this, source);
}

void
BackgroundWorkload::Post(uint32_t src, uint32_t dst)
{
    uint64_t bytes = DrawBytes();
    Metrics::OpRecord rec;
    rec.op = m_messages++;
    rec.rank = m_hosts[src];
    rec.src = m_hosts[src];
    rec.dst = m_hosts[dst];
    rec.bytes = bytes;
    rec.receivers = 1;
    rec.background = true;
    uint64_t handle = AddOp(rec);
    m_bytes += bytes;
    Ptr<QueuePair> qp;
    if (m_longLived)
    {
        m_current[src] = handle;
        qp = m_qps[src];
    }
    else
    {
        // A queue pair per message, as a new connection: its own UDP source port for ECMP.
        qp = Connect(src, dst);
        qp->SetCompletionCallback(MakeCallback(&BackgroundWorkload::PoissonDone, this, handle));
        m_qps.push_back(qp);
    }
    StartOp(handle);
    qp->Post(RdmaOperation::WRITE, bytes, OpTag(handle));
}

Ptr<QueuePair>
BackgroundWorkload::Connect(uint32_t src, uint32_t dst)
{
    Ptr<QueuePair> a = m_context.nics[m_hosts[src]]->CreateQp(
        m_hosts[dst], EntropyPort(m_rng()), m_context.owner);
    Ptr<QueuePair> b = m_context.nics[m_hosts[dst]]->CreateQp(
        m_hosts[src], EntropyPort(m_rng()), m_context.owner);
    RdmaNic::Connect(a, b);
    return a;
}

void
BackgroundWorkload::PoissonDone(uint64_t handle, Ptr<QueuePair> qp, const QueuePair::Message& m)
{
    CompleteOp(handle);
}

void
BackgroundWorkload::LongLivedDone(uint32_t source, Ptr<QueuePair> qp, const QueuePair::Message& m)
{
    CompleteOp(m_current[source]);
    Arrival(source);
}

void
BackgroundWorkload::Report(std::map<std::string, double>& figures) const
{
    figures["background"] = 1;
    figures["messages_posted"] = static_cast<double>(m_messages);
    figures["bytes_posted"] = static_cast<double>(m_bytes);
    figures["mean_size_bytes"] = GetMeanBytes();
}

} // namespace ns3
