#include "scenario/model/scenario.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "scenario/model/scenario-error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Scenario");

namespace
{

using json = nlohmann::json;

const std::string kRoot = "(root)";
const std::string kSetFile = "--set";
constexpr uint64_t kUintMax = std::numeric_limits<uint64_t>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint64_t kMaxHosts = 65536;

// The names the design reserves; only the first of each list (or those in the
// "implemented" lists below) run today, the rest are rejected as "not implemented yet".
const std::vector<std::string> kKinds{"leaf-spine", "fat-tree"};
const std::vector<std::string> kLbModes{"ecmp", "spray-random", "spray-adaptive", "steering"};
const std::vector<std::string> kMechanisms{"unicast", "bier", "bier-xpu-list", "new-protocol"};
const std::vector<std::string> kAckAggregation{"none", "sender-nic", "source-tor", "hop-by-hop"};
const std::vector<std::string> kWorkloadTypes{"flows",
                                              "allreduce",
                                              "allgather",
                                              "reducescatter",
                                              "broadcast",
                                              "moe-dispatch",
                                              "kv-cache-fanout",
                                              "spec-decode",
                                              "checkpoint",
                                              "background"};
const std::vector<std::string> kFlowPatterns{"list", "permutation", "incast"};
const std::vector<std::string> kBroadcastAlgorithms{"multicast", "ring", "tree"};
const std::vector<std::string> kAckModes{"per-packet", "every-n", "per-message", "ack-free"};
const std::vector<std::string> kAddressMappings{"group-region", "per-receiver-list"};
const std::vector<std::string> kTableFull{"evict-lru", "fallback-unicast"};
const std::vector<std::string> kOps{"write", "send"};
const std::vector<uint64_t> kMtus{256, 512, 1024, 2048, 4096};
const std::vector<uint64_t> kBsls{64, 128, 256, 512, 1024, 2048, 4096};

std::string
KeyPath(const std::string& parent, const std::string& key)
{
    return parent == kRoot ? key : parent + "." + key;
}

std::string
IndexPath(const std::string& parent, std::size_t index)
{
    return (parent == kRoot ? std::string() : parent) + "[" + std::to_string(index) + "]";
}

std::string
Quote(const std::string& s)
{
    return "'" + s + "'";
}

template<typename T>
std::string
JoinList(const std::vector<T>& items, bool quote)
{
    std::ostringstream os;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        if (i > 0)
        {
            os << ", ";
        }
        if (quote)
        {
            os << '\'' << items[i] << '\'';
        }
        else
        {
            os << items[i];
        }
    }
    return os.str();
}

// A value as the user wrote it, short enough for a one-line message.
std::string
Shown(const json& v)
{
    std::string s = v.dump();
    if (s.size() > 60)
    {
        s = s.substr(0, 57) + "...";
    }
    return s;
}

std::string
TypeWithArticle(const json& v)
{
    const std::string t = v.type_name();
    const bool vowel = !t.empty() && std::string("aeiou").find(t[0]) != std::string::npos;
    return (vowel ? "an " : "a ") + t;
}

std::string
Num(double x)
{
    std::ostringstream os;
    os << std::setprecision(15) << x;
    return os.str();
}

bool
AllDigits(const std::string& s)
{
    return !s.empty()
           && std::all_of(s.begin(),
                          s.end(),
                          [](char c)
                          {
                              return c >= '0' && c <= '9';
                          });
}

// Edit distance, to suggest the intended key for a typo.
std::size_t
Distance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i)
    {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
            diag = up;
        }
    }
    return row[b.size()];
}

/// Allowed interval of a real-valued field.
struct Bounds
{
    double lo{-kInf};
    double hi{kInf};
    bool loOpen{false};
    bool hiOpen{false};

    bool Contains(double x) const
    {
        return std::isfinite(x) && (loOpen ? x > lo : x >= lo) && (hiOpen ? x < hi : x <= hi);
    }

    std::string Text() const
    {
        const bool hasLo = std::isfinite(lo);
        const bool hasHi = std::isfinite(hi);
        if (hasLo && hasHi && !loOpen && !hiOpen)
        {
            return "between " + Num(lo) + " and " + Num(hi);
        }
        std::string lower = hasLo ? (loOpen ? "> " : ">= ") + Num(lo) : "";
        std::string upper = hasHi ? (hiOpen ? "< " : "<= ") + Num(hi) : "";
        if (hasLo && hasHi)
        {
            return lower + " and " + upper;
        }
        return lower + upper;
    }
};

Bounds
AtLeast(double lo)
{
    return Bounds{lo, kInf, false, false};
}

Bounds
Above(double lo)
{
    return Bounds{lo, kInf, true, false};
}

Bounds
Between(double lo, double hi)
{
    return Bounds{lo, hi, false, false};
}

Bounds
AboveUpTo(double lo, double hi)
{
    return Bounds{lo, hi, true, false};
}

/*
 * The validator's only building block: one JSON object, the keys it may hold, and typed reads
 * with range checks. Every check in this file goes through it, so every message has the same
 * shape: "must be <what is allowed>, got <what was written>".
 */
class ObjectReader
{
public:
    ObjectReader(const std::string& file, const json& value, const std::string& path)
        : m_file(file),
          m_obj(&value),
          m_path(path)
    {
        if (!value.is_object())
        {
            throw ScenarioError(m_file, m_path, "must be an object, got " + Shown(value));
        }
    }

    const std::string& File() const
    {
        return m_file;
    }

    const std::string& Path() const
    {
        return m_path;
    }

    std::string PathOf(const std::string& key) const
    {
        return KeyPath(m_path, key);
    }

    /// Declare keys this object may hold (the schema of the object, possibly per variant).
    void Allow(std::initializer_list<const char*> keys)
    {
        for (const char* k : keys)
        {
            if (std::find(m_known.begin(), m_known.end(), k) == m_known.end())
            {
                m_known.emplace_back(k);
            }
        }
    }

