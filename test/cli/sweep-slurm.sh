#!/usr/bin/env bash
# scripts/sweep --backend slurm on a real single-node SLURM cluster that this test starts: the
# same sweep gives the same rows as --backend local (every column but the run id and the
# machine measures: wall_s, *_per_s, peak_rss_mb; the ops rows too), with an invalid point
# (runner exit 2, its message) and a failed one (a crash, retried by the next invocation, as
# one more job array of one task); the sweep is ONE sbatch --array job; a finished sweep run
# again submits nothing; a sweep SIGKILLed while its array runs is finished by the next
# invocation, which adopts the array instead of submitting the points again; the working
# directory next to the database is gone once everything is collected.
#
# Usage: bash sweep-slurm.sh RUNNER_BINARY SOURCE_DIR
#
# The cluster: munged (a key made for the test, its own socket), slurmctld and slurmd from
# Debian's slurm-wlm and munge packages, as root, with a slurm.conf in a temp dir (this host's
# `hostname -s` as the node, free ports, a unique ClusterName, state, spool and logs in the temp
# dir, proctrack/linuxproc, task/none, no accounting). The test waits for sinfo to show the
# node idle, and on exit cancels its jobs and stops the daemons it started. It prints
# `SKIP: cli-sweep-slurm because ...` and exits 77, which ctest reports as a skip
# (SKIP_RETURN_CODE), only when the daemons cannot run: binaries missing, not root, or the
# node not idle within 30 s (their log tails are shown). The runs go through a wrapper runner that logs its invocations
# to $CALLS (SLURM passes the environment on) and can be told to crash or to sleep first;
# sbatch through a wrapper that logs its invocations.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$(realpath -m -- "$1")  # absolute: the sweeps run from a temp dir
src=$(realpath -m -- "$2")
python=/usr/bin/python3
script=$src/scripts/sweep
name=cli-sweep-slurm

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
source "$(dirname "${BASH_SOURCE[0]}")/lib/sweep-fixture.bash"
source "$(dirname "${BASH_SOURCE[0]}")/lib/slurm-cluster.bash"

require_runner "$runner"

tmp=$(mktemp -d)
export TMPDIR=$tmp
killed_pid=
finish_hook() {
    if [[ -n $killed_pid ]]; then
        kill -KILL "$killed_pid" 2>/dev/null
    fi
    stop_cluster
}
trap 'finish_hook; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

skip() {
    echo "SKIP: $name because $1"
    shift
    for f in "$@"; do
        if [[ -s $f ]]; then
            echo "--- last lines of $f:"
            tail -n 15 "$f"
        fi
    done
    exit 77  # a skip (ctest's SKIP_RETURN_CODE); the EXIT trap stops what was started
}

# --- The cluster -----------------------------------------------------------------------------

mkdir -p "$tmp/bin"
if ! start_cluster "$tmp" sweeptest; then
    skip "$cluster_why" "${cluster_logs[@]}"
fi
pass "$cluster_up"

# sbatch through a wrapper that logs its invocations.
real_sbatch=$(command -v sbatch)
cat >"$tmp/bin/sbatch" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$tmp/sbatch-calls"
exec "$real_sbatch" "\$@"
EOF
chmod +x "$tmp/bin/sbatch"
export PATH=$tmp/bin:$PATH
touch "$tmp/sbatch-calls"

# --- The sweep -------------------------------------------------------------------------------

sweep_scenario "$tmp/tiny.json"
sweep_wrapper "$tmp/wrapper" "$runner"

