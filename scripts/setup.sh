#!/usr/bin/env bash
# One-step set-up on Debian 12: install what is missing, build, then either run the default
# evaluation or the whole test suite.
#
#   bash scripts/setup.sh run    # install, build Release, run the default evaluation
#                                # (scripts/evaluate: decides the drafts' claims, prints the
#                                # verdicts, writes results/evaluation/report.md and .html)
#   bash scripts/setup.sh test   # install, build (Release + asserts), run every test (ctest)
set -euo pipefail

mode=${1:-run}
case "$mode" in
    run | test) ;;
    *)
        echo "usage: bash scripts/setup.sh run|test" >&2
        exit 2
        ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Debian packages the build, the tests and the scripts need. 'ns3' ships the helper binaries
# that libns3-dev's CMake package config refers to; without it find_package(ns3) fails.
# chromium renders the evaluation's HTML report for its test.
packages=(build-essential cmake libns3-dev ns3 libgsl-dev libboost-graph-dev
    nlohmann-json3-dev libprotobuf-dev protobuf-compiler libgtest-dev libjemalloc-dev tshark python3 python3-numpy
    python3-pandas python3-matplotlib python3-scipy python3-pytest chromium slurm-wlm munge)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
if [ "$mode" = run ]; then
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build -j"$jobs" --target mcast4ai-run
    /usr/bin/python3 scripts/evaluate --scale default --jobs "$jobs" --out results/evaluation
else
    # Release speed, but with NS_ASSERT checks kept: tests should trip on broken invariants.
    cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DMCAST4AI_ASSERTS=ON -DMCAST4AI_WERROR=ON >/dev/null
    cmake --build build-test -j"$jobs"
    cd build-test
    ctest --output-on-failure -j"$jobs" --timeout 600
fi
