/*
 * A schema key that names an attribute: its value becomes the attribute's value by the key's
 * unit, a key without a default of its own takes the attribute's initial value, and an
 * object hands every present key's attribute to its setter, skipping absent "auto" keys.
 */
#include "core/model/config-schema-attribute.h"
#include "core/model/config-schema-object.h"
#include "core/model/ns3-compat.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>

namespace
{

using namespace ns3;
using json = nlohmann::json;

/// One attribute of each kind a key converts to.
class AttributeTestModel : public Object
{
public:
    enum Mode
    {
        FIRST,
        SECOND
    };

    static TypeId GetTypeId()
    {
        static TypeId tid
            = TypeId("ns3::AttributeTestModel")
                  .SetParent<Object>()
                  .SetGroupName("Mcast4aiTest")
                  .AddConstructor<AttributeTestModel>()
                  .AddAttribute("Delay",
                                "a time",
                                TimeValue(MicroSeconds(7)),
                                MakeTimeAccessor(&AttributeTestModel::m_delay),
                                MakeTimeChecker())
                  .AddAttribute("Rate",
                                "a rate",
                                DataRateValue(DataRate("40Mbps")),
                                MakeDataRateAccessor(&AttributeTestModel::m_rate),
                                MakeDataRateChecker())
                  .AddAttribute("Bytes",
                                "a byte count",
                                UintegerValue(8192),
                                MakeUintegerAccessor(&AttributeTestModel::m_bytes),
                                MakeUintegerChecker<uint64_t>())
                  .AddAttribute("Gain",
                                "a double",
                                DoubleValue(0.25),
                                MakeDoubleAccessor(&AttributeTestModel::m_gain),
                                MakeDoubleChecker<double>())
                  .AddAttribute("On",
                                "a boolean",
                                BooleanValue(true),
                                MakeBooleanAccessor(&AttributeTestModel::m_on),
                                MakeBooleanChecker())
                  .AddAttribute("Mode",
                                "an enum",
                                EnumValue(SECOND),
                                MakeEnumAccessorFor<Mode>(&AttributeTestModel::m_mode),
                                MakeEnumChecker(FIRST, "first", SECOND, "second"))
                  .AddAttribute("List",
                                "a list",
                                StringValue("1,2,3"),
                                MakeStringAccessor(&AttributeTestModel::m_list),
                                MakeStringChecker());
        return tid;
    }

