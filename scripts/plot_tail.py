#!/usr/bin/python3
"""Plot the completion-time CDF and CCDF (log tail) of operations, pooled over runs or seeds.

    /usr/bin/python3 scripts/plot_tail.py [RESULT_DIR]... [--series LABEL=DIR[,DIR]...]...
                                          [--workload LABEL] [-o OUT.png|.pdf|.svg] [--csv FILE]
    /usr/bin/python3 scripts/plot_tail.py --scenario S.json [--runner build/mcast4ai-run]
                                          [--seeds 1-10] [--sweep KEY=V1,V2,...]
                                          [--set KEY=VALUE]... [--work DIR] [-o OUT] [--csv FILE]

A series is a label and one or more result directories (globs allowed, e.g. 'b=results/b-*');
the ops of all its directories are pooled. A positional RESULT_DIR is a series of its own,
named by its summary.json's scenario. With --scenario the runner is run once per (sweep value,
seed) into --work (a run that exists with the same scenario file and overrides is reused) and
there is one series per sweep value. Only completed operations count; incomplete ones
(unfinished, or failed: ops.csv outcome) are reported. The figure has the CDF on the left and the CCDF P(T >= t) on a log axis on the
right. The table (stdout, and --csv) has count, mean, p50, p90, p99, p99.9 and max per
series, with nearest-rank percentiles (the p-quantile is the ceil(p*n)-th smallest value), as
summary.json computes them. See docs/plots.md.
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd

# The sweep's own splitting of a --set list (commas outside brackets, braces and strings).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))),
                                "python"))
from mcast4ai.sweep import split_values  # noqa: E402

# matplotlib is imported when the figure is drawn, so that bad input fails fast.
FIGURE_FORMATS = ("png", "pdf", "svg", "eps", "ps")

# (column suffix, label, p): the percentiles of the table, nearest-rank.
PERCENTILES = [("p50", "p50", 0.50), ("p90", "p90", 0.90), ("p99", "p99", 0.99),
               ("p999", "p99.9", 0.999)]
RUN_META = "plot-tail-run.json"  # written into each run directory of --scenario mode


def fail(message):
    """Bad input: one `error:` line on stderr, exit 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def note(message):
    print(f"note: {message}", file=sys.stderr)


# --------------------------------------------------------------------------------------------
# Statistics


def nearest_rank(sorted_values, p):
    """The ceil(p*n)-th smallest value (1-based, clamped to 1..n), as Metrics::Summarize."""
    n = len(sorted_values)
    k = math.ceil(p * n)
    return float(sorted_values[min(n, max(k, 1)) - 1])


def summarize(values):
    """count, mean, percentiles and max of a sorted numpy array; None for the empty ones."""
    stats = {"count": len(values)}
    if len(values) == 0:
        stats.update({"mean": None, "max": None})
        stats.update({key: None for key, _, _ in PERCENTILES})
        return stats
    stats["mean"] = math.fsum(values) / len(values)
    for key, _, p in PERCENTILES:
        stats[key] = nearest_rank(values, p)
    stats["max"] = float(values[-1])
    return stats


# --------------------------------------------------------------------------------------------
# Reading result directories


