/*
 * The checks that ctest runs outside ns-3's test framework in the standalone build (the
 * GoogleTest units and the runner's contract scripts in test/cli/), as ns-3 test suites, so
 * that ./test.py runs them when the module is built in contrib/ of an ns-3 source tree.
 *
 * Each check is a program with an exit status: the units binary, or `bash test/cli/NAME.sh
 * RUNNER SOURCE_DIR`. One suite per check, named as ctest names it (mcast4ai-unit,
 * mcast4ai-cli-NAME). The contrib build (CMakeLists.txt) compiles this file only with tests and
 * examples enabled, and defines the paths below.
 */
#include "ns3/test.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#ifndef MCAST4AI_SOURCE_DIR
#error "MCAST4AI_SOURCE_DIR must name the module's source directory"
#endif
#ifndef MCAST4AI_RUNNER
#error "MCAST4AI_RUNNER must name the mcast4ai-run binary"
#endif

using namespace ns3;

namespace
{

std::string
Quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
    {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

/// The last lines of a file: what a failing check printed, for the test report.
std::string
Tail(const std::string& path, size_t lines)
{
    std::ifstream in(path);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);)
    {
        all.push_back(line);
    }
    std::ostringstream out;
    for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
    {
        out << "\n    " << all[i];
    }
    return out.str();
}

/// Exit status of a check that cannot run on this machine (ctest's SKIP_RETURN_CODE).
constexpr int SKIPPED = 77;

/// Runs one command; passes if it exits with status 0. ns-3's framework has no skipped test
/// case, so a check that exits SKIPPED passes and says so on the log and in its output.
class ExternalCheckTestCase : public TestCase
{
public:
    ExternalCheckTestCase(const std::string& name, const std::string& command)
        : TestCase(name),
          m_command(command)
    {
    }

private:
    void DoRun() override
    {
        std::string log = CreateTempDirFilename("output.log");
        int status = std::system((m_command + " > " + Quote(log) + " 2>&1").c_str());
        bool passed = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == SKIPPED)
        {
            std::clog << "SKIP: " << GetName() << ":" << Tail(log, 5) << std::endl;
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(passed,
                              true,
                              "`" << m_command << "` failed (status " << status
                                  << "); its last lines:" << Tail(log, 40));
    }

    std::string m_command;
};

class ExternalCheckTestSuite : public TestSuite
{
public:
    ExternalCheckTestSuite(const std::string& name, Type type, const std::string& command)
        : TestSuite(name, type)
    {
        AddTestCase(new ExternalCheckTestCase(name, command));
    }
};

/// Registers one suite per check when the test library is loaded.
struct ExternalChecks
{
    ExternalChecks()
    {
        const std::string source = MCAST4AI_SOURCE_DIR;
        const std::string runner = MCAST4AI_RUNNER;
#ifdef MCAST4AI_UNIT_TESTS
        m_suites.push_back(std::make_unique<ExternalCheckTestSuite>("mcast4ai-unit",
                                                                    TestSuite::Type::UNIT,
                                                                    Quote(MCAST4AI_UNIT_TESTS)
                                                                        + " --gtest_brief=1"));
#endif
        std::vector<std::string> scripts;
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(source + "/test/cli", ec))
        {
            if (entry.path().extension() == ".sh")
            {
                scripts.push_back(entry.path().stem().string());
            }
        }
        std::sort(scripts.begin(), scripts.end());
        for (const auto& name : scripts)
        {
            m_suites.push_back(std::make_unique<ExternalCheckTestSuite>(
                "mcast4ai-cli-" + name,
                TestSuite::Type::SYSTEM,
                "bash " + Quote(source + "/test/cli/" + name + ".sh") + " " + Quote(runner) + " "
                    + Quote(source)));
        }
    }

    std::vector<std::unique_ptr<ExternalCheckTestSuite>> m_suites;
};

ExternalChecks g_externalChecks;

} // namespace
