#!/usr/bin/python3
"""Golden-output guard: speed work must not change what a run computes.

    /usr/bin/python3 test/golden/check.py RUNNER SOURCE_DIR [--write] [--jobs N]

Runs every case of test/golden/cases.tsv and compares, per case, with test/golden/expected.tsv:
the SHA-256 of ops.csv, the event and packet-hop counts, the simulated end time, the
SHA-256 of the counters and workload statistics in summary.json (everything but wall time,
throughput, memory and revision), and for cases run with --pcap the SHA-256 of every pcap. A refactoring or optimisation keeps all of these
byte-identical; the event count catches a change in the event schedule even when the results
happen to agree.

--write regenerates expected.tsv from the current runner. Do that only for a deliberate model
change, and say in the commit which figures moved and why.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile

# Fields of summary.json that measure the machine rather than the model.
MACHINE_FIELDS = ("wall_s", "events_per_s", "packet_hops_per_s", "peak_rss_mb", "revision",
                  "ns3_version")
COLUMNS = ("ops_sha256", "events", "packet_hops", "sim_time_s", "summary_sha256", "pcap_sha256")


def read_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            name, scenario = fields[0], fields[1]
            extra = shlex.split(fields[2]) if len(fields) > 2 else []
            cases.append((name, scenario, extra))
    return cases


def read_expected(path):
    expected = {}
    if not os.path.exists(path):
        return expected
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            expected[fields[0]] = dict(zip(COLUMNS, fields[1:]))
    return expected


def run_case(runner, source, tmp, case):
    name, scenario, extra = case
    out = os.path.join(tmp, name)
    cmd = [runner, os.path.join(source, scenario)] + extra + ["--quiet", "--out", out]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        return name, None, "exit %d: %s" % (proc.returncode, proc.stderr.strip()[:300])
    with open(os.path.join(out, "ops.csv"), "rb") as f:
        ops = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    for key in MACHINE_FIELDS:
        summary.pop(key, None)
    canonical = json.dumps(summary, sort_keys=True, separators=(",", ":"))
    # With --pcap, every frame on every port, byte for byte: the wire format must not move.
    pcaps = hashlib.sha256()
    names = sorted(n for n in os.listdir(out) if n.endswith(".pcap"))
    for n in names:
        pcaps.update(n.encode())
        with open(os.path.join(out, n), "rb") as f:
            pcaps.update(f.read())
    row = {
        "ops_sha256": ops,
        "events": str(summary.get("events")),
        "packet_hops": str(summary.get("packet_hops")),
        "sim_time_s": repr(summary.get("sim_time_s")),
        "summary_sha256": hashlib.sha256(canonical.encode()).hexdigest(),
        "pcap_sha256": pcaps.hexdigest() if names else "-",
    }
    return name, row, None


def main():
    parser = argparse.ArgumentParser(description="Golden-output guard (see the module docstring).")
    parser.add_argument("runner", help="the mcast4ai-run binary")
    parser.add_argument("source", help="the source tree (holds test/golden/)")
    parser.add_argument("--write", action="store_true", help="regenerate expected.tsv")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    args = parser.parse_args()
    runner, source, write, jobs = args.runner, args.source, args.write, args.jobs
    here = os.path.join(source, "test", "golden")
    cases = read_cases(os.path.join(here, "cases.tsv"))
    expected_path = os.path.join(here, "expected.tsv")
    expected = read_expected(expected_path)

    results = {}
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for name, row, error in pool.map(lambda c: run_case(runner, source, tmp, c), cases):
                if error:
                    print("FAIL %s: %s" % (name, error))
                    failed += 1
                    continue
                results[name] = row

    if write:
        if failed:
            print("not writing %s: %d case(s) failed" % (expected_path, failed))
            return 1
        with open(expected_path, "w") as f:
            f.write("# name\t" + "\t".join(COLUMNS) + "\n")
            f.write("# written by test/golden/check.py --write; see its docstring\n")
            for name, _, _ in cases:
                f.write(name + "\t" + "\t".join(results[name][c] for c in COLUMNS) + "\n")
        print("wrote %d cases to %s" % (len(cases), expected_path))
        return 0

    passed = 0
    for name, _, _ in cases:
        if name not in results:
            continue
        want = expected.get(name)
        got = results[name]
        if want is None:
            print("FAIL %s: no expected row in %s" % (name, expected_path))
            failed += 1
            continue
        diffs = ["%s %s != expected %s" % (c, got[c], want.get(c)) for c in COLUMNS
                 if got[c] != want.get(c)]
        if diffs:
            print("FAIL %s: %s" % (name, "; ".join(diffs)))
            failed += 1
        else:
            print("ok   %s: ops.csv, counters, %s events, %s hops, end %s s%s unchanged"
                  % (name, got["events"], got["packet_hops"], got["sim_time_s"],
                     ", pcaps" if got["pcap_sha256"] != "-" else ""))
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
