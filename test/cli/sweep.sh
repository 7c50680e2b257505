#!/usr/bin/env bash
# scripts/sweep: a grid of --set values x seeds lands in SQLite with one row per point and the
# status the runner's exit code says (0/3 ok, 2 invalid, else failed); an ok row's metrics are
# those of summary.json of the same run done by hand and its ops rows those of its ops.csv;
# --zip advances axes together, --skip drops points, a JSON list is one value; a sweep killed
# with SIGKILL resumes without running a finished point again; a finished sweep runs nothing
# and one more seed runs only the new points; failed runs (crash, --timeout) are retried by the
# next invocation, invalid ones are not; a sweep whose every point is invalid exits 1 with the
# runner's reasons; --unset KEY passes --set KEY=null to every run; a bad sweep is `error:`,
# exit 2, before anything runs and without a database.
#
# Usage: bash sweep.sh RUNNER_BINARY SOURCE_DIR
#
# The scenario (written to a temp dir): an 8-host leaf-spine (2 leaves x 4 hosts, 2 spines), a
# broadcast of 2 messages of 64 KiB from host 0 to the 7 others and a permutation of 64 KiB
# flows: 2 + 8 = 10 ops.csv rows per run, a few milliseconds of wall time each. The runs go
# through a wrapper (--runner) that appends its arguments to $CALLS and can be told to crash,
# hang or sleep first.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
src=$2
python=/usr/bin/python3
script=$src/scripts/sweep

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
source "$(dirname "${BASH_SOURCE[0]}")/lib/sweep-fixture.bash"

require_runner "$runner"
require_python_script "$script"

tmp=$(mktemp -d)
export TMPDIR=$tmp  # where scripts/sweep puts its runs (a SIGKILLed sweep leaves them)
killed_pgid=
finish_hook() {
    if [[ -n $killed_pgid ]]; then
        kill -KILL -- "-$killed_pgid" 2>/dev/null
    fi
}
trap 'finish_hook; rm -rf "$tmp"' EXIT

sweep_scenario "$tmp/tiny.json"
sweep_wrapper "$tmp/wrapper" "$runner"

# sweep ARGS...: run scripts/sweep on the scenario through the wrapper; stderr to $tmp/err,
# exit code to $rc.
sweep() {
    "$script" "$tmp/tiny.json" --runner "$tmp/wrapper" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}


# runs FILE: runner invocations logged in FILE that are runs (they pass --seed), and checks
# (the key check passes no --seed).
runs() { grep -c -- '--seed ' "$1" 2>/dev/null || true; }
checks() { grep -vc -- '--seed ' "$1" 2>/dev/null || true; }

grid=(--set p2mp.mechanism=unicast,bier --set p2mp.ack_aggregation=none,sender-nic,source-tor)

