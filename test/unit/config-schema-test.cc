/*
 * ConfigSchema, on a small schema of its own (nothing of the scenario): every kind of check
 * against a message written out by hand, default filling, variants, cross-key rules, the issue
 * cap, presets, derived variables, the struct binding and the Markdown row of a key.
 */
#include "core/model/config-schema.h"

#include <gtest/gtest.h>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

using json = nlohmann::json;
using ns3::ConfigSchema;
using ns3::ConfigSchemaBounds;
using ns3::ConfigSchemaDerived;
using ns3::ConfigSchemaIssue;
using ns3::ConfigSchemaObject;
using ns3::ConfigSchemaResult;
using ns3::ConfigSchemaView;

struct Range
{
    double lo{-1}; // -1: auto
    double hi{-1};
};

struct Item
{
    std::string name;
    uint64_t weight{0};
};

struct Shape
{
    std::string kind;
    double radius{0};
    uint32_t side{0};
};

struct Doc
{
    uint64_t count{0};
    std::string mode;
    bool on{false};
    double ratio{0};
    uint64_t size{0};
    std::string label;
    std::string preset;
    double gain{0};
    Range range;
    Shape shape;
    std::vector<Item> items;
    std::vector<uint32_t> ids;
};

// Every kind of key once; "cells" derives a variable bounding ids.
ConfigSchema
TestSchema()
{
    ConfigSchema s("Test reference", "An intro.");
    ConfigSchemaObject& r = s.Root();
    r.BindStruct<Doc>();
    r.Section("Top");
    r.Integer("count", 1, 10).Default(3).Doc("how many").Bind(&Doc::count);
    r.Enum("mode", {"fast", "slow", "turbo"}, {"fast", "slow"})
        .Default("fast")
        .Doc("speed")
        .Bind(&Doc::mode);
    r.Boolean("on").Default(true).Doc("switch").Bind(&Doc::on);
    r.Number("ratio", ConfigSchemaBounds::Between(0, 1)).Default(0.5).Bind(&Doc::ratio);
    r.IntegerIn("size", {1, 2, 4}).Default(2).Unit("bytes").Bind(&Doc::size);
    r.String("label")
        .DefaultFrom(
            [](const ConfigSchemaView& v) -> std::optional<json>
            {
                // Keys that failed are absent: a computed default must not assume them.
                const json* count = v.Get("count");
                if (!count)
                {
                    return std::nullopt;
                }
                return "n" + std::to_string(count->get<uint64_t>());
            },
            "n<count>")
        .Bind(&Doc::label);
    r.Enum("preset", {"quiet", "loud"}).Default("quiet").Bind(&Doc::preset);
    r.Number("gain", ConfigSchemaBounds::Above(0)).Default(1.0).Unit("dB").Bind(&Doc::gain);
    r.Preset("preset", "loud", {{"gain", 10.0}}, "louder");

    ConfigSchemaObject& range = r.Object("range").Doc("an interval").Bind(&Doc::range).Fields();
    range.Number("lo", ConfigSchemaBounds::AtLeast(0)).Auto("sized later").Bind(&Range::lo, -1.0);
    range.Number("hi", ConfigSchemaBounds::AtLeast(0)).Auto("sized later").Bind(&Range::hi, -1.0);
    range.LessOrEqual("lo", "hi");

    ConfigSchemaObject& shape = r.Object("shape").Required().Bind(&Doc::shape).Fields();
    shape.Discriminator("kind", {"circle", "square", "triangle"}).Required().Bind(&Shape::kind);
    ConfigSchemaObject& circle = shape.Variant("circle", "round");
    circle.Number("radius", ConfigSchemaBounds::Above(0)).Required().Bind(&Shape::radius);
    circle.Derive(
        "cells",
        [](const ConfigSchemaView& v) -> std::optional<ConfigSchemaDerived>
        {
            const uint64_t n = static_cast<uint64_t>(v.Get("radius")->get<double>());
            return ConfigSchemaDerived{n, "cells = " + v.Path("radius")};
        },
        "floor(radius)");
    ConfigSchemaObject& square = shape.Variant("square");
    square.Integer("side", 1, 100).Required().Bind(&Shape::side);

    ConfigSchemaObject& item
        = r.ObjectArray("items").Default(json::array()).UniqueBy("name").Bind(&Doc::items).Fields();
    item.String("name").Required().Bind(&Item::name);
    item.Integer("weight").Default(1).Bind(&Item::weight);

    r.IntegerArray("ids", "cell indices")
        .Default(json::array())
        .MaxFromVariable("cells", -1)
        .Note("the shape has {cells} cells")
        .Distinct()
        .MaxItems(4, "at most four ids")
        .Bind(&Doc::ids);
    r.Different("count", "size", "they would alias");
    return s;
}

