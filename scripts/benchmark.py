#!/usr/bin/python3
"""Run the benchmark scenarios and print simulator throughput, one row per scenario.

    /usr/bin/python3 scripts/benchmark.py [SCENARIO.json ...] [--runner PATH] [--repeat N]
                                          [--against PATH [--model-change]] [--json FILE]
                                          [--set KEY=VALUE]...
                                          [--keep]

Without scenario arguments every scenarios/bench/*.json is run. Each run goes through
`mcast4ai-run SCENARIO --quiet --out TMPDIR`, and the row is read back from the run's
summary.json:

    wall_s       wall-clock seconds of the event loop (summary.json "wall_s")
    proc_s       wall-clock seconds of the whole process (build, run, result files)
    sim_s        simulated seconds at the end of the run
    events       ns-3 events executed, and events/s over wall_s
    hops         packet-hops (frames put on a link by any port), and hops/s over wall_s
    ev/hop       events per packet-hop: the simulator's cost per unit of work
    rss_mb       peak RSS the simulator reports about itself (getrusage(RUSAGE_SELF))
    child_mb     peak RSS of the child process seen from outside
                 (getrusage(RUSAGE_CHILDREN)), as a cross-check of rss_mb

--repeat N runs every scenario N times and keeps the fastest run (least wall_s).
--against PATH compares two builds side by side: every run of the runner is followed by a
run of PATH on the same scenario, so that both see the same state of a machine whose speed
drifts; both rows are printed, then the ratio of their wall_s, and the script fails if the
two builds' ops.csv differ (a speed change must not change results). When one build writes
columns the other does not (a new output), the columns both write are compared.
--model-change says that the two builds are meant to differ in results (a deliberate model
change, re-recorded in its own commit): differing ops.csv are then reported, not an error;
compare the rows' events and ev/hop to see whether the two builds did the same work.
--json FILE also writes the rows, with the date, the machine and the runner, as JSON.
--set KEY=VALUE is passed on to every run (e.g. --set nic.dcqcn.enabled=false).
--keep keeps the result directories instead of deleting them.

The runner defaults to build/mcast4ai-run under the source tree; if it does not exist it
is built with CMake in Release mode. Benchmark with a Release build: a Debug build, or one
configured with -DMCAST4AI_ASSERTS=ON, is slower and the script says so.

Standard library only; run it with /usr/bin/python3.
"""

import argparse
import csv
import io
import datetime
import glob
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_RUNNER = os.path.join(ROOT, "build", "mcast4ai-run")

# Runner exit codes (see README): 0 complete, 3 stop_time reached with operations unfinished.
EXIT_COMPLETE = 0
EXIT_INCOMPLETE = 3


def parse_args():
    parser = argparse.ArgumentParser(
        description="Run benchmark scenarios with mcast4ai-run and report its throughput.")
    parser.add_argument("scenarios", nargs="*",
                        help="scenario files (default: every scenarios/bench/*.json)")
    parser.add_argument("--runner", default=DEFAULT_RUNNER,
                        help="mcast4ai-run binary (default: %(default)s; built if missing)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run each scenario N times and keep the fastest (default: 1)")
    parser.add_argument("--against", metavar="PATH",
                        help="another mcast4ai-run to alternate with, run for run")
    parser.add_argument("--model-change", action="store_true",
                        help="with --against: the builds differ in model, so differing ops.csv "
                             "are reported, not an error")
    parser.add_argument("--json", metavar="FILE", help="also write the rows to FILE as JSON")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="scenario override passed to every run (repeatable)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the result directories (their path is printed)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.model_change and not args.against:
        parser.error("--model-change compares two builds: it needs --against")
    if not args.scenarios:
        args.scenarios = sorted(glob.glob(os.path.join(ROOT, "scenarios", "bench", "*.json")))
        if not args.scenarios:
            parser.error("no scenarios/bench/*.json found under " + ROOT)
    for path in args.scenarios:
        if not os.path.isfile(path):
            parser.error("no such scenario file: " + path)
    return args


def build_runner(runner):
    """Configure and build a Release mcast4ai-run into the runner's directory."""
    build_dir = os.path.dirname(os.path.abspath(runner))
    if shutil.which("cmake") is None:
        sys.exit("error: %s does not exist and cmake is not installed to build it "
                 "(run: bash scripts/setup.sh run)" % runner)
    print("building %s (Release) ..." % runner, file=sys.stderr)
    jobs = str(os.cpu_count() or 2)
    steps = [
        ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release"],
        ["cmake", "--build", build_dir, "-j", jobs, "--target", "mcast4ai-run"],
    ]
    for cmd in steps:
        if subprocess.run(cmd).returncode != 0:
            sys.exit("error: build step failed: " + " ".join(cmd))
    if not os.access(runner, os.X_OK):
        sys.exit("error: the build did not produce " + runner)


