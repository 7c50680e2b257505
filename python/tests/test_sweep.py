"""scripts/sweep: the grid, the exit status (1 when every point is invalid), --unset, the
steps table; with a fake runner (a Python script that writes summary.json, ops.csv and
steps.csv), and end to end with build-test/mcast4ai-run when it exists."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from mcast4ai import sweep, sweepdb

REPO = Path(__file__).resolve().parents[2]
# The runner of the build ctest runs (MCAST4AI_RUNNER), else build-test/'s.
RUNNER = Path(os.environ.get("MCAST4AI_RUNNER") or REPO / "build-test" / "mcast4ai-run")
PYTHON = "/usr/bin/python3"

# The fake runner: `--set KEY=VALUE` applied to the scenario's JSON as the real runner does
# (dotted paths; null removes the key, an error if there is none); a value "bad" is rejected
# (exit 2), "crash" crashes (exit 1). summary.json's numbers depend on the seed and on
# knob.value (-1 once removed); ops.csv has 3 operations; steps.csv with output.steps.
FAKE_RUNNER = r'''#!/usr/bin/python3
import json, os, sys
args = sys.argv[1:]
scenario, out, seed, sets = args[0], None, 1, []
i = 1
while i < len(args):
    if args[i] in ("--out", "--seed", "--set"):
        if args[i] == "--out":
            out = args[i + 1]
        elif args[i] == "--seed":
            seed = int(args[i + 1])
        else:
            sets.append(args[i + 1])
        i += 2
    else:
        i += 1
if os.environ.get("FAKE_CALLS"):
    with open(os.environ["FAKE_CALLS"], "a") as f:
        f.write(json.dumps(args) + "\n")
doc = json.load(open(scenario))
for s in sets:
    key, _, text = s.partition("=")
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    *path, last = key.split(".")
    node = doc
    for p in path:
        node = node.setdefault(p, {})
    if value is None:
        if last not in node:
            sys.exit(print(f"error: --set: {key}: nothing to remove: the scenario has no "
                           f"'{key}'", file=sys.stderr) or 2)
        del node[last]
    elif value == "bad":
        sys.exit(print(f"error: {scenario}: {key}: must not be 'bad' (set by --set {s})",
                       file=sys.stderr) or 2)
    elif value == "crash":
        sys.exit(print("fake: crashed", file=sys.stderr) or 1)
    else:
        node[last] = value
os.makedirs(out, exist_ok=True)
knob = doc.get("knob", {}).get("value", -1)
durations = [10.0 * seed + knob + i for i in range(3)]
json.dump({"complete": True, "scenario": doc.get("name"), "mechanism": "fake",
           "revision": "fake", "seed": seed, "network": {"knob": knob},
           "workloads": [{"completed": 3, "duration_us": {"p99": max(durations)}}]},
          open(os.path.join(out, "summary.json"), "w"))
with open(os.path.join(out, "ops.csv"), "w") as f:
    f.write("workload,op,iteration,start_us,end_us,duration_us,outcome\n")
    for i, d in enumerate(durations):
        f.write(f"w,{i},{i},0.000,{d:.3f},{d:.3f},completed\n")
if doc.get("output", {}).get("steps"):
    with open(os.path.join(out, "steps.csv"), "w") as f:
        f.write("workload,op,iteration,step,transfers,start_us,end_us,duration_us,last_src,"
                "last_dst\n")
        for i, d in enumerate(durations):
            f.write(f"w,{i},{i},0,4,0.000,1.000,1.000,0,1\n")
'''


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    runner = tmp_path / "fake-runner"
    runner.write_text(FAKE_RUNNER)
    runner.chmod(0o755)
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"name": "fake", "knob": {"value": 5, "mode": "a"},
                                    "output": {"steps": True}}))
    calls = tmp_path / "calls"
    monkeypatch.setenv("FAKE_CALLS", str(calls))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    return {"runner": runner, "scenario": scenario, "db": tmp_path / "s.sqlite",
            "calls": calls}


def run_sweep(fake: dict[str, Path], *args: str) -> int:
    argv = [str(fake["scenario"]), "--db", str(fake["db"]), "--runner", str(fake["runner"]),
            "--jobs", "2", *args]
    with pytest.raises(SystemExit) as e:
        sweep.main(argv)
    return int(e.value.code or 0)


def calls(fake: dict[str, Path]) -> list[list[str]]:
    if not fake["calls"].exists():
        return []
    return [json.loads(line) for line in fake["calls"].read_text().splitlines()]


def rows(db: Path, sql: str) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


# --------------------------------------------------------------------------------------------
# The grid


def test_split_values_respects_brackets_and_strings() -> None:
    assert sweep.split_values('1,[2,3],"a,b", {"x":1,"y":2}') == \
        ["1", "[2,3]", '"a,b"', '{"x":1,"y":2}']


@pytest.mark.parametrize("spec,message", [
    ("p2mp.mechanism", "no '='"), ("=bier", "empty key"), ("k=", "empty axis"),
    ("k=a,,b", "empty value (value 2 of 3)"), ("seed=1,2", "--seeds N"),
    ("status=1", "name of a database column"), ("w0.x=1", "name of a database column"),
])
def test_bad_axes(spec: str, message: str) -> None:
    with pytest.raises(sweep.SweepError, match=message.replace("(", r"\(").replace(")", r"\)")):
        sweep.parse_axis(spec)


def test_unset_is_an_axis_of_the_single_value_null() -> None:
    a = sweep.parse_unset(" knob.value ")
    assert (a.key, a.values, a.option, a.unsets) == ("knob.value", ["null"], "--unset", True)
    assert sweep.parse_axis("knob.value=null").unsets
    assert not sweep.parse_axis("knob.value=1,2").unsets
    with pytest.raises(sweep.SweepError, match="without '='"):
        sweep.parse_unset("knob.value=1")
    with pytest.raises(sweep.SweepError, match="empty key"):
        sweep.parse_unset("  ")
    with pytest.raises(sweep.SweepError, match="the same key is given twice"):
        sweep.parse_axes([("--set", "knob.value=1"), ("--unset", "knob.value")])


def test_repeated_values_only_inside_a_zip() -> None:
    # Alone, an axis value given twice would be the same points twice.
    with pytest.raises(sweep.SweepError, match="the same as"):
        sweep.build_groups([sweep.parse_axis('k=bier,"bier"')], [])
    # Zipped, a value may repeat (one fabric for two group sizes) ...
    axes = [sweep.parse_axis("n=7,15,255"), sweep.parse_axis("leaves=4,4,32")]
    groups = sweep.build_groups(axes, ["n,leaves"])
    assert len(sweep.build_points("s", axes, groups, [1], [])) == 3
    # ... but not a whole combination.
    axes = [sweep.parse_axis("n=7,7"), sweep.parse_axis("leaves=4,4")]
    with pytest.raises(sweep.SweepError, match="combination 2 is the same as combination 1"):
        sweep.build_groups(axes, ["n,leaves"])


def test_points_cross_zip_and_skip() -> None:
    axes = [sweep.parse_axis("a=1,2"), sweep.parse_axis("b=x,y"), sweep.parse_axis("c=3,4")]
    groups = sweep.build_groups(axes, ["a,c"])
    skips = [sweep.parse_skip("a=1,b=y", axes, [1, 2])]
    points = sweep.build_points("s", axes, groups, [1, 2], skips)
    got = [(p.values["a"], p.values["b"], p.values["c"], p.seed) for p in points]
    assert got == [("1", "x", "3", 1), ("1", "x", "3", 2), ("2", "x", "4", 1),
                   ("2", "x", "4", 2), ("2", "y", "4", 1), ("2", "y", "4", 2)]
    assert points[0].argv("R", "S", "O") == ["R", "S", "--quiet", "--out", "O", "--seed", "1",
                                             "--set", "a=1", "--set", "b=x", "--set", "c=3"]
    with pytest.raises(sweep.SweepError, match="not a value of b"):
        sweep.parse_skip("b=z", axes, [1])


def test_key_in_document() -> None:
    doc = {"p2mp": {"mechanism": "bier"}, "workloads": [{"bytes": 1}, {"ranks": [0, 1]}]}
    assert sweep.key_in_document(doc, "p2mp.mechanism")
    assert sweep.key_in_document(doc, "workloads[1].ranks")
    assert sweep.key_in_document(doc, "workloads.0.bytes")
    assert not sweep.key_in_document(doc, "workloads[2].bytes")
    assert not sweep.key_in_document(doc, "p2mp.bogus")


def test_exit_status() -> None:
    assert sweep.exit_status({"ok": 3, "failed": 0, "invalid": 1}, 4) == 0
    assert sweep.exit_status({"ok": 3, "failed": 1, "invalid": 0}, 4) == 1
    assert sweep.exit_status({"ok": 0, "failed": 0, "invalid": 4}, 4) == 1


# --------------------------------------------------------------------------------------------
# The command line, with the fake runner


def test_a_sweep_writes_runs_ops_and_steps(fake: dict[str, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sweep(fake, "--set", "knob.mode=a,b", "--seeds", "2") == 0
    err = capsys.readouterr().err
    assert "4 points: 4 ok, 0 failed, 0 invalid (4 run now)" in err
    assert rows(fake["db"], 'select "knob.mode", seed, "w0.duration_us.p99" from runs '
                            "order by 1, 2") == [("a", 1, 17.0), ("a", 2, 27.0),
                                                 ("b", 1, 17.0), ("b", 2, 27.0)]
    assert rows(fake["db"], "select count(*) from ops")[0][0] == 12
    assert rows(fake["db"], "select count(*), sum(duration_us) from steps") == [(12, 12.0)]
    # Run again: nothing to run.
    assert run_sweep(fake, "--set", "knob.mode=a,b", "--seeds", "2") == 0
    assert "4 points, 4 already in" in capsys.readouterr().err
    assert len(calls(fake)) == 4


def test_every_point_invalid_is_exit_1_with_the_reasons(
        fake: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    status = run_sweep(fake, "--set", "knob.mode=bad", "--seeds", "3")
    err = capsys.readouterr().err
    assert status == 1
    assert "3 points: 0 ok, 0 failed, 3 invalid" in err
    assert "every point is invalid" in err
    assert "knob.mode: must not be 'bad' (set by --set knob.mode=bad) (3 points)" in err
    # The database says so again without running anything.
    assert run_sweep(fake, "--set", "knob.mode=bad", "--seeds", "3") == 1
    assert "every point is invalid" in capsys.readouterr().err
    assert len(calls(fake)) == 3


def test_some_points_invalid_is_exit_0(fake: dict[str, Path],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sweep(fake, "--set", "knob.mode=a,bad") == 0
    err = capsys.readouterr().err
    assert "1 ok, 0 failed, 1 invalid" in err and "every point is invalid" not in err


def test_a_failed_run_is_exit_1(fake: dict[str, Path],
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sweep(fake, "--set", "knob.mode=a,crash") == 1
    err = capsys.readouterr().err
    assert "1 ok, 1 failed, 0 invalid" in err and "every point is invalid" not in err
    assert rows(fake["db"], "select error from runs where status = 'failed'") == \
        [("exit 1\nfake: crashed",)]


def test_unset_removes_the_key_for_every_point(fake: dict[str, Path],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sweep(fake, "--unset", "knob.value", "--set", "knob.mode=a,b") == 0
    runs = [c for c in calls(fake) if "--seed" in c]
    assert len(runs) == 2
    for argv in runs:
        assert argv[argv.index("--set") + 1] == "knob.value=null"  # in command-line order
    assert rows(fake["db"], 'select "knob.value", "network.knob" from runs') == \
        [("null", -1), ("null", -1)]
    # --set KEY=null is the same sweep: the same points, nothing to run.
    capsys.readouterr()
    assert run_sweep(fake, "--set", "knob.value=null", "--set", "knob.mode=a,b") == 0
    assert "2 already in" in capsys.readouterr().err
    # An axis may remove the key at one value and set it at another.
    assert run_sweep(fake, "--set", "knob.value=null,7") == 0
    assert rows(fake["db"], 'select "knob.value", "network.knob" from runs '
                            'where "knob.mode" is null order by "network.knob"') == \
        [("null", -1), (7, 7)]


def test_unset_of_a_key_the_runner_cannot_remove_is_a_bad_sweep(
        fake: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sweep(fake, "--unset", "knob.nope") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --unset knob.nope: the runner does not accept this key: "
                          "--set: knob.nope: nothing to remove")
    assert not fake["db"].exists()
    assert [c for c in calls(fake) if "--seed" in c] == []  # the key check alone


@pytest.mark.parametrize("args,message", [
    (["--unset", "knob.value=3"], "--unset 'knob.value=3': expected a key alone"),
    (["--unset", "knob.value", "--set", "knob.value=1"], "the same key is given twice"),
    (["--unset", "seed"], "seeds are swept with --seeds"),
])
def test_bad_unset(fake: dict[str, Path], capsys: pytest.CaptureFixture[str],
                   args: list[str], message: str) -> None:
    assert run_sweep(fake, *args) == 2
    assert message in capsys.readouterr().err
    assert not fake["db"].exists() and calls(fake) == []


def test_the_entry_point_runs_the_module(fake: dict[str, Path]) -> None:
    script = REPO / "scripts" / "sweep"
    assert script.read_text().startswith("#!/usr/bin/python3\n")
    proc = subprocess.run([str(script), str(fake["scenario"]), "--db", str(fake["db"]),
                           "--runner", str(fake["runner"]), "--set", "knob.mode=bad"],
                          capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert "every point is invalid" in proc.stderr
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "--unset KEY" in proc.stdout


# --------------------------------------------------------------------------------------------
# End to end, with the runner

TINY = {
    "name": "sweep-tiny", "seed": 1, "stop_time_ms": 20,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                 "host_link": {"rate_gbps": 100, "delay_us": 1},
                 "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
    "nic": {"mtu_bytes": 1024, "ack_every": 1},
    "switch": {"buffer_mb": 4, "latency_ns": 500, "pfc": {"enabled": True}},
    "p2mp": {"mechanism": "bier", "ack_aggregation": "none"},
    "workloads": [
        {"type": "broadcast", "label": "bcast", "root": 0, "bytes": 65536, "messages": 2},
        {"type": "flows", "label": "perm", "pattern": "permutation", "bytes": 65536}],
}

needs_runner = pytest.mark.skipif(not os.access(RUNNER, os.X_OK),
                                  reason=f"{RUNNER} is not built")


def runner_removes_keys(tmp_path: Path) -> bool:
    """Whether the runner takes --set KEY=null as 'remove KEY' (a runner without it rejects
    null as a value: 'must be a number'). The key must be in the scenario: removing one that
    is not there is an error either way (scenarios/default.json has no output.pcap)."""
    scenario = tmp_path / "unset-check.json"
    scenario.write_text(json.dumps(TINY))
    proc = subprocess.run([str(RUNNER), str(scenario), "--quiet",
                           "--set", "switch.latency_ns=null", "--set", "stop_time_ms=1e-9",
                           "--out", str(tmp_path / "unset-check")],
                          capture_output=True, text=True)
    return proc.returncode in (0, 3)


def sweep_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    scenario = tmp_path / "tiny.json"
    scenario.write_text(json.dumps(TINY))
    return subprocess.run([PYTHON, str(REPO / "scripts" / "sweep"), str(scenario),
                           "--runner", str(RUNNER), "--jobs", "1", *args],
                          capture_output=True, text=True, env={**os.environ,
                                                               "TMPDIR": str(tmp_path)})


@needs_runner
def test_end_to_end_sweep_and_all_invalid(tmp_path: Path) -> None:
    db = tmp_path / "e2e.sqlite"
    proc = sweep_cli(tmp_path, "--db", str(db), "--set", "p2mp.mechanism=unicast,bier")
    assert proc.returncode == 0, proc.stderr
    with sweepdb.SweepDB(str(db)) as r:
        got = [(row["p2mp.mechanism"], row["status"], row["w1.completed"]) for row in r.rows()]
        assert sorted(got) == [("bier", "ok", 8), ("unicast", "ok", 8)]
        assert len(r.ops([row["id"] for row in r.rows()], ["duration_us"])) == 20
    # unicast accepts only ack_aggregation none: every point invalid, exit 1, the reason.
    proc = sweep_cli(tmp_path, "--db", str(tmp_path / "bad.sqlite"),
                     "--set", "p2mp.mechanism=unicast",
                     "--set", "p2mp.ack_aggregation=sender-nic,source-tor")
    assert proc.returncode == 1, proc.stderr
    assert "every point is invalid" in proc.stderr
    assert "p2mp.ack_aggregation: must be 'none' with p2mp.mechanism 'unicast'" in proc.stderr


@needs_runner
def test_end_to_end_unset(tmp_path: Path) -> None:
    if not runner_removes_keys(tmp_path):
        pytest.skip("the runner rejects --set switch.latency_ns=null: removing a key with "
                    "--set KEY=null is not in this build of build-test/mcast4ai-run yet")
    db = tmp_path / "unset.sqlite"
    proc = sweep_cli(tmp_path, "--db", str(db), "--unset", "switch.latency_ns",
                     "--keep", str(tmp_path / "kept"))
    assert proc.returncode == 0, proc.stderr
    with sweepdb.SweepDB(str(db)) as r:
        (row,) = r.rows()
    assert row["status"] == "ok" and row["switch.latency_ns"] == "null"
    point = json.loads(Path(row["kept_dir"], "sweep-point.json").read_text())
    assert "switch.latency_ns=null" in point["argv"]
    resolved = json.loads(Path(row["kept_dir"], "scenario.json").read_text())
    assert resolved["switch"]["latency_ns"] == 500  # the default applies again
