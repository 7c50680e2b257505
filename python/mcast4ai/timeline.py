"""Checks of a timeline.json (output.timeline) against the Trace Event Format's rules.

Why: a timeline is only useful if Perfetto and Chrome's trace viewer draw it as written, and
both are lenient: a slice that overlaps its neighbour without nesting, an async end without its
begin or a flow arrow with nothing to attach to is drawn wrongly or dropped without a word. So
the rules the viewers rely on are checked here, and the per-request segments are checked
against ops.csv (they must add up to each request's duration).

Rules checked (the format's JSON Object Format, Google's "Trace Event Format" document):
- the file is an object with a `traceEvents` list; every event has a known `ph`, an integer
  `pid`, a string `name` and, except metadata, a numeric `ts` >= 0;
- complete events (X) have a `dur` >= 0 and, on one thread (pid, tid), nest: a slice that
  starts inside another ends inside it;
- async events (b, e) pair up per (pid, cat, id) as a stack: an end closes the latest open
  begin of the same name, never before it, and none is left open;
- counters (C) have only numeric arguments;
- flow events (s, f) pair up per (cat, id), and each lies inside an X slice of its thread
  (unless the writer dropped events at its byte bound, `otherData.dropped_events` > 0);
- metadata (M) names a process or thread, or sorts one.

    python3 -m mcast4ai.timeline check TIMELINE.json [--ops OPS.csv]
    python3 -m mcast4ai.timeline plot TIMELINE.json --out FIGURE.png
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

PHASES = frozenset("XBEbenCMsftiI")
METADATA = frozenset({"process_name", "thread_name", "process_sort_index", "thread_sort_index",
                      "process_labels"})
# Timestamps are microseconds written to the picosecond; sums of them are compared to this.
EPS_US = 1e-6


@dataclass
class Report:
    """What a check found: problems (empty: valid) and counts by phase."""

    problems: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, index: int | None, text: str) -> None:
        where = f"event {index}: " if index is not None else ""
        self.problems.append(where + text)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check(doc: Any) -> Report:
    """Check a parsed timeline against the rules in the module docstring."""
    report = Report()
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        report.add(None, "not an object with a traceEvents list")
        return report
    events = doc["traceEvents"]
    slices: dict[tuple[int, int], list[tuple[float, float, int]]] = defaultdict(list)
    asyncs: dict[tuple[int, str, str], list[tuple[int, dict]]] = defaultdict(list)
    flows: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    counts: dict[str, int] = defaultdict(int)
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            report.add(i, "not an object")
            continue
        ph = e.get("ph")
        if ph not in PHASES:
            report.add(i, f"unknown ph {ph!r}")
            continue
        counts[ph] += 1
        if not isinstance(e.get("pid"), int) or not isinstance(e.get("name"), str):
            report.add(i, "needs an integer pid and a string name")
            continue
        if ph == "M":
            if e["name"] not in METADATA or not isinstance(e.get("args"), dict):
                report.add(i, f"metadata {e['name']!r} unknown or without args")
            continue
        if not _number(e.get("ts")) or e["ts"] < 0:
            report.add(i, "needs a numeric ts >= 0")
            continue
        if ph == "X":
            if not _number(e.get("dur")) or e["dur"] < 0 or not isinstance(e.get("tid"), int):
                report.add(i, "an X event needs an integer tid and a numeric dur >= 0")
                continue
            slices[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], i))
        elif ph in "be":
            if "id" not in e or not isinstance(e.get("cat"), str):
                report.add(i, f"an async {ph} event needs an id and a cat")
                continue
            asyncs[(e["pid"], e["cat"], str(e["id"]))].append((i, e))
        elif ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args or not all(map(_number, args.values())):
                report.add(i, "a counter needs numeric args")
        elif ph in "sf":
            if "id" not in e or not isinstance(e.get("tid"), int):
                report.add(i, "a flow event needs an id and an integer tid")
                continue
            flows[(str(e.get("cat")), str(e["id"]))][ph].append(i)
    report.counts = dict(counts)
    _check_nesting(slices, report)
    _check_async(asyncs, report)
    # A timeline cut at its byte bound may keep an arrow whose host slice, written later,
    # was dropped: only then is an arrow in no slice allowed.
    truncated = doc.get("otherData", {}).get("dropped_events", 0) > 0
    _check_flows(events, flows, slices, report, truncated)
    return report


def _check_nesting(slices: dict[tuple[int, int], list[tuple[float, float, int]]],
                   report: Report) -> None:
    for (pid, tid), spans in slices.items():
        stack: list[tuple[float, float, int]] = []
        for start, end, i in sorted(spans, key=lambda s: (s[0], -s[1])):
            while stack and stack[-1][1] <= start + EPS_US:
                stack.pop()
            if stack and end > stack[-1][1] + EPS_US:
                report.add(i, f"slice on pid {pid} tid {tid} overlaps event {stack[-1][2]} "
                              "without nesting in it")
            stack.append((start, end, i))


def _check_async(asyncs: dict[tuple[int, str, str], list[tuple[int, dict]]],
                 report: Report) -> None:
    for key, evs in asyncs.items():
        stack: list[tuple[int, dict]] = []
        for i, e in sorted(evs, key=lambda p: (p[1]["ts"], 0 if p[1]["ph"] == "e" else 1, p[0])):
            if e["ph"] == "b":
                stack.append((i, e))
                continue
            if not stack or stack[-1][1]["name"] != e["name"]:
                report.add(i, f"async end {e['name']!r} of {key} closes nothing")
                continue
            stack.pop()
        for i, e in stack:
            report.add(i, f"async begin {e['name']!r} of {key} is never ended")


def _check_flows(events: list, flows: dict[tuple[str, str], dict[str, list[int]]],
                 slices: dict[tuple[int, int], list[tuple[float, float, int]]],
                 report: Report, truncated: bool) -> None:
    for key, ends in flows.items():
        if len(ends["s"]) != 1 or len(ends["f"]) != 1:
            report.add(None, f"flow {key}: {len(ends['s'])} starts and {len(ends['f'])} ends")
        for i in ends["s"] + ends["f"]:
            e = events[i]
            inside = any(start - EPS_US <= e["ts"] <= end + EPS_US
                         for start, end, _ in slices.get((e["pid"], e["tid"]), []))
            if not inside and not truncated:
                report.add(i, f"flow {e['ph']} of {key} lies in no slice of its thread")


def segments(doc: dict) -> dict[tuple[str, int], float]:
    """Per operation (workload label, op): the sum of its segments' durations, in µs."""
    out: dict[tuple[str, int], float] = defaultdict(float)
    for e in doc.get("traceEvents", []):
        if e.get("ph") == "X" and e.get("cat") == "segment":
            out[(e["args"]["workload"], int(e["args"]["op"]))] += e["dur"]
    return dict(out)