json
Circle()
{
    return json::parse(R"({"shape": {"kind": "circle", "radius": 4.5}})");
}

ConfigSchemaResult
Check(const json& doc)
{
    return TestSchema().Validate(doc);
}

// The one issue of a document; fails the test unless there is exactly one.
ConfigSchemaIssue
IssueOf(const json& doc)
{
    const ConfigSchemaResult r = Check(doc);
    EXPECT_EQ(r.issues.size(), 1u) << doc.dump();
    if (r.issues.size() != 1)
    {
        for (const auto& i : r.issues)
        {
            std::cerr << "  issue " << i.path << ": " << i.reason << "\n";
        }
    }
    return r.issues.empty() ? ConfigSchemaIssue{"(none)", "(none)"} : r.issues.front();
}

json
With(const std::string& pointer, const json& value)
{
    json j = Circle();
    j[json::json_pointer(pointer)] = value;
    return j;
}

// ---------------------------------------------------------------------------------------------

struct Expected
{
    std::string name;
    json doc;
    std::string path;
    std::string reason;
};

void
PrintTo(const Expected& e, std::ostream* os)
{
    *os << e.name;
}

class ConfigSchemaRejects : public ::testing::TestWithParam<Expected>
{
};

TEST_P(ConfigSchemaRejects, WithThisMessage)
{
    const ConfigSchemaIssue issue = IssueOf(GetParam().doc);
    EXPECT_EQ(issue.path, GetParam().path);
    EXPECT_EQ(issue.reason, GetParam().reason);
}

const std::vector<Expected> kTypeErrors{
    {"IntegerString",
     With("/count", "3"),
     "count",
     R"(must be an integer between 1 and 10, got "3")"},
    {"IntegerFraction",
     With("/count", 2.5),
     "count",
     "must be an integer between 1 and 10, got 2.5"},
    {"IntegerWithPoint",
     With("/count", 2.0),
     "count",
     "must be an integer between 1 and 10, got 2.0; write integers without a decimal point or "
     "exponent"},
    {"NumberString", With("/ratio", "1"), "ratio", R"(must be a number between 0 and 1, got "1")"},
    {"BooleanNumber", With("/on", 1), "on", "must be true or false, got 1"},
    {"StringEmpty", With("/label", ""), "label", R"(must be a non-empty string, got "")"},
    {"EnumNumber",
     With("/mode", 3),
     "mode",
     "must be a string, one of 'fast', 'slow', 'turbo', got 3"},
    {"ObjectNumber", With("/range", 5), "range", "must be an object, got 5"},
    {"ObjectArrayObject",
     With("/items", json::object()),
     "items",
     "must be an array of {name, weight} objects, got {}"},
    {"IntegerArrayElement",
     With("/ids", {0, "1"}),
     "ids[1]",
     R"(must be an integer between 0 and 3 (the shape has 4 cells), got "1")"},
    {"RootArray", json::array(), "", "must be an object, got []"},
};

const std::vector<Expected> kBounds{
    {"IntegerAbove", With("/count", 11), "count", "must be an integer between 1 and 10, got 11"},
    {"IntegerBelow", With("/count", 0), "count", "must be an integer between 1 and 10, got 0"},
    {"IntegerNegative", With("/count", -1), "count", "must be an integer between 1 and 10, got -1"},
    {"OpenBound", With("/gain", 0), "gain", "must be a number > 0, got 0"},
    {"ClosedBound", With("/ratio", 1.5), "ratio", "must be a number between 0 and 1, got 1.5"},
    {"NotInSet", With("/size", 3), "size", "must be an integer, one of 1, 2, 4, got 3"},
    {"VariableBound",
     With("/ids", {4}),
     "ids[0]",
     "must be an integer between 0 and 3 (the shape has 4 cells), got 4; cells = shape.radius"},
    {"Distinct", With("/ids", {1, 2, 1}), "ids[2]", "1 is listed twice (also ids[0])"},
    {"MaxItems", With("/ids", {0, 1, 2, 3, 0}), "ids", "at most four ids"},
    {"RequiredMissing", json::object(), "shape", "required key is missing; expected an object"},
};