    /// A key that exists in the schema, but not in this variant of the object.
    void Forbid(const std::string& key, const std::string& reason) const
    {
        if (Has(key))
        {
            Fail(key, reason);
        }
    }

    /// Call once all keys are declared: the first undeclared key is an error at its own path.
    void RejectUnknown(const std::string& context = "") const
    {
        for (const auto& item : m_obj->items())
        {
            const std::string& key = item.key();
            if (std::find(m_known.begin(), m_known.end(), key) != m_known.end())
            {
                continue;
            }
            std::string reason = "unknown key " + Quote(key);
            if (!context.empty())
            {
                reason += " " + context;
            }
            std::string best;
            std::size_t bestDistance = 3; // suggest only close matches
            for (const auto& known : m_known)
            {
                // A key that contains, or is contained in, a known one ("mtu") is a near miss too.
                const bool contains = key.size() >= 3
                                      && (known.find(key) != std::string::npos
                                          || key.find(known) != std::string::npos);
                const std::size_t d = contains ? 1 : Distance(key, known);
                if (d < bestDistance)
                {
                    bestDistance = d;
                    best = known;
                }
            }
            if (!best.empty())
            {
                reason += " (did you mean " + Quote(best) + "?)";
            }
            reason += "; known keys: " + JoinList(m_known, false);
            Fail(key, reason);
        }
    }

    bool Has(const std::string& key) const
    {
        return m_obj->contains(key);
    }

    [[noreturn]] void Fail(const std::string& key, const std::string& reason) const
    {
        throw ScenarioError(m_file, PathOf(key), reason);
    }

    [[noreturn]] void FailHere(const std::string& reason) const
    {
        throw ScenarioError(m_file, m_path, reason);
    }

    uint64_t Uint(const std::string& key,
                  uint64_t lo,
                  uint64_t hi,
                  std::optional<uint64_t> def = std::nullopt,
                  const std::string& note = "") const
    {
        std::string expect;
        if (hi == kUintMax)
        {
            expect = "an integer >= " + std::to_string(lo);
        }
        else
        {
            expect = "an integer between " + std::to_string(lo) + " and " + std::to_string(hi);
        }
        if (!note.empty())
        {
            expect += " (" + note + ")";
        }
        const json* v = Lookup(key, expect, !def);
        if (!v)
        {
            return *def;
        }
        if (v->is_number_unsigned())
        {
            const uint64_t x = v->get<uint64_t>();
            if (x >= lo && x <= hi)
            {
                return x;
            }
        }
        std::string reason = "must be " + expect + ", got " + Shown(*v);
        if (v->is_number_float())
        {
            const double d = v->get<double>();
            if (std::isfinite(d) && d == std::floor(d))
            {
                reason += "; write integers without a decimal point or exponent";
            }
        }
        Fail(key, reason);
    }

    uint64_t UintIn(const std::string& key,
                    const std::vector<uint64_t>& allowed,
                    std::optional<uint64_t> def) const
    {
        const std::string expect = "an integer, one of " + JoinList(allowed, false);
        const json* v = Lookup(key, expect, !def);
        if (!v)
        {
            return *def;
        }
        if (v->is_number_unsigned())
        {
            const uint64_t x = v->get<uint64_t>();
            if (std::find(allowed.begin(), allowed.end(), x) != allowed.end())
            {
                return x;
            }
        }
        Fail(key, "must be " + expect + ", got " + Shown(*v));
    }

    double Number(const std::string& key, const Bounds& bounds, std::optional<double> def) const
    {
        const std::string text = bounds.Text();
        const std::string expect = "a number" + (text.empty() ? "" : " " + text);
        const json* v = Lookup(key, expect, !def);
        if (!v)
        {
            return *def;
        }
        if (v->is_number() && bounds.Contains(v->get<double>()))
        {
            return v->get<double>();
        }
        Fail(key, "must be " + expect + ", got " + Shown(*v));
    }

    bool Bool(const std::string& key, std::optional<bool> def) const
    {
        const json* v = Lookup(key, "true or false", !def);
        if (!v)
        {
            return *def;
        }
        if (!v->is_boolean())
        {
            Fail(key, "must be true or false, got " + Shown(*v));
        }
        return v->get<bool>();
    }

    std::string String(const std::string& key, std::optional<std::string> def) const
    {
        const json* v = Lookup(key, "a non-empty string", !def);
        if (!v)
        {
            return *def;
        }
        if (!v->is_string() || v->get_ref<const std::string&>().empty())
        {
            Fail(key, "must be a non-empty string, got " + Shown(*v));
        }
        return v->get<std::string>();
    }

    /// One of a fixed set of names; names in `all` but not in `implemented` are reserved.
    std::string Choice(const std::string& key,
                       const std::vector<std::string>& all,
                       const std::vector<std::string>& implemented,
                       std::optional<std::string> def) const
    {
        const std::string expect = "one of " + JoinList(all, true);
        const json* v = Lookup(key, expect, !def);
        if (!v)
        {
            return *def;
        }
        if (!v->is_string())
        {
            Fail(key, "must be a string, " + expect + ", got " + Shown(*v));
        }
        const std::string s = v->get<std::string>();
        if (std::find(all.begin(), all.end(), s) == all.end())
        {
            Fail(key, "must be " + expect + ", got " + Shown(*v));
        }
        if (std::find(implemented.begin(), implemented.end(), s) == implemented.end())
        {
            Fail(key,
                 Quote(s) + " is not implemented yet; implemented: " + JoinList(implemented, true));
        }
        return s;
    }

    /// A nested object; an absent optional one reads as {} so its defaults apply.
    ObjectReader Object(const std::string& key, bool required = false) const
    {
        static const json empty = json::object();
        const json* v = Lookup(key, "an object", required);
        return ObjectReader(m_file, v ? *v : empty, PathOf(key));
    }