class Run:
    """One result directory: its ops.csv rows and what summary.json says about it."""

    def __init__(self, path):
        self.path = path
        if not os.path.isdir(path):
            fail(f"{path}: no such result directory")
        ops = os.path.join(path, "ops.csv")
        if not os.path.isfile(ops):
            fail(f"{ops}: not found (is {path} a result directory of mcast4ai-run?)")
        try:
            # Everything as text: a label such as "NA" stays a label, an empty duration is "".
            self.ops = pd.read_csv(ops, dtype=str, keep_default_na=False)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
            fail(f"{ops}: cannot read: {e}".splitlines()[0])
        missing = [c for c in ("workload", "duration_us") if c not in self.ops.columns]
        if missing:
            fail(f"{ops}: no column {', '.join(missing)} (columns: {', '.join(self.ops.columns)})")
        self.scenario = None
        self.seed = None
        self.labels = list(dict.fromkeys(self.ops["workload"]))
        summary = os.path.join(path, "summary.json")
        if os.path.isfile(summary):
            try:
                with open(summary) as f:
                    s = json.load(f)
                self.scenario = s.get("scenario")
                self.seed = s.get("seed")
                for w in s.get("workloads", []):
                    if w.get("label") is not None and str(w["label"]) not in self.labels:
                        self.labels.append(str(w["label"]))  # a workload without ops
            except (OSError, ValueError, AttributeError) as e:
                fail(f"{summary}: cannot read: {e}")

    def durations(self, workload, kind, phase=None):
        """(completed durations in µs, number of incomplete operations) of one workload, of
        its rows of one kind, or of one phase of its operations."""
        rows = self.ops[self.ops["workload"] == workload]
        if kind is not None and "kind" in rows.columns:
            rows = rows[rows["kind"] == kind]
        if phase is not None:
            if "phase" not in rows.columns:
                fail(f"{os.path.join(self.path, 'ops.csv')}: no column phase (--phase {phase})")
            rows = rows[rows["phase"] == phase]
        text = rows["duration_us"].str.strip()
        if "outcome" in rows.columns:
            # A failed operation (p2mp.on_receiver_timeout "fail") has an end, not a completion.
            text = text.where(rows["outcome"] != "failed", "")
        done = text[text != ""]
        try:
            values = pd.to_numeric(done).to_numpy(dtype=float)
        except ValueError as e:
            fail(f"{os.path.join(self.path, 'ops.csv')}: duration_us: {e}")
        return values, len(text) - len(done)


def expand_dirs(spec, what):
    """Comma-separated directories with globs, in order, each once."""
    dirs = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        if glob.has_magic(item):
            matches = sorted(glob.glob(item))
            if not matches:
                fail(f"{what}: no directory matches '{item}'")
            dirs += matches
        else:
            dirs.append(item)
    if not dirs:
        fail(f"{what}: no result directory given")
    unique = list(dict.fromkeys(os.path.normpath(d) for d in dirs))
    if len(unique) < len(dirs):
        note(f"{what}: a directory given twice is pooled once")
    return unique


def parse_series(spec):
    """'LABEL=DIR,DIR' (the label may itself hold '=': the last '=' separates)."""
    if "=" not in spec:
        fail(f"--series '{spec}': expected LABEL=DIR[,DIR...]")
    label, dirs = spec.rsplit("=", 1)
    if not label:
        fail(f"--series '{spec}': empty label")
    return label, expand_dirs(dirs, f"--series '{spec}'")


def positional_labels(runs):
    """A positional directory's series label: its scenario, then its seed, then its path."""
    names = [r.scenario or os.path.basename(os.path.normpath(r.path)) for r in runs]
    labels = [f"{n} seed {r.seed}" if names.count(n) > 1 and r.seed is not None else n
              for n, r in zip(names, runs)]
    return [lab if labels.count(lab) == 1 else os.path.normpath(r.path)
            for lab, r in zip(labels, runs)]


def choose_workload(runs, requested):
    labels = list(dict.fromkeys(lab for r in runs for lab in r.labels))
    if requested is not None:
        for r in runs:
            if requested not in r.labels:
                fail(f"{r.path}: no workload '{requested}' (workloads: {', '.join(r.labels)})")
        return requested
    if len(labels) == 1:
        return labels[0]
    if not labels:
        fail(f"{runs[0].path}: ops.csv has no operations")
    fail(f"the results hold several workloads, choose one with --workload: {', '.join(labels)}")


