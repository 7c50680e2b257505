#!/usr/bin/env bash
# Contract check: `mcast4ai-run SCENARIO --partition N` prints how N processes would split the
# fabric and runs nothing (docs/performance.md "Spreading one run over processes").
#
# Usage: bash partition.sh RUNNER_BINARY SOURCE_DIR
#
# - The 1,024-host fat-tree (k = 16) of scenarios/bench/moe-dispatch-1024-bier-xpu-list.json at
#   2 and 4 ranks: by pod, 512 and 256 hosts per rank, 3,072 links of which the core links
#   to other ranks' pods are cut, 64 x 16 x (1 - 1/N): 512 and 768; lookahead 1 us (the
#   fabric links' delay); no result directory written.
# - distribution.unit=rack at 3 ranks keeps racks, not pods, whole (43, 42, 43 racks); an
#   unknown unit is exit 2 naming the key; in a run of one process the key draws a warning.
# - --partition 0, a non-number, and more ranks than the 4 racks of scenarios/default.json
#   are exit 2 with an error naming --partition.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
src=$2
python=/usr/bin/python3

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"

require_runner "$runner"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
moe=$src/scenarios/bench/moe-dispatch-1024-bier-xpu-list.json

for n in 2 4; do
    timeout 120 "$runner" "$moe" --partition "$n" --out "$tmp/out$n" >"$tmp/p$n.json" 2>"$tmp/p$n.err"
    rc=$?
    if [[ $rc -ne 0 ]]; then
        fail "--partition $n exits 0" "exit code $rc" "$(head -n 3 "$tmp/p$n.err")"
        continue
    fi
    if got=$("$python" - "$tmp/p$n.json" "$n" <<'PY'
import json
import sys

p = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
want = {"ranks": n, "unit": "pod", "links": 3072, "cut_links": 64 * 16 * (n - 1) // n,
        "lookahead_us": 1.0}
bad = {k: (p.get(k), v) for k, v in want.items() if p.get(k) != v}
ranks = p.get("per_rank", [])
if [r.get("hosts") for r in ranks] != [1024 // n] * n:
    bad["per_rank hosts"] = [r.get("hosts") for r in ranks]
if sum(r.get("switches", 0) for r in ranks) != 320:
    bad["switches"] = sum(r.get("switches", 0) for r in ranks)
if bad:
    print(bad)
    sys.exit(1)
PY
    ); then
        pass "--partition $n: by pod, $((1024 / n)) hosts per rank, $((64 * 16 * (n - 1) / n)) of 3072 links cut, lookahead 1 us"
    else
        fail "--partition $n gives the closed-form plan" "$got"
    fi
    if [[ -e $tmp/out$n ]]; then
        fail "--partition $n runs nothing" "it wrote $tmp/out$n"
    else
        pass "--partition $n writes no result directory"
    fi
done

# distribution.unit overrides the automatic unit: racks, at 3 ranks, split pods.
timeout 120 "$runner" "$moe" --partition 3 --set distribution.unit=rack >"$tmp/rack.json" 2>"$tmp/rack.err"
if got=$("$python" - "$tmp/rack.json" <<'PY'
import json
import sys

p = json.load(open(sys.argv[1]))
hosts = [r.get("hosts") for r in p.get("per_rank", [])]
# 128 racks of 8 hosts: rack i goes to rank floor(3 (8i + 4) / 1024), blocks of 43, 42, 43.
if p.get("unit") != "rack" or hosts != [344, 336, 344]:
    print({"unit": p.get("unit"), "hosts": hosts})
    sys.exit(1)
PY
); then
    pass "--partition 3 with distribution.unit=rack: by rack, 344, 336 and 344 hosts"
else
    fail "distribution.unit=rack overrides the unit" "$got $(head -n 2 "$tmp/rack.err")"
fi
timeout 60 "$runner" "$moe" --partition 2 --set distribution.unit=spine >/dev/null 2>"$tmp/unit.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "distribution.unit" "$tmp/unit.err"; then
    pass "distribution.unit=spine: exit 2 naming distribution.unit"
else
    fail "distribution.unit=spine is exit 2 naming the key" "exit $rc: $(head -n 2 "$tmp/unit.err")"
fi
# In one process the key has no effect, and the runner says so.
timeout 60 "$runner" "$src/test/mpi/flows-staggered.json" --quiet --out "$tmp/one" \
    --set distribution.unit=rack >/dev/null 2>"$tmp/one.err"
if grep -q "distribution.unit ('rack') has no effect in a run of one process" "$tmp/one.err"; then
    pass "distribution.unit in one process: a warning"
else
    fail "distribution.unit in one process warns" "$(head -n 3 "$tmp/one.err")"
fi

for bad in 0 two 5; do
    timeout 60 "$runner" "$src/scenarios/default.json" --partition "$bad" >/dev/null 2>"$tmp/bad.err"
    rc=$?
    if [[ $rc -eq 2 ]] && grep -q -- "--partition" "$tmp/bad.err"; then
        pass "--partition $bad: exit 2, naming --partition ($(head -n 1 "$tmp/bad.err"))"
    else
        fail "--partition $bad is exit 2 naming --partition" "exit $rc: $(head -n 2 "$tmp/bad.err")"
    fi
done

finish
