#!/usr/bin/env bash
# scripts/plot: figures from a scripts/sweep database. The means and 95 % CI half-widths of
# `p99 --csv` and `bars --csv` equal those recomputed here from the runs table (Student t for
# n = 2 seeds: the textbook t(0.975, 1) = 12.706); failed and incomplete runs are left out and
# counted on stderr; the CDF's nearest-rank percentiles equal those of the pooled ops rows;
# each kind writes a PNG that is not blank and a PDF, the same bytes for the same database; a
# configuration is the tuple of the --by keys (series "k1=v1, k2=v2"), and runs that differ in
# another swept key are pooled only with --pool; bad input is `error:`, exit 2, no figure.
#
# Usage: bash plot.sh RUNNER_BINARY SOURCE_DIR
#
# The database: an 8-host leaf-spine (2 leaves x 4 hosts, 2 spines) with a permutation of
# flows (w0, random per seed, so p99 differs between seeds) and a broadcast from host 0;
# 2 mechanisms x 2 flow sizes x 2 seeds = 8 runs of a few milliseconds each.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
src=$2
python=/usr/bin/python3
script=$src/scripts/plot

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"

require_runner "$runner"
require_python_script "$script"
require_plotting_python

tmp=$(mktemp -d)
export TMPDIR=$tmp
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/tiny.json" <<'EOF'
{
  "name": "plot-tiny",
  "seed": 1,
  "stop_time_ms": 20,
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
               "host_link": {"rate_gbps": 100, "delay_us": 1},
               "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
  "nic": {"mtu_bytes": 1024, "ack_every": 1},
  "switch": {"buffer_mb": 4, "latency_ns": 500, "pfc": {"enabled": true}},
  "p2mp": {"mechanism": "bier", "ack_aggregation": "none"},
  "workloads": [
    {"type": "flows", "label": "perm", "pattern": "permutation", "bytes": 65536},
    {"type": "broadcast", "label": "bcast", "root": 0, "bytes": 65536, "messages": 2}
  ]
}
EOF

db=$tmp/s.sqlite
if ! "$src/scripts/sweep" "$tmp/tiny.json" --db "$db" --runner "$runner" \
    --set p2mp.mechanism=unicast,bier --set 'workloads[0].bytes=32768,131072' \
    --seeds 2 --jobs 2 >"$tmp/sweep.log" 2>&1; then
    fail "scripts/sweep on the test scenario" "$(tail -n 5 "$tmp/sweep.log")"
    finish
fi