def choose_kind(runs, requested):
    """The rows of one kind are used, never a mix: the operations' own (kind `op`) unless
    --kind names another (`phase`, `receiver`). Files older than the kind column hold
    operation rows only."""
    with_kind = [r for r in runs if "kind" in r.ops.columns]
    if requested is None:
        kinds = list(dict.fromkeys(k for r in with_kind for k in r.ops["kind"]))
        if "op" in kinds or not kinds:
            return "op" if kinds else None
        fail(f"ops.csv has rows of several kinds, choose one with --kind: {', '.join(kinds)}")
    for r in runs:
        if "kind" not in r.ops.columns:
            fail(f"{os.path.join(r.path, 'ops.csv')}: no column kind (--kind {requested})")
    return requested


# --------------------------------------------------------------------------------------------
# Run mode


def parse_seeds(spec):
    seeds = []
    for part in spec.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m or (m.group(2) is not None and int(m.group(2)) < int(m.group(1))):
            fail(f"--seeds '{spec}': expected seeds such as 1-10 or 1,2,5-7")
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) is not None else first
        seeds += range(first, last + 1)
    return list(dict.fromkeys(seeds))


def parse_sweep(spec):
    """'KEY=V1,V2,...' -> (KEY, [raw values]); values are JSON (else strings, as --set)."""
    key, sep, rest = spec.partition("=")
    key = key.strip()
    if not sep or not key or not rest.strip():
        fail(f"--sweep '{spec}': expected KEY=V1,V2,... (KEY a --set path)")
    values = split_values(rest)
    if any(v == "" for v in values):
        fail(f"--sweep '{spec}': empty value")
    if len(set(values)) < len(values):
        fail(f"--sweep '{spec}': a value is given twice")
    return key, values


def value_label(raw):
    """A sweep value as the legend shows it: JSON re-serialised compactly, else the text."""
    try:
        return json.dumps(json.loads(raw), separators=(",", ":"))
    except ValueError:
        return raw


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "_"


def run_all(args):
    """Run (or reuse) every (sweep value, seed); return [(label, [run dir, ...])]."""
    if not os.path.isfile(args.scenario):
        fail(f"{args.scenario}: no such scenario file")
    if not (os.path.isfile(args.runner) and os.access(args.runner, os.X_OK)):
        fail(f"{args.runner}: not an executable (build it: bash scripts/setup.sh run)")
    with open(args.scenario, "rb") as f:
        scenario_bytes = f.read()
    try:
        name = json.loads(scenario_bytes).get("name")
    except (ValueError, AttributeError):
        name = None  # the runner will say what is wrong with it
    name = name or os.path.splitext(os.path.basename(args.scenario))[0]
    work = args.work or os.path.join("results", "tail-" + safe_name(name))
    seeds = parse_seeds(args.seeds)
    if args.sweep:
        key, raw_values = parse_sweep(args.sweep)
        short = re.sub(r"\[\d+\]$", "", key.split(".")[-1]) or key
        points = [(f"{short}={value_label(v)}", [f"{key}={v}"],
                   f"{safe_name(short)}-{safe_name(v)}") for v in raw_values]
        dirs = [p[2] for p in points]
        if len(set(dirs)) < len(dirs):
            fail(f"--sweep '{args.sweep}': two values map to the same directory name")
    else:
        points = [(name, [], "")]
    digest = hashlib.sha256(scenario_bytes).hexdigest()
    jobs = []  # (run dir, command, meta)
    series = []
    for label, sweep_set, sub in points:
        run_dirs = []
        for seed in seeds:
            run_dir = os.path.join(work, sub, f"seed-{seed}")
            overrides = list(args.set) + sweep_set
            meta = {"scenario_sha256": digest, "overrides": overrides, "seed": seed}
            cmd = [args.runner, args.scenario, "--quiet", "--out", run_dir, "--seed", str(seed)]
            for s in overrides:
                cmd += ["--set", s]
            run_dirs.append(run_dir)
            jobs.append((run_dir, cmd, meta))
        series.append((label, run_dirs))

    def reusable(run_dir, meta):
        try:
            with open(os.path.join(run_dir, RUN_META)) as f:
                old = json.load(f)
        except (OSError, ValueError):
            return False
        return (all(old.get(k) == v for k, v in meta.items())
                and os.path.isfile(os.path.join(run_dir, "ops.csv"))
                and os.path.isfile(os.path.join(run_dir, "summary.json")))

    todo = [j for j in jobs if args.rerun or not reusable(j[0], j[2])]

    def run_one(job):
        run_dir, cmd, meta = job
        os.makedirs(run_dir, exist_ok=True)
        try:
            os.remove(os.path.join(run_dir, RUN_META))
        except FileNotFoundError:
            pass
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode in (0, 3):  # 3: stop_time_ms reached, results written
            with open(os.path.join(run_dir, RUN_META), "w") as f:
                json.dump({"scenario": os.path.abspath(args.scenario), **meta}, f, indent=2)
                f.write("\n")
        return job, proc

    failed = None
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for done, ((run_dir, cmd, _), proc) in enumerate(pool.map(run_one, todo), 1):
            if proc.returncode not in (0, 3):
                failed = failed or (cmd, proc)
            elif not args.quiet:
                print(f"ran {done}/{len(todo)}: {run_dir} (exit {proc.returncode})",
                      file=sys.stderr)
    if failed:
        cmd, proc = failed
        print(f"error: {' '.join(cmd)}: exit {proc.returncode}", file=sys.stderr)
        sys.stderr.write(proc.stderr)
        sys.exit(2 if proc.returncode == 2 else 1)
    if not args.quiet:
        print(f"runs: {len(todo)} ran, {len(jobs) - len(todo)} reused, in {work}",
              file=sys.stderr)
    return series, work