    /// A nested array, or nullptr when it is optional and absent.
    const json* Array(const std::string& key, bool required, const std::string& expect) const
    {
        const json* v = Lookup(key, expect, required);
        if (v && !v->is_array())
        {
            Fail(key, "must be " + expect + ", got " + Shown(*v));
        }
        return v;
    }

private:
    const json* Lookup(const std::string& key, const std::string& expect, bool required) const
    {
        NS_ASSERT_MSG(std::find(m_known.begin(), m_known.end(), key) != m_known.end(),
                      "key " << key << " read before it was declared");
        auto it = m_obj->find(key);
        if (it == m_obj->end())
        {
            if (required)
            {
                Fail(key, "required key is missing; expected " + expect);
            }
            return nullptr;
        }
        return &*it;
    }

    std::string m_file;
    const json* m_obj;
    std::string m_path;
    std::vector<std::string> m_known; // declaration order, for messages
};

void
ReadLink(ObjectReader r, LinkConfig& link)
{
    r.Allow({"rate_gbps", "delay_us"});
    r.RejectUnknown();
    link.rateGbps = r.Number("rate_gbps", AboveUpTo(0, 1600), 100.0);
    link.delayUs = r.Number("delay_us", Between(0, 1e6), 1.0);
}

void
ReadTopology(ObjectReader r, TopologyConfig& t)
{
    r.Allow({"kind", "host_link", "fabric_link"});
    t.kind = r.Choice("kind", kKinds, kKinds, std::nullopt);
    if (t.kind == "leaf-spine")
    {
        r.Forbid("k",
                 "'k' applies only to kind 'fat-tree'; a leaf-spine is sized by leaves, spines "
                 "and hosts_per_leaf");
        r.Allow({"leaves", "spines", "hosts_per_leaf"});
        r.RejectUnknown("for kind 'leaf-spine'");
        t.leaves = r.Uint("leaves", 1, kMaxHosts);
        t.spines = r.Uint("spines", 1, kMaxHosts);
        t.hostsPerLeaf = r.Uint("hosts_per_leaf", 1, kMaxHosts);
        const uint64_t hosts = uint64_t{t.leaves} * t.hostsPerLeaf;
        if (hosts > kMaxHosts)
        {
            r.FailHere("leaves x hosts_per_leaf = " + std::to_string(hosts) + " hosts; at most "
                       + std::to_string(kMaxHosts) + " are supported");
        }
        // Port numbers are 16-bit in the forwarding tables.
        if (uint64_t{t.hostsPerLeaf} + t.spines > kMaxHosts)
        {
            r.Fail("spines",
                   "a leaf would have hosts_per_leaf + spines = "
                       + std::to_string(uint64_t{t.hostsPerLeaf} + t.spines) + " ports; at most "
                       + std::to_string(kMaxHosts) + " are supported");
        }
    }
    else
    {
        for (const char* key : {"leaves", "spines", "hosts_per_leaf"})
        {
            r.Forbid(key,
                     Quote(key)
                         + " applies only to kind 'leaf-spine'; a fat-tree is sized by k "
                           "alone");
        }
        r.Allow({"k"});
        r.RejectUnknown("for kind 'fat-tree'");
        t.k = r.Uint("k", 2, 64, std::nullopt, "even; k^3/4 hosts");
        if (t.k % 2 != 0)
        {
            r.Fail("k",
                   "must be an even integer between 2 and 64 (k/2 hosts per edge switch), got "
                       + std::to_string(t.k));
        }
    }
    ReadLink(r.Object("host_link"), t.hostLink);
    ReadLink(r.Object("fabric_link"), t.fabricLink);
}

void
ReadNic(ObjectReader r, NicConfig& nic)
{
    r.Allow({"mtu_bytes", "ack_every", "rto_us", "data_priority", "ctrl_priority", "dcqcn"});
    r.RejectUnknown();
    nic.mtuBytes = r.UintIn("mtu_bytes", kMtus, 1024);
    nic.ackEvery = r.Uint("ack_every", 1, 65536, 1);
    nic.rtoUs = r.Number("rto_us", Above(0), 1000.0);
    nic.dataPriority = r.Uint("data_priority", 0, 7, 3);
    nic.ctrlPriority = r.Uint("ctrl_priority", 0, 7, 6);
    if (nic.ctrlPriority == nic.dataPriority)
    {
        // ACKs and CNPs sharing the data class would be paused by the very congestion they
        // report on.
        r.Fail("ctrl_priority",
               "must differ from data_priority (" + std::to_string(nic.dataPriority)
                   + "): control packets need their own PFC class");
    }
    ObjectReader dcqcn = r.Object("dcqcn");
    dcqcn.Allow({"enabled",
                 "preset",
                 "cnp_interval_us",
                 "g",
                 "alpha_update_us",
                 "rate_increase_us",
                 "byte_counter_bytes",
                 "fast_recovery_steps",
                 "rate_ai_mbps",
                 "rate_hai_mbps",
                 "min_rate_mbps",
                 "rate_on_first_cnp_mbps",
                 "initial_alpha",
                 "clamp_target_rate",
                 "rate_trace"});
    dcqcn.RejectUnknown();
    DcqcnConfig& d = nic.dcqcn;
    // A preset only changes the defaults: keys given explicitly still win.
    DcqcnConfig def;
    def.preset = dcqcn.String("preset", def.preset);
    if (def.preset == "nvidia-cx6")
    {
        // ConnectX-6 Lx firmware defaults as mlxconfig reports them (rpg_* / dce_tcp_* /
        // min_time_between_cnps). g follows the firmware-modelled DCQCN of the HPCC study.
        def.cnpIntervalUs = 4;
        def.alphaUpdateUs = 1;
        def.rateIncreaseUs = 300;
        def.byteCounterBytes = 32767;
        def.fastRecoverySteps = 1;
        def.rateAiMbps = 5;
        def.rateHaiMbps = 50;
        def.minRateMbps = 1;
        def.initialAlpha = 1023.0 / 1024;
        def.clampTargetRate = false;
    }
    else if (def.preset != "paper")
    {
        dcqcn.Fail("preset", "must be one of 'paper', 'nvidia-cx6', got '" + def.preset + "'");
    }
    d.preset = def.preset;
    d.enabled = dcqcn.Bool("enabled", def.enabled);
    d.cnpIntervalUs = dcqcn.Number("cnp_interval_us", AtLeast(0), def.cnpIntervalUs);
    d.g = dcqcn.Number("g", Between(0, 1), def.g);
    d.alphaUpdateUs = dcqcn.Number("alpha_update_us", Above(0), def.alphaUpdateUs);
    d.rateIncreaseUs = dcqcn.Number("rate_increase_us", Above(0), def.rateIncreaseUs);
    d.byteCounterBytes = dcqcn.Uint("byte_counter_bytes", 1, UINT32_MAX, def.byteCounterBytes);
    d.fastRecoverySteps = dcqcn.Uint("fast_recovery_steps", 0, 1000, def.fastRecoverySteps);
    d.rateAiMbps = dcqcn.Number("rate_ai_mbps", AtLeast(0), def.rateAiMbps);
    d.rateHaiMbps = dcqcn.Number("rate_hai_mbps", AtLeast(0), def.rateHaiMbps);
    d.minRateMbps = dcqcn.Number("min_rate_mbps", Above(0), def.minRateMbps);
    d.rateOnFirstCnpMbps
        = dcqcn.Number("rate_on_first_cnp_mbps", AtLeast(0), def.rateOnFirstCnpMbps);
    d.initialAlpha = dcqcn.Number("initial_alpha", Between(0, 1), def.initialAlpha);
    d.clampTargetRate = dcqcn.Bool("clamp_target_rate", def.clampTargetRate);
    d.rateTrace = dcqcn.Bool("rate_trace", def.rateTrace);
}

