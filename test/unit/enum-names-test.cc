/*
 * MCAST4AI_ENUM_NAMES: an enum's names declared once convert both ways and through JSON, and a
 * schema key bound to the enum (or marked NamesOf) refuses, when the schema is built, a name
 * the enum does not have, so the scenario and the code cannot drift apart.
 */
#include "core/model/config-schema-object.h"
#include "core/model/enum-names.h"

#include <gtest/gtest.h>
#include <stdexcept>

namespace
{

enum class Shape : uint8_t
{
    CIRCLE,
    SQUARE
};

MCAST4AI_ENUM_NAMES(Shape, {{Shape::CIRCLE, "circle"}, {Shape::SQUARE, "square"}});

struct Drawing
{
    Shape shape{Shape::CIRCLE};
};

TEST(EnumNames, ConvertBothWaysAndThroughJson)
{
    EXPECT_EQ(ns3::EnumName(Shape::SQUARE), "square");
    EXPECT_EQ(ns3::EnumFromName<Shape>("circle"), Shape::CIRCLE);
    EXPECT_EQ(ns3::EnumNameList<Shape>(), (std::vector<std::string>{"circle", "square"}));
    EXPECT_EQ(nlohmann::json(Shape::SQUARE), nlohmann::json("square"));
    EXPECT_EQ(nlohmann::json("circle").get<Shape>(), Shape::CIRCLE);
    EXPECT_TRUE(ns3::HasEnumNames<Shape>::value);
    EXPECT_FALSE(ns3::HasEnumNames<int>::value);
}

TEST(EnumNames, KeyDeclaredFromTheEnumHasItsNames)
{
    ns3::ConfigSchemaObject o;
    ns3::ConfigSchemaKey& k = o.Enum<Shape>("shape").Bind(&Drawing::shape);
    EXPECT_EQ(k.GetImplemented(), (std::vector<std::string>{"circle", "square"}));
}

TEST(EnumNames, BoundKeyRefusesANameTheEnumLacks)
{
    ns3::ConfigSchemaObject o;
    // The enum would read "triangle" as nothing: the schema must not offer it.
    EXPECT_THROW(o.Enum("shape", {"circle", "triangle"}).Bind(&Drawing::shape), std::logic_error);
    ns3::ConfigSchemaObject ok;
    EXPECT_NO_THROW(ok.Enum("shape", {"circle"}).Bind(&Drawing::shape))
        << "a key may implement fewer names than the enum has";
}

TEST(EnumNames, DiscriminatorRefusesAVariantTheEnumLacks)
{
    ns3::ConfigSchemaObject o;
    o.Discriminator("type").NamesOf<Shape>();
    EXPECT_NO_THROW(o.Variant("circle"));
    EXPECT_THROW(o.Variant("hexagon"), std::logic_error);
}

} // namespace