# --------------------------------------------------------------------------------------------
# Figure and table


def fmt(v):
    return "-" if v is None else f"{v:.3f}"


def fmt_percentile(v, p, n):
    """A percentile cell: its value, or "max of n" when fewer than 1 / (1 - p) samples leave
    it nothing but the largest (a p99 needs 100)."""
    if v is not None and n < round(1 / (1 - p)):
        return f"max of {n}"
    return fmt(v)


def print_table(what, rows):
    keys = ["count", "mean"] + [k for k, _, _ in PERCENTILES] + ["max"]
    heads = ["series", "runs", "count", "incomplete", "mean_us"] + \
            [f"{label}_us" for _, label, _ in PERCENTILES] + ["max_us"]
    print(f"completion time of {what}, µs (nearest-rank percentiles)")
    print("| " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * (len(heads) - 1))
    for r in rows:
        cells = [r["series"], str(r["runs"]), str(r["count"]), str(r["incomplete"]),
                 fmt(r["mean"])]
        cells += [fmt_percentile(r[k], p, r["count"]) for k, _, p in PERCENTILES]
        cells.append(fmt(r["max"]))
        print("| " + " | ".join(cells) + " |")


def write_csv(path, rows):
    columns = ["series", "runs", "count", "incomplete", "mean_us"] + \
              [f"{k}_us" for k, _, _ in PERCENTILES] + ["max_us"]
    table = pd.DataFrame([{**{c: r[c] for c in ("series", "runs", "count", "incomplete")},
                           "mean_us": r["mean"],
                           **{f"{k}_us": r[k] for k, _, _ in PERCENTILES},
                           "max_us": r["max"]} for r in rows], columns=columns)
    table.to_csv(path, index=False)