def check_segments(doc: dict, ops_csv: Path, tolerance_us: float = 0.0015) -> list[str]:
    """Each operation with segments: their sum equals its ops.csv duration_us (written to the
    nanosecond, hence the tolerance). Problems, empty if none; a timeline without segments is
    one."""
    sums = segments(doc)
    if not sums:
        return ["no segments in the timeline"]
    problems = []
    with open(ops_csv, newline="") as f:
        rows = {(r["workload"], int(r["op"])): r for r in csv.DictReader(f)
                if r.get("kind", "op") == "op"}
    for key, total in sorted(sums.items()):
        row = rows.get(key)
        if row is None:
            problems.append(f"{key}: segments but no ops.csv row")
        elif abs(total - float(row["duration_us"])) > tolerance_us:
            problems.append(f"{key}: segments add up to {total:.6f} us, ops.csv says "
                            f"{row['duration_us']}")
    return problems


SEGMENT_COLOURS = {"queueing": "#bbbbbb", "prefill": "#4c72b0", "kv-transfer": "#dd8452",
                   "first-token": "#55a868", "decode": "#8172b3", "replicas": "#c44e52"}
ACTIVITY_COLOURS = {"compute": "#4c72b0", "waiting for data": "#cccccc", "sending": "#dd8452"}