void
ReadSwitch(ObjectReader r, SwitchConfig& sw)
{
    r.Allow({"buffer_mb", "latency_ns", "reserve_kb", "alpha", "pfc", "ecn"});
    r.RejectUnknown();
    sw.bufferMb = r.Number("buffer_mb", AboveUpTo(0, 4096), 32.0);
    sw.latencyNs = r.Number("latency_ns", AtLeast(0), 500.0);
    sw.reserveKb = r.Number("reserve_kb", AtLeast(0), 4.0);
    sw.alpha = r.Number("alpha", Above(0), 1.0);

    ObjectReader pfc = r.Object("pfc");
    pfc.Allow({"enabled", "headroom_kb", "hysteresis_kb"});
    pfc.RejectUnknown();
    sw.pfc.enabled = pfc.Bool("enabled", true);
    // -1 is the config's "auto" marker; users cannot write it, they omit the key.
    sw.pfc.headroomKb = pfc.Number("headroom_kb", AtLeast(0), -1.0);
    sw.pfc.hysteresisKb = pfc.Number("hysteresis_kb", AtLeast(0), -1.0);

    ObjectReader ecn = r.Object("ecn");
    ecn.Allow({"enabled", "kmin_kb", "kmax_kb", "pmax"});
    ecn.RejectUnknown();
    sw.ecn.enabled = ecn.Bool("enabled", true);
    sw.ecn.kminKb = ecn.Number("kmin_kb", AtLeast(0), -1.0);
    sw.ecn.kmaxKb = ecn.Number("kmax_kb", AtLeast(0), -1.0);
    sw.ecn.pmax = ecn.Number("pmax", Between(0, 1), 0.2);
    if (sw.ecn.kminKb >= 0 && sw.ecn.kmaxKb >= 0 && sw.ecn.kminKb > sw.ecn.kmaxKb)
    {
        ecn.Fail("kmin_kb",
                 "must be <= kmax_kb (" + Num(sw.ecn.kmaxKb) + "), got " + Num(sw.ecn.kminKb));
    }
}

void
ReadFlowList(const ObjectReader& w, WorkloadConfig& wc, uint32_t hosts)
{
    const std::string expect = "a non-empty array of {src, dst, bytes, start_us} objects";
    const json* flows = w.Array("flows", true, expect);
    if (flows->empty())
    {
        w.Fail("flows", "must be " + expect + ", got []");
    }
    const std::string hostNote
        = "a host index; the topology has " + std::to_string(hosts) + " hosts";
    for (std::size_t j = 0; j < flows->size(); ++j)
    {
        ObjectReader f(w.File(), (*flows)[j], IndexPath(w.PathOf("flows"), j));
        f.Allow({"src", "dst", "bytes", "start_us"});
        f.RejectUnknown();
        FlowSpec flow;
        flow.src = f.Uint("src", 0, hosts - 1, std::nullopt, hostNote);
        flow.dst = f.Uint("dst", 0, hosts - 1, std::nullopt, hostNote);
        if (flow.dst == flow.src)
        {
            f.Fail("dst", "must differ from src (" + std::to_string(flow.src) + ")");
        }
        flow.bytes = f.Uint("bytes", 1, kUintMax);
        flow.startUs = f.Number("start_us", AtLeast(0), 0.0);
        wc.flows.push_back(flow);
    }
}