    Time m_delay;
    DataRate m_rate;
    uint64_t m_bytes{0};
    double m_gain{0};
    bool m_on{false};
    Mode m_mode{FIRST};
    std::string m_list;
};

/// Declares one key per attribute, none with a default of its own.
void
Declare(ConfigSchemaObject& o)
{
    o.Model(AttributeTestModel::GetTypeId());
    o.Number("delay_us").Unit("µs").Attribute("Delay");
    o.Number("rate_gbps").Unit("Gb/s").Attribute("Rate");
    o.Number("bytes_kb").Unit("KB").Attribute("Bytes");
    o.Number("gain").Attribute("Gain");
    o.Boolean("on").Attribute("On");
    o.Enum("mode", {"first", "second"}).Attribute("Mode");
    o.IntegerArray("list", "items").Attribute("List");
    o.Number("auto_us").Auto("the attribute's own").Unit("µs").Attribute("Delay");
}

TEST(ConfigSchemaAttribute, DefaultsAreTheAttributesInitialValues)
{
    ConfigSchemaObject o;
    Declare(o);
    EXPECT_EQ(*o.FindKey("delay_us")->GetDefault(), json(7.0));
    EXPECT_EQ(*o.FindKey("rate_gbps")->GetDefault(), json(0.04));
    EXPECT_EQ(*o.FindKey("bytes_kb")->GetDefault(), json(8.0));
    EXPECT_EQ(*o.FindKey("gain")->GetDefault(), json(0.25));
    EXPECT_EQ(*o.FindKey("on")->GetDefault(), json(true));
    EXPECT_EQ(*o.FindKey("mode")->GetDefault(), json("second"));
    EXPECT_EQ(*o.FindKey("list")->GetDefault(), json::array({1, 2, 3}));
    EXPECT_EQ(o.FindKey("auto_us")->GetDefault(), nullptr) << "an auto key has no default";
}

TEST(ConfigSchemaAttribute, ValuesAreConvertedByUnitAndSetOnTheModel)
{
    ConfigSchemaObject o;
    Declare(o);
    json filled = {{"delay_us", 2.5},
                   {"rate_gbps", 25.0},
                   {"bytes_kb", 1.5},
                   {"gain", 0.5},
                   {"on", false},
                   {"mode", "first"},
                   {"list", {4, 0, 9}}};
    ObjectFactory factory;
    factory.SetTypeId(AttributeTestModel::GetTypeId());
    std::map<std::string, int> set;
    o.ApplyAttributes(filled,
                      [&](TypeId owner, const std::string& name, const AttributeValue& value)
                      {
                          EXPECT_EQ(owner, AttributeTestModel::GetTypeId());
                          ++set[name];
                          factory.Set(name, value);
                      });
    EXPECT_EQ(set.size(), 7u) << "auto_us is absent, so Delay is set once";
    EXPECT_EQ(set["Delay"], 1);
    Ptr<AttributeTestModel> m = factory.Create<AttributeTestModel>();
    EXPECT_EQ(m->m_delay, NanoSeconds(2500));
    EXPECT_EQ(m->m_rate.GetBitRate(), 25000000000u);
    EXPECT_EQ(m->m_bytes, 1536u) << "KB are 1024 bytes";
    EXPECT_EQ(m->m_gain, 0.5);
    EXPECT_FALSE(m->m_on);
    EXPECT_EQ(m->m_mode, AttributeTestModel::FIRST) << "an enum attribute takes the name";
    EXPECT_EQ(m->m_list, "4,0,9");
}

TEST(ConfigSchemaAttribute, ADoubleAttributeTakesTheNumberInTheKeysUnit)
{
    // A duration a model keeps as a double in µs takes the key's number as is (a Time would
    // round it to the clock's tick); a count rate in millions is scaled to per second.
    ConfigSchemaObject o;
    o.Model(AttributeTestModel::GetTypeId());
    o.Number("extra_us").Unit("µs").Attribute("Gain");
    o.Number("rate_mpps").Unit("Mpps").Attribute("Gain");
    EXPECT_EQ(*o.FindKey("extra_us")->GetDefault(), json(0.25));
    EXPECT_EQ(*o.FindKey("rate_mpps")->GetDefault(), json(0.25e-6));
    auto gain = [&o](const std::string& key, double x)
    {
        ObjectFactory factory;
        factory.SetTypeId(AttributeTestModel::GetTypeId());
        o.ApplyAttributes({{key, x}},
                          [&](TypeId, const std::string& name, const AttributeValue& value)
                          {
                              factory.Set(name, value);
                          });
        return factory.Create<AttributeTestModel>()->m_gain;
    };
    EXPECT_EQ(gain("extra_us", 12.3456789), 12.3456789);
    EXPECT_EQ(gain("rate_mpps", 215.5), 215.5e6);
}

TEST(ConfigSchemaAttribute, AnotherTypesAttributeNamesItsOwner)
{
    ConfigSchemaObject o;
    o.Boolean("flag").Default(false).Attribute(AttributeTestModel::GetTypeId(), "On");
    EXPECT_EQ(o.FindKey("flag")->GetAttributeOwner(), AttributeTestModel::GetTypeId());
    EXPECT_EQ(*o.FindKey("flag")->GetDefault(), json(false)) << "its own default wins";
    EXPECT_TRUE(ConfigSchemaAttribute::IsOf(AttributeTestModel::GetTypeId(), Object::GetTypeId()));
    EXPECT_FALSE(ConfigSchemaAttribute::IsOf(Object::GetTypeId(), AttributeTestModel::GetTypeId()));
}

} // namespace
