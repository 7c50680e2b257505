/*
 * Test runner for the module's ns-3 TestSuites. Debian's ns-3 ships no test-runner binary, so
 * this one links the suites in test/ns3/ and hands the command line to ns3::TestRunner.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"

int
main(int argc, char** argv)
{
    ns3::ScenarioRunner::UsePicoseconds();
    return ns3::TestRunner::Run(argc, argv);
}