void
ReadBroadcast(ObjectReader& w, WorkloadConfig& wc, std::size_t index, uint32_t hosts)
{
    w.Allow({"algorithm",
             "root",
             "ranks",
             "bytes",
             "messages",
             "receivers_per_message",
             "window",
             "start_us"});
    w.RejectUnknown("for type 'broadcast'");
    wc.label = w.String("label", wc.type + "-" + std::to_string(index));
    wc.algorithm
        = w.Choice("algorithm", kBroadcastAlgorithms, {"multicast"}, std::string("multicast"));
    const std::string hostRange
        = "a host index; the topology has " + std::to_string(hosts) + " hosts";
    wc.root = w.Uint("root", 0, hosts - 1, 0, hostRange);
    const json* ranks = w.Array("ranks", false, "an array of distinct host indices");
    std::vector<bool> seen(hosts, false);
    if (ranks)
    {
        for (std::size_t i = 0; i < ranks->size(); ++i)
        {
            const json& v = (*ranks)[i];
            std::string path = IndexPath(w.PathOf("ranks"), i);
            if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= hosts)
            {
                throw ScenarioError(w.File(), path, "must be " + hostRange + ", got " + v.dump());
            }
            uint32_t h = v.get<uint32_t>();
            if (seen[h])
            {
                throw ScenarioError(
                    w.File(), path, "host " + std::to_string(h) + " is listed twice");
            }
            seen[h] = true;
            wc.ranks.push_back(h);
        }
    }
    else
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            wc.ranks.push_back(h);
            seen[h] = true;
        }
    }
    if (!seen[wc.root])
    {
        w.Fail("root", "must be one of ranks; host " + std::to_string(wc.root) + " is not");
    }
    uint32_t receivers = wc.ranks.size() - 1;
    if (receivers == 0)
    {
        w.Fail("ranks", "needs at least one rank besides the root");
    }
    wc.bytes = w.Uint("bytes", 1, kUintMax);
    wc.messages = w.Uint("messages", 1, 100000000, 1);
    wc.receiversPerMessage = w.Uint("receivers_per_message",
                                    0,
                                    receivers,
                                    0,
                                    "0 = every rank but the root; at most the "
                                        + std::to_string(receivers) + " other ranks");
    wc.window = w.Uint("window", 1, 65536, 1);
    wc.startUs = w.Number("start_us", AtLeast(0), 0.0);
}

WorkloadConfig
ReadWorkload(ObjectReader w, std::size_t index, uint32_t hosts)
{
    WorkloadConfig wc;
    w.Allow({"type", "label"});
    wc.type = w.Choice("type", kWorkloadTypes, {"flows", "broadcast"}, std::nullopt);
    if (wc.type == "broadcast")
    {
        ReadBroadcast(w, wc, index, hosts);
        return wc;
    }
    w.Allow({"op", "pattern"});
    wc.pattern = w.Choice("pattern", kFlowPatterns, kFlowPatterns, std::nullopt);
    if (wc.pattern == "list")
    {
        w.Allow({"flows"});
    }
    else if (wc.pattern == "permutation")
    {
        w.Allow({"bytes", "start_us"});
    }
    else
    {
        w.Allow({"senders", "receiver", "bytes", "start_us"});
    }
    w.RejectUnknown("for pattern " + Quote(wc.pattern));
    wc.label = w.String("label", wc.type + "-" + std::to_string(index));
    wc.op = w.Choice("op", kOps, kOps, std::string("write"));
    if (hosts < 2)
    {
        w.Fail("pattern",
               "pattern " + Quote(wc.pattern) + " needs at least 2 hosts; the topology has "
                   + std::to_string(hosts));
    }
    if (wc.pattern == "list")
    {
        ReadFlowList(w, wc, hosts);
        return wc;
    }
    if (wc.pattern == "incast")
    {
        wc.senders = w.Uint("senders",
                            1,
                            hosts - 1,
                            std::nullopt,
                            "hosts other than the receiver; the topology has "
                                + std::to_string(hosts) + " hosts");
        wc.receiver = w.Uint("receiver",
                             0,
                             hosts - 1,
                             std::nullopt,
                             "a host index; the topology has " + std::to_string(hosts) + " hosts");
    }
    wc.bytes = w.Uint("bytes", 1, kUintMax);
    wc.startUs = w.Number("start_us", AtLeast(0), 0.0);
    return wc;
}

std::string
DefaultName(const std::string& file)
{
    const std::string stem = std::filesystem::path(file).stem().string();
    return stem.empty() ? std::string("scenario") : stem;
}

/*
 * nlohmann::json keeps the last of duplicate keys without a word; a scenario with two "seed"
 * keys is almost certainly a mistake, so the parse callback tracks the path and rejects them.
 */
json
ParseDocument(const std::string& text, const std::string& file)
{
    struct Frame
    {
        bool isArray{false};
        std::size_t count{0}; // elements seen so far (arrays)
        std::string key;      // current key (objects)
        std::set<std::string> keys;
    };

    std::vector<Frame> stack;
    auto currentPath = [&stack]()
    {
        std::string path = kRoot;
        for (const Frame& f : stack)
        {
            path = f.isArray ? IndexPath(path, f.count - 1) : KeyPath(path, f.key);
        }
        return path;
    };
    auto enterValue = [&stack]()
    {
        if (!stack.empty() && stack.back().isArray)
        {
            ++stack.back().count;
        }
    };
    json::parser_callback_t callback = [&](int depth, json::parse_event_t event, json& parsed)
    {
        switch (event)
        {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                enterValue();
                stack.emplace_back();
                stack.back().isArray = event == json::parse_event_t::array_start;
                break;
            case json::parse_event_t::key:
            {
                Frame& f = stack.back();
                f.key = parsed.get<std::string>();
                if (!f.keys.insert(f.key).second)
                {
                    throw ScenarioError(file,
                                        currentPath(),
                                        "duplicate key " + Quote(f.key)
                                            + "; each key may appear only once in an object");
                }
                break;
            }
            case json::parse_event_t::value:
                enterValue();
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                stack.pop_back();
                break;
        }
        return true;
    };

    try
    {
        return json::parse(text, callback);
    }
    catch (const json::parse_error& e)
    {
        // Line and column of the byte where parsing stopped (both 1-based).
        const std::size_t stop = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const std::size_t line = 1 + std::count(text.begin(), text.begin() + stop, '\n');
        const std::size_t lastNewline = text.rfind('\n', stop == 0 ? 0 : stop - 1);
        const std::size_t column
            = (lastNewline == std::string::npos || stop == 0) ? stop + 1 : stop - lastNewline;
        std::string detail = e.what();
        const std::size_t at = detail.find("column ");
        const std::size_t colon = detail.find(": ", at == std::string::npos ? 0 : at);
        if (colon != std::string::npos)
        {
            detail = detail.substr(colon + 2);
        }
        throw ScenarioError(file,
                            kRoot,
                            "line " + std::to_string(line) + ", column " + std::to_string(column)
                                + ": " + detail);
    }
    catch (const json::exception& e)
    {
        std::string detail = e.what();
        const std::size_t bracket = detail.find("] ");
        if (bracket != std::string::npos)
        {
            detail = detail.substr(bracket + 2);
        }
        throw ScenarioError(file, kRoot, "invalid JSON: " + detail);
    }
}

