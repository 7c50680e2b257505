#!/usr/bin/env bash
# scripts/evaluate, the main job's evaluation, end to end at its default scale: it exits 0,
# prints the comparison table, and writes report.md, report.html, report.json and the figures.
# A sample of the report's cells (in report.md AND report.json) equals what this test reads
# itself from the runs' summary.json files, with its own key paths and its own copy of the
# formatting rules of docs/evaluation.md; it finds each run by its scenario.json (scenario
# name, p2mp.mechanism, p2mp.ack_aggregation), not through evaluate's mapping. report.html is
# one self-contained page (every image a data: URI, nothing loaded from elsewhere); the
# figures are not blank. A second invocation runs nothing, one whose run directory was
# deleted runs that point alone, and bad arguments are `error:`, exit 2.
#
# Usage: bash evaluate.sh RUNNER_BINARY SOURCE_DIR
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
src=$2
python=/usr/bin/python3
script=$src/scripts/evaluate

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
source "$(dirname "${BASH_SOURCE[0]}")/lib/sweep-fixture.bash"

require_runner "$runner"
require_python_script "$script"
require_plotting_python

tmp=$(mktemp -d)
export TMPDIR=$tmp
trap 'rm -rf "$tmp"' EXIT
export CALLS=$tmp/calls
sweep_wrapper "$tmp/runner" "$runner"
out=$tmp/ev

# 1. Bad arguments: error: and exit 2, before anything runs.
expect_error() {  # DESCRIPTION PATTERN ARGS...
    local what=$1 pattern=$2
    shift 2
    : >"$CALLS"
    "$script" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [[ $rc -eq 2 ]] && grep -q "^error: .*$pattern" "$tmp/err" && [[ ! -s $CALLS ]] &&
        ! grep -q Traceback "$tmp/err"; then
        pass "$what: exit 2, $(grep '^error:' "$tmp/err" | head -n 1)"
    else
        fail "$what: exit $rc, expected 2 and 'error: ...$pattern', no run" "$(cat "$tmp/err")"
    fi
}
expect_error "unknown scale" "--scale huge: unknown scale (scales: default, full)" \
    --scale huge --runner "$tmp/runner" --out "$tmp/bad"
expect_error "missing runner" "--runner $tmp/nope: not an executable file" \
    --runner "$tmp/nope" --out "$tmp/bad"
expect_error "unknown scenario" "--scenario nope: unknown scenario (scenarios: broadcast, " \
    --scenario nope --runner "$tmp/runner" --out "$tmp/bad"
expect_error "scenario not in the default scale" \
    "--scenario moe-dispatch-1024: not part of the default scale" \
    --scenario moe-dispatch-1024 --runner "$tmp/runner" --out "$tmp/bad"
expect_error "--jobs 0" "--jobs 0: must be at least 1" --jobs 0 --runner "$tmp/runner" \
    --out "$tmp/bad"
printf 'x\n' >"$tmp/file"
expect_error "--out is a file" "--out $tmp/file: not a directory" --runner "$tmp/runner" \
    --out "$tmp/file"

# 2. The default scale.
: >"$CALLS"
start=$(date +%s)
"$script" --out "$out" --runner "$tmp/runner" --jobs 2 --quiet >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
took=$(($(date +%s) - start))
if [[ $rc -ne 0 ]]; then
    fail "scripts/evaluate --scale default: exit $rc" "$(tail -n 20 "$tmp/stderr")"
    finish
fi
runs=$(grep -c . "$CALLS")
pass "scripts/evaluate (default scale, --jobs 2): exit 0 in $took s, $runs runner invocations"