def plot(out, series, unit, logx, title):
    """series: [(label, sorted durations µs)] with at least one value each."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    largest = max(v[-1] for _, v in series)
    if unit == "auto":
        unit = "ms" if largest >= 10000 else "us"
    scale, unit_text = (1e-3, "ms") if unit == "ms" else (1.0, "µs")
    plt.rcParams.update({"font.size": 9, "axes.titlesize": 10, "legend.fontsize": 8})
    fig, (ax_cdf, ax_ccdf) = plt.subplots(1, 2, figsize=(8.0, 3.2))
    styles = ["-", "--", "-.", ":"]
    n_max = max(len(v) for _, v in series)
    for i, (label, v) in enumerate(series):
        x = v * scale
        n = len(x)
        style = {"linestyle": styles[i % len(styles)], "linewidth": 1.4}
        # CDF: F(t) = fraction <= t, right-continuous steps from 0 to 1.
        line = ax_cdf.step(np.concatenate(([x[0]], x)), np.arange(0, n + 1) / n, where="post",
                           label=label, **style)[0]
        # CCDF: P(T >= t), exact as a left-continuous step ('pre'): the largest value stays
        # visible at 1/n on the log axis instead of dropping to 0.
        ax_ccdf.step(x, (n - np.arange(n)) / n, where="pre", color=line.get_color(), **style)
    # A curve crosses the line of a percentile at that percentile's value; p99.9 only where
    # it can be told from 1 (the CCDF) and once a series has enough operations for it.
    marks = [(0.5, "p50", True), (0.99, "p99", True), (0.999, "p99.9", False)]
    for q, text, on_cdf in marks[:3 if n_max >= 1000 else 2]:
        for ax, y in ((ax_cdf, q), (ax_ccdf, 1 - q))[0 if on_cdf else 1:]:
            ax.axhline(y, color="0.6", linewidth=0.6, linestyle=":", zorder=0)
            ax.annotate(text, xy=(1.0, y), xycoords=("axes fraction", "data"), xytext=(2, 0),
                        textcoords="offset points", va="center", fontsize=7, color="0.4")
    ax_cdf.set_ylim(0, 1.02)
    ax_cdf.set_ylabel("CDF  P(T ≤ t)")
    ax_cdf.set_title("CDF")
    ax_ccdf.set_yscale("log")
    ax_ccdf.set_ylim(10 ** math.floor(math.log10(0.5 / n_max)), 1.5)
    ax_ccdf.set_ylabel("CCDF  P(T ≥ t)")
    ax_ccdf.set_title("CCDF (tail, log scale)")
    if logx:
        ax_ccdf.set_xscale("log")
    lo = min(v[0] for _, v in series) * scale
    hi = largest * scale
    pad = (hi - lo) * 0.03 or max(hi * 0.03, 1e-3)
    for ax in (ax_cdf, ax_ccdf):
        ax.set_xlabel(f"completion time t ({unit_text})")
        ax.grid(True, which="major", color="0.88", linewidth=0.6)
        if not (logx and ax is ax_ccdf):
            ax.set_xlim(lo - pad, hi + pad)
    ax_cdf.legend(loc="lower right", frameon=True, framealpha=1.0, edgecolor="0.8")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=200, bbox_inches="tight")
    plt.close(fig)


# --------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Usage and the percentile definition: docs/plots.md.")
    ap.add_argument("dirs", nargs="*", metavar="RESULT_DIR",
                    help="a result directory; each is a series of its own")
    ap.add_argument("--series", action="append", default=[], metavar="LABEL=DIR[,DIR...]",
                    help="a series pooling the ops of these directories (globs allowed); "
                         "repeatable")
    ap.add_argument("--workload", metavar="LABEL",
                    help="the workload to plot (default: the only one)")
    ap.add_argument("--kind", help="if ops.csv has a kind column: the kind of rows to use "
                                   "(default op)")
    ap.add_argument("--phase", metavar="NAME",
                    help="one phase of the operations (dispatch, combine, reduce-scatter, "
                         "all-gather): its rows of kind phase")
    ap.add_argument("-o", "--output", metavar="OUT",
                    help="figure to write, format by extension: .png, .pdf, .svg "
                         "(default tail.png, in --work with --scenario)")
    ap.add_argument("--csv", metavar="FILE", help="also write the table to this CSV file")
    ap.add_argument("--unit", choices=["auto", "us", "ms"], default="auto",
                    help="x axis unit (auto: ms when the largest value is >= 10 ms)")
    ap.add_argument("--logx", action="store_true", help="log x axis on the CCDF panel")
    ap.add_argument("--title", help="figure title (default: the workload and scenario; '' none)")
    run = ap.add_argument_group("run mode (from a scenario to a figure in one command)")
    run.add_argument("--scenario", metavar="S.json", help="run this scenario, then plot")
    run.add_argument("--runner", default="build/mcast4ai-run", help="default %(default)s")
    run.add_argument("--seeds", default="1", help="seeds, e.g. 1-10 or 1,3,5-7 (default 1)")
    run.add_argument("--sweep", metavar="KEY=V1,V2,...",
                     help="one series per value of a --set path (values are JSON)")
    run.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="override passed to every run; repeatable")
    run.add_argument("--work", metavar="DIR",
                     help="directory of the runs (default results/tail-SCENARIO_NAME); "
                          "a run with the same scenario and overrides is reused")
    run.add_argument("--rerun", action="store_true", help="run again even if a run exists")
    run.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                     help="runs at a time (default: the number of CPUs)")
    run.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args()

    if args.scenario is None:
        for opt in ("sweep", "work"):
            if getattr(args, opt) is not None:
                fail(f"--{opt} needs --scenario")
        if args.set:
            fail("--set needs --scenario")
    if args.output is not None:
        ext = os.path.splitext(args.output)[1].lower().lstrip(".")
        if ext not in FIGURE_FORMATS:
            fail(f"{args.output}: unknown figure format '{ext}' "
                 f"(known: {', '.join('.' + f for f in FIGURE_FORMATS)})")

    if args.scenario is None and not args.series and not args.dirs:
        ap.print_usage(sys.stderr)
        fail("no result directory: give RESULT_DIR, --series or --scenario")
    # The given directories are read first, so that a bad one fails before any run.
    given = [(label, [Run(d) for d in dirs]) for label, dirs in map(parse_series, args.series)]
    positional = [Run(d) for d in args.dirs]
    series_runs, work = [], None
    if args.scenario is not None:
        ran, work = run_all(args)
        series_runs += [(label, [Run(d) for d in dirs]) for label, dirs in ran]
    series_runs += given
    series_runs += [(label, [r]) for label, r in zip(positional_labels(positional), positional)]
    labels = [label for label, _ in series_runs]
    if len(set(labels)) < len(labels):
        fail(f"two series have the same label: {', '.join(labels)}")
    all_runs = [r for _, runs in series_runs for r in runs]
    workload = choose_workload(all_runs, args.workload)
    kind = "phase" if args.phase else choose_kind(all_runs, args.kind)

    rows, curves = [], []
    for label, runs in series_runs:
        parts = [r.durations(workload, kind, args.phase) for r in runs]
        values = np.sort(np.concatenate([v for v, _ in parts]))
        incomplete = sum(i for _, i in parts)
        if incomplete:
            note(f"series '{label}': {incomplete} of {len(values) + incomplete} operations "
                 f"of '{workload}' incomplete, not counted")
        if len(values) == 0:
            note(f"series '{label}': no completed operation of '{workload}', not plotted")
        else:
            curves.append((label, values))
        rows.append({"series": label, "runs": len(runs), "incomplete": incomplete,
                     **summarize(values)})
    if not curves:
        fail(f"no completed operation of workload '{workload}' in any series")

    what = f"workload '{workload}'" + (f", phase '{args.phase}'" if args.phase else "")
    print_table(what, rows)
    if args.csv:
        write_csv(args.csv, rows)
    out = args.output or os.path.join(work or ".", "tail.png")
    scenarios = list(dict.fromkeys(r.scenario for r in all_runs if r.scenario))
    title = args.title
    if title is None:
        title = f"completion time: {workload}" + (f" ({scenarios[0]})" if len(scenarios) == 1
                                                   else "")
    out_dir = os.path.dirname(out)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    plot(out, curves, args.unit, args.logx, title)
    print(out)


if __name__ == "__main__":
    main()