/// One step of a --set path: an object key, or an explicit [index].
struct SetSegment
{
    std::string key;
    bool isIndex{false};
    std::size_t index{0};
};

std::vector<SetSegment>
ParseSetPath(const std::string& path)
{
    auto fail = [&path](const std::string& reason)
    {
        throw ScenarioError(kSetFile,
                            path,
                            reason
                                + "; expected PATH=VALUE, e.g. nic.mtu_bytes=2048 "
                                  "or workloads[0].bytes=4096");
    };
    std::vector<SetSegment> segments;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t dot = path.find('.', start);
        const std::string piece
            = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        const std::size_t bracket = piece.find('[');
        const std::string name = piece.substr(0, bracket);
        if (name.empty())
        {
            fail("empty key in path");
        }
        if (name.find(']') != std::string::npos)
        {
            fail("unmatched ']' in path");
        }
        segments.push_back(SetSegment{name, false, 0});
        std::size_t pos = bracket;
        while (pos != std::string::npos && pos < piece.size())
        {
            if (piece[pos] != '[')
            {
                fail("unexpected text after ']' in path");
            }
            const std::size_t close = piece.find(']', pos);
            if (close == std::string::npos)
            {
                fail("unclosed '[' in path");
            }
            const std::string digits = piece.substr(pos + 1, close - pos - 1);
            if (!AllDigits(digits) || digits.size() > 9)
            {
                fail("array index must be a non-negative integer, got [" + digits + "]");
            }
            segments.push_back(SetSegment{"", true, std::stoul(digits)});
            pos = close + 1;
        }
        if (dot == std::string::npos)
        {
            break;
        }
        start = dot + 1;
    }
    return segments;
}

} // namespace

std::string
Scenario::ApplySet(json& doc, const std::string& set)
{
    NS_LOG_FUNCTION(set);
    const std::size_t eq = set.find('=');
    if (eq == std::string::npos)
    {
        throw ScenarioError(
            kSetFile, set, "missing '='; expected PATH=VALUE, e.g. nic.mtu_bytes=2048");
    }
    const std::string path = set.substr(0, eq);
    const std::string text = set.substr(eq + 1);
    if (path.empty())
    {
        throw ScenarioError(kSetFile,
                            kRoot,
                            "empty path in " + Quote(set)
                                + "; expected PATH=VALUE, e.g. nic.mtu_bytes=2048");
    }
    const std::vector<SetSegment> segments = ParseSetPath(path);

    // JSON if it parses (numbers, booleans, arrays...), otherwise the text itself.
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded())
    {
        value = text;
    }

    json* node = &doc;
    std::string canonical = kRoot;
    for (std::size_t i = 0; i < segments.size(); ++i)
    {
        const SetSegment& seg = segments[i];
        const bool last = i + 1 == segments.size();
        const bool asIndex = seg.isIndex || (node->is_array() && AllDigits(seg.key));
        if (asIndex)
        {
            if (!node->is_array())
            {
                throw ScenarioError(kSetFile,
                                    path,
                                    "cannot index " + Quote(canonical) + ": it is "
                                        + TypeWithArticle(*node) + ", not an array");
            }
            if (!seg.isIndex && seg.key.size() > 9)
            {
                throw ScenarioError(kSetFile, path, "array index " + seg.key + " is too large");
            }
            const std::size_t index = seg.isIndex ? seg.index : std::stoul(seg.key);
            if (index >= node->size())
            {
                throw ScenarioError(kSetFile,
                                    path,
                                    "index " + std::to_string(index)
                                        + " is out of range: " + Quote(canonical) + " has "
                                        + std::to_string(node->size()) + " element(s)");
            }
            node = &(*node)[index];
            canonical = IndexPath(canonical, index);
            continue;
        }
        if (node->is_null())
        {
            *node = json::object();
        }
        if (!node->is_object())
        {
            throw ScenarioError(kSetFile,
                                path,
                                "cannot set key " + Quote(seg.key) + " inside " + Quote(canonical)
                                    + ": it is " + TypeWithArticle(*node) + ", not an object");
        }
        canonical = KeyPath(canonical, seg.key);
        if (!last && !node->contains(seg.key))
        {
            (*node)[seg.key] = json::object();
        }
        node = &(*node)[seg.key];
    }
    *node = value;
    return canonical;
}

ScenarioConfig
Scenario::Load(const std::string& file, const std::vector<std::string>& sets)
{
    NS_LOG_FUNCTION(file);
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
    {
        throw ScenarioError(file, kRoot, "cannot read the scenario: no such file");
    }
    if (std::filesystem::is_directory(file, ec))
    {
        throw ScenarioError(file, kRoot, "cannot read the scenario: it is a directory");
    }
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        throw ScenarioError(
            file, kRoot, std::string("cannot read the scenario: ") + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw ScenarioError(file, kRoot, "cannot read the scenario: read error");
    }
    return Parse(text.str(), file, sets);
}

