#!/usr/bin/env bash
# scripts/plot_tail.py: the table it prints and writes (--csv) holds nearest-rank percentiles of
# the completed operations pooled over the series' result directories, recomputed here from the
# ops.csv files (and, for a single run, equal to summary.json's duration_us); the figure is
# written; incomplete operations are counted, not pooled; extra ops.csv columns are ignored and
# a `kind` column is never mixed; run mode (--scenario --seeds --sweep) runs each (value, seed)
# once, reuses the runs the next time and gives the same numbers as the runs done by hand; bad
# input (missing directory, unknown workload, no --workload with several, malformed --series)
# is `error:` and exit 2.
#
# Usage: bash plot-tail.sh RUNNER_BINARY SOURCE_DIR
#
# The scenario (written to a temp dir): a 64-host leaf-spine (4 leaves x 16 hosts, 2 spines),
# a random permutation of 64 KiB flows (64 operations per seed, so 128 pooled over two seeds:
# p99 is then the 127th value, not the max) and an 8-to-1 incast of 64 KiB flows.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
src=$2
python=/usr/bin/python3
script=$src/scripts/plot_tail.py

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"

require_runner "$runner"
require_plotting_python

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/tiny.json" <<'EOF'
{
  "name": "plot-tail",
  "seed": 1,
  "stop_time_ms": 20,
  "topology": {"kind": "leaf-spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 16,
               "host_link": {"rate_gbps": 100, "delay_us": 1},
               "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
  "nic": {"mtu_bytes": 1024, "ack_every": 1},
  "switch": {"buffer_mb": 32, "latency_ns": 500, "pfc": {"enabled": true}},
  "workloads": [
    {"type": "flows", "label": "permutation", "pattern": "permutation", "bytes": 65536},
    {"type": "flows", "label": "incast", "pattern": "incast", "senders": 8, "receiver": 0,
     "bytes": 65536, "start_us": 50}
  ]
}
EOF

# plot ARGS...: run the script, stdout to $tmp/out, stderr to $tmp/err, exit code to $rc.
plot() {
    $python "$script" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# check CSV LABEL DIR...: the CSV's row LABEL against nearest-rank statistics recomputed from
# the ops.csv of the DIRs (workload WORKLOAD, rows of KIND and PHASE if set); prints "ok" or
# the mismatch.
# The table printed on stdout ($tmp/out) must hold the same numbers.
check() {
    WORKLOAD=${WORKLOAD:-permutation} KIND=${KIND:-} PHASE=${PHASE:-} \
        $python - "$tmp/out" "$@" <<'PY'
import csv, math, os, sys
from fractions import Fraction
out, table, label, dirs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
workload, kind, phase = os.environ["WORKLOAD"], os.environ["KIND"], os.environ["PHASE"]
values, incomplete = [], 0
for d in dirs:
    for row in csv.DictReader(open(os.path.join(d, "ops.csv"))):
        if row["workload"] != workload or (kind and row["kind"] != kind):
            continue
        if phase and row["phase"] != phase:
            continue
        if row["duration_us"] == "":
            incomplete += 1
        else:
            values.append(float(row["duration_us"]))
values.sort()
n = len(values)
def rank(p):  # the ceil(p*n)-th smallest, in exact arithmetic
    return values[max(1, math.ceil(Fraction(p) * n)) - 1]
want = {"runs": len(dirs), "count": n, "incomplete": incomplete, "mean_us": sum(values) / n,
        "p50_us": rank("0.5"), "p90_us": rank("0.9"), "p99_us": rank("0.99"),
        "p999_us": rank("0.999"), "max_us": values[-1]}
rows = [r for r in csv.DictReader(open(table)) if r["series"] == label]
if len(rows) != 1:
    sys.exit(print(f"{len(rows)} CSV rows for series '{label}'"))
bad = [f"{k}: got {rows[0][k]}, want {v}" for k, v in want.items()
       if abs(float(rows[0][k]) - v) > 1e-9 * max(1, abs(v))]
# The same numbers in the printed table, with 3 decimals.
printed = [line.strip().strip("|").split("|") for line in open(out) if line.startswith("|")]
printed = {c[0].strip(): [x.strip() for x in c[1:]] for c in printed}
cells = printed.get(label)
if cells is None:
    bad.append(f"no row '{label}' in the printed table")
else:
    support = {"p50_us": 2, "p90_us": 10, "p99_us": 100, "p999_us": 1000}
    for k, cell in zip(want, cells):
        if n < support.get(k, 0):  # too few samples: printed as the maximum it is
            if cell != f"max of {n}" or want[k] != want["max_us"]:
                bad.append(f"printed {k}: got {cell}, want 'max of {n}'")
        elif abs(float(cell) - want[k]) > 5e-4 + 1e-12 * abs(want[k]):
            bad.append(f"printed {k}: got {cell}, want {want[k]}")
if len(dirs) > 1 and n < 100:  # the pooled series must have a p99 below its max
    bad.append(f"only {n} operations: too few for p99 to differ from the max")
print("; ".join(bad) if bad else "ok")
PY
}

# Two seeds of the tiny scenario, and a run of seed 1 cut short in the middle of the incast.
for seed in 1 2; do
    if ! "$runner" "$tmp/tiny.json" --quiet --out "$tmp/runs/s$seed" --seed $seed \
        >"$tmp/run.log" 2>&1; then
        fail "runner on the test scenario, seed $seed" "$(tail -n 3 "$tmp/run.log")"
        finish
    fi
done
stop_ms=$($python -c '
import csv, sys
ends = sorted(float(r["end_us"]) for r in csv.DictReader(open(sys.argv[1]))
              if r["workload"] == "incast")
print((ends[len(ends) // 2 - 1] + ends[len(ends) // 2]) / 2 / 1000)' "$tmp/runs/s1/ops.csv")
"$runner" "$tmp/tiny.json" --quiet --out "$tmp/cut" --seed 1 --set "stop_time_ms=$stop_ms" \
    >"$tmp/run.log" 2>&1
cut_rc=$?

# Copies of seed 1's ops.csv with extra columns, and with made-up rows of another kind.
mkdir -p "$tmp/extra" "$tmp/kind"
cp "$tmp/runs/s1/summary.json" "$tmp/extra/"
cp "$tmp/runs/s1/summary.json" "$tmp/kind/"
$python - "$tmp/runs/s1/ops.csv" "$tmp/extra/ops.csv" "$tmp/kind/ops.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, ["future"] + list(rows[0]) + ["note"])
    w.writeheader()
    for r in rows:
        w.writerow({"future": "x", **r, "note": "a, b"})
with open(sys.argv[3], "w", newline="") as f:
    w = csv.DictWriter(f, list(dict.fromkeys(list(rows[0]) + ["kind"])))
    w.writeheader()
    for r in rows:
        w.writerow({**r, "kind": "op"})
        # a made-up per-receiver row: ten times longer, so mixing it in would show
        slow = "%.3f" % (10 * float(r["duration_us"]))
        w.writerow({**r, "kind": "receiver", "duration_us": slow})
        # made-up phase rows: a third and two thirds of it
        for name, part in (("dispatch", 1 / 3), ("combine", 2 / 3)):
            w.writerow({**r, "kind": "phase", "phase": name,
                        "duration_us": "%.3f" % (part * float(r["duration_us"]))})
PY

# 1. Three series in one figure: two seeds pooled (a glob), seed 1 alone (positional, named
#    by its scenario) and seed 1 with extra ops.csv columns.
plot --series "two seeds=$tmp/runs/s*" --series "extra=$tmp/extra" "$tmp/runs/s1" \
    --workload permutation -o "$tmp/pooled.png" --csv "$tmp/pooled.csv"
if [[ $rc -ne 0 ]]; then
    fail "three series: exit $rc" "$(cat "$tmp/err")"
else
    if [[ -s $tmp/pooled.png ]] &&
        [[ $(head -c 4 "$tmp/pooled.png" | od -An -tx1 | tr -d ' ') == 89504e47 ]]; then
        pass "figure: $tmp/pooled.png is a non-empty PNG"
    else
        fail "figure: $tmp/pooled.png is missing, empty or not a PNG"
    fi
    verdict=$(check "$tmp/pooled.csv" "two seeds" "$tmp/runs/s1" "$tmp/runs/s2")
    if [[ $verdict == ok ]]; then
        pass "two seeds pooled: count/mean/p50/p90/p99/p99.9/max = nearest rank of both ops.csv"
    else
        fail "two seeds pooled: $verdict"
    fi
    verdict=$($python - "$tmp/pooled.csv" "$tmp/runs/s1/summary.json" <<'PY'
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["series"] == "plot-tail"]
w = [w for w in json.load(open(sys.argv[2]))["workloads"] if w["label"] == "permutation"][0]
if len(rows) != 1:
    sys.exit(print(f"{len(rows)} rows named 'plot-tail' (the scenario's name)"))
r, bad = rows[0], []
if int(r["count"]) != w["completed"]:
    bad.append(f"count {r['count']}, summary.json completed {w['completed']}")
for col, key in [("mean_us", "mean"), ("p50_us", "p50"), ("p99_us", "p99"),
                 ("p999_us", "p999"), ("max_us", "max")]:
    if abs(float(r[col]) - w["duration_us"][key]) > 1e-3:
        bad.append(f"{col} {r[col]}, summary.json {key} {w['duration_us'][key]}")
print("; ".join(bad) if bad else "ok")
PY
)
    if [[ $verdict == ok ]]; then
        verdict=$(check "$tmp/pooled.csv" plot-tail "$tmp/runs/s1")
    fi
    if [[ $verdict == ok ]]; then
        pass "single run: mean/p50/p99/p99.9/max equal summary.json's duration_us"
    else
        fail "single run: $verdict"
    fi
    verdict=$(check "$tmp/pooled.csv" extra "$tmp/runs/s1")
    if [[ $verdict == ok ]]; then
        pass "extra ops.csv columns are ignored"
    else
        fail "extra columns: $verdict"
    fi
fi

# 2. A run cut short: incomplete operations are counted, not pooled. PDF by extension.
if [[ $cut_rc -ne 3 ]]; then
    fail "run cut at stop_time_ms=$stop_ms: runner exit $cut_rc, expected 3" \
        "$(tail -n 3 "$tmp/run.log")"
else
    plot "$tmp/cut" --workload incast -o "$tmp/cut.pdf" --csv "$tmp/cut.csv"
    verdict=$(WORKLOAD=incast check "$tmp/cut.csv" plot-tail "$tmp/cut")
    incomplete=$($python -c '
import csv, sys
print(next(csv.DictReader(open(sys.argv[1])))["incomplete"])' "$tmp/cut.csv" 2>/dev/null)
    if [[ $rc -ne 0 ]]; then
        fail "incomplete run: exit $rc" "$(cat "$tmp/err")"
    elif [[ $verdict != ok ]]; then
        fail "incomplete run: $verdict"
    elif [[ ! $incomplete =~ ^[1-7]$ ]]; then
        fail "incomplete run: $incomplete of 8 incast operations incomplete, expected 1..7"
    elif ! grep -q "$incomplete of 8 operations of 'incast' incomplete" "$tmp/err"; then
        fail "incomplete run: stderr does not report the $incomplete incomplete operations" \
            "$(cat "$tmp/err")"
    elif [[ $(head -c 4 "$tmp/cut.pdf") != %PDF ]]; then
        fail "incomplete run: $tmp/cut.pdf is not a PDF"
    else
        pass "incomplete run: $incomplete of 8 incomplete operations reported and left out; PDF"
    fi
fi

# 2b. Failed operations (ops.csv outcome "failed") are not completions: the silent-receiver
# broadcast with the fail policy has 1 completed message of 8 and 7 failed (the 7 host 5
# lacked; docs/robustness.md#silent-receivers).
"$runner" "$src/scenarios/robustness/silent-receiver.json" --set p2mp.on_receiver_timeout=fail \
    --out "$tmp/failed" --quiet >"$tmp/run.log" 2>&1
fail_rc=$?
if [[ $fail_rc -ne 0 ]]; then
    fail "failed operations: runner exit $fail_rc, expected 0" "$(tail -n 3 "$tmp/run.log")"
else
    plot "$tmp/failed" -o "$tmp/failed.png" --csv "$tmp/failed.csv"
    counts=$($python -c '
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(r["count"], r["incomplete"])' "$tmp/failed.csv" 2>/dev/null)
    if [[ $rc -ne 0 ]]; then
        fail "failed operations: exit $rc" "$(cat "$tmp/err")"
    elif [[ $counts != "1 7" ]]; then
        fail "failed operations: count, incomplete = $counts, expected 1 7"
    else
        pass "failed operations: 7 of 8 left out as incomplete, the 1 completed pooled"
    fi
fi

# 3. A kind column with several kinds: the op rows unless --kind names another, never a mix.
plot "$tmp/kind" --workload permutation -o "$tmp/kind.png" --csv "$tmp/kind.csv"
verdict=$(KIND=op check "$tmp/kind.csv" plot-tail "$tmp/kind")
if [[ $rc -eq 0 && $verdict == ok ]]; then
    verdict=$(check "$tmp/kind.csv" plot-tail "$tmp/runs/s1")
fi
if [[ $rc -eq 0 && $verdict == ok ]]; then
    plot "$tmp/kind" --workload permutation --kind receiver -o "$tmp/kind.png" \
        --csv "$tmp/kind.csv"
    verdict=$(KIND=receiver check "$tmp/kind.csv" plot-tail "$tmp/kind")
fi
if [[ $rc -eq 0 && $verdict == ok ]]; then
    plot "$tmp/kind" --workload permutation --phase combine -o "$tmp/kind.png" \
        --csv "$tmp/kind.csv"
    verdict=$(KIND=phase PHASE=combine check "$tmp/kind.csv" plot-tail "$tmp/kind")
fi
if [[ $rc -eq 0 && $verdict == ok ]]; then
    pass "kinds and phases never mix: op rows by default, --kind receiver, --phase combine"
else
    fail "kind column: exit $rc: $verdict" "$(cat "$tmp/err")"
fi

# 4. Bad input: error: and exit 2.
expect_error() {  # DESCRIPTION PATTERN ARGS...
    local what=$1 pattern=$2
    shift 2
    plot "$@"
    if [[ $rc -eq 2 ]] && grep -q "^error: .*$pattern" "$tmp/err"; then
        pass "$what: exit 2, $(head -n 1 "$tmp/err")"
    else
        fail "$what: exit $rc, expected 2 and 'error: ...$pattern'" "$(cat "$tmp/err")"
    fi
}
expect_error "missing directory" "$tmp/nope: no such result directory" \
    "$tmp/nope" -o "$tmp/x.png"
expect_error "missing directory in a series" "no such result directory" \
    --series "a=$tmp/runs/s1,$tmp/nope" --workload permutation -o "$tmp/x.png"
expect_error "glob matching nothing" "no directory matches" \
    --series "a=$tmp/nothing-*" -o "$tmp/x.png"
expect_error "unknown workload" "no workload 'bogus' (workloads: permutation, incast)" \
    "$tmp/runs/s1" --workload bogus -o "$tmp/x.png"
expect_error "several workloads, no --workload" "choose one with --workload: permutation, incast" \
    "$tmp/runs/s1" -o "$tmp/x.png"
expect_error "malformed --series" "expected LABEL=DIR" --series "$tmp/runs/s1" -o "$tmp/x.png"
expect_error "unknown figure format" "unknown figure format" "$tmp/runs/s1" -o "$tmp/x.bogus"
if [[ -e $tmp/x.png ]]; then
    fail "a figure was written although the input was bad"
fi

# 5. Run mode: a sweep over two values x two seeds; the bytes=65536 series equals the two
#    seeds run by hand above; a second call reuses the four runs.
plot --scenario "$tmp/tiny.json" --runner "$runner" --seeds 1-2 -j 2 \
    --sweep 'workloads[0].bytes=32768,65536' --work "$tmp/work" --workload permutation \
    --csv "$tmp/sweep.csv"
runs=$(find "$tmp/work" -mindepth 2 -maxdepth 2 -type d -name 'seed-*' 2>/dev/null | wc -l)
if [[ $rc -ne 0 ]]; then
    fail "run mode: exit $rc" "$(cat "$tmp/err")"
elif [[ $runs -ne 4 || ! -s $tmp/work/tail.png ]]; then
    fail "run mode: $runs run directories (expected 4), figure $tmp/work/tail.png" \
        "$(ls -R "$tmp/work")"
else
    verdict=$(check "$tmp/sweep.csv" "bytes=65536" "$tmp/runs/s1" "$tmp/runs/s2")
    if [[ $verdict == ok ]]; then
        verdict=$(check "$tmp/sweep.csv" "bytes=32768" "$tmp"/work/bytes-32768/seed-{1,2})
    fi
    if [[ $verdict == ok ]]; then
        pass "run mode: one series per sweep value over the seeds, same numbers as the runs by hand"
    else
        fail "run mode: $verdict"
    fi
    stamp=$(stat -c %Y.%s "$tmp"/work/*/seed-*/summary.json | md5sum)
    sleep 1
    plot --scenario "$tmp/tiny.json" --runner "$runner" --seeds 1-2 \
        --sweep 'workloads[0].bytes=32768,65536' --work "$tmp/work" --workload permutation \
        --csv "$tmp/sweep2.csv"
    if [[ $rc -eq 0 ]] && grep -q "runs: 0 ran, 4 reused" "$tmp/err" &&
        [[ $(stat -c %Y.%s "$tmp"/work/*/seed-*/summary.json | md5sum) == "$stamp" ]] &&
        cmp -s "$tmp/sweep.csv" "$tmp/sweep2.csv"; then
        pass "run mode: the second call reuses the 4 runs and gives the same table"
    else
        fail "run mode again: exit $rc, expected the 4 runs reused" "$(cat "$tmp/err")"
    fi
    # Another override is another run.
    plot --scenario "$tmp/tiny.json" --runner "$runner" --seeds 1 --work "$tmp/work" \
        --set 'workloads[0].bytes=32768' --workload permutation -o "$tmp/one.png" --quiet
    if [[ $rc -eq 0 ]] && [[ -s $tmp/work/seed-1/ops.csv ]] &&
        cmp -s "$tmp/work/seed-1/ops.csv" "$tmp/work/bytes-32768/seed-1/ops.csv"; then
        pass "run mode: --set passes through (same ops.csv as the sweep's bytes=32768, seed 1)"
    else
        fail "run mode --set: exit $rc" "$(cat "$tmp/err")"
    fi
fi
expect_error "run mode, runner failing on a bad override" "must be" \
    --scenario "$tmp/tiny.json" --runner "$runner" --work "$tmp/work" --set nic.mtu_bytes=1000
expect_error "run mode, bad --seeds" "--seeds '3-1'" \
    --scenario "$tmp/tiny.json" --runner "$runner" --work "$tmp/work" --seeds 3-1

finish