const std::vector<Expected> kNames{
    {"EnumDidYouMean",
     With("/mode", "fsat"),
     "mode",
     R"(must be one of 'fast', 'slow', 'turbo', got "fsat" (did you mean 'fast'?))"},
    {"EnumSeparatorDidYouMean",
     With("/preset", "LOUD"),
     "preset",
     R"(must be one of 'quiet', 'loud', got "LOUD" (did you mean 'loud'?))"},
    {"EnumNoGuess",
     With("/mode", "xyzzy"),
     "mode",
     R"(must be one of 'fast', 'slow', 'turbo', got "xyzzy")"},
    {"EnumReserved",
     With("/mode", "turbo"),
     "mode",
     "'turbo' is not implemented yet; implemented: 'fast', 'slow'"},
    {"KeyDidYouMean",
     With("/cuont", 1),
     "cuont",
     "unknown key 'cuont' (did you mean 'count'?); known keys: count, mode, on, ratio, size, "
     "label, preset, gain, range, shape, items, ids"},
    {"NestedUnknownKey",
     With("/range/mid", 1),
     "range.mid",
     "unknown key 'mid'; known keys: lo, hi"},
};

const std::vector<Expected> kVariants{
    {"KeyOfOtherVariant",
     With("/shape/side", 3),
     "shape.side",
     "unknown key 'side' for kind 'circle': it applies only to kind 'square'; known keys: kind, "
     "radius"},
    {"UnknownKeyInVariant",
     With("/shape/radious", 3),
     "shape.radious",
     "unknown key 'radious' for kind 'circle' (did you mean 'radius'?); known keys: kind, "
     "radius"},
    {"VariantKeyMissing",
     With("/shape", {{"kind", "square"}}),
     "shape.side",
     "required key is missing; expected an integer between 1 and 100"},
    {"DiscriminatorMissing",
     With("/shape", {{"radius", 1}}),
     "shape.kind",
     "required key is missing; expected one of 'circle', 'square', 'triangle'"},
    {"DiscriminatorReserved",
     // Its keys cannot be judged: only the discriminator is reported.
     With("/shape", {{"kind", "triangle"}, {"corners", 3}}),
     "shape.kind",
     "'triangle' is not implemented yet; implemented: 'circle', 'square'"},
};

const std::vector<Expected> kRules{
    {"LessOrEqualNamesBoth",
     With("/range", {{"lo", 5}, {"hi", 2}}),
     "range.lo",
     "must be <= range.hi (2), got 5"},
    {"DifferentNamesBoth",
     With("/count", 2),
     "count",
     "must differ from size (2): they would alias"},
    {"UniqueNamesBoth",
     With("/items", {{{"name", "a"}}, {{"name", "b"}}, {{"name", "a"}}}),
     "items[2].name",
     "must be unique, but items[0].name is also 'a'"},
    {"ElementErrorPath",
     With("/items", {{{"name", "a"}}, {{"weight", 1}}}),
     "items[1].name",
     "required key is missing; expected a non-empty string"},
};

auto
NameOf(const ::testing::TestParamInfo<Expected>& info)
{
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(TypeErrors, ConfigSchemaRejects, ::testing::ValuesIn(kTypeErrors), NameOf);
INSTANTIATE_TEST_SUITE_P(Bounds, ConfigSchemaRejects, ::testing::ValuesIn(kBounds), NameOf);
INSTANTIATE_TEST_SUITE_P(Names, ConfigSchemaRejects, ::testing::ValuesIn(kNames), NameOf);
INSTANTIATE_TEST_SUITE_P(Variants, ConfigSchemaRejects, ::testing::ValuesIn(kVariants), NameOf);
INSTANTIATE_TEST_SUITE_P(Rules, ConfigSchemaRejects, ::testing::ValuesIn(kRules), NameOf);

// ---------------------------------------------------------------------------------------------

TEST(ConfigSchemaTest, FillsEveryDefault)
{
    const ConfigSchemaResult r = Check(Circle());
    ASSERT_TRUE(r.Ok()) << r.issues.front().reason;
    // Auto keys stay out; integers unsigned, numbers double; the computed label follows count.
    const json expected = json::parse(R"({
        "count": 3, "mode": "fast", "on": true, "ratio": 0.5, "size": 2, "label": "n3",
        "preset": "quiet", "gain": 1.0, "range": {}, "shape": {"kind": "circle", "radius": 4.5},
        "items": [], "ids": []})");
    EXPECT_EQ(r.value, expected);
    EXPECT_TRUE(r.value["count"].is_number_unsigned());
    EXPECT_TRUE(r.value["gain"].is_number_float());

    json in = Circle();
    in["count"] = 7;
    in["items"] = {{{"name", "x"}}};
    const ConfigSchemaResult r7 = Check(in);
    ASSERT_TRUE(r7.Ok());
    EXPECT_EQ(r7.value["label"], "n7");
    EXPECT_EQ(r7.value["items"], json::parse(R"([{"name": "x", "weight": 1}])"));
}

