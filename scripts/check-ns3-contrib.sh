#!/usr/bin/env bash
# Build and test mcast4ai as a contrib module of an ns-3 source tree, and check that its
# runner gives the same ops.csv as this tree's standalone build (Debian's ns-3.37).
#
#   bash scripts/check-ns3-contrib.sh NS3_SOURCE_DIR [JOBS]
#
# NS3_SOURCE_DIR is an ns-3 source tree (ns-3-dev or a release, 3.36 or later). The module is
# copied to NS3_SOURCE_DIR/contrib/mcast4ai (replacing what is there). For each build profile in
# PROFILES (default: "default release": `default`, with asserts and logs compiled in, is what a
# user's first `./ns3 configure` gives), it is configured with tests, examples and warnings as
# errors, built, and every one of its test suites (ns-3 suites, the GoogleTest units and the
# runner's contract checks) run through ns-3's test.py. The standalone runner
# (build/mcast4ai-run, built if missing) then runs scenarios/default.json next to the contrib
# one, and their ops.csv must be byte-identical. CI does not run this script: it
# needs an ns-3 source tree, which CI cannot fetch. MCAST4AI_STANDALONE_RUNNER names another
# standalone runner to compare with (e.g. build-test/mcast4ai-run).
set -euo pipefail

ns3=${1:?usage: bash scripts/check-ns3-contrib.sh NS3_SOURCE_DIR [JOBS]}
jobs=${2:-$(nproc 2>/dev/null || echo 2)}
root=$(cd "$(dirname "$0")/.." && pwd)
ns3=$(cd "$ns3" && pwd)
[[ -x $ns3/ns3 && -f $ns3/VERSION ]] || { echo "error: $ns3 is not an ns-3 source tree" >&2; exit 2; }
echo "ns-3 tree: $ns3 (VERSION $(cat "$ns3/VERSION"))"

# The module as committed plus any local changes, without build directories.
dest=$ns3/contrib/mcast4ai
rm -rf "$dest"
mkdir -p "$dest"
# -m: every file gets the time of the copy, so that ninja rebuilds what changed even when the
# tree's build directory holds objects newer than an edited source's own time.
tar -C "$root" --exclude=./.git --exclude='./build*' --exclude=./results -cf - . | tar -C "$dest" -xmf -
# The revision summary.json stamps comes from this tree's git, as in the standalone build.
git -C "$root" describe --always --dirty > "$dest/.mcast4ai-revision" 2>/dev/null || true

cd "$ns3"
profiles=${PROFILES:-default release}
standalone=${MCAST4AI_STANDALONE_RUNNER:-$root/build/mcast4ai-run}
if [[ ! -x $standalone ]]; then
    cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$root/build" -j "$jobs" --target mcast4ai-run
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && "$standalone" scenarios/default.json --quiet --out "$tmp/standalone")

for profile in $profiles; do
    echo "== profile $profile"
    # Tests and examples of the other modules are left out (they are ns-3's, not ours, and take
    # most of the build time); the module's own are all built.
    ./ns3 configure -d "$profile" --enable-tests --enable-examples --enable-werror \
        --enable-modules=mcast4ai --filter-module-examples-and-tests=mcast4ai
    ./ns3 build -j "$jobs"

    # Every suite the module registers: test/ns3/ (mcast4ai-NAME), the units (mcast4ai-unit)
    # and the runner's contract checks, golden guard included (mcast4ai-cli-NAME).
    mapfile -t suites < <(./test.py --no-build --list | grep -o 'mcast4ai-[A-Za-z0-9-]*' | sort -u)
    echo "suites: ${suites[*]}"
    expected=$(( $(ls "$root"/test/ns3/*-test-suite.cc | wc -l) + $(ls "$root"/test/cli/*.sh | wc -l) + 1 ))
    if (( ${#suites[@]} != expected )); then
        echo "FAIL ($profile): test.py lists ${#suites[@]} mcast4ai suites, expected $expected" >&2
        exit 1
    fi
    failed=0
    for suite in "${suites[@]}"; do
        ./test.py --no-build --suite="$suite" || failed=1
    done
    (( failed == 0 )) || { echo "FAIL ($profile): a suite failed (above)" >&2; exit 1; }
    echo "ok ($profile): ${#suites[@]} of $expected suites pass"

    # Same scenario, same results, whichever ns-3 and profile run it.
    # ns-3 names a profile's executables with its suffix ("-default"), release's with none.
    suffix=-$profile
    [[ $profile == release ]] && suffix=
    runner=$(find "$ns3/build" -type f -perm -u+x -name "ns*-mcast4ai-run$suffix" | head -n 1)
    [[ -n $runner ]] || { echo "error: no mcast4ai-run built under $ns3/build" >&2; exit 1; }
    (cd "$root" && "$runner" scenarios/default.json --quiet --out "$tmp/contrib-$profile")
    if cmp -s "$tmp/contrib-$profile/ops.csv" "$tmp/standalone/ops.csv"; then
        echo "ok ($profile): ops.csv identical ($(wc -l < "$tmp/standalone/ops.csv") lines)"
    else
        echo "FAIL ($profile): ops.csv differs between the contrib and the standalone build" >&2
        diff "$tmp/contrib-$profile/ops.csv" "$tmp/standalone/ops.csv" | head -n 20 >&2
        exit 1
    fi
done
