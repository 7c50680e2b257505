# What the scripts/sweep tests share (sourced by cli/sweep.sh and cli/sweep-slurm.sh; not a
# test itself): the tiny scenario, the logging runner wrapper and a read-only query helper.

# sweep_scenario FILE: an 8-host leaf-spine with a broadcast and a permutation, 10 ops.csv rows
# per run, a few milliseconds each.
sweep_scenario() {
    cat >"$1" <<'EOF'
{
  "name": "sweep-tiny",
  "seed": 1,
  "stop_time_ms": 20,
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
               "host_link": {"rate_gbps": 100, "delay_us": 1},
               "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
  "nic": {"mtu_bytes": 1024, "ack_every": 1},
  "switch": {"buffer_mb": 4, "latency_ns": 500, "pfc": {"enabled": true}},
  "p2mp": {"mechanism": "bier", "ack_aggregation": "none"},
  "workloads": [
    {"type": "broadcast", "label": "bcast", "root": 0, "bytes": 65536, "messages": 2},
    {"type": "flows", "label": "perm", "pattern": "permutation", "bytes": 65536}
  ]
}
EOF
}

# sweep_wrapper FILE RUNNER: a runner that logs one line per invocation in $CALLS and then
# runs RUNNER; FAIL_IF=TEXT: exit 1 when the arguments contain TEXT; HANG=1: never finish;
# SLOW=S: sleep S seconds first.
sweep_wrapper() {
    cat >"$1" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"\$CALLS"
if [[ -n \${FAIL_IF:-} && "\$*" == *"\$FAIL_IF"* ]]; then
    echo "wrapper: simulated crash" >&2
    exit 1
fi
if [[ -n \${HANG:-} ]]; then
    exec sleep 60
fi
if [[ -n \${SLOW:-} ]]; then
    sleep "\$SLOW"
fi
exec "$2" "\$@"
EOF
    chmod +x "$1"
}

# q DB SQL: the rows of a query, one per line, columns joined by '|' (the database is opened
# read-only: a query never creates it). Needs $python.
q() {
    $python - "$@" <<'PY'
import os, sqlite3, sys, urllib.request
uri = "file:" + urllib.request.pathname2url(os.path.abspath(sys.argv[1])) + "?mode=ro"
con = sqlite3.connect(uri, uri=True, timeout=30)
for row in con.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
PY
}