TEST(ConfigSchemaTest, PresetChangesDefaultsExplicitValuesWin)
{
    EXPECT_EQ(Check(With("/preset", "loud")).value["gain"], 10.0);
    json j = With("/preset", "loud");
    j["gain"] = 3;
    EXPECT_EQ(Check(j).value["gain"], 3.0);
    EXPECT_EQ(Check(Circle()).value["gain"], 1.0);
}

TEST(ConfigSchemaTest, CapsTheIssuesKeptAndCountsTheRest)
{
    json j = Circle();
    j["items"] = json::array();
    for (int i = 0; i < 25; ++i)
    {
        j["items"].push_back({{"weight", "heavy"}}); // two issues each: name, weight
    }
    const ConfigSchemaResult r = TestSchema().Validate(j);
    ASSERT_EQ(r.issues.size(), ConfigSchema::DEFAULT_MAX_ISSUES);
    EXPECT_EQ(r.omitted, 50u - 20u);
    EXPECT_EQ(r.issues[0].path, "items[0].name");
    EXPECT_EQ(r.issues[1].path, "items[0].weight");
    EXPECT_EQ(r.issues[19].path, "items[9].weight");

    const ConfigSchemaResult three = TestSchema().Validate(j, {}, 3);
    EXPECT_EQ(three.issues.size(), 3u);
    EXPECT_EQ(three.omitted, 47u);
}

TEST(ConfigSchemaTest, ReportsEveryProblemOnceInDocumentOrder)
{
    json j = With("/count", 0);
    j["mode"] = "slo";
    j["shape"]["radius"] = -1;
    const ConfigSchemaResult r = Check(j);
    ASSERT_EQ(r.issues.size(), 3u);
    EXPECT_EQ(r.issues[0].path, "count");
    EXPECT_EQ(r.issues[1].path, "mode");
    EXPECT_EQ(r.issues[2].path, "shape.radius");
    // count failed: the rule over count and size, and label's default (from count), stay quiet.
}

TEST(ConfigSchemaTest, NoVariableNoBound)
{
    // A square derives no cell count: ids are only checked as integers.
    json j = With("/shape", {{"kind", "square"}, {"side", 2}});
    j["ids"] = {99};
    EXPECT_TRUE(Check(j).Ok());
    // A variable may also be given by the caller.
    const ConfigSchemaResult r = TestSchema().Validate(j, {{"cells", {json(50), "given"}}});
    ASSERT_EQ(r.issues.size(), 1u);
    EXPECT_EQ(r.issues[0].reason,
              "must be an integer between 0 and 49 (the shape has 50 cells), got 99; given");
}

TEST(ConfigSchemaTest, AllOrCountAndLengthMessages)
{
    // The array checks not in the table above: "all" or a count, and a least length.
    ConfigSchema s("t", "");
    s.Root()
        .IntegerArray("hosts", "host indices")
        .MaxFromVariable("n", -1)
        .MinItems(2)
        .AllOrCount();
    auto check = [&s](const json& hosts)
    {
        return s.Validate(json{{"hosts", hosts}}, {{"n", {json(4), "n = given"}}});
    };
    ConfigSchemaResult r = check("all");
    ASSERT_TRUE(r.Ok());
    EXPECT_EQ(r.value["hosts"], json({0, 1, 2, 3}));
    r = check(3);
    ASSERT_TRUE(r.Ok());
    EXPECT_EQ(r.value["hosts"], json({0, 1, 2}));
    auto reason = [&](const json& hosts)
    {
        const ConfigSchemaResult bad = check(hosts);
        return bad.issues.empty() ? std::string()
                                  : bad.issues[0].path + ": " + bad.issues[0].reason;
    };
    EXPECT_EQ(reason("some"),
              R"(hosts: must be "all", a count or an array of host indices, got "some")");
    EXPECT_EQ(reason(5), "hosts: a count must be 2 .. 4, got 5");
    EXPECT_EQ(reason(1), "hosts: a count must be 2 .. 4, got 1");
    EXPECT_EQ(reason(json({1})), "hosts: must have at least 2 elements, got 1");
    EXPECT_EQ(reason(json({1, 4})),
              "hosts[1]: must be an integer between 0 and 3, got 4; n = given");
}