def build_warnings(runner):
    """Read the CMake cache next to the runner, if any, and flag slow build settings."""
    cache = os.path.join(os.path.dirname(os.path.abspath(runner)), "CMakeCache.txt")
    settings = {}
    try:
        with open(cache) as f:
            for line in f:
                if "=" in line and ":" in line.split("=", 1)[0]:
                    key, value = line.rstrip("\n").split("=", 1)
                    settings[key.split(":", 1)[0]] = value
    except OSError:
        return ["no CMakeCache.txt next to the runner: build type unknown"]
    warnings = []
    build_type = settings.get("CMAKE_BUILD_TYPE", "")
    if build_type != "Release":
        warnings.append("runner is a %r build, not Release" % (build_type or "default"))
    if settings.get("MCAST4AI_ASSERTS", "OFF").upper() in ("ON", "1", "TRUE", "YES"):
        warnings.append("runner is built with MCAST4AI_ASSERTS=ON (NS_ASSERT checks cost time)")
    return warnings


def measured_run(cmd):
    """Run cmd and return (exit code, process wall seconds, child peak RSS in kB, stderr).

    RUSAGE_CHILDREN reports the largest child ever waited for, so a build or an earlier,
    bigger run would mask this one. The child is therefore started from a freshly forked
    measuring process, whose RUSAGE_CHILDREN covers exactly this one run.
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        # Measuring process: run the child, report, exit without touching the parent's state.
        os.close(read_fd)
        status = 1
        try:
            start = time.perf_counter()
            child = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            wall = time.perf_counter() - start
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            report = {
                "rc": child.returncode,
                "wall": wall,
                "maxrss_kb": usage.ru_maxrss,  # kilobytes on Linux
                "stderr": child.stderr.decode("utf-8", "replace")[-4000:],
            }
            with os.fdopen(write_fd, "w") as out:
                json.dump(report, out)
            status = 0
        finally:
            os._exit(status)
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    if not text:
        return 1, 0.0, 0, "measuring process failed to run " + cmd[0]
    report = json.loads(text)
    return report["rc"], report["wall"], report["maxrss_kb"], report["stderr"]


def run_once(runner, scenario, out_dir, sets):
    cmd = [runner, scenario, "--quiet", "--out", out_dir]
    for override in sets:
        cmd += ["--set", override]
    rc, proc_s, child_kb, stderr = measured_run(cmd)
    if rc not in (EXIT_COMPLETE, EXIT_INCOMPLETE):
        sys.stderr.write(stderr)
        raise RuntimeError("%s exited with code %d" % (" ".join(cmd), rc))
    with open(os.path.join(out_dir, "summary.json")) as f:
        s = json.load(f)
    hops = s["packet_hops"]
    return {
        "scenario": s["scenario"],
        "file": os.path.relpath(os.path.abspath(scenario), ROOT),
        "complete": bool(s.get("complete", rc == EXIT_COMPLETE)),
        "wall_s": s["wall_s"],
        "proc_s": proc_s,
        "sim_s": s["sim_time_s"],
        "events": s["events"],
        "events_per_s": s["events_per_s"],
        "packet_hops": hops,
        "packet_hops_per_s": s["packet_hops_per_s"],
        "events_per_hop": s["events"] / hops if hops else None,
        "peak_rss_mb": s["peak_rss_mb"],
        "child_peak_rss_mb": child_kb / 1024.0,
        "revision": s.get("revision", "unknown"),
    }


def si(x):
    """Compact engineering notation: 1.23M, 456k."""
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= factor:
            return "%.3g%s" % (x / factor, suffix)
    return "%.3g" % x


def same_ops(a, b):
    """Whether two ops.csv files (bytes) agree: byte for byte, or, when their headers differ,
    in every column both have. Returns (same, how)."""
    if a == b:
        return True, "identical"
    ra = list(csv.reader(io.StringIO(a.decode())))
    rb = list(csv.reader(io.StringIO(b.decode())))
    if not ra or not rb or ra[0] == rb[0] or len(ra) != len(rb):
        return False, "DIFFERENT"
    common = [c for c in ra[0] if c in rb[0]]
    ia = [ra[0].index(c) for c in common]
    ib = [rb[0].index(c) for c in common]
    for x, y in zip(ra[1:], rb[1:]):
        if [x[i] for i in ia] != [y[i] for i in ib]:
            return False, "DIFFERENT in the %d common columns" % len(common)
    return True, "identical in the %d columns both write" % len(common)


def print_table(rows):
    header = ("scenario", "wall_s", "proc_s", "sim_s", "events", "events/s", "hops", "hops/s",
              "ev/hop", "rss_mb", "child_mb")
    lines = [header]
    for r in rows:
        lines.append((
            r["scenario"] + ("" if r["complete"] else " (INCOMPLETE)"),
            "%.2f" % r["wall_s"],
            "%.2f" % r["proc_s"],
            "%.6f" % r["sim_s"],
            si(r["events"]),
            si(r["events_per_s"]),
            si(r["packet_hops"]),
            si(r["packet_hops_per_s"]),
            "%.2f" % r["events_per_hop"] if r["events_per_hop"] is not None else "-",
            "%.0f" % r["peak_rss_mb"],
            "%.0f" % r["child_peak_rss_mb"],
        ))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:], widths[1:])]
        print("  ".join(cells))


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"host": platform.node(), "cpu": model, "cores": os.cpu_count(),
            "os": platform.platform()}


def main():
    args = parse_args()
    runner = os.path.abspath(args.runner)
    if not os.access(runner, os.X_OK):
        if args.runner != DEFAULT_RUNNER and os.path.exists(runner):
            sys.exit("error: runner %s is not executable" % runner)
        build_runner(runner)
    runners = [runner]
    if args.against:
        against = os.path.abspath(args.against)
        if not os.access(against, os.X_OK):
            sys.exit("error: --against %s is not an executable" % against)
        runners.append(against)
    for r in runners:
        for warning in build_warnings(r):
            print("warning: %s: %s" % (r, warning), file=sys.stderr)

    info = machine()
    date = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    print("%s  %s  %s cores  runner %s" % (date, info["cpu"], info["cores"], runner))
    if args.against:
        print("against %s" % runners[1])

    rows = []
    failed = 0
    keep_root = tempfile.mkdtemp(prefix="mcast4ai-bench-")
    try:
        for scenario in args.scenarios:
            name = os.path.splitext(os.path.basename(scenario))[0]
            best = [None] * len(runners)
            ops = [None] * len(runners)
            try:
                for i in range(args.repeat):
                    for k, r in enumerate(runners):
                        out_dir = os.path.join(keep_root, "%s-%s%d" % (name, "ab"[k], i))
                        row = run_once(r, scenario, out_dir, args.set)
                        row["runner"] = r
                        with open(os.path.join(out_dir, "ops.csv"), "rb") as f:
                            ops[k] = f.read()
                        if not args.keep:
                            shutil.rmtree(out_dir, ignore_errors=True)
                        if best[k] is None or row["wall_s"] < best[k]["wall_s"]:
                            best[k] = row
            except (RuntimeError, OSError, ValueError, KeyError) as e:
                print("error: %s: %s" % (scenario, e), file=sys.stderr)
                failed += 1
                continue
            for row in best:
                row["repeat"] = args.repeat
            if args.against:
                best[1]["scenario"] += " (against)"
                best[0]["against_wall_ratio"] = best[0]["wall_s"] / best[1]["wall_s"]
                best[0]["same_ops"], best[0]["ops_compare"] = same_ops(ops[0], ops[1])
                if not best[0]["same_ops"] and args.model_change:
                    best[0]["ops_compare"] += " (a model change, as --model-change says)"
                elif not best[0]["same_ops"]:
                    print("error: %s: ops.csv differs between the two builds" % scenario,
                          file=sys.stderr)
                    failed += 1
            rows.extend(best)
    finally:
        if args.keep:
            print("result directories kept in " + keep_root, file=sys.stderr)
        else:
            shutil.rmtree(keep_root, ignore_errors=True)

    if rows:
        print_table(rows)
    for r in rows:
        if "against_wall_ratio" in r:
            print("%s: wall_s %.3f x the other build's, ops.csv %s" % (
                r["scenario"], r["against_wall_ratio"], r["ops_compare"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": date, "machine": info, "runner": runner,
                       "against": runners[1] if args.against else None, "sets": args.set,
                       "build_warnings": build_warnings(runner), "rows": rows}, f, indent=2)
            f.write("\n")
    if failed or any(not r["complete"] for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
