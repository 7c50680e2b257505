#include "scenario/model/scenario-error.h"

namespace ns3
{

namespace
{

std::string
RootIfEmpty(const std::string& path)
{
    return path.empty() ? std::string("(root)") : path;
}

} // namespace

ScenarioError::ScenarioError(const std::string& file,
                             const std::string& jsonPath,
                             const std::string& reason)
    : std::runtime_error(file + ": " + RootIfEmpty(jsonPath) + ": " + reason),
      m_file(file),
      m_path(RootIfEmpty(jsonPath)),
      m_reason(reason)
{
}

const std::string&
ScenarioError::GetFile() const
{
    return m_file;
}

const std::string&
ScenarioError::GetPath() const
{
    return m_path;
}

const std::string&
ScenarioError::GetReason() const
{
    return m_reason;
}

} // namespace ns3