TEST(ConfigSchemaTest, AnUnvalidatedSpecTakesItsPresetsValues)
{
    // A spec built in code is never validated: an absent key read, applied or written takes
    // the value validation would give it, its preset's where the selector names one (as
    // kv-cache-fanout's `model` does `layers`).
    struct Shape
    {
        std::string model;
        uint64_t layers{0};
        uint64_t heads{0};
    };
    auto declare = [](ConfigSchemaObject& o)
    {
        o.BindStruct<Shape>();
        o.Enum("model", {"small", "large"}).Default("small").Bind(&Shape::model);
        o.Integer("layers", 1, 1000).Default(32).Bind(&Shape::layers);
        o.Integer("heads", 1, 1000).Default(8).Bind(&Shape::heads);
        o.Preset("model", "large", {{"layers", 80}}, "the large shape");
    };
    ConfigSchemaObject keys;
    declare(keys);
    Shape read;
    keys.ReadBound(json{{"model", "large"}}, &read, typeid(Shape));
    EXPECT_EQ(read.layers, 80u) << "the preset's, not the declared default";
    EXPECT_EQ(read.heads, 8u);
    Shape given;
    keys.ReadBound(json{{"model", "large"}, {"layers", 40}}, &given, typeid(Shape));
    EXPECT_EQ(given.layers, 40u) << "a key given wins";
    // The same through Read of a whole struct, and what validation fills.
    ConfigSchema s("t", "");
    declare(s.Root());
    Shape whole;
    s.Read(json{{"model", "large"}}, whole);
    EXPECT_EQ(whole.layers, 80u);
    const ConfigSchemaResult r = s.Validate(json{{"model", "large"}});
    ASSERT_TRUE(r.Ok());
    EXPECT_EQ(r.value["layers"], 80);
}

TEST(ConfigSchemaTest, APresetChangedInCodeAfterReadingIsRefused)
{
    // The kept JSON holds the values a preset filled into keys the struct does not hold; a
    // struct naming another preset would run them under the other preset's name.
    struct Cc
    {
        std::string preset{"a"};
        uint64_t mode{0}; // bound: follows the struct, whatever the preset
        json spec;
    };
    ConfigSchema s("t", "");
    s.Root().BindStruct<Cc>();
    s.Root().BindJson(&Cc::spec);
    s.Root().Enum("preset", {"a", "b"}).Default("a").Bind(&Cc::preset);
    s.Root().Integer("gain", 0, 100).Default(1);
    s.Root().Integer("mode", 0, 9).Default(0).Bind(&Cc::mode);
    s.Root().Preset("preset", "b", {{"gain", 50}}, "b's gain");
    const ConfigSchemaResult r = s.Validate(json::object());
    ASSERT_TRUE(r.Ok());
    Cc c;
    s.Read(r.value, c);
    EXPECT_EQ(s.Write(c)["gain"], 1);
    c.preset = "b";
    EXPECT_THROW(s.Write(c), std::logic_error) << "gain would stay a's under b's name";
    Cc built; // built in code: nothing kept, so the preset's values are written
    built.preset = "b";
    EXPECT_EQ(s.Write(built)["gain"], 50);
    built.spec = {{"preset", "a"}}; // a preset in the kept JSON under a bound selector
    EXPECT_THROW(s.Write(built), std::logic_error);

    // A selector whose presets fill only keys the struct holds may change freely (the
    // p2mp mechanism's ack_aggregation).
    ConfigSchema m("t", "");
    m.Root().BindStruct<Cc>();
    m.Root().BindJson(&Cc::spec);
    m.Root().Enum("preset", {"a", "b"}).Default("a").Bind(&Cc::preset);
    m.Root().Integer("mode", 0, 9).Default(0).Bind(&Cc::mode);
    m.Root().Preset("preset", "b", {{"mode", 5}}, "b's mode");
    Cc p;
    m.Read(m.Validate(json::object()).value, p);
    p.preset = "b";
    EXPECT_NO_THROW(m.Write(p));
}

