/*
 * The reference of the module's ns-3 classes, generated from their TypeIds: each class's
 * attributes (initial value, meaning and the scenario key that sets it) and trace sources, as
 * docs/attribute-reference.md holds it. Model pages link to it rather than copy it.
 */
#ifndef MCAST4AI_ATTRIBUTE_REFERENCE_H
#define MCAST4AI_ATTRIBUTE_REFERENCE_H

#include <string>

namespace ns3
{

/**
 * \brief Markdown of every TypeId of the group "Mcast4ai".
 */
class AttributeReference
{
public:
    /// The page, classes in name order (mcast4ai-run --attributes-markdown).
    static std::string Markdown();
};

} // namespace ns3

#endif /* MCAST4AI_ATTRIBUTE_REFERENCE_H */