# plot ARGS...: run the script, stdout to $tmp/out, stderr to $tmp/err, exit code to $rc.
plot() {
    "$script" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# figure PNG: the PNG and the PDF next to it exist, the PNG is not blank.
figure() {
    $python - "$1" <<'PY'
import os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.image as mpimg
png = sys.argv[1]
pdf = os.path.splitext(png)[0] + ".pdf"
if not os.path.isfile(png) or not os.path.isfile(pdf):
    sys.exit(print(f"missing {png} or {pdf}"))
if open(pdf, "rb").read(4) != b"%PDF":
    sys.exit(print(f"{pdf} is not a PDF"))
std = float(mpimg.imread(png)[..., :3].std())
print("ok" if std > 0.02 else f"{png}: pixel standard deviation {std:.4f}, looks blank")
PY
}

# ci CSV KIND [DB]: the CSV of `p99` (series = mechanism, x = bytes, metric w0.duration_us.p99)
# or `bars` (metric column, series = mechanism, runs of 131072-byte flows) against the runs table: mean over the ok,
# complete runs of the group, half-width 12.706 * s / sqrt(2) for two runs, none for one.
ci() {
    $python - "$1" "$2" "${3:-$db}" <<'PY'
import csv, math, sqlite3, sys
path, kind, db = sys.argv[1:]
con = sqlite3.connect(db)
def runs(metric):
    return con.execute(f'select "p2mp.mechanism", "workloads[0].bytes", "{metric}" from runs '
                       "where status = 'ok' and complete = 1").fetchall()
rows = list(csv.DictReader(open(path)))
want = {}
if kind == "p99":
    for mech, size, v in runs("w0.duration_us.p99"):
        want.setdefault((mech, str(size)), []).append(v)
    got = {(r["series"], r["x"]): r for r in rows}
else:
    for metric in ("network.acks_at_senders", "network.header_bytes", "w0.duration_us.p50"):
        for mech, size, v in runs(metric):
            if size == 131072:  # the bars' --where
                want.setdefault((metric, mech), []).append(v)
    got = {(r["metric"], r["series"]): r for r in rows}
bad, spread = [], 0
if set(got) < set(want) or set(want) - set(got):
    bad.append(f"groups {sorted(got)}, want {sorted(want)}")
for key, values in want.items():
    r = got.get(key)
    if r is None:
        continue
    n = len(values)
    mean = sum(values) / n
    if n == 2:
        s = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        half = 12.706 * s / math.sqrt(2)
        spread += s > 0
        if abs(float(r["ci95"]) - half) > 1e-4 * half + 1e-9:
            bad.append(f"{key}: ci95 {r['ci95']}, want {half}")
    elif r["ci95"] not in ("", "nan"):
        bad.append(f"{key}: ci95 {r['ci95']} for n = 1, want none")
    if int(r["n"]) != n:
        bad.append(f"{key}: n {r['n']}, want {n}")
    if abs(float(r["mean"]) - mean) > 1e-6 * max(1, abs(mean)):
        bad.append(f"{key}: mean {r['mean']}, want {mean}")
if spread == 0:
    bad.append("no group has two different values: the CI check checks nothing")
print("; ".join(bad) if bad else "ok")
PY
}

# 1. p99 against the flow size, one line per mechanism.
plot "$db" p99 --x 'workloads[0].bytes' --by p2mp.mechanism -o "$tmp/p99.png" \
    --csv "$tmp/p99.csv"
verdict=$(figure "$tmp/p99.png")
if [[ $rc -ne 0 ]]; then
    fail "p99: exit $rc" "$(cat "$tmp/err")"
elif [[ $verdict != ok ]]; then
    fail "p99 figure: $verdict"
else
    verdict=$(ci "$tmp/p99.csv" p99)
    if [[ $verdict == ok ]] && grep -q "^runs: 8 used, 0 skipped" "$tmp/err"; then
        pass "p99: PNG+PDF; CSV means and CIs (12.706*s/sqrt(2)) = the runs table's, 8 runs used"
    else
        fail "p99 CSV: $verdict" "$(cat "$tmp/err")"
    fi
fi

# 2. Failed and incomplete runs are not used (a copy with one of each): n = 1, no CI there.
cp "$db" "$tmp/skip.sqlite"
$python - "$tmp/skip.sqlite" <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
ids = [r[0] for r in con.execute("""select id from runs where "p2mp.mechanism" = 'bier'
                                    order by "workloads[0].bytes", seed""")]
con.execute("update runs set status = 'failed' where id = ?", (ids[0],))
con.execute("update runs set complete = 0 where id = ?", (ids[2],))
con.commit()
PY
plot "$tmp/skip.sqlite" p99 -o "$tmp/skip.png" --csv "$tmp/skip.csv"
verdict=$(ci "$tmp/skip.csv" p99 "$tmp/skip.sqlite")
if [[ $rc -eq 0 && $verdict == ok ]] &&
    grep -q "^runs: 6 used, 2 skipped (1 failed, 0 invalid, 1 incomplete)" "$tmp/err"; then
    pass "a failed and an incomplete run are skipped and counted; default --x and --by"
else
    fail "skipped runs: exit $rc: $verdict" "$(cat "$tmp/err")"
fi

# 3. Bars: one bar per mechanism for each metric; a missing column is a note, not a crash.
plot "$db" bars --where 'workloads[0].bytes=131072' -o "$tmp/bars-one.png"
if [[ $rc -ne 0 ]] || ! grep -q "^runs: 4 used" "$tmp/err"; then
    fail "bars with --where: exit $rc, expected 4 runs used" "$(cat "$tmp/err")"
else
    pass "bars: --where 'workloads[0].bytes=131072' keeps 4 runs"
fi
plot "$db" bars --metrics network.acks_at_senders,network.header_bytes,no.such,w0.duration_us.p50 \
    --where 'workloads[0].bytes=131072' -o "$tmp/bars.png" --csv "$tmp/bars.csv"
verdict=$(figure "$tmp/bars.png")
[[ $verdict == ok ]] && verdict=$(ci "$tmp/bars.csv" bars)
if [[ $rc -eq 0 && $verdict == ok ]] && grep -q "no column 'no.such'" "$tmp/err"; then
    pass "bars: PNG+PDF; means and CIs = the runs table's; missing column noted and skipped"
else
    fail "bars: exit $rc: $verdict" "$(cat "$tmp/err")"
fi
plot "$db" bars --metrics network.acks_at_senders,network.header_bytes,no.such,w0.duration_us.p50 \
    --where 'workloads[0].bytes=131072' -o "$tmp/bars2.png"
if cmp -s "$tmp/bars.png" "$tmp/bars2.png" && cmp -s "$tmp/bars.pdf" "$tmp/bars2.pdf"; then
    pass "bars: the same database gives the same PNG and PDF bytes"
else
    fail "bars: two calls on the same database gave different files"
fi

# 4. CDF of the flows per mechanism, pooled over the flow sizes on purpose (--pool):
#    percentiles of the pooled ops rows, nearest rank.
plot "$db" cdf --workload perm --by p2mp.mechanism --pool -o "$tmp/cdf.png" --csv "$tmp/cdf.csv"
verdict=$(figure "$tmp/cdf.png")
if [[ $verdict == ok ]]; then
    verdict=$($python - "$tmp/cdf.csv" "$db" <<'PY'
import csv, math, sqlite3, sys
con = sqlite3.connect(sys.argv[2])
bad = []
rows = {r["series"]: r for r in csv.DictReader(open(sys.argv[1]))}
for mech in ("unicast", "bier"):
    v = sorted(x for (x,) in con.execute(
        """select duration_us from ops join runs on runs.id = ops.run_id
           where workload = 'perm' and "p2mp.mechanism" = ? and status = 'ok'""", (mech,)))
    r = rows.get(mech)
    if r is None:
        bad.append(f"no row {mech}")
        continue
    n = len(v)
    for key, p in (("p50", 0.5), ("p99", 0.99)):
        want = v[max(1, math.ceil(p * n)) - 1]
        if abs(float(r[key]) - want) > 1e-9 * want:
            bad.append(f"{mech} {key}: {r[key]}, want {want}")
    if int(r["count"]) != n or n != 32:
        bad.append(f"{mech}: count {r['count']}, want {n} = 32 (8 flows x 4 runs)")
print("; ".join(bad) if bad else "ok")
PY
)
fi
if [[ $rc -eq 0 && $verdict == ok ]] &&
    grep -q "^note: pooled over workloads\[0\].bytes = 32768, 131072 (--pool)" "$tmp/err"; then
    pass "cdf --pool: PNG+PDF; per mechanism p50/p99 = nearest rank of the pooled ops rows"
else
    fail "cdf: exit $rc: $verdict" "$(cat "$tmp/err")"
fi
plot "$db" cdf --workload bcast --metric queue_us --by 'workloads[0].bytes' --pool -o "$tmp/q.png"
verdict=$(figure "$tmp/q.png")
if [[ $rc -eq 0 && $verdict == ok ]]; then
    pass "cdf --metric queue_us --by another key"
else
    fail "cdf queue_us: exit $rc: $verdict" "$(cat "$tmp/err")"
fi

# 4b. A configuration is the tuple of the --by keys (given twice, or comma-separated): one
#     series per (mechanism, size), labelled k1=v1, k2=v2; without --by the same tuple (the
#     keys that vary), so nothing is pooled.
for by in "--by p2mp.mechanism --by workloads[0].bytes" "--by p2mp.mechanism,workloads[0].bytes" ""; do
    # shellcheck disable=SC2086
    plot "$db" cdf --workload perm $by -o "$tmp/tuple.png" --csv "$tmp/tuple.csv"
    series=$($python -c 'import csv, sys
print("|".join(r["series"] + ":" + r["count"] for r in csv.DictReader(open(sys.argv[1]))))' \
        "$tmp/tuple.csv" 2>/dev/null)
    expected="mechanism=unicast, bytes=32 KiB:16|mechanism=unicast, bytes=128 KiB:16|mechanism=bier, bytes=32 KiB:16|mechanism=bier, bytes=128 KiB:16"
    if [[ $rc -eq 0 && $series == "$expected" ]] && ! grep -q pooled "$tmp/err"; then
        pass "cdf ${by:-without --by}: 4 series labelled mechanism=..., bytes=..., 16 flows each"
    else
        fail "cdf ${by:-without --by}: exit $rc, series '$series'" "expected '$expected'" \
            "$(cat "$tmp/err")"
    fi
done

# 5. Bad input: error: and exit 2, no figure.
printf 'not a database\n' >"$tmp/text.sqlite"
$python -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("create table t (a)")' \
    "$tmp/other.sqlite"
cp "$db" "$tmp/none.sqlite"
$python -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("update runs set status = '"'failed'"'"); c.commit()' \
    "$tmp/none.sqlite"
expect_error() {  # DESCRIPTION PATTERN ARGS...
    local what=$1 pattern=$2
    shift 2
    plot "$@" -o "$tmp/bad.png"
    if [[ $rc -eq 2 ]] && grep -q "^error: .*$pattern" "$tmp/err" &&
        ! grep -q Traceback "$tmp/err"; then
        pass "$what: exit 2, $(grep '^error:' "$tmp/err")"
    else
        fail "$what: exit $rc, expected 2 and 'error: ...$pattern'" "$(cat "$tmp/err")"
    fi
}
axes='swept keys: p2mp.mechanism, workloads\[0\].bytes'
expect_error "missing database" "nope.sqlite: no such database" "$tmp/nope.sqlite" bars
expect_error "not SQLite" "not a sweep database" "$tmp/text.sqlite" bars
expect_error "SQLite, not a sweep" "not a sweep database" "$tmp/other.sqlite" bars
expect_error "unknown KIND" "unknown KIND 'pie' (kinds: cdf, p99, bars)" "$db" pie
expect_error "unknown --by" "--by 'nope': no such column ($axes)" "$db" bars --by nope
expect_error "unknown --x" "--x 'nope': no such column ($axes)" "$db" p99 --x nope
expect_error "non-numeric --x" "--x 'p2mp.mechanism' is not numeric" "$db" p99 --x p2mp.mechanism
expect_error "unknown p99 --metric" "--metric 'w9.nope': no column 'w9.nope.p99' in runs (distributions: .*w0.duration_us" \
    "$db" p99 --metric w9.nope
expect_error "unknown cdf --metric" "--metric 'nope': no such ops column (numeric ones: .*queue_us" \
    "$db" cdf --workload perm --metric nope
expect_error "cdf, several workloads" "choose one with --workload: perm, bcast" "$db" cdf
expect_error "no ok runs" "no ok runs match" "$tmp/none.sqlite" bars
expect_error "--where matching nothing" \
    "--where 'p2mp.mechanism=bier-xpu-list' matches no run (values of p2mp.mechanism: unicast, bier)" \
    "$db" bars --where p2mp.mechanism=bier-xpu-list
expect_error "--where of an unknown key" "--where 'nope=1': no column 'nope'" "$db" bars --where nope=1
expect_error "bars pooling a swept key" \
    "the runs of one bar differ in workloads\[0\].bytes (32768, 131072): add it to --by, choose a value with --where 'workloads\[0\].bytes=VALUE', or give --pool" \
    "$db" bars --by p2mp.mechanism
expect_error "cdf pooling a swept key" "the runs of one curve differ in p2mp.mechanism (unicast, bier)" \
    "$db" cdf --workload perm --by 'workloads[0].bytes'
expect_error "p99 pooling a swept key" "the runs of one point differ in p2mp.mechanism" \
    "$db" p99 --x 'workloads[0].bytes' --by seed
if [[ -e $tmp/bad.png || -e $tmp/bad.pdf ]]; then
    fail "a figure was written although the input was bad"
fi

finish