TEST(ConfigSchemaTest, AVariantWithAStructOfItsOwn)
{
    // An entry's common keys bind to Item; the "own" variant's keys to a struct of its own,
    // as a workload type's do (SchemaTypeRegistry::Keys, Workload::ReadKeys).
    struct Own
    {
        uint64_t size{0};
        uint64_t extra{7}; // an initialiser unlike the declared default
    };
    struct Entry
    {
        std::string name;
        uint64_t weight{0};
        json spec;
    };
    auto declareOwn = [](ConfigSchemaObject& v)
    {
        v.BindStruct<Own>();
        v.Integer("size", 1, 100).Required().Bind(&Own::size);
        v.Integer("extra", 0, 100).Default(3).Bind(&Own::extra);
        v.Integer("weight").Default(1).Bind(&Entry::weight); // the enclosing struct's
    };
    ConfigSchema s("t", "");
    s.Root().BindStruct<Entry>();
    s.Root().BindJson(&Entry::spec);
    s.Root().Discriminator("name").Required().Bind(&Entry::name);
    declareOwn(s.Root().Variant("own"));

    const ConfigSchemaResult r
        = s.Validate(json::parse(R"({"name": "own", "size": 5, "weight": 2})"));
    ASSERT_TRUE(r.Ok());
    Entry e;
    s.Read(r.value, e); // the variant's own keys are not read into Entry, and do not throw
    EXPECT_EQ(e.weight, 2u);
    EXPECT_EQ(e.spec["size"], 5);

    ConfigSchemaObject keys; // the type's keys on their own
    declareOwn(keys);
    Own own;
    keys.ReadBound(e.spec, &own, typeid(Own));
    EXPECT_EQ(own.size, 5u);
    EXPECT_EQ(own.extra, 3u); // filled by validation
    Own unvalidated;
    keys.ReadBound(json{{"size", 9}}, &unvalidated, typeid(Own));
    EXPECT_EQ(unvalidated.extra, 3u) << "an absent key takes its default, not the initialiser";

    // Written back, the variant's keys come from the kept JSON, the common ones from Entry.
    e.weight = 4;
    const json written = s.Write(e);
    EXPECT_EQ(written["size"], 5);
    EXPECT_EQ(written["weight"], 4);

    // Without BindStruct on the variant, its keys would be read into Entry: a declaration bug.
    ConfigSchema bad("t", "");
    bad.Root().BindStruct<Entry>();
    bad.Root().Discriminator("name").Required().Bind(&Entry::name);
    bad.Root().Variant("own").Integer("size", 1, 100).Required().Bind(&Own::size);
    Entry b;
    EXPECT_THROW(bad.Read(json::parse(R"({"name": "own", "size": 5})"), b), std::logic_error);
}

TEST(ConfigSchemaTest, AnAutoMemberWritesTheKeptValue)
{
    struct Kept
    {
        int32_t priority{-1}; // -1: not given
        json spec;
    };
    ConfigSchema s("t", "");
    s.Root().BindStruct<Kept>();
    s.Root().BindJson(&Kept::spec);
    s.Root().Integer("priority", 0, 7).Bind(&Kept::priority, int32_t{-1});
    Kept k;
    EXPECT_FALSE(s.Write(k).contains("priority")) << "auto and nothing kept: omitted";
    k.spec = {{"priority", 3}};
    EXPECT_EQ(s.Write(k)["priority"], 3) << "a value kept in the JSON is not dropped";
    k.priority = 5;
    EXPECT_EQ(s.Write(k)["priority"], 5) << "the member wins once set";
}

