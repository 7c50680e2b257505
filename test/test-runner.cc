/*
 * Test runner for the module's ns-3 TestSuites. Debian's ns-3 ships no test-runner binary, so
 * this one links the suites in test/ns3/ and hands the command line to ns3::TestRunner.
 */
#include "scenario/model/scenario-runner.h"

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    ns3::ScenarioRunner::UsePicoseconds();
    return ns3::TestRunner::Run(argc, argv);
}
