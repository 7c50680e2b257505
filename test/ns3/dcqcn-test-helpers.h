/*
 * Helpers of the DCQCN suites: the scenarios of scenarios/validation/ read from the source tree.
 */
#ifndef MCAST4AI_DCQCN_TEST_HELPERS_H
#define MCAST4AI_DCQCN_TEST_HELPERS_H

#include "scenario/model/scenario.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{
namespace test
{

/// scenarios/DIR/NAME, found from this file's place in the source tree.
inline std::string
ScenarioFilePath(const std::string& dir, const std::string& name)
{
    std::string here = __FILE__; // .../test/ns3/dcqcn-test-helpers.h
    std::string root = here.substr(0, here.rfind("/test/ns3/"));
    return root + "/scenarios/" + dir + "/" + name;
}

/// The JSON of scenarios/DIR/NAME.
inline nlohmann::json
ReadScenarioFile(const std::string& dir, const std::string& name)
{
    const std::string path = ScenarioFilePath(dir, name);
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error("cannot read " + path);
    }
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
}

/// scenarios/validation/NAME.
inline std::string
ValidationScenarioPath(const std::string& name)
{
    return ScenarioFilePath("validation", name);
}

/// The JSON of scenarios/validation/NAME.
inline nlohmann::json
ReadValidationScenario(const std::string& name)
{
    return ReadScenarioFile("validation", name);
}

} // namespace test
} // namespace ns3

#endif /* MCAST4AI_DCQCN_TEST_HELPERS_H */