TEST(ConfigSchemaTest, ReadAndWriteThroughTheBinding)
{
    const ConfigSchema s = TestSchema();
    json in = Circle();
    in["items"] = {{{"name", "a"}, {"weight", 5}}, {{"name", "b"}}};
    in["ids"] = {3, 1};
    in["range"] = {{"hi", 7}};
    const ConfigSchemaResult r = s.Validate(in);
    ASSERT_TRUE(r.Ok());
    Doc d;
    s.Read(r.value, d);
    EXPECT_EQ(d.count, 3u);
    EXPECT_EQ(d.mode, "fast");
    EXPECT_EQ(d.label, "n3");
    EXPECT_EQ(d.shape.kind, "circle");
    EXPECT_EQ(d.shape.radius, 4.5);
    EXPECT_EQ(d.shape.side, 0u); // another variant's key: untouched
    ASSERT_EQ(d.items.size(), 2u);
    EXPECT_EQ(d.items[0].weight, 5u);
    EXPECT_EQ(d.items[1].name, "b");
    EXPECT_EQ(d.items[1].weight, 1u);
    EXPECT_EQ(d.ids, (std::vector<uint32_t>{3, 1}));
    EXPECT_EQ(d.range.lo, -1.0); // auto
    EXPECT_EQ(d.range.hi, 7.0);

    EXPECT_EQ(s.Write(d), r.value); // the auto lo is left out again

    d.shape.kind = "square";
    d.shape.side = 9;
    const json out = s.Write(d);
    EXPECT_EQ(out["shape"], json::parse(R"({"kind": "square", "side": 9})"));
    EXPECT_TRUE(s.Validate(out).Ok());
}

TEST(ConfigSchemaTest, BindingToAnotherStructIsCaught)
{
    const ConfigSchema s = TestSchema();
    Range wrong;
    EXPECT_THROW(s.Read(json::object(), wrong), std::logic_error);

    ConfigSchema bad("t", "");
    bad.Root().BindStruct<Doc>();
    bad.Root().Integer("x").Default(1).Bind(&Item::weight); // a member of Item, not of Doc
    Doc d;
    EXPECT_THROW(bad.Read(json::parse(R"({"x": 1})"), d), std::logic_error);
}

TEST(ConfigSchemaTest, DeclarationMistakesAreCaught)
{
    ConfigSchema s("t", "");
    s.Root().Integer("x");
    EXPECT_THROW(s.Root().Boolean("x"), std::logic_error);
    EXPECT_THROW(s.Root().Variant("v"), std::logic_error); // no discriminator
    ConfigSchemaObject& o = s.Root().Object("o").Fields();
    o.Discriminator("kind");
    o.Variant("a").Integer("y");
    EXPECT_THROW(o.Variant("a"), std::logic_error);
    EXPECT_THROW(o.FindVariant("a")->Integer("kind"), std::logic_error); // shadows its parent's

    ConfigSchema d("t", "");
    d.Root().Integer("x", 1, 5).Default(9); // the default breaks the key's own range
    EXPECT_THROW(d.Validate(json::object()), std::logic_error);
}

TEST(ConfigSchemaTest, MarkdownRowOfAKey)
{
    const std::string md = TestSchema().Markdown();
    EXPECT_EQ(md.rfind("# Test reference\n\nAn intro.\n", 0), 0u);
    EXPECT_NE(md.find("\n## Top\n"), std::string::npos);
    EXPECT_NE(
        md.find("| key | type | allowed | default | unit | meaning |\n|---|---|---|---|---|---|\n"),
        std::string::npos);
    EXPECT_NE(md.find("| `count` | integer | 1 .. 10 | `3` | – | how many |\n"), std::string::npos);
    EXPECT_NE(md.find("| `mode` | enum | `\"fast\"`, `\"slow\"`, reserved, not implemented yet: "
                      "`\"turbo\"` | `\"fast\"` | – | speed |\n"),
              std::string::npos);
    EXPECT_NE(md.find("| `gain` | number | > 0 | `1.0`; `preset` `\"loud\"`: `10.0` | dB | – |\n"),
              std::string::npos);
    EXPECT_NE(md.find("| `range.lo` | number | >= 0 | auto: sized later | – | – |\n"),
              std::string::npos);
    EXPECT_NE(md.find("| `ids` | array of integers | elements 0 .. cells - 1, at most 4 "
                      "element(s), distinct | `[]` | – | – |\n"),
              std::string::npos);
    EXPECT_NE(md.find("### `shape.kind` = `\"circle\"`\n\nround\n"), std::string::npos);
    EXPECT_NE(md.find("| `shape.radius` | number | > 0 | **required** | – | – |\n"),
              std::string::npos);
    EXPECT_NE(md.find("- Rule (`range.lo`, `range.hi`): `lo` <= `hi` when both are given\n"),
              std::string::npos);
    EXPECT_NE(md.find("- Derived value `cells`: floor(radius)\n"), std::string::npos);
    EXPECT_NE(md.find("| `label` | string | non-empty | n<count> | – | – |\n"), std::string::npos);
}

