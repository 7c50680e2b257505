/*
 * The one exception a bad scenario raises: it names the file, the JSON path of the offending
 * value and what is allowed there, so a user can fix the scenario without reading the code.
 */
#ifndef MCAST4AI_SCENARIO_ERROR_H
#define MCAST4AI_SCENARIO_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * A scenario (or a --set override) that cannot be accepted.
 *
 * what() is exactly "FILE: json.path: reason". Paths use dots for object keys and [i] for array
 * elements (workloads[0].flows[3].dst); the document itself is "(root)".
 */
class ScenarioError : public std::runtime_error
{
public:
    /**
     * \param file the scenario file (or "--set" for a malformed override)
     * \param jsonPath path of the offending value; empty means "(root)"
     * \param reason what is wrong and what would be allowed
     */
    ScenarioError(const std::string& file, const std::string& jsonPath, const std::string& reason);

    /** \return the file the error refers to */
    const std::string& GetFile() const;
    /** \return the JSON path of the offending value */
    const std::string& GetPath() const;
    /** \return the reason, without file and path */
    const std::string& GetReason() const;

private:
    std::string m_file;
    std::string m_path;
    std::string m_reason;
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_ERROR_H */
