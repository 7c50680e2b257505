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

ScenarioError::Entry
Normalized(ScenarioError::Entry e)
{
    e.path = RootIfEmpty(e.path);
    return e;
}

std::vector<ScenarioError::Entry>
NonEmpty(std::vector<ScenarioError::Entry> errors)
{
    // An empty list would leave nothing for what(); it is a caller's bug, but still an error.
    if (errors.empty())
    {
        errors.push_back({"(unknown)", "(root)", "invalid scenario"});
    }
    for (auto& e : errors)
    {
        e = Normalized(e);
    }
    return errors;
}

} // namespace

std::string
ScenarioError::Entry::Text() const
{
    return file + ": " + RootIfEmpty(path) + ": " + reason;
}

ScenarioError::ScenarioError(const std::string& file,
                             const std::string& jsonPath,
                             const std::string& reason)
    : ScenarioError(std::vector<Entry>{{file, jsonPath, reason}})
{
}

ScenarioError::ScenarioError(std::vector<Entry> errors, std::size_t notShown)
    : std::runtime_error(NonEmpty(errors).front().Text()),
      m_errors(NonEmpty(std::move(errors))),
      m_notShown(notShown)
{
}

const std::string&
ScenarioError::GetFile() const
{
    return m_errors.front().file;
}

const std::string&
ScenarioError::GetPath() const
{
    return m_errors.front().path;
}

const std::string&
ScenarioError::GetReason() const
{
    return m_errors.front().reason;
}

const std::vector<ScenarioError::Entry>&
ScenarioError::GetErrors() const
{
    return m_errors;
}

std::size_t
ScenarioError::GetNotShown() const
{
    return m_notShown;
}

} // namespace ns3