TEST(ConfigSchemaTest, SuggestRanksSpellingsTruncationsAndTypos)
{
    const std::vector<std::string> mechanisms{"unicast", "bier", "bier-xpu-list", "new-protocol"};
    EXPECT_EQ(ConfigSchema::Suggest("bier-xpu", mechanisms), "bier-xpu-list");
    EXPECT_EQ(ConfigSchema::Suggest("unicats", mechanisms), "unicast");
    EXPECT_EQ(ConfigSchema::Suggest("New_Protocol", mechanisms), "new-protocol");
    EXPECT_EQ(ConfigSchema::Suggest("multicast", mechanisms), "");
    EXPECT_EQ(ConfigSchema::Suggest("source_tor", {"none", "source-tor"}), "source-tor");
    EXPECT_EQ(ConfigSchema::Suggest("seeds", {"name", "seed"}), "seed");
    EXPECT_EQ(ConfigSchema::Suggest(std::string(10000, 'a'), {"a"}), "");
    EXPECT_EQ(ConfigSchema::Distance("kitten", "sitting"), 3u);
}

TEST(ConfigSchemaTest, ShownValuesStayShort)
{
    json deep = json::array();
    json* at = &deep;
    for (int i = 0; i < 10000; ++i)
    {
        at->push_back(json::array());
        at = &(*at)[0];
    }
    EXPECT_EQ(ConfigSchema::Shown(deep), "[[[[...]]]]");
    EXPECT_EQ(ConfigSchema::Shown(json(std::string(100, 'x'))).size(), 60u);
    EXPECT_EQ(ConfigSchema::Shown(json::parse(R"({"a": [1, 2]})")), R"({"a":[1,2]})");
    EXPECT_EQ(ConfigSchema::ValueText(json(0.25)), "0.25");
    EXPECT_EQ(ConfigSchema::ValueText(json("x")), "'x'");
    EXPECT_EQ(ConfigSchema::QuoteList({"a", "b", "c"}, "or"), "'a', 'b' or 'c'");
}

} // namespace

// A limit per unit bounds only what its key leaves unbounded, nested objects and variants too.
TEST(ConfigSchemaTest, UnitLimitBoundsWhatKeysLeaveOpen)
{
    ConfigSchema s("t", "");
    ConfigSchemaObject& root = s.Root();
    root.Number("open_us", ConfigSchemaBounds::AtLeast(0)).Unit("µs").Doc("d");
    root.Number("own_us", ConfigSchemaBounds::Between(0, 5)).Unit("µs").Doc("d");
    root.Integer("size", 1).Unit("bytes").Doc("d");
    root.Integer("count", 1).Doc("d");
    ConfigSchemaObject& inner = root.Object("inner").Doc("d").Fields();
    inner.Discriminator("kind").Default("a").Doc("d");
    inner.Variant("a").Number("wait_us", ConfigSchemaBounds::Above(0)).Default(1.0).Unit("µs");
    root.LimitUnit("µs", 1e9, "the horizon");
    root.LimitUnit("bytes", 2147483648.9, "one message");

    auto reason = [&s](const json& doc)
    {
        const ConfigSchemaResult r = s.Validate(doc);
        return r.Ok() ? std::string() : r.issues.front().path + ": " + r.issues.front().reason;
    };
    EXPECT_EQ(reason({{"open_us", 1e9}, {"size", 2147483648u}, {"count", uint64_t{1} << 60}}), "");
    EXPECT_EQ(reason({{"open_us", 1.5e9}}),
              "open_us: must be a number between 0 and 1000000000 (the horizon), got 1500000000.0");
    EXPECT_EQ(reason({{"own_us", 6}}), "own_us: must be a number between 0 and 5, got 6");
    EXPECT_EQ(reason({{"size", 2147483649u}}),
              "size: must be an integer between 1 and 2147483648 (one message), got 2147483649");
    EXPECT_EQ(reason({{"inner", {{"wait_us", 2e9}}}}),
              "inner.wait_us: must be a number > 0 and <= 1000000000 (the horizon), got "
              "2000000000.0");
}
