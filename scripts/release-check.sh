#!/usr/bin/env bash
# Run the golden guard against a build without NS_ASSERT: the default Release build that
# `bash scripts/setup.sh run` makes (build/) and that users run. The test command builds with
# asserts on (build-test/, -DMCAST4AI_ASSERTS=ON), so code with a side effect inside an assert
# would behave differently in build/ and nothing else would notice.
#
#   bash scripts/release-check.sh [JOBS]
#
# About 7 minutes on 2 cores for the build, under a minute for the guard. Exit 0 when every
# golden case is byte-identical in the Release build too.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-$(nproc 2>/dev/null || echo 2)}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMCAST4AI_ASSERTS=OFF >/dev/null
cmake --build build -j"$jobs" --target mcast4ai-run
/usr/bin/python3 test/golden/check.py build/mcast4ai-run .
