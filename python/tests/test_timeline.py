"""mcast4ai.timeline: each Trace Event Format rule accepts a valid timeline and rejects the
one broken way it exists to catch; the segments' sums against ops.csv."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcast4ai import timeline

PYTHON_DIR = Path(__file__).resolve().parents[1]


def meta(pid: int, name: str) -> dict:
    return {"ph": "M", "pid": pid, "name": "process_name", "args": {"name": name}}


def valid_doc() -> dict:
    """A small timeline with every kind of event the writer makes, all rules kept."""
    return {
        "displayTimeUnit": "ns",
        "traceEvents": [
            meta(1, "operations"),
            {"ph": "M", "pid": 3, "tid": 5, "name": "thread_name", "args": {"name": "h1 send"}},
            {"ph": "b", "pid": 1, "tid": 0, "cat": "op", "id": 7, "ts": 0.0, "name": "kv op 0",
             "args": {"workload": "kv", "op": 0}},
            {"ph": "b", "pid": 1, "tid": 0, "cat": "phase", "id": "7.0", "ts": 1.0, "name": "a"},
            {"ph": "e", "pid": 1, "tid": 0, "cat": "phase", "id": "7.0", "ts": 2.0, "name": "a"},
            {"ph": "e", "pid": 1, "tid": 0, "cat": "op", "id": 7, "ts": 10.0, "name": "kv op 0"},
            {"ph": "X", "pid": 2, "tid": 7, "ts": 0.0, "dur": 4.0, "name": "prefill",
             "cat": "segment", "args": {"workload": "kv", "op": 0}},
            {"ph": "X", "pid": 2, "tid": 7, "ts": 4.0, "dur": 6.0, "name": "kv-transfer",
             "cat": "segment", "args": {"workload": "kv", "op": 0}},
            {"ph": "X", "pid": 3, "tid": 5, "ts": 4.0, "dur": 5.0, "name": "sending", "cat": "host"},
            {"ph": "X", "pid": 3, "tid": 5, "ts": 4.5, "dur": 1.0, "name": "inner", "cat": "host"},
            {"ph": "s", "pid": 2, "tid": 7, "id": 7, "ts": 4.0, "name": "kv-transfer",
             "cat": "cause"},
            {"ph": "f", "bp": "e", "pid": 3, "tid": 5, "id": 7, "ts": 4.0, "name": "kv-transfer",
             "cat": "cause"},
            {"ph": "C", "pid": 4, "ts": 3.0, "name": "leaf0>host1 queue bytes",
             "args": {"value": 4096}},
        ],
        "otherData": {"dropped_events": 0},
    }


def test_valid_timeline_passes() -> None:
    report = timeline.check(valid_doc())
    assert report.problems == []
    assert report.counts["X"] == 4 and report.counts["b"] == 2


@pytest.mark.parametrize("break_it, expect", [
    (lambda d: d.pop("traceEvents"), "traceEvents"),
    (lambda d: d["traceEvents"][6].update(ph="Q"), "unknown ph"),
    (lambda d: d["traceEvents"][6].pop("ts"), "numeric ts"),
    (lambda d: d["traceEvents"][6].update(dur=-1.0), "dur >= 0"),
    # The inner host slice sticks out of its parent: misnested.
    (lambda d: d["traceEvents"][9].update(dur=10.0), "without nesting"),
    # The op's end removed: its begin stays open.
    (lambda d: d["traceEvents"].pop(5), "never ended"),
    # A phase's end named differently from its begin.
    (lambda d: d["traceEvents"][4].update(name="b"), "closes nothing"),
    (lambda d: d["traceEvents"][12]["args"].update(value="4096"), "numeric args"),
    # The arrow's end moved out of the host slice.
    (lambda d: d["traceEvents"][11].update(ts=20.0), "no slice"),
    (lambda d: d["traceEvents"].pop(11), "1 starts and 0 ends"),
    (lambda d: d["traceEvents"][0].update(name="bogus_meta"), "metadata"),
])
def test_each_rule_rejects_its_breakage(break_it, expect: str) -> None:
    doc = copy.deepcopy(valid_doc())
    break_it(doc)
    problems = timeline.check(doc).problems
    assert any(expect in p for p in problems), problems


def test_a_truncated_timeline_may_keep_an_arrow_without_its_slice() -> None:
    doc = valid_doc()
    doc["traceEvents"][11]["ts"] = 20.0
    doc["otherData"]["dropped_events"] = 3
    assert timeline.check(doc).problems == []


def write_ops(path: Path, duration: str) -> Path:
    path.write_text("workload,op,kind,duration_us\nkv,0,op," + duration + "\n")
    return path


def test_segments_add_up_to_the_ops_csv_duration(tmp_path: Path) -> None:
    doc = valid_doc()
    assert timeline.segments(doc) == {("kv", 0): 10.0}
    assert timeline.check_segments(doc, write_ops(tmp_path / "a.csv", "10.000")) == []
    wrong = timeline.check_segments(doc, write_ops(tmp_path / "b.csv", "10.002"))
    assert wrong and "add up to 10.000000" in wrong[0]
    doc["traceEvents"] = [e for e in doc["traceEvents"] if e.get("cat") != "segment"]
    assert timeline.check_segments(doc, tmp_path / "a.csv") == ["no segments in the timeline"]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mcast4ai.timeline", *args], cwd=PYTHON_DIR,
                          capture_output=True, text=True)


def test_cli(tmp_path: Path) -> None:
    good = tmp_path / "t.json"
    good.write_text(json.dumps(valid_doc()))
    ops = write_ops(tmp_path / "ops.csv", "10.000")
    ok = run_cli("check", str(good), "--ops", str(ops))
    assert ok.returncode == 0 and "valid" in ok.stdout, ok.stdout + ok.stderr
    doc = valid_doc()
    doc["traceEvents"].pop(5)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert run_cli("check", str(bad)).returncode == 1
    (tmp_path / "junk.json").write_text("{")
    assert run_cli("check", str(tmp_path / "junk.json")).returncode == 2
    assert run_cli("nonsense").returncode == 2


def test_plot_draws_the_requests_and_hosts(tmp_path: Path) -> None:
    out = tmp_path / "t.png"
    timeline.plot(valid_doc(), out)
    assert out.stat().st_size > 1000 and out.read_bytes()[:4] == b"\x89PNG"
