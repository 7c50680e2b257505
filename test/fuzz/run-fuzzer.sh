#!/usr/bin/env bash
# Run one libFuzzer target for a bounded number of executions from a seed corpus.
#
#   bash run-fuzzer.sh FUZZER RUNS SOURCE_DIR KIND [RUNNER]
#
# KIND scenario: the seeds are every scenario in SOURCE_DIR/scenarios/ and the malformed ones of
# test/cli/malformed/. KIND frames: the seeds are the frames of pcaps written by RUNNER (the
# golden guard's P2MP and lossy scenarios, and a default run), one file per frame. New inputs
# go to a scratch corpus, so the source tree is never written. A crash, a failed check or a
# leak of an exception other than ScenarioError fails the test with libFuzzer's report.
set -euo pipefail
fuzzer=$1
runs=$2
src=$3
kind=$4
runner=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/seeds" "$tmp/corpus"

case $kind in
scenario)
    n=0
    while IFS= read -r -d '' f; do
        cp "$f" "$tmp/seeds/$n.json"
        n=$((n + 1))
    done < <(find "$src/scenarios" "$src/test/cli/malformed" "$src/test/golden" -name '*.json' -print0)
    ;;
frames)
    [[ -x $runner ]] || { echo "frames: runner '$runner' missing" >&2; exit 1; }
    for s in "$src/test/golden/moe-sets.json" "$src/test/golden/lossy-incast.json" \
        "$src/scenarios/load-balancing/loss-tolerant-8x8.json"; do
        stem=$(basename "$s" .json)
        "$runner" "$s" --quiet --set output.dir="$tmp/run-$stem" --set output.pcap=true \
            --set stop_time_ms=0.05 >/dev/null 2>&1 || true
    done
    /usr/bin/python3 - "$tmp" <<'PY'
import glob, os, struct, sys
tmp = sys.argv[1]
n = 0
for pcap in sorted(glob.glob(os.path.join(tmp, "run-*", "**", "*.pcap"), recursive=True)):
    if n >= 2000:
        break
    data = open(pcap, "rb").read()
    off = 24
    seen = 0
    while off + 16 <= len(data) and seen < 200:
        incl = struct.unpack_from("<I", data, off + 8)[0]
        frame = data[off + 16: off + 16 + incl]
        off += 16 + incl
        seen += 1
        open(os.path.join(tmp, "seeds", "f%06d" % n), "wb").write(frame)
        n += 1
print("frames: %d seed frames" % n)
PY
    ;;
*)
    echo "unknown kind $kind" >&2
    exit 1
    ;;
esac
echo "$kind: $(ls "$tmp/seeds" | wc -l) seeds, $runs runs"
# -seed fixes libFuzzer's own random choices, so a run is repeatable; -timeout catches hangs.
"$fuzzer" -runs="$runs" -seed=1 -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    "$tmp/corpus" "$tmp/seeds"
