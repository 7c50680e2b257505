/*
 * The one exception a bad scenario raises: it names the file, the JSON path of the offending
 * value and what is allowed there, so a user can fix the scenario without reading the code.
 * A scenario with several problems raises one ScenarioError that lists them all (up to a cap).
 */
#ifndef MCAST4AI_SCENARIO_ERROR_H
#define MCAST4AI_SCENARIO_ERROR_H

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * A scenario (or a --set override) that cannot be accepted.
 *
 * what() is exactly "FILE: json.path: reason" of the first error. Paths use dots for object keys
 * and [i] for array elements (workloads[0].flows[3].dst); the document itself is "(root)".
 */
class ScenarioError : public std::runtime_error
{
public:
    /// How many errors of one file are reported; the rest are only counted.
    static constexpr std::size_t MAX_REPORTED = 20;

    /// One problem: "FILE: path: reason".
    struct Entry
    {
        std::string file;
        std::string path; ///< "(root)" for the document itself
        std::string reason;

        /** \return "FILE: path: reason" */
        std::string Text() const;
    };

    /**
     * \param file the scenario file (or "--set" for a malformed override)
     * \param jsonPath path of the offending value; empty means "(root)"
     * \param reason what is wrong and what would be allowed
     */
    ScenarioError(const std::string& file, const std::string& jsonPath, const std::string& reason);

    /**
     * Several problems found at once.
     *
     * \param errors at least one; the first is the one GetFile/GetPath/GetReason/what() give
     * \param notShown problems found beyond those listed (beyond MAX_REPORTED)
     */
    explicit ScenarioError(std::vector<Entry> errors, std::size_t notShown = 0);

    /** \return the file the first error refers to */
    const std::string& GetFile() const;
    /** \return the JSON path of the first error */
    const std::string& GetPath() const;
    /** \return the first error's reason, without file and path */
    const std::string& GetReason() const;
    /** \return every error listed, the first one included, in the order they were found */
    const std::vector<Entry>& GetErrors() const;
    /** \return how many further errors were found but not listed */
    std::size_t GetNotShown() const;

private:
    std::vector<Entry> m_errors;
    std::size_t m_notShown{0};
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_ERROR_H */