# The sweeps run from $tmp with the scenario as a relative path, as a user would: the runner's
# messages (the invalid point's error) name it as given, so both backends must pass it so.
cd "$tmp" || exit 1
# sweep ARGS...: scripts/sweep on the scenario through the wrapper, one run at a time (the
# array's task limit for slurm); stderr to $tmp/err, exit code to $rc.
sweep() {
    "$script" tiny.json --runner ./wrapper --jobs 1 "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
# same A.sqlite B.sqlite: "same N rows ..." when both databases hold the same points with the
# same values in every column but the run id and the machine measures, and the same ops rows
# (all but run_id) in the same order; else what differs.
same() {
    $python - "$@" <<'PY'
import re, sqlite3, sys
MACHINE = re.compile(r"^(id|wall_s|peak_rss_mb)$|_per_s$")
def load(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    runs = {}
    for r in con.execute("select * from runs"):
        cols = {k: r[k] for k in r.keys() if not MACHINE.search(k)}
        ops = [tuple((k, o[k]) for k in o.keys() if k != "run_id")
               for o in con.execute("select * from ops where run_id = ? order by rowid",
                                    (r["id"],))]
        runs[r["point"]] = (cols, ops)
    return runs
a, b = load(sys.argv[1]), load(sys.argv[2])
bad = []
if set(a) != set(b):
    bad.append(f"points: {len(a)} and {len(b)}, {len(set(a) ^ set(b))} in one only")
for p in sorted(set(a) & set(b)):
    (ca, oa), (cb, ob) = a[p], b[p]
    if set(ca) != set(cb):
        bad.append(f"{p}: columns in one only: {sorted(set(ca) ^ set(cb))}")
    for k in sorted(set(ca) & set(cb)):
        if ca[k] != cb[k]:
            bad.append(f"{p}: {k}: {ca[k]!r} and {cb[k]!r}")
    if oa != ob:
        bad.append(f"{p}: ops rows differ ({len(oa)} and {len(ob)} rows)")
if bad:
    print("; ".join(bad[:4]))
else:
    cols = max((len(v[0]) for v in a.values()), default=0)
    print(f"same {len(a)} rows ({cols} columns compared) and {sum(len(v[1]) for v in a.values())} ops rows")
PY
}
runs() { grep -c -- '--seed ' "$1" 2>/dev/null || true; }
sbatches() { wc -l <"$tmp/sbatch-calls"; }

# 2 mechanisms x 2 ACK aggregations x 2 seeds = 8 points: unicast x source-tor is invalid (2
# points); bier x source-tor seed 2 crashes in the first invocation (FAIL_IF), then not.
grid=(--set p2mp.mechanism=unicast,bier --set p2mp.ack_aggregation=none,source-tor --seeds 2)
crash="--seed 2 --set p2mp.mechanism=bier --set p2mp.ack_aggregation=source-tor"

FAIL_IF=$crash CALLS=$tmp/calls-local sweep --db local.sqlite "${grid[@]}"
if [[ $rc -ne 1 ]]; then
    fail "local sweep: exit $rc, expected 1 (one failed run)" "$(cat "$tmp/err")"
fi

start=$SECONDS
FAIL_IF=$crash CALLS=$tmp/calls-slurm sweep --db slurm.sqlite "${grid[@]}" --backend slurm
took=$((SECONDS - start))
counts=$(q slurm.sqlite "select status, count(*) from runs group by status order by status")
if [[ $rc -ne 1 || $counts != $'failed|1\ninvalid|2\nok|5' ]]; then
    fail "slurm sweep: exit $rc, status|rows $(echo $counts), expected 1 and failed|1 invalid|2 ok|5" \
        "$(cat "$tmp/err")" "first failed run's error:" \
        "$(q slurm.sqlite "select error from runs where status = 'failed' limit 1")"
elif [[ $(sbatches) -ne 1 ]] || ! grep -q -- '--array=0-7%1 ' "$tmp/sbatch-calls"; then
    fail "slurm sweep: expected one sbatch --array=0-7%1, got:" "$(cat "$tmp/sbatch-calls")"
elif [[ $(runs "$tmp/calls-slurm") -ne 8 ]]; then
    fail "slurm sweep: $(runs "$tmp/calls-slurm") runner invocations, expected 8"
else
    pass "slurm sweep: one job array of 8 tasks (one sbatch), 5 ok, 2 invalid, 1 failed, exit 1 (${took} s)"
fi
verdict=$(same slurm.sqlite local.sqlite)
if [[ $verdict == same\ 8\ rows*\ and\ 50\ ops\ rows ]]; then
    pass "slurm rows = local rows: $verdict"
else
    fail "slurm rows and local rows differ: $verdict"
fi
invalid=$(q slurm.sqlite "select count(*) from runs where status = 'invalid' and exit_code = 2
    and error like 'error: tiny.json: p2mp.ack_aggregation: must be ''none'' with p2mp.mechanism ''unicast''%'")
crashed=$(q slurm.sqlite "select error from runs where status = 'failed'")
if [[ $invalid -eq 2 && $crashed == $'exit 1\nwrapper: simulated crash' ]]; then
    pass "slurm sweep: the invalid rows hold the runner's message, the failed one its exit and stderr"
else
    fail "slurm sweep: $invalid of 2 invalid rows with the runner's message; failed error '$crashed'"
fi
if [[ -e slurm.sqlite.slurm ]]; then
    fail "slurm sweep: its working directory slurm.sqlite.slurm is still there" \
        "$(find slurm.sqlite.slurm | head -n 5)"
else
    pass "slurm sweep: the working directory next to the database is removed once all is collected"
fi

# The next invocation runs the failed point again, as one job array of one task; then the
# finished sweep again submits nothing.
CALLS=$tmp/calls-local2 sweep --db local.sqlite "${grid[@]}"
CALLS=$tmp/calls-slurm2 sweep --db slurm.sqlite "${grid[@]}" --backend slurm
verdict=$(same slurm.sqlite local.sqlite)
if [[ $rc -ne 0 || $(sbatches) -ne 2 || $(runs "$tmp/calls-slurm2") -ne 1 ]] ||
    ! grep -q -- "--array=0-0%1 " "$tmp/sbatch-calls"; then
    fail "slurm retry: exit $rc, $(sbatches) sbatch in all (expected 2)," \
        "$(runs "$tmp/calls-slurm2") runs (expected 1)" "$(cat "$tmp/err")"
elif [[ $verdict != same\ 8\ rows*\ and\ 60\ ops\ rows ]]; then
    fail "slurm retry: 6 ok rows expected, the same as local: $verdict"
else
    pass "slurm retry: the failed point alone, one array of one task; rows = local rows"
fi
before=$(q slurm.sqlite "select * from runs order by id" | md5sum)
CALLS=$tmp/calls-slurm3 sweep --db slurm.sqlite "${grid[@]}" --backend slurm
if [[ $rc -eq 0 && $(sbatches) -eq 2 && ! -s $tmp/calls-slurm3 ]] &&
    grep -q "8 points: 6 ok, 0 failed, 2 invalid (0 run now)" "$tmp/err" &&
    [[ $(q slurm.sqlite "select * from runs order by id" | md5sum) == "$before" ]]; then
    pass "rerun of the finished slurm sweep: no sbatch, no run, rows unchanged"
else
    fail "rerun of the finished slurm sweep: exit $rc, $(sbatches) sbatch in all (expected 2)," \
        "$(cat "$tmp/calls-slurm3" 2>/dev/null | wc -l) runs (expected 0)" "$(cat "$tmp/err")"
fi

# SIGKILL while the array runs (each run 0.5 s slower, one at a time): the array goes on; the
# same command again adopts it (collects what finished, waits for the rest) and submits
# nothing; every point ran once; rows = local rows.
calls=$tmp/calls-kill
sbatch_before=$(sbatches)
SLOW=0.5 CALLS=$calls "$script" tiny.json --runner ./wrapper --jobs 1 --db killed.sqlite \
    "${grid[@]}" --backend slurm >"$tmp/out" 2>"$tmp/err-killed" &
killed_pid=$!
for _ in $(seq 300); do
    ok=$(q killed.sqlite "select count(*) from runs" 2>/dev/null)
    [[ ${ok:-0} -ge 2 ]] && break
    sleep 0.1
done
kill -KILL "$killed_pid" 2>/dev/null
wait "$killed_pid" 2>/dev/null
killed_pid=
rows_at_kill=$(q killed.sqlite "select count(*) from runs")
live=$(squeue -h -r -o %i | wc -l)
SLOW=0.5 CALLS=$calls sweep --db killed.sqlite "${grid[@]}" --backend slurm
verdict=$(same killed.sqlite local.sqlite)
if [[ ${ok:-0} -lt 2 || $rows_at_kill -ge 8 ]]; then
    fail "kill: did not land mid-sweep ($rows_at_kill rows at the kill)" "$(cat "$tmp/err-killed")"
elif [[ $rc -ne 0 ]] || ! grep -q "from the job arrays of an earlier sweep" "$tmp/err"; then
    fail "resume after kill: exit $rc, expected 0 and the array adopted" "$(cat "$tmp/err")"
elif [[ $(($(sbatches) - sbatch_before)) -ne 1 ]]; then
    fail "resume after kill: $(($(sbatches) - sbatch_before)) sbatch, expected 1 (the killed sweep's)"
elif [[ $(runs "$calls") -ne 8 || $(sed 's/--out [^ ]*//' "$calls" | sort | uniq -d | wc -l) -ne 0 ]]; then
    fail "resume after kill: $(runs "$calls") runs, expected 8, each point once"
elif [[ $verdict != same\ 8\ rows*\ and\ 60\ ops\ rows ]]; then
    fail "resume after kill: rows differ from local: $verdict"
else
    pass "SIGKILL mid-array ($rows_at_kill rows, $live tasks queued or running): the rerun adopts the array, no new sbatch, 8 runs in all, rows = local rows"
fi
if [[ -e killed.sqlite.slurm ]]; then
    fail "resume after kill: killed.sqlite.slurm is still there"
fi

cd / || exit 1
finish