# The runs, read here: (scenario name, mechanism, aggregation) -> run directory, from each
# kept directory's own scenario.json and summary.json.
verdict=$($python - "$out" "$tmp/stdout" <<'PY'
import glob, html, io, json, math, os, re, sys
out, stdout_path = sys.argv[1:]
bad = []

# Configurations, as docs/evaluation.md defines them: column label -> (mechanism, aggregation).
CONFIGS = {"unicast": ("unicast", "none"), "BIER": ("bier", "none"),
           "extended BIER": ("bier", "source-tor"),
           "XPU list": ("bier-xpu-list", "source-tor"),
           "new protocol": ("new-protocol", "source-tor")}
IDS = {"unicast": "unicast", "BIER": "bier", "extended BIER": "extended-bier",
       "XPU list": "bier-xpu-list", "new protocol": "new-protocol"}
# The default scale's scenarios and the distribution each reports as its completion.
PRIMARY = {"broadcast": ("duration_us", "message completion at the root"),
           "allgather": ("duration_us", "AllGather iteration"),
           "moe-dispatch-256": ("duration_us", "MoE layer (dispatch, experts, combine)"),
           "kv-cache-fanout": ("ttft_us", "time to first token (TTFT)"),
           "spec-decode": ("duration_us", "decoding step (proposal out, last verdict back)")}

runs = {}
for path in glob.glob(os.path.join(out, "runs", "*", "*", "summary.json")):
    d = os.path.dirname(path)
    summary = json.load(open(path))
    resolved = json.load(open(os.path.join(d, "scenario.json")))
    p = resolved["p2mp"]
    runs[(summary["scenario"], p["mechanism"], p["ack_aggregation"])] = (d, summary)
for name in PRIMARY:
    for label, (m, a) in CONFIGS.items():
        if (name, m, a) not in runs:
            bad.append(f"no run directory of {name} {m}/{a}")
if len(runs) != 25:
    bad.append(f"{len(runs)} run directories, expected 5 scenarios x 5 configurations")

def get(doc, path):
    for piece in path.split("."):
        m = re.fullmatch(r"(\w+)(?:\[(\d+)\])?", piece)
        doc = doc[m.group(1)]
        if m.group(2) is not None:
            doc = doc[int(m.group(2))]
    return doc

# docs/evaluation.md's formatting rules, written out again here.
def count(v): return f"{int(round(v)):,}"
def ratio(v):
    if v == 0: return "0"
    if abs(v) >= 0.1: return f"{v:,.2f}"
    return f"{v:.{-math.floor(math.log10(abs(v))) + 1}f}"
def us(v): return f"{v:,.2f} µs" if abs(v) < 1000 else f"{v:,.1f} µs"
def nbytes(v):
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(v) >= size: return f"{v / size:,.2f} {unit}"
    return f"{int(round(v))} B"

# Sampled rows: label -> function(summary, scenario) -> (value for report.json, text).
def direct(path, fmt):
    return lambda s, name: (get(s, path), fmt(get(s, path)))
def dist(stat):
    return lambda s, name: (get(s, f"workloads[0].{PRIMARY[name][0]}.{stat}"),
                            us(get(s, f"workloads[0].{PRIMARY[name][0]}.{stat}")))
def header(s, name):
    v = get(s, "network.header_bytes") / get(s, "network.data_packets")
    return v, f"{v:,.1f} B/pkt"
def state(s, name):
    v = [get(s, "network.switch_state." + k) for k in
         ("bift_entries", "group_table_live_peak_max", "aggregation_live_peak_max")]
    return v, " / ".join(count(x) for x in v)
SAMPLE = {
    "ACKs at the sender per data packet":
        direct("network.acks_per_data_packet", lambda v: f"{ratio(v)} /pkt"),
    "header bytes per data packet": header,
    "CNPs": direct("network.cnps", count),
    "ECN marks": direct("network.ecn_marks", count),
    "switch state entries (peak)":
        direct("network.switch_state_peak_sum", lambda v: f"{count(v)} entries"),
    "BIFT / group / aggregation entries": state,
    "group installs": direct("network.group_installs", count),
    "bytes on all links": direct("network.link_bytes", nbytes),
    "p50": dist("p50"),
    "p99": dist("p99"),
}

# report.md: the table after each scenario's heading.
md = open(os.path.join(out, "report.md")).read()
tables, all_rows = {}, {}
for name in PRIMARY:
    m = re.search(r"^## Scenario `" + re.escape(name) + r"`\n(.*?)(?=^## )", md, re.S | re.M)
    if not m:
        bad.append(f"report.md has no section for {name}")
        continue
    lines = [l for l in m.group(1).splitlines() if l.startswith("| ")]
    head = [c.strip() for c in lines[0].strip("|").split(" | ")]
    rows, listed = {}, []
    for l in lines[1:]:  # the |---| line does not start with "| "
        cells = [c.strip() for c in l.strip().strip("|").split(" | ")]
        rows[cells[1]] = dict(zip(head, cells))
        listed.append(rows[cells[1]])
    tables[name] = rows
    all_rows[name] = listed
    if head[2:] != list(CONFIGS):
        bad.append(f"{name}: columns {head[2:]}")

report = json.load(open(os.path.join(out, "report.json")))
cells = {(c["scenario"], c["row"], c["config"]): c for c in report["cells"]}
checked = 0
for name, (dkey, dlabel) in PRIMARY.items():
    rows = tables.get(name, {})
    for row, fn in SAMPLE.items():
        label = f"{dlabel} {row}" if row in ("p50", "p99") else row
        for col, (m, a) in CONFIGS.items():
            d, s = runs.get((name, m, a), (None, None))
            if s is None:
                continue
            value, text = fn(s, name)
            got = rows.get(label, {}).get(col)
            if got != text:
                bad.append(f"report.md {name} '{label}' {col}: '{got}', summary.json gives '{text}'")
            c = cells.get((name, label, IDS[col]))
            if c is None:
                bad.append(f"report.json has no cell {name} '{label}' {col}")
                continue
            jv = c["value"]
            same = (jv == value if not isinstance(value, float)
                    else isinstance(jv, (int, float)) and abs(jv - value) <= 1e-12 * max(1, abs(value)))
            if not same or c["text"] != text:
                bad.append(f"report.json {name} '{label}' {col}: {jv!r} '{c['text']}', "
                           f"summary.json gives {value!r} '{text}'")
            # The run directory report.json names is this configuration's.
            sdir = os.path.dirname(os.path.join(out, c["summary"]))
            if os.path.realpath(sdir) != os.path.realpath(d):
                bad.append(f"report.json {name} '{label}' {col}: from {c['summary']}, "
                           f"the run is {os.path.relpath(d, out)}")
            checked += 1
    if not any(r.get("dimension") == "Deployment speed"
               and r.get("measured") == "not measured: not a network quantity"
               for r in all_rows.get(name, [])):
        bad.append(f"{name}: the deployment-speed row does not say it is not measured")

# The draft's table: its eight dimensions, the four non-network ones not measured.
m = re.search(r"^## The draft's table, measured\n(.*?)(?=^## )", md, re.S | re.M)
draft_rows = [l for l in (m.group(1).splitlines() if m else []) if l.startswith("| ")][1:]
dims = [r.strip("|").split(" | ")[0].strip() for r in draft_rows]
want = ["ACK aggregation", "RoCE/BTH compatibility", "Congestion control", "Scalability",
        "Deployment speed", "Operational familiarity", "Standards risk",
        "Architectural cleanliness"]
if dims[:8] != want:
    bad.append(f"the draft's table rows are {dims}")
for r in draft_rows[4:8]:
    if r.count("not measured") != 2:
        bad.append(f"draft row not marked as not measured: {r[:60]}")
b = runs.get(("broadcast", "bier", "none"), (None, None))[1]
if b and m and f"bcast {ratio(b['network']['acks_per_data_packet'])}" not in m.group(1):
    bad.append("the draft table's ACK row lacks BIER's broadcast ACKs per data packet")

# What the numbers say: sentences under every scenario, the implosion one quoting BIER's
# ACKs per data packet as summary.json has it.
for name in PRIMARY:
    sec = re.search(r"^## Scenario `" + re.escape(name) + r"`\n(.*?)(?=^## )", md, re.S | re.M)
    says = re.search(r"### What the numbers say\n\n((?:- .*\n)+)", sec.group(1) if sec else "")
    if not says or len(says.group(1).splitlines()) < 4:
        bad.append(f"{name}: fewer than 4 sentences under 'What the numbers say'")
        continue
    s = runs[(name, "bier", "none")][1]
    if f"receive {ratio(s['network']['acks_per_data_packet'])} ACKs per data packet" not in says.group(1):
        bad.append(f"{name}: the ACK implosion sentence does not quote summary.json")

# The terminal table: each scenario's link-bytes line, as report.md has it.
term = open(stdout_path).read().splitlines()
for name in PRIMARY:
    try:
        i = term.index(name)
    except ValueError:
        bad.append(f"the terminal table has no block for {name}")
        continue
    line = next((l for l in term[i + 1:i + 12] if l.strip().startswith("link bytes")), "")
    want_cells = [tables.get(name, {}).get("bytes on all links", {}).get(c) for c in CONFIGS]
    if re.split(r"\s{2,}", line.strip())[1:] != want_cells:
        bad.append(f"terminal {name} link bytes '{line.strip()}', report.md {want_cells}")
table_lines = [l for l in term if not l.startswith("report: ")]
if len(max(table_lines, key=len)) > 100:
    bad.append(f"a terminal line is {len(max(table_lines, key=len))} characters wide")
if not any(l.startswith("report: ") for l in term):
    bad.append("stdout does not say where the report is")

# report.html: one page, images embedded, nothing loaded from elsewhere, none blank.
import matplotlib
matplotlib.use("Agg")
import matplotlib.image as mpimg
import base64
page = open(os.path.join(out, "report.html")).read()
srcs = re.findall(r'\bsrc="([^"]*)"', page)
imgs = re.findall(r"<img\b", page)
figs = re.findall(r"!\[[^\]]*\]\((figures/[^)]+\.png)\)", md)
if len(figs) != 10:
    bad.append(f"report.md shows {len(figs)} figures, expected bars and CDF of 5 scenarios")
if len(imgs) != len(figs) or len(srcs) != len(imgs):
    bad.append(f"report.html: {len(imgs)} images, {len(srcs)} src attributes, report.md {len(figs)} figures")
for s in srcs:
    if not s.startswith("data:image/png;base64,"):
        bad.append(f"report.html loads {s[:60]}")
        continue
    std = float(mpimg.imread(io.BytesIO(base64.b64decode(s.split(",", 1)[1])), format="png")[..., :3].std())
    if std <= 0.02:
        bad.append(f"an embedded image is blank (pixel standard deviation {std:.4f})")
if re.search(r"<(?:link|script)\b|@import|url\(", page, re.I):
    bad.append("report.html refers to a stylesheet, script or url()")
for f in figs:
    std = float(mpimg.imread(os.path.join(out, f))[..., :3].std())
    if std <= 0.02:
        bad.append(f"{f}: pixel standard deviation {std:.4f}, looks blank")
for name in PRIMARY:
    for kind in ("bars", "cdf"):
        if f"figures/{name}-{kind}.png" not in figs:
            bad.append(f"report.md does not show figures/{name}-{kind}.png")

print("; ".join(bad[:12]) + (f"; ... {len(bad) - 12} more" if len(bad) > 12 else "")
      if bad else f"ok {checked}")
PY
)
if [[ $verdict == ok* ]]; then
    pass "report.md and report.json: ${verdict#ok } sampled cells = summary.json (own key paths and rounding); run directories match"
    pass "the draft's table (4 non-network rows not measured), sentences, terminal table, report.html self-contained, 10 figures not blank"