ScenarioConfig
Scenario::Parse(const std::string& text,
                const std::string& fileLabel,
                const std::vector<std::string>& sets)
{
    NS_LOG_FUNCTION(fileLabel << sets.size());
    json doc = ParseDocument(text, fileLabel);
    std::vector<std::pair<std::string, std::string>> applied; // canonical path, argument
    for (const std::string& set : sets)
    {
        applied.emplace_back(ApplySet(doc, set), set);
    }
    try
    {
        ScenarioConfig c = Validate(doc, fileLabel);
        NS_LOG_INFO("scenario " << c.name << ": " << c.HostCount() << " hosts, "
                                << c.workloads.size() << " workload(s)");
        return c;
    }
    catch (const ScenarioError& e)
    {
        // Point at the override when the bad value came from the command line.
        for (auto it = applied.rbegin(); it != applied.rend(); ++it)
        {
            const std::string& p = it->first;
            const std::string& ep = e.GetPath();
            if (ep == p || ep.compare(0, p.size() + 1, p + ".") == 0
                || ep.compare(0, p.size() + 1, p + "[") == 0)
            {
                throw ScenarioError(
                    e.GetFile(), ep, e.GetReason() + " (set by --set " + it->second + ")");
            }
        }
        throw;
    }
}

ScenarioConfig
Scenario::Validate(const json& doc, const std::string& file)
{
    ScenarioConfig c;
    c.file = file;
    ObjectReader root(file, doc, kRoot);
    root.Allow({"name",
                "seed",
                "stop_time_ms",
                "topology",
                "nic",
                "switch",
                "load_balancing",
                "p2mp",
                "workloads",
                "stragglers",
                "output"});
    root.RejectUnknown();

    c.name = root.String("name", DefaultName(file));
    c.seed = root.Uint("seed", 0, kUintMax, 1);
    c.stopTimeMs = root.Number("stop_time_ms", Above(0), 100.0);
    ReadTopology(root.Object("topology", true), c.topology);
    ReadNic(root.Object("nic"), c.nic);
    ReadSwitch(root.Object("switch"), c.sw);

    ObjectReader lb = root.Object("load_balancing");
    lb.Allow({"mode"});
    lb.RejectUnknown();
    c.loadBalancing.mode = lb.Choice("mode", kLbModes, {"ecmp"}, std::string("ecmp"));

    ObjectReader p2mp = root.Object("p2mp");
    p2mp.Allow({"mechanism",
                "ack_aggregation",
                "ack_mode",
                "ack_every",
                "address_mapping",
                "bier",
                "xpu_list",
                "new_protocol"});
    p2mp.RejectUnknown();
    c.p2mp.mechanism = p2mp.Choice("mechanism", kMechanisms, kMechanisms, std::string("unicast"));
    // The new protocol aggregates at the source ToR by design; the others do not by default.
    const std::string aggDefault = c.p2mp.mechanism == "new-protocol" ? "source-tor" : "none";
    c.p2mp.ackAggregation
        = p2mp.Choice("ack_aggregation", kAckAggregation, kAckAggregation, aggDefault);
    if (c.p2mp.mechanism == "unicast" && c.p2mp.ackAggregation != "none")
    {
        p2mp.Fail("ack_aggregation",
                  "must be 'none' with mechanism 'unicast': every receiver has its own "
                  "queue pair, so there is nothing to aggregate");
    }
    c.p2mp.ackMode = p2mp.Choice("ack_mode", kAckModes, kAckModes, std::string("per-packet"));
    c.p2mp.ackEvery = p2mp.Uint("ack_every", 1, 65536, 8, "the N of ack_mode 'every-n'");
    c.p2mp.addressMapping = p2mp.Choice(
        "address_mapping", kAddressMappings, kAddressMappings, std::string("group-region"));
    if (c.p2mp.addressMapping == "per-receiver-list" && c.p2mp.mechanism != "new-protocol")
    {
        p2mp.Fail("address_mapping",
                  "'per-receiver-list' needs mechanism 'new-protocol' (its shim carries the "
                  "list; BIER has no field for it)");
    }
    ObjectReader bier = p2mp.Object("bier");
    bier.Allow({"bsl_bits"});
    bier.RejectUnknown();
    c.p2mp.bier.bslBits = bier.UintIn("bsl_bits", kBsls, 256);
    ObjectReader xpu = p2mp.Object("xpu_list");
    xpu.Allow({"lookup_ns_per_id"});
    xpu.RejectUnknown();
    c.p2mp.xpuList.lookupNsPerId = xpu.Number("lookup_ns_per_id", AtLeast(0), 0.0);
    ObjectReader np = p2mp.Object("new_protocol");
    np.Allow({"install_us", "table_entries", "on_table_full"});
    np.RejectUnknown();
    c.p2mp.newProtocol.installUs = np.Number("install_us", AtLeast(0), 10.0);
    c.p2mp.newProtocol.tableEntries = np.Uint("table_entries", 1, 16777216, 4096);
    c.p2mp.newProtocol.onTableFull
        = np.Choice("on_table_full", kTableFull, kTableFull, std::string("evict-lru"));

    const uint32_t hosts = c.HostCount();
    const std::string workloadsExpect = "a non-empty array of workload objects";
    const json* workloads = root.Array("workloads", true, workloadsExpect);
    if (workloads->empty())
    {
        root.Fail("workloads", "must be " + workloadsExpect + ", got []");
    }
    for (std::size_t i = 0; i < workloads->size(); ++i)
    {
        const std::string path = IndexPath(root.PathOf("workloads"), i);
        WorkloadConfig w = ReadWorkload(ObjectReader(file, (*workloads)[i], path), i, hosts);
        // Labels name workloads in ops.csv and summary.json, so they must tell them apart.
        for (std::size_t j = 0; j < c.workloads.size(); ++j)
        {
            if (c.workloads[j].label == w.label)
            {
                throw ScenarioError(file,
                                    KeyPath(path, "label"),
                                    "must be unique, but workloads[" + std::to_string(j)
                                        + "] is also labelled " + Quote(w.label));
            }
        }
        c.workloads.push_back(std::move(w));
    }

    const json* stragglers = root.Array("stragglers", false, "an array");
    if (stragglers && !stragglers->empty())
    {
        root.Fail("stragglers", "stragglers are not implemented yet; use [] or leave the key out");
    }

    ObjectReader output = root.Object("output");
    output.Allow({"dir", "pcap"});
    output.RejectUnknown();
    c.output.dir = output.String("dir", "results/" + c.name);
    c.output.pcap = output.Bool("pcap", false);
    return c;
}

