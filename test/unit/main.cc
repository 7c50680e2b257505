/*
 * GoogleTest entry point: the same picosecond time resolution as the simulator's runners, so
 * unit tests see the wire times the simulations use.
 */
#include "scenario/model/scenario-runner.h"

#include <gtest/gtest.h>

int
main(int argc, char** argv)
{
    ns3::ScenarioRunner::UsePicoseconds();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