# 1. 2 mechanisms x 3 ACK aggregations x 2 seeds = 12 points. The runner accepts mechanism
#    unicast only with ack_aggregation none (scenario reference, rule of p2mp.ack_aggregation),
#    so unicast x {sender-nic, source-tor} x 2 seeds = 4 points are invalid, 8 are ok.
db=$tmp/grid.sqlite
CALLS=$tmp/calls-grid sweep --db "$db" "${grid[@]}" --seeds 2 --jobs 2
counts=$(q "$db" "select status, count(*), count(distinct point) from runs
                  group by status order by status")
if [[ $rc -ne 0 ]]; then
    fail "grid sweep: exit $rc, expected 0" "$(cat "$tmp/err")"
elif [[ $counts != $'invalid|4|4\nok|8|8' ]]; then
    fail "grid sweep: status|rows|points = $(echo $counts), expected invalid|4|4 ok|8|8"
elif [[ $(runs "$tmp/calls-grid") -ne 12 || $(checks "$tmp/calls-grid") -ne 0 ]]; then
    fail "grid sweep: $(runs "$tmp/calls-grid") runs and $(checks "$tmp/calls-grid") key" \
        "checks, expected 12 and 0 (every axis key is in the scenario file)"
else
    pass "grid sweep: 12 points, 12 runs: 8 ok, 4 invalid, 0 failed"
fi
invalid=$(q "$db" "select \"p2mp.mechanism\", \"p2mp.ack_aggregation\", seed, exit_code,
                   error like '%must be ''none'' with p2mp.mechanism ''unicast''%'
                   from runs where status = 'invalid' order by 2, 3")
expected=$'unicast|sender-nic|1|2|1\nunicast|sender-nic|2|2|1\nunicast|source-tor|1|2|1\nunicast|source-tor|2|2|1'
if [[ $invalid == "$expected" ]] && [[ $(q "$db" "select count(*) from ops join runs
        on runs.id = ops.run_id where status != 'ok'") -eq 0 ]]; then
    pass "grid sweep: the invalid rows are unicast x {sender-nic, source-tor}, with the runner's message, no ops"
else
    fail "grid sweep: invalid rows (mechanism|aggregation|seed|exit|message matches):" \
        "$(echo $invalid)" "expected $(echo $expected), and no ops rows for them"
fi

# Two ok points run by hand: every deterministic number of summary.json is its row's column
# (network.* and w<i>.* flattened with dots, booleans 0/1), and ops holds ops.csv row by row.
for point in "unicast none 1" "bier source-tor 2"; do
    read -r mech agg seed <<<"$point"
    out=$tmp/direct-$mech-$agg-$seed
    if ! "$runner" "$tmp/tiny.json" --quiet --out "$out" --seed "$seed" \
        --set "p2mp.mechanism=$mech" --set "p2mp.ack_aggregation=$agg" >"$tmp/run.log" 2>&1; then
        fail "direct run $point" "$(tail -n 3 "$tmp/run.log")"
        continue
    fi
    verdict=$($python - "$db" "$out" "$mech" "$agg" "$seed" <<'PY'
import csv, json, sqlite3, sys
db, out, mech, agg, seed = sys.argv[1:]
con = sqlite3.connect(db)
con.row_factory = sqlite3.Row
rows = con.execute('select * from runs where "p2mp.mechanism" = ? and '
                   '"p2mp.ack_aggregation" = ? and seed = ?', (mech, agg, int(seed))).fetchall()
if len(rows) != 1:
    sys.exit(print(f"{len(rows)} rows"))
row = rows[0]
s = json.load(open(f"{out}/summary.json"))
want = {"status": "ok", "revision": s["revision"], "scenario": s["scenario"],
        "mechanism": s["mechanism"], "seed": s["seed"]}
def walk(prefix, v):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(f"{prefix}.{k}", x)
    elif isinstance(v, bool):
        want[prefix] = int(v)
    elif isinstance(v, (int, float)):
        want[prefix] = v
for k, v in s["network"].items():
    walk(f"network.{k}", v)
for i, w in enumerate(s["workloads"]):
    for k, v in w.items():
        walk(f"w{i}.{k}", v)
for k in ("sim_time_s", "events", "packet_hops", "complete"):
    walk(k, s[k])
bad = [f"{k}: row {row[k] if k in row.keys() else 'no column'}, summary.json {v}"
       for k, v in want.items() if k not in row.keys() or row[k] != v]
for k in ("w0.duration_us.p99", "w1.duration_us.p50", "network.switch_state.bift_entries"):
    if k not in want:
        bad.append(f"summary.json has no {k}")
ops = list(csv.DictReader(open(f"{out}/ops.csv")))
got = con.execute("select * from ops where run_id = ? order by rowid", (row["id"],)).fetchall()
if len(got) != len(ops) or len(ops) != 10:
    bad.append(f"{len(got)} ops rows, ops.csv has {len(ops)}, expected 2 + 8 = 10")
def number(text):
    try:
        return float(text)
    except ValueError:
        return None
for r, g in zip(ops, got):
    for col, text in r.items():  # numbers as numbers (integers exactly), text as text
        v = g[col]
        if text == "":
            same = v is None
        elif number(text) is None:
            same = v == text
        else:
            same = isinstance(v, (int, float)) and number(text) == v and \
                   (isinstance(v, float) or int(text) == v)
        if not same:
            bad.append(f"ops {r['workload']} op {r['op']} {col}: {v!r}, ops.csv '{text}'")
print("; ".join(bad[:5]) if bad else "ok")
PY
)
    if [[ $verdict == ok ]]; then
        pass "ok row $mech/$agg/seed $seed = summary.json and ops.csv of the run by hand"
    else
        fail "ok row $mech/$agg/seed $seed: $verdict"
    fi
done
ops_counts=$(q "$db" "select count(*) from runs where status = 'ok' and
                      (select count(*) from ops where run_id = runs.id) = 10")
if [[ $ops_counts -eq 8 ]]; then
    pass "grid sweep: each of the 8 ok runs has its 10 ops rows"
else
    fail "grid sweep: $ops_counts of 8 ok runs have 10 ops rows"
fi

# 1b. --zip, --skip and a JSON list: bytes and ranks advance together (2 values) x 2
#     mechanisms - 1 skipped = 3 points; the ranks key is not in the scenario file, so it is
#     checked with one runner invocation; a broadcast to ranks [0,1,2,3] from root 0 has 3
#     receivers per message, to [0,4,5,6,7] 4.
db=$tmp/zip.sqlite
CALLS=$tmp/calls-zip sweep --db "$db" --set 'workloads[0].bytes=32768,65536' \
    --set 'workloads[0].ranks=[0,1,2,3],[0,4,5,6,7]' --set p2mp.mechanism=bier,new-protocol \
    --zip 'workloads[0].bytes,workloads[0].ranks' \
    --skip 'workloads[0].bytes=32768,p2mp.mechanism=new-protocol' --jobs 1
points=$(q "$db" "select \"workloads[0].bytes\", \"workloads[0].ranks\", \"p2mp.mechanism\",
                  status, (select group_concat(distinct receivers || 'x' || bytes) from ops
                           where run_id = runs.id and workload = 'bcast')
                  from runs order by 1, 3")
expected=$'32768|[0,1,2,3]|bier|ok|3x32768\n65536|[0,4,5,6,7]|bier|ok|4x65536\n65536|[0,4,5,6,7]|new-protocol|ok|4x65536'
if [[ $rc -eq 0 && $points == "$expected" ]] &&
    [[ $(runs "$tmp/calls-zip") -eq 3 && $(checks "$tmp/calls-zip") -eq 1 ]]; then
    pass "zip + skip + JSON list: 3 points, 3 runs and 1 key check, receivers and bytes as set"
else
    fail "zip + skip: exit $rc, $(runs "$tmp/calls-zip") runs, $(checks "$tmp/calls-zip") checks" \
        "rows: $(echo $points)" "expected: $(echo $expected)" "$(cat "$tmp/err")"
fi

# 2. Resume: the grid again into a new database, one run at a time, each run 0.3 s slower;
#    SIGKILL to the sweep's process group once 2 rows are ok; the same command again.
db=$tmp/resume.sqlite
calls=$tmp/calls-resume
SLOW=0.3 CALLS=$calls setsid "$script" "$tmp/tiny.json" --runner "$tmp/wrapper" --db "$db" \
    "${grid[@]}" --seeds 2 --jobs 1 >"$tmp/out" 2>"$tmp/err-killed" &
pid=$!
killed_pgid=$pid
for _ in $(seq 200); do
    ok=$(q "$db" "select count(*) from runs where status = 'ok'" 2>/dev/null)
    [[ ${ok:-0} -ge 2 ]] && break
    sleep 0.05
done
if [[ $(ps -o pgid= -p "$pid" | tr -d ' ') != "$pid" ]]; then
    fail "resume: setsid did not make the sweep a process group leader"
fi
kill -KILL -- "-$pid" 2>/dev/null
wait "$pid" 2>/dev/null
killed_pgid=
before=$(q "$db" "select count(*) from runs")
first=$(wc -l <"$calls")
CALLS=$calls sweep --db "$db" "${grid[@]}" --seeds 2 --jobs 1
total=$(wc -l <"$calls")
state=$(q "$db" "select count(*), count(distinct point), sum(status = 'ok'),
                 sum(status = 'invalid') from runs")
if [[ ${ok:-0} -lt 2 || $before -ge 12 ]]; then
    fail "resume: the kill did not land mid-sweep ($ok ok rows seen, $before rows after it)" \
        "$(cat "$tmp/err-killed")"
elif [[ $rc -ne 0 ]]; then
    fail "resume: second attempt exit $rc" "$(cat "$tmp/err")"
elif [[ $state != "12|12|8|4" ]]; then
    fail "resume: rows|points|ok|invalid = $state, expected 12|12|8|4"
elif [[ $total -lt 12 || $total -gt 13 ]]; then
    fail "resume: $total runner invocations ($first before the kill), expected 12 or 13" \
        "(12 points, plus the one in flight when killed)"
else
    pass "resume: killed after $before rows ($first invocations), finished with $total invocations for 12 points, no point twice"
fi

# 3. The finished grid again: nothing runs, nothing changes; one more seed: 6 new points.
db=$tmp/grid.sqlite
rows_before=$(q "$db" "select id, point, status from runs order by id" | md5sum)
CALLS=$tmp/calls-again sweep --db "$db" "${grid[@]}" --seeds 2 --jobs 2
if [[ $rc -eq 0 && ! -s $tmp/calls-again ]] &&
    [[ $(q "$db" "select id, point, status from runs order by id" | md5sum) == "$rows_before" ]] &&
    grep -q "12 points: 8 ok, 0 failed, 4 invalid (0 run now)" "$tmp/err"; then
    pass "rerun of a finished sweep: no runner invocation, the 12 rows unchanged"
else
    fail "rerun of a finished sweep: exit $rc, $(cat "$tmp/calls-again" 2>/dev/null | wc -l)" \
        "invocations, expected 0 and the rows unchanged" "$(cat "$tmp/err")"
fi
CALLS=$tmp/calls-seed3 sweep --db "$db" "${grid[@]}" --seeds 3 --jobs 2
state=$(q "$db" "select count(*), sum(status = 'ok'), sum(status = 'invalid'),
                 sum(seed = 3) from runs")
if [[ $rc -eq 0 && $state == "18|12|6|6" ]] &&
    [[ $(runs "$tmp/calls-seed3") -eq 6 && $(grep -vc -- '--seed 3' "$tmp/calls-seed3") -eq 0 ]] &&
    [[ $(q "$db" "select id, point, status from runs where id <= 12 order by id" | md5sum) \
        == "$rows_before" ]]; then
    pass "--seeds 3 after --seeds 2: 6 runs, all of seed 3; 18 rows, the first 12 untouched"
else
    fail "--seeds 3: exit $rc, rows|ok|invalid|seed-3 rows = $state (expected 18|12|6|6)," \
        "$(runs "$tmp/calls-seed3") runs (expected 6)" "$(cat "$tmp/err")"
fi

# 4. Bad sweeps: exit 2, the problem named, no database, and no runner invocation but the
#    key check of the unknown keys.
expect_error() {  # DESCRIPTION PATTERN CHECKS ARGS...
    local what=$1 pattern=$2 want_checks=$3
    shift 3
    rm -f "$tmp/bad.sqlite" "$tmp/calls-bad"
    CALLS=$tmp/calls-bad sweep --db "$tmp/bad.sqlite" "$@"
    local n_runs n_checks
    n_runs=$(runs "$tmp/calls-bad")
    n_checks=$(checks "$tmp/calls-bad")
    if [[ $rc -ne 2 ]] || ! grep -q -- "^error: .*$pattern" "$tmp/err"; then
        fail "$what: exit $rc, expected 2 and 'error: ...$pattern'" "$(cat "$tmp/err")"
    elif [[ -e $tmp/bad.sqlite ]]; then
        fail "$what: the database was created"
    elif [[ $n_runs -ne 0 || $n_checks -ne $want_checks ]]; then
        fail "$what: $n_runs runs and $n_checks key checks, expected 0 and $want_checks"
    else
        pass "$what: exit 2, $(head -n 1 "$tmp/err")"
    fi
}
expect_error "--set without '='" "--set 'p2mp.mechanism': no '='" 0 --set p2mp.mechanism
expect_error "--set with an empty key" "--set '=bier': empty key" 0 --set =bier
expect_error "--set with no values" "--set 'p2mp.mechanism=': empty axis" 0 --set p2mp.mechanism=
expect_error "--set with an empty value" "empty value (value 2 of 3)" 0 \
    --set p2mp.mechanism=bier,,unicast
expect_error "--zip of unequal axes" \
    "axes of different lengths (p2mp.mechanism: 2 values, nic.mtu_bytes: 3 values)" 0 \
    --set p2mp.mechanism=bier,unicast --set nic.mtu_bytes=1024,2048,4096 \
    --zip p2mp.mechanism,nic.mtu_bytes
expect_error "--zip of a key that is not an axis" "'nic.mtu_bytes' is not an axis" 0 \
    --set p2mp.mechanism=bier,unicast --zip p2mp.mechanism,nic.mtu_bytes
expect_error "--skip of a key that is not an axis" "'nic.mtu_bytes' is not an axis" 0 \
    --set p2mp.mechanism=bier,unicast --skip nic.mtu_bytes=1024
expect_error "unknown key" "--set p2mp.bogus: .*unknown key 'bogus'" 1 \
    --set p2mp.bogus=1,2 --set p2mp.mechanism=bier,unicast
expect_error "unknown key in a workload" "--set workloads\[1\].bogus: .*unknown key 'bogus'" 1 \
    --set 'workloads[1].bogus=1'
expect_error "index out of range" "index 2 is out of range" 1 --set 'workloads[2].bytes=1'
expect_error "--seeds 0" "--seeds 0: must be at least 1" 0 --seeds 0
expect_error "--jobs 0" "--jobs 0: must be at least 1" 0 --jobs 0
SLURM_CONF=/nonexistent expect_error "--backend slurm without a cluster" \
    "--backend slurm: cannot reach SLURM" 0 --backend slurm
expect_error "--partition without SLURM" "only for --backend slurm" 0 --partition x
expect_error "runner not executable" "--runner $tmp/tiny.json: not an executable file" 0 \
    --runner "$tmp/tiny.json"
rm -f "$tmp/bad.sqlite"
CALLS=$tmp/calls-bad "$script" "$tmp/nope.json" --runner "$tmp/wrapper" --db "$tmp/bad.sqlite" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q "^error: $tmp/nope.json: no such scenario file" "$tmp/err" &&
    [[ ! -e $tmp/bad.sqlite ]]; then
    pass "missing scenario: exit 2, $(head -n 1 "$tmp/err")"
else
    fail "missing scenario: exit $rc, expected 2 and 'no such scenario file'" "$(cat "$tmp/err")"
fi

# 5. A run that crashes or passes --timeout is failed (exit 1) and retried by the next
#    invocation, in place; an invalid one is not retried.
db=$tmp/retry.sqlite
FAIL_IF=bier CALLS=$tmp/calls-retry sweep --db "$db" "${grid[@]}" --jobs 1
rc_first=$rc
first=$(q "$db" "select status, count(*) from runs group by status order by status")
errors=$(q "$db" "select count(*) from runs where status = 'failed' and
                  error = 'exit 1' || char(10) || 'wrapper: simulated crash'")
CALLS=$tmp/calls-retry2 sweep --db "$db" "${grid[@]}" --jobs 1
state=$(q "$db" "select count(*), sum(status = 'ok'), sum(status = 'invalid'), max(id) from runs")
if [[ $rc_first -ne 1 || $first != $'failed|3\ninvalid|2\nok|1' ]]; then
    fail "crashing runs: exit $rc_first, status|rows = $(echo $first)," \
        "expected exit 1 and failed|3 invalid|2 ok|1"
elif [[ $errors -ne 3 ]]; then
    fail "crashing runs: $errors of 3 error columns are 'exit 1' and the runner's stderr"
elif [[ $rc -ne 0 || $state != "6|4|2|6" || $(runs "$tmp/calls-retry2") -ne 3 ]]; then
    fail "retry: exit $rc, rows|ok|invalid|max id = $state (expected 6|4|2|6)," \
        "$(runs "$tmp/calls-retry2") runs (expected the 3 failed ones)" "$(cat "$tmp/err")"
else
    pass "crashed runs: failed, exit 1; the next invocation reruns only those 3, in place"
fi
db=$tmp/timeout.sqlite
start=$(date +%s.%N)
HANG=1 CALLS=$tmp/calls-hang sweep --db "$db" --set p2mp.mechanism=bier --timeout 0.5
took=$($python -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" \
    "$start" "$(date +%s.%N)")
row=$(q "$db" "select status, error from runs")
if [[ $rc -eq 1 && $row == "failed|timed out after 0.5 s" ]] &&
    $python -c "import sys; sys.exit(float(sys.argv[1]) > 10)" "$took"; then
    pass "--timeout 0.5: the hanging run is killed, failed, exit 1 (after ${took%.*} s)"
else
    fail "--timeout: exit $rc, row '$row', ${took} s" "$(cat "$tmp/err")"
fi

# 6. Every point invalid (unicast with an ACK aggregation): exit 1, the runner's reasons on
#    stderr, each distinct one (here one per aggregation) with its number of points; the same
#    again runs nothing and still exits 1.
db=$tmp/invalid.sqlite
for attempt in first again; do
    CALLS=$tmp/calls-invalid sweep --db "$db" --set p2mp.mechanism=unicast \
        --set p2mp.ack_aggregation=sender-nic,source-tor --seeds 2 --jobs 2
    if [[ $rc -eq 1 ]] && grep -q "^sweep: every point is invalid" "$tmp/err" &&
        [[ $(grep -c "^  error: .*p2mp.ack_aggregation: must be 'none' with p2mp.mechanism 'unicast', got .* (2 points)$" "$tmp/err") -eq 2 ]] &&
        grep -q "4 points: 0 ok, 0 failed, 4 invalid" "$tmp/err" &&
        [[ $(runs "$tmp/calls-invalid") -eq 4 ]]; then
        pass "every point invalid ($attempt): exit 1, the runner's 2 reasons (2 points each) on stderr"
    else
        fail "every point invalid ($attempt): exit $rc, $(runs "$tmp/calls-invalid") runs" \
            "(expected 1 and 4 runs in all)" "$(cat "$tmp/err")"
    fi
done

# 7. --unset KEY: every run gets --set KEY=null (the runner removes the key, its default
#    applies), the column holds null; --set KEY=null is the same point; --unset of a key the
#    scenario does not have is a bad sweep, found by the key check.
db=$tmp/unset.sqlite
CALLS=$tmp/calls-unset sweep --db "$db" --unset switch.latency_ns --set p2mp.mechanism=bier
row=$(q "$db" "select status, \"switch.latency_ns\" from runs")
if [[ $rc -eq 0 && $row == "ok|null" ]] &&
    grep -q -- "--seed 1 --set switch.latency_ns=null --set p2mp.mechanism=bier$" "$tmp/calls-unset"; then
    pass "--unset switch.latency_ns: the run gets --set switch.latency_ns=null, ok, column null"
else
    fail "--unset: exit $rc, row '$row'" "$(cat "$tmp/calls-unset")" "$(cat "$tmp/err")"
fi
CALLS=$tmp/calls-unset2 sweep --db "$db" --set switch.latency_ns=null --set p2mp.mechanism=bier
if [[ $rc -eq 0 && ! -s $tmp/calls-unset2 ]] && grep -q "1 points, 1 already in" "$tmp/err"; then
    pass "--set switch.latency_ns=null is the point of --unset switch.latency_ns: nothing to run"
else
    fail "--set KEY=null after --unset KEY: exit $rc" "$(cat "$tmp/err")"
fi
expect_error "--unset of a key the scenario lacks" \
    "--unset nic.rto_us: the runner does not accept this key: .*nothing to remove" 1 \
    --unset nic.rto_us
expect_error "--unset KEY=VALUE" "--unset 'nic.mtu_bytes=1': expected a key alone" 0 \
    --unset nic.mtu_bytes=1

finish