def plot(doc: dict, out: Path, requests: int = 24, hosts: int = 16) -> None:
    """A static picture of a timeline for a page or a paper: the first `requests` operations'
    segments, one row each, above the first `hosts` hosts' compute, waiting-for-data and
    sending slices (Perfetto shows the same tracks, and the rest, interactively)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    events = doc["traceEvents"]
    names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    segs: dict[int, list[dict]] = defaultdict(list)
    acts: dict[int, list[dict]] = defaultdict(list)
    for e in events:
        if e["ph"] == "X" and e.get("cat") == "segment":
            segs[e["tid"]].append(e)
        elif e["ph"] == "X" and e.get("cat") == "host":
            acts[e["tid"] // 3].append(e)
    req_rows = sorted(segs, key=lambda t: min(e["ts"] for e in segs[t]))[:requests]
    host_rows = sorted(acts)[:hosts]
    fig, (top, bottom) = plt.subplots(
        2, 1, sharex=True, figsize=(10, 1.5 + 0.16 * (len(req_rows) + 3 * len(host_rows))),
        gridspec_kw={"height_ratios": [max(1, len(req_rows)), max(1, 2 * len(host_rows))]})
    for row, tid in enumerate(req_rows):
        for e in segs[tid]:
            top.broken_barh([(e["ts"] / 1e3, e["dur"] / 1e3)], (row - 0.4, 0.8),
                            color=SEGMENT_COLOURS.get(e["name"], "#999999"))
    top.set_yticks(range(len(req_rows)), [names.get((2, t), str(t)) for t in req_rows],
                   fontsize=6)
    top.invert_yaxis()
    top.legend(handles=[Patch(color=c, label=n) for n, c in SEGMENT_COLOURS.items()],
               fontsize=6, ncol=2, loc="lower right")
    top.set_title("requests: where each one's time went", fontsize=8)
    for row, host in enumerate(host_rows):
        for e in acts[host]:
            if e["name"] not in ACTIVITY_COLOURS:
                continue
            lane = list(ACTIVITY_COLOURS).index(e["name"])
            bottom.broken_barh([(e["ts"] / 1e3, e["dur"] / 1e3)], (row * 2 + lane * 0.55, 0.5),
                               color=ACTIVITY_COLOURS[e["name"]])
    label = {h: names.get((3, h * 3 + k), "").rsplit(" ", 1)[0] for h in host_rows
             for k in range(3) if (3, h * 3 + k) in names}
    bottom.set_title("hosts: compute, waiting for data, sending", fontsize=8)
    bottom.set_yticks([r * 2 + 0.8 for r in range(len(host_rows))],
                      [label.get(h, str(h)).split(" ")[0] for h in host_rows], fontsize=6)
    bottom.invert_yaxis()
    bottom.legend(handles=[Patch(color=c, label=n) for n, c in ACTIVITY_COLOURS.items()],
                  fontsize=6, ncol=3, loc="upper right")
    bottom.set_xlabel("simulated time (ms)")
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m mcast4ai.timeline",
                                     description="Check a timeline.json (output.timeline).")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="the format's rules; with --ops, the segments' sums")
    c.add_argument("timeline", type=Path)
    c.add_argument("--ops", type=Path, help="the run's ops.csv")
    p = sub.add_parser("plot", help="a static picture: requests' segments, hosts' activity")
    p.add_argument("timeline", type=Path)
    p.add_argument("--out", type=Path, required=True, help="an image file (.png, .pdf)")
    p.add_argument("--requests", type=int, default=24, help="rows of requests (default 24)")
    p.add_argument("--hosts", type=int, default=16, help="rows of hosts (default 16)")
    args = parser.parse_args(argv)
    try:
        doc = json.loads(args.timeline.read_text())
    except (OSError, ValueError) as e:
        print(f"error: {args.timeline}: {e}", file=sys.stderr)
        return 2
    if args.command == "plot":
        plot(doc, args.out, args.requests, args.hosts)
        print(f"wrote {args.out}")
        return 0
    report = check(doc)
    problems = list(report.problems)
    if args.ops:
        problems += check_segments(doc, args.ops)
    for p in problems[:20]:
        print(f"{args.timeline}: {p}")
    if len(problems) > 20:
        print(f"... and {len(problems) - 20} more")
    counts = ", ".join(f"{n} {ph}" for ph, n in sorted(report.counts.items()))
    sums = len(segments(doc))
    print(f"{args.timeline}: {'valid' if not problems else 'INVALID'}: {counts}"
          + (f"; {sums} operations' segments checked against {args.ops}" if args.ops else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