else
    fail "report" "$verdict"
fi

# 3. Resume: nothing runs again; a deleted run directory is run again, alone.
: >"$CALLS"
"$script" --out "$out" --runner "$tmp/runner" --jobs 2 --quiet --scenario spec-decode \
    >"$tmp/stdout2" 2>"$tmp/stderr2"
rc=$?
if [[ $rc -eq 0 && ! -s $CALLS ]]; then
    pass "a second invocation runs nothing (everything is in evaluation.sqlite and runs/)"
else
    fail "second invocation: exit $rc, $(grep -c . "$CALLS") runner invocations" \
        "$(tail -n 5 "$tmp/stderr2")"
fi
gone=$(ls -d "$out"/runs/spec-decode/p2mp.mechanism=bier,p2mp.ack_aggregation=none,* | head -n 1)
rm -rf "$gone"
: >"$CALLS"
"$script" --out "$out" --runner "$tmp/runner" --jobs 2 --quiet --scenario spec-decode \
    >"$tmp/stdout3" 2>"$tmp/stderr3"
rc=$?
if [[ $rc -eq 0 && $(grep -c . "$CALLS") -eq 1 ]] && grep -q "p2mp.mechanism=bier " "$CALLS" &&
    [[ -f $gone/summary.json ]]; then
    pass "a run whose directory was deleted is run again, alone"
else
    fail "rerun of a deleted run directory: exit $rc, $(grep -c . "$CALLS") invocations" \
        "$(cat "$CALLS")" "$(tail -n 5 "$tmp/stderr3")"
fi

finish