nlohmann::json
Scenario::ToJson(const ScenarioConfig& c)
{
    json j;
    j["name"] = c.name;
    j["seed"] = c.seed;
    j["stop_time_ms"] = c.stopTimeMs;

    json topo;
    topo["kind"] = c.topology.kind;
    if (c.topology.kind == "fat-tree")
    {
        topo["k"] = c.topology.k;
    }
    else
    {
        topo["leaves"] = c.topology.leaves;
        topo["spines"] = c.topology.spines;
        topo["hosts_per_leaf"] = c.topology.hostsPerLeaf;
    }
    topo["host_link"]
        = {{"rate_gbps", c.topology.hostLink.rateGbps}, {"delay_us", c.topology.hostLink.delayUs}};
    topo["fabric_link"] = {{"rate_gbps", c.topology.fabricLink.rateGbps},
                           {"delay_us", c.topology.fabricLink.delayUs}};
    j["topology"] = topo;

    j["nic"] = {{"mtu_bytes", c.nic.mtuBytes},
                {"ack_every", c.nic.ackEvery},
                {"rto_us", c.nic.rtoUs},
                {"data_priority", c.nic.dataPriority},
                {"ctrl_priority", c.nic.ctrlPriority},
                {"dcqcn",
                 {{"enabled", c.nic.dcqcn.enabled},
                  {"preset", c.nic.dcqcn.preset},
                  {"cnp_interval_us", c.nic.dcqcn.cnpIntervalUs},
                  {"g", c.nic.dcqcn.g},
                  {"alpha_update_us", c.nic.dcqcn.alphaUpdateUs},
                  {"rate_increase_us", c.nic.dcqcn.rateIncreaseUs},
                  {"byte_counter_bytes", c.nic.dcqcn.byteCounterBytes},
                  {"fast_recovery_steps", c.nic.dcqcn.fastRecoverySteps},
                  {"rate_ai_mbps", c.nic.dcqcn.rateAiMbps},
                  {"rate_hai_mbps", c.nic.dcqcn.rateHaiMbps},
                  {"min_rate_mbps", c.nic.dcqcn.minRateMbps},
                  {"rate_on_first_cnp_mbps", c.nic.dcqcn.rateOnFirstCnpMbps},
                  {"initial_alpha", c.nic.dcqcn.initialAlpha},
                  {"clamp_target_rate", c.nic.dcqcn.clampTargetRate},
                  {"rate_trace", c.nic.dcqcn.rateTrace}}}};

    // Negative means "auto": sized per port when the fabric is built, so it has no JSON value.
    auto setIfGiven = [](json& obj, const char* key, double v)
    {
        if (v >= 0)
        {
            obj[key] = v;
        }
    };
    json pfc = {{"enabled", c.sw.pfc.enabled}};
    setIfGiven(pfc, "headroom_kb", c.sw.pfc.headroomKb);
    setIfGiven(pfc, "hysteresis_kb", c.sw.pfc.hysteresisKb);
    json ecn = {{"enabled", c.sw.ecn.enabled}, {"pmax", c.sw.ecn.pmax}};
    setIfGiven(ecn, "kmin_kb", c.sw.ecn.kminKb);
    setIfGiven(ecn, "kmax_kb", c.sw.ecn.kmaxKb);
    j["switch"] = {{"buffer_mb", c.sw.bufferMb},
                   {"latency_ns", c.sw.latencyNs},
                   {"reserve_kb", c.sw.reserveKb},
                   {"alpha", c.sw.alpha},
                   {"pfc", pfc},
                   {"ecn", ecn}};

    j["load_balancing"] = {{"mode", c.loadBalancing.mode}};
    j["p2mp"] = {{"mechanism", c.p2mp.mechanism},
                 {"ack_aggregation", c.p2mp.ackAggregation},
                 {"ack_mode", c.p2mp.ackMode},
                 {"ack_every", c.p2mp.ackEvery},
                 {"address_mapping", c.p2mp.addressMapping},
                 {"bier", {{"bsl_bits", c.p2mp.bier.bslBits}}},
                 {"xpu_list", {{"lookup_ns_per_id", c.p2mp.xpuList.lookupNsPerId}}},
                 {"new_protocol",
                  {{"install_us", c.p2mp.newProtocol.installUs},
                   {"table_entries", c.p2mp.newProtocol.tableEntries},
                   {"on_table_full", c.p2mp.newProtocol.onTableFull}}}};

    json workloads = json::array();
    for (const WorkloadConfig& w : c.workloads)
    {
        if (w.type == "broadcast")
        {
            workloads.push_back({{"type", w.type},
                                 {"label", w.label},
                                 {"algorithm", w.algorithm},
                                 {"root", w.root},
                                 {"ranks", w.ranks},
                                 {"bytes", w.bytes},
                                 {"messages", w.messages},
                                 {"receivers_per_message", w.receiversPerMessage},
                                 {"window", w.window},
                                 {"start_us", w.startUs}});
            continue;
        }
        json wj = {{"type", w.type}, {"label", w.label}, {"op", w.op}, {"pattern", w.pattern}};
        if (w.pattern == "list")
        {
            json flows = json::array();
            for (const FlowSpec& f : w.flows)
            {
                flows.push_back(
                    {{"src", f.src}, {"dst", f.dst}, {"bytes", f.bytes}, {"start_us", f.startUs}});
            }
            wj["flows"] = flows;
        }
        else
        {
            // permutation/incast: the runner may have expanded `flows`; the pattern is the
            // source of truth.
            if (w.pattern == "incast")
            {
                wj["senders"] = w.senders;
                wj["receiver"] = w.receiver;
            }
            wj["bytes"] = w.bytes;
            wj["start_us"] = w.startUs;
        }
        workloads.push_back(wj);
    }
    j["workloads"] = workloads;
    j["stragglers"] = json::array();
    j["output"] = {{"dir", c.output.dir}, {"pcap", c.output.pcap}};
    return j;
}

} // namespace ns3
