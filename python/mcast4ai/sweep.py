"""Run a scenario over a grid of --set values and seeds; collect every run into SQLite.

    scripts/sweep SCENARIO --db FILE.sqlite [--set KEY=V1,V2,...]... [--unset KEY]...
                  [--zip KEY1,KEY2]... [--skip 'KEY=V,KEY2=W']... [--seeds N] [--jobs J]
                  [--backend local|slurm] [--runner PATH] [--timeout S] [--keep DIR]
                  [--partition P] [--time T] [--workdir DIR] [--sbatch-arg ARG]...  (slurm)

The points are the cartesian product of the --set axes (axes named together in a --zip advance
together instead) and the seeds 1..N, minus the points a --skip matches. --unset KEY (or
--set KEY=null) removes KEY from the scenario of every point. Each point is one
`mcast4ai-run SCENARIO --quiet --seed N --set KEY=VALUE...` into a temporary directory; its
summary.json (flattened into columns), ops.csv and steps.csv are written to the database as
soon as it finishes, one transaction per run. Running the same command again runs only the
points that are not yet `ok` or `invalid`. With --backend slurm the runs are the tasks of one
SLURM job array (sbatch --array) writing into a shared directory, collected into the database
by this process as they finish. With --keep DIR the result directory of every ok run is kept,
as DIR/SCENARIO/KEY=VALUE,...,seed=N, and the runs row names it (column kept_dir). The exit
status is 1 when a run failed or when every point is invalid. See docs/sweeps.md for the schema
and examples.

The module: grid building (Axis, Point, build_points), the check of the axis keys against the
runner, reading a run's result directory (load_result), the local and SLURM backends, and the
command line (main). The database itself is mcast4ai.sweepdb.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import fcntl
import hashlib
import itertools
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from types import FrameType
from typing import Any, Iterator, NoReturn, Protocol, Sequence

from . import sweepdb
from .sweepdb import canonical, canonical_json, column_value

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
DEFAULT_RUNNER = os.path.join(REPO, "build", "mcast4ai-run")
ERROR_TAIL_LINES = 20  # of a failed run's stderr
VALIDATION_TIMEOUT_S = 300
INVALID_REASONS_SHOWN = 3  # distinct reasons printed when every point is invalid
UNSET = "null"  # the --set value that removes a key from the scenario


class SweepError(Exception):
    """A bad sweep: reported as `error: ...`, exit 2, before anything runs."""


def fail(message: object) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def note(message: str) -> None:
    print(f"sweep: {message}", file=sys.stderr)


# --------------------------------------------------------------------------------------------
# Axes and points


def split_values(text: str) -> list[str]:
    """Split at the commas outside brackets, braces and strings: '1,[2,3],"a,b"' -> 3 values."""
    values, depth, start, in_string, escaped = [], 0, 0, False, False
    for i, c in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "," and depth == 0:
            values.append(text[start:i])
            start = i + 1
    values.append(text[start:])
    return [v.strip() for v in values]


@dataclass
class Axis:
    """A swept key and its values, as raw texts passed to the runner as they are. option is
    how it was given (--set or --unset), for messages."""

    key: str
    values: list[str]
    option: str = "--set"

    @property
    def unsets(self) -> bool:
        """Whether a value of the axis removes the key (JSON null)."""
        return any(canonical(v) is None for v in self.values)


def check_axis_key(key: str, spec: str, option: str = "--set") -> None:
    if key == "seed":
        raise SweepError(f"{option} '{spec}': seeds are swept with --seeds N (seeds 1..N)")
    if sweepdb.is_reserved(key):
        raise SweepError(f"{option} '{spec}': '{key}' is the name of a database column")


def parse_axis(spec: str) -> Axis:
    """--set KEY=V1,V2,...: an axis."""
    key, sep, rest = spec.partition("=")
    key = key.strip()
    if not sep:
        raise SweepError(f"--set '{spec}': no '=': expected KEY=V1,V2,...")
    if not key:
        raise SweepError(f"--set '{spec}': empty key: expected KEY=V1,V2,...")
    if not rest.strip():
        raise SweepError(f"--set '{spec}': empty axis: no values after '='")
    values = split_values(rest)
    for i, v in enumerate(values, 1):
        if v == "":
            raise SweepError(f"--set '{spec}': empty value (value {i} of {len(values)})")
    check_axis_key(key, spec)
    return Axis(key, values)


def check_distinct(group: Sequence[Axis]) -> None:
    """No two points of one factor may be the same: an axis of its own has distinct values; in
    a --zip group a value may repeat (a topology size shared by two group sizes) as long as
    the zipped combinations differ."""
    seen: dict[str, int] = {}
    for i in range(len(group[0].values)):
        c = json.dumps([canonical_json(a.values[i]) for a in group])
        if c in seen:
            j = seen[c]
            if len(group) == 1:
                a = group[0]
                raise SweepError(f"{a.option} '{a.key}={','.join(a.values)}': value "
                                 f"'{a.values[i]}' is the same as '{a.values[j]}'")
            raise SweepError("--zip '" + ",".join(a.key for a in group) + f"': combination {i + 1} "
                             f"is the same as combination {j + 1} ("
                             + ", ".join(f"{a.key}={a.values[i]}" for a in group) + ")")
        seen[c] = i


def parse_unset(spec: str) -> Axis:
    """--unset KEY: the axis KEY=null, one value that removes the key from every point."""
    key = spec.strip()
    if not key:
        raise SweepError("--unset '': empty key: expected --unset KEY")
    if "=" in key:
        raise SweepError(f"--unset '{spec}': expected a key alone, without '=' "
                         f"(to set a value: --set {key})")
    check_axis_key(key, spec, "--unset")
    return Axis(key, [UNSET], "--unset")


def build_groups(axes: Sequence[Axis], zips: Sequence[str]) -> list[list[Axis]]:
    """The axes grouped into the factors of the product: a --zip group advances together,
    every other axis is a factor of its own; factors in the order of their first --set."""
    by_key = {a.key: a for a in axes}
    group_of: dict[str, list[Axis]] = {}
    for spec in zips:
        keys = [k.strip() for k in split_values(spec)]
        if len(keys) < 2 or any(not k for k in keys):
            raise SweepError(f"--zip '{spec}': expected two or more axis keys, KEY1,KEY2,...")
        for k in keys:
            if k not in by_key:
                raise SweepError(f"--zip '{spec}': '{k}' is not an axis (no --set {k}=...); "
                                 f"axes: {', '.join(by_key) or 'none'}")
            if k in group_of:
                raise SweepError(f"--zip '{spec}': '{k}' is zipped twice")
        lengths = {k: len(by_key[k].values) for k in keys}
        if len(set(lengths.values())) > 1:
            raise SweepError(f"--zip '{spec}': axes of different lengths ("
                             + ", ".join(f"{k}: {n} value{'s' * (n != 1)}"
                                         for k, n in lengths.items()) + ")")
        group = [by_key[k] for k in keys]
        for k in keys:
            group_of[k] = group
    groups: list[list[Axis]] = []
    placed: set[int] = set()
    for a in axes:
        group = group_of.get(a.key, [a])
        if id(group) not in placed:
            placed.add(id(group))
            check_distinct(group)
            groups.append(group)
    return groups


def parse_skip(spec: str, axes: Sequence[Axis], seeds: Sequence[int]) -> dict[str, str]:
    """'KEY=V,KEY2=W' -> {key: canonical JSON of the value}; every key an axis (or seed) and
    every value one of its values, so that a typo cannot silently skip nothing."""
    by_key = {a.key: a for a in axes}
    wanted: dict[str, str] = {}
    for pair in split_values(spec):
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise SweepError(f"--skip '{spec}': expected KEY=VALUE[,KEY=VALUE...], got '{pair}'")
        if key == "seed":
            known = [str(s) for s in seeds]
        elif key in by_key:
            known = by_key[key].values
        else:
            raise SweepError(f"--skip '{spec}': '{key}' is not an axis (no --set {key}=...)")
        c = canonical_json(value)
        if c not in {canonical_json(v) for v in known}:
            raise SweepError(f"--skip '{spec}': '{value}' is not a value of {key} "
                             f"({', '.join(known)})")
        if key in wanted:
            raise SweepError(f"--skip '{spec}': '{key}' given twice")
        wanted[key] = c
    return wanted


class Point:
    """One run: a value of every axis and a seed."""

    def __init__(self, scenario_id: str, values: dict[str, str], seed: int) -> None:
        self.values = values  # {key: raw text}, in axis order
        self.seed = seed
        self.key = sweepdb.point_key(scenario_id, seed, values)  # the resume key

    def matches(self, skip: dict[str, str]) -> bool:
        for key, c in skip.items():
            v = str(self.seed) if key == "seed" else self.values[key]
            if canonical_json(v) != c:
                return False
        return True

    def argv(self, runner: str, scenario: str, out_dir: str) -> list[str]:
        cmd = [runner, scenario, "--quiet", "--out", out_dir, "--seed", str(self.seed)]
        for key, value in self.values.items():
            cmd += ["--set", f"{key}={value}"]
        return cmd

    def record(self, status: str, error: str | None = None, exit_code: int | None = None,
               **results: Any) -> sweepdb.RunRecord:
        """The database record of this point with a run's outcome."""
        return sweepdb.RunRecord(self.key, self.seed,
                                 {k: column_value(v) for k, v in self.values.items()},
                                 status, error, exit_code, **results)


def build_points(scenario_id: str, axes: Sequence[Axis], groups: Sequence[Sequence[Axis]],
                 seeds: Sequence[int], skips: Sequence[dict[str, str]]) -> list[Point]:
    points = []
    for combo in itertools.product(*[range(len(g[0].values)) for g in groups]):
        chosen = {}
        for group, i in zip(groups, combo):
            for a in group:
                chosen[a.key] = a.values[i]
        values = {a.key: chosen[a.key] for a in axes}
        for seed in seeds:
            p = Point(scenario_id, values, seed)
            if not any(p.matches(s) for s in skips):
                points.append(p)
    return points


# --------------------------------------------------------------------------------------------
# Checking the axis keys before anything runs


def key_in_document(doc: Any, key: str) -> bool:
    """Whether the --set path names a value the scenario file already has (then the runner
    knows the key: the file is a valid scenario)."""
    node = doc
    for piece in key.split("."):
        m = re.fullmatch(r"([^\[\]]+)((?:\[\d+\])*)", piece)
        if not m:
            return False
        name, indexes = m.group(1), [int(i) for i in re.findall(r"\[(\d+)\]", m.group(2))]
        if isinstance(node, list) and name.isdigit():
            indexes.insert(0, int(name))
        elif isinstance(node, dict) and name in node:
            node = node[name]
        else:
            return False
        for i in indexes:
            if not isinstance(node, list) or i >= len(node):
                return False
            node = node[i]
    return True


def check_keys(runner: str, scenario: str, doc: Any, axes: Sequence[Axis]) -> None:
    """Reject an axis key that the runner does not know, before any run.

    A key the scenario file already has is known. The others are checked with ONE runner
    invocation that sets all of them to their first values together with stop_time_ms=1e-9:
    the runner parses and validates the whole scenario (listing every problem it finds) before
    it simulates anything, and with that stop time it builds the fabric and stops at once
    (milliseconds for the example scenarios), so the check is cheap. Only an error about the
    key itself fails the sweep: a malformed path, one that cannot be set or removed ("error:
    --set: KEY: ...", e.g. --unset of a key the scenario does not have) and "KEY: unknown key"
    for a key that no variant has. A value or a combination the runner rejects ("must be ...",
    or a key that applies only to another variant, e.g. another workload type, that a later
    axis may choose) is the verdict on those points: they are recorded as `invalid`, and the
    sweep goes on."""
    absent = [a for a in axes if a.key != "stop_time_ms" and not key_in_document(doc, a.key)]
    if not absent:
        return
    with tempfile.TemporaryDirectory(prefix="sweep-check-") as tmp:
        cmd = [runner, scenario, "--quiet", "--out", os.path.join(tmp, "out"),
               "--set", "stop_time_ms=1e-9"]
        for a in absent:
            cmd += ["--set", f"{a.key}={a.values[0]}"]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, errors="replace", timeout=VALIDATION_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            note(f"warning: checking the keys {', '.join(a.key for a in absent)} took more than "
                 f"{VALIDATION_TIMEOUT_S} s; not checked")
            return
    if proc.returncode in (0, 3):
        return
    if proc.returncode != 2:
        note(f"warning: the runner exited {proc.returncode} while checking the keys "
             f"{', '.join(a.key for a in absent)}; not checked")
        return
    lines = proc.stderr.splitlines()
    for a in absent:
        # The runner's name for the path: numeric segments of an array as [i].
        path = re.sub(r"\.(\d+)(?=\.|\[|$)", r"[\1]", a.key)
        for line in lines:
            bad_path = line.startswith(f"error: --set: {a.key}:")
            unknown = (f": {path}: unknown key " in line and "it applies only to" not in line)
            if bad_path or unknown:
                raise SweepError(f"{a.option} {a.key}: the runner does not accept this key: "
                                 f"{line.removeprefix('error: ')}")


# --------------------------------------------------------------------------------------------
# Reading one run's results (shared by every backend)


@dataclass
class RunResult:
    """A finished point: what the database gets for it."""

    point: Point
    record: sweepdb.RunRecord

    @property
    def status(self) -> str:
        return self.record.status


def stderr_tail(text: str) -> str:
    lines = text.strip().splitlines()
    if len(lines) > ERROR_TAIL_LINES:
        lines = [f"[... {len(lines) - ERROR_TAIL_LINES} lines]"] + lines[-ERROR_TAIL_LINES:]
    return "\n".join(lines)


def load_result(point: Point, returncode: int | None, stderr: str, out_dir: str,
                timed_out: float | None = None) -> RunResult:
    """Classify a finished run and read its result directory: exit 0 or 3 (stop_time_ms reached,
    results written) is ok, 2 (scenario or --set rejected) is invalid, anything else failed."""
    if timed_out is not None:
        return RunResult(point, point.record("failed", (f"timed out after {timed_out:g} s\n"
                                                        + stderr_tail(stderr)).strip(),
                                             returncode))
    if returncode == 2:
        return RunResult(point, point.record("invalid", stderr.strip() or "exit 2", 2))
    if returncode not in (0, 3):
        what = (f"killed by signal {-returncode}" if returncode is not None and returncode < 0
                else f"exit {returncode}")
        return RunResult(point, point.record("failed", (what + "\n" + stderr_tail(stderr))
                                             .strip(), returncode))
    try:
        with open(os.path.join(out_dir, "summary.json")) as f:
            summary = json.load(f)
        ops = sweepdb.Table.read_csv(os.path.join(out_dir, "ops.csv"))
        steps_csv = os.path.join(out_dir, "steps.csv")
        steps = (sweepdb.Table.read_csv(steps_csv) if os.path.isfile(steps_csv)
                 else sweepdb.Table())
    except (OSError, ValueError, csv.Error) as e:
        return RunResult(point, point.record("failed", f"exit {returncode} but unreadable "
                                             f"results: {e}\n" + stderr_tail(stderr),
                                             returncode))
    if not isinstance(summary, dict):
        return RunResult(point, point.record("failed", "summary.json is not an object",
                                             returncode))
    return RunResult(point, point.record("ok", None, returncode,
                                         metrics=sweepdb.summary_columns(summary), ops=ops,
                                         steps=steps))


def safe_name(text: str) -> str:
    """A file name made of text: characters other than letters, digits and ._=,+- become _;
    a name longer than 150 characters is cut and ends in a hash of the whole."""
    name = re.sub(r"[^A-Za-z0-9._=,+-]", "_", text).lstrip(".") or "_"
    if len(name) > 150:
        name = name[:130] + "-" + hashlib.sha256(text.encode()).hexdigest()[:16]
    return name


def keep_path(keep_dir: str, scenario: str, point: Point) -> str:
    """Where --keep puts a point's result directory: KEEP/SCENARIO/KEY=VALUE,...,seed=N, with
    SCENARIO the scenario file's name without .json and each value as the runner sees it
    (strings bare, anything else as compact JSON), all made safe as file names."""
    parts = []
    for key, raw in point.values.items():
        v = canonical(raw)
        parts.append(f"{key}={v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))}")
    parts.append(f"seed={point.seed}")
    stem = os.path.splitext(os.path.basename(scenario))[0]
    return os.path.join(keep_dir, safe_name(stem), safe_name(",".join(parts)))


def keep_result(result: RunResult, out_dir: str, keep_dir: str | None, scenario: str,
                argv: Sequence[str]) -> RunResult:
    """--keep: move an ok run's result directory to its keep_path (replacing what an earlier
    attempt left there) and record the point in it (sweep-point.json). A run whose directory
    cannot be kept is failed, so that the next invocation runs it again."""
    if keep_dir is None or result.status != "ok":
        return result
    dest = keep_path(keep_dir, scenario, result.point)
    try:
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if os.path.isdir(dest) and not os.path.islink(dest):
            shutil.rmtree(dest)
        elif os.path.lexists(dest):
            os.unlink(dest)
        shutil.move(out_dir, dest)
        with open(os.path.join(dest, "sweep-point.json"), "w") as f:
            json.dump({"point": json.loads(result.point.key), "scenario_file": scenario,
                       "argv": [dest if a == out_dir else a for a in argv]}, f, indent=1)
            f.write("\n")
    except OSError as e:
        return RunResult(result.point, result.point.record(
            "failed", f"--keep: cannot keep the result directory as {dest}: {e}",
            result.record.exit_code))
    result.record.kept_dir = dest
    return result


# --------------------------------------------------------------------------------------------
# Backends: run a list of points, yield a RunResult per point as it finishes.
#
# A backend is a class with name, check() (raise SweepError on bad settings, without side
# effects), prepare(points) (called only when there is something to run, before the database
# is created or changed: raise SweepError when the runs cannot be started), describe(points)
# (how the runs run, for the first progress line), run(points) (a generator of RunResults, one
# per point, in any order; the caller writes each one to the database as it arrives, so a
# backend must not write the database itself), plus interrupt() to stop its runs.


class Backend(Protocol):
    name: str

    def check(self) -> None: ...

    def prepare(self, points: list[Point]) -> None: ...

    def describe(self, points: list[Point]) -> str: ...

    def run(self, points: list[Point]) -> Iterator[RunResult]: ...

    def interrupt(self) -> None: ...


class LocalBackend:
    """Runs on this machine, `jobs` at a time. The runs are child processes (subprocess); a
    thread pool waits for them, so the parent is the only process that touches SQLite."""

    name = "local"

    def __init__(self, runner: str, scenario: str, jobs: int, timeout: float | None,
                 keep: str | None = None) -> None:
        self.runner = runner
        self.scenario = scenario
        self.jobs = jobs
        self.timeout = timeout
        self.keep = keep
        self._lock = threading.Lock()
        self._procs: set[subprocess.Popen[str]] = set()
        self._stopping = False

    def check(self) -> None:
        pass

    def prepare(self, points: list[Point]) -> None:
        pass

    def describe(self, points: list[Point]) -> str:
        return f"local, {min(self.jobs, max(len(points), 1))} at a time"

    def _run_one(self, point: Point, work: str) -> RunResult | None:
        out_dir = tempfile.mkdtemp(prefix="run-", dir=work)
        try:
            with self._lock:
                if self._stopping:
                    return None
                argv = point.argv(self.runner, self.scenario, out_dir)
                proc = subprocess.Popen(argv,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True, errors="replace")
                self._procs.add(proc)
            timed_out = None
            assert proc.stderr is not None
            try:
                _, err = proc.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                # The runner is one process; a wrapper script's children may hold stderr open
                # after it is killed, so do not wait for them for long.
                proc.kill()
                try:
                    _, err = proc.communicate(timeout=2)
                except subprocess.TimeoutExpired:
                    proc.stderr.close()
                    proc.wait()
                    err = ""
                timed_out = self.timeout
            finally:
                with self._lock:
                    self._procs.discard(proc)
            return keep_result(load_result(point, proc.returncode, err, out_dir, timed_out),
                               out_dir, self.keep, self.scenario, argv)
        finally:
            shutil.rmtree(out_dir, ignore_errors=True)

    def run(self, points: list[Point]) -> Iterator[RunResult]:
        if not points:
            return
        work = tempfile.mkdtemp(prefix="mcast4ai-sweep-")
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs)
        try:
            futures = [pool.submit(self._run_one, p, work) for p in points]
            for future in concurrent.futures.as_completed(futures):
                result = future.result()
                if result is not None:
                    yield result
        finally:
            self.interrupt()  # no-op when everything finished
            pool.shutdown(wait=True, cancel_futures=True)
            shutil.rmtree(work, ignore_errors=True)

    def interrupt(self) -> None:
        with self._lock:
            self._stopping = True
            for proc in self._procs:
                proc.kill()


# The SLURM backend: the points are the tasks of a job array (sbatch --array), run on the
# cluster's nodes into a working directory that the nodes and this machine share; this process
# waits for them and collects each task's result as it appears. The working directory holds,
# per job array, a directory SUB (array-DATE-TIME-PID-N):
#   SUB/task.py          the batch script of every task (SLURM_TASK_PROGRAM)
#   SUB/points.json      the point key of each task index (written before sbatch)
#   SUB/job_id           the array's SLURM job id (written once sbatch accepted it)
#   SUB/tasks/I/         task I: task.json (its runner command), out/ (the run's result
#                        files), result.json (exit code and stderr, written last)
#   SUB/done/I           written by task I after result.json: what the sweep looks for
#   SUB/logs/I.out       SLURM's stdout/stderr of task I (the task program's own errors)
# A task is removed once it is in the database, SUB once all its tasks are. A job array left
# by a sweep that was killed is adopted by the next invocation: its finished tasks are
# collected, its queued or running tasks of points still to run are waited for, the others
# cancelled.

SLURM_TASK_PROGRAM = r'''#!/usr/bin/python3
"""One task of a scripts/sweep job array, written here by scripts/sweep. SLURM runs it as the
batch script of each task, with the array's directory SUB as argument: task I runs the runner
command of SUB/tasks/I/task.json (into SUB/tasks/I/out), records its exit code and stderr in
SUB/tasks/I/result.json, then writes the marker SUB/done/I. The sweep collects it from there."""
import json
import os
import shutil
import socket
import subprocess
import sys

sub = sys.argv[1]
index = os.environ["SLURM_ARRAY_TASK_ID"]
task_dir = os.path.join(sub, "tasks", index)
try:
    with open(os.path.join(task_dir, "task.json")) as f:
        task = json.load(f)
except FileNotFoundError:
    sys.exit(f"{task_dir}: no task.json: collected already, or removed")
shutil.rmtree(os.path.join(task_dir, "out"), ignore_errors=True)  # a requeued task starts over
timed_out = None
# The runner runs in the sweep's directory, with the scenario path as given to the sweep (its
# error messages name it): both must be there on this node, or the run fails (not `invalid`).
try:
    os.chdir(task["cwd"])
    if not os.path.isfile(task["scenario"]):
        raise OSError(f"no scenario file {task['scenario']} in {task['cwd']}")
    proc = subprocess.Popen(task["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, errors="replace")
except OSError as e:
    code, err = 127, f"task on {socket.gethostname()}: cannot run {task['argv'][0]}: {e}"
else:
    try:
        _, err = proc.communicate(timeout=task["timeout"])
    except subprocess.TimeoutExpired:
        proc.kill()
        try:
            _, err = proc.communicate(timeout=2)
        except subprocess.TimeoutExpired:
            proc.stderr.close()
            proc.wait()
            err = ""
        timed_out = task["timeout"]
    code = proc.returncode
tmp = os.path.join(task_dir, "result.json.tmp")
with open(tmp, "w") as f:
    json.dump({"exit_code": code, "stderr": err, "timed_out": timed_out,
               "host": socket.gethostname()}, f)
    f.flush()
    os.fsync(f.fileno())
os.replace(tmp, os.path.join(task_dir, "result.json"))
with open(os.path.join(sub, "done", index), "w"):
    pass
'''

# Job and task states after which a task runs no more (squeue -t all / sacct).
SLURM_ENDED = {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
               "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED", "SPECIAL_EXIT"}
SLURM_TIME = re.compile(r"\d+(?::\d+){0,2}|\d+-\d+(?::\d+){0,2}|unlimited|infinite", re.I)
SLURM_POLL_MIN_S = 0.2  # looking for finished tasks (a directory listing)
SLURM_POLL_MAX_S = 5
SLURM_SQUEUE_EVERY_S = 10  # asking SLURM which tasks ended (to find those without a result)
SLURM_LOST_GRACE_S = 30  # a task ended this long with no result is failed (NFS caches)
SLURM_COMMAND_TIMEOUT_S = 120


class Submission:
    """One job array of the working directory."""

    def __init__(self, path: str, job_id: str, waiting: dict[int, Point],
                 adopted: bool = False) -> None:
        self.path = path
        self.job_id = job_id
        self.waiting = waiting  # {task index: Point} not collected yet
        self.adopted = adopted  # submitted by an earlier invocation
        self.ended: dict[int, float] = {}  # {task index: time first seen ended, no result}
        self.removed = False


class SlurmBackend:
    """Runs each point as a task of one SLURM job array (several when the sweep has more points
    than the cluster's MaxArraySize) and collects the tasks' results from a shared working
    directory as they finish. Only this process touches SQLite."""

    name = "slurm"

    def __init__(self, runner: str, scenario: str, jobs: int | None, timeout: float | None,
                 db: str, partition: str | None = None, time_limit: str | None = None,
                 workdir: str | None = None, sbatch_args: Sequence[str] = (),
                 keep: str | None = None) -> None:
        self.keep = keep
        self.runner = runner
        self.scenario = scenario  # as given: the runner's messages name it
        self.cwd = os.getcwd()
        self.jobs = jobs  # None: as many tasks at a time as SLURM gives
        self.timeout = timeout
        self.partition = partition
        self.time_limit = time_limit
        self.workdir = os.path.abspath(workdir if workdir is not None else db + ".slurm")
        self._own_workdir = workdir is None  # the default one: removed once empty
        self.sbatch_args = list(sbatch_args)
        self._subs: list[Submission] = []
        self._lock_file: Any = None
        self._created = False
        self._cancelled: set[str] = set()
        self._warned: set[str] = set()

    def check(self) -> None:
        for tool in ("sbatch", "squeue", "scancel", "scontrol"):
            if shutil.which(tool) is None:
                raise SweepError(f"--backend slurm: '{tool}' is not on PATH (SLURM's client "
                                 "commands, Debian package slurm-client)")
        if self.partition is not None and not self.partition.strip():
            raise SweepError("--partition: empty partition name")
        if self.time_limit is not None and not SLURM_TIME.fullmatch(self.time_limit.strip()):
            raise SweepError(f"--time {self.time_limit}: not a SLURM time limit (MINUTES, "
                             "MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS[:MINUTES"
                             "[:SECONDS]])")
        if os.path.exists(self.workdir) and not os.path.isdir(self.workdir):
            raise SweepError(f"--workdir {self.workdir}: not a directory")
        if not os.path.isdir(os.path.dirname(self.workdir)):
            raise SweepError(f"--workdir {self.workdir}: its parent directory does not exist")

    def _command(self, cmd: list[str]) -> tuple[int | None, str, str]:
        """(exit status, stdout, stderr) of a SLURM command; status None if it did not run."""
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  errors="replace", timeout=SLURM_COMMAND_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, "", str(e)
        return proc.returncode, proc.stdout, proc.stderr

    def prepare(self, points: list[Point]) -> None:
        rc, out, err = self._command(["scontrol", "show", "config"])
        if rc != 0:
            raise SweepError("--backend slurm: cannot reach SLURM: scontrol show config: "
                             + (err.strip().splitlines() or [f"exit {rc}"])[-1])
        m = re.search(r"^MaxArraySize\s*=\s*(\d+)", out, re.M)
        max_tasks = max(1, int(m.group(1))) if m else 1001
        created = self._created = not os.path.isdir(self.workdir)
        try:
            os.makedirs(self.workdir, exist_ok=True)
            self._lock_file = open(os.path.join(self.workdir, "lock"), "a")
        except OSError as e:
            raise SweepError(f"--workdir {self.workdir}: {e}")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SweepError(f"--workdir {self.workdir}: another sweep is using it (one sweep "
                             "at a time per working directory)")
        except OSError as e:  # a file system without locks: go on, one sweep at a time
            note(f"warning: cannot lock {self.workdir}/lock ({e.strerror}); make sure no other "
                 "sweep uses this working directory")
        try:
            todo = {p.key: p for p in points}
            self._adopt(todo)
            rest = [p for p in points if p.key in todo]
            for start in range(0, len(rest), max_tasks):
                self._submit(rest[start:start + max_tasks], len(self._subs))
        except BaseException:
            self.interrupt()
            if created and not self._subs:
                shutil.rmtree(self.workdir, ignore_errors=True)
            raise

    def _states(self, job_id: str) -> dict[int, str] | None:
        """{task index: state} of a job array, ended tasks included; {} when SLURM no longer
        knows the job; None when SLURM cannot be asked."""
        rc, out, err = self._command(["squeue", "--noheader", "--array", "--states=all",
                                      f"--jobs={job_id}", "--format=%K|%T"])
        if rc == 0:
            states: dict[int, str] = {}
            for line in out.splitlines():
                index, _, state = line.partition("|")
                if index.strip().isdigit():
                    states[int(index)] = (state.split() or ["UNKNOWN"])[0]
            return states
        if rc is not None and "invalid job id" in err.lower():
            # Gone from the controller (MinJobAge after its end): accounting may still know.
            states = {}
            rc, out, _ = self._command(["sacct", "--noheader", "--parsable2", "--allocations",
                                        f"--jobs={job_id}", "--format=JobID,State"])
            for line in (out.splitlines() if rc == 0 else []):
                m = re.fullmatch(rf"{job_id}_(\d+)\|(\S+).*", line.strip())
                if m:
                    states[int(m.group(1))] = m.group(2)
            return states
        return None

    def _cancel(self, targets: list[str]) -> None:
        if targets:
            self._command(["scancel"] + targets)

    def _adopt(self, todo: dict[str, Point]) -> None:
        """Take over the job arrays that earlier invocations left in the working directory
        (killed before they were done): collect the finished tasks of points still to run,
        wait for the queued or running ones, cancel the other live tasks, remove what is
        left of arrays that run no more. Adopted points are removed from todo."""
        for name in sorted(os.listdir(self.workdir)):
            path = os.path.join(self.workdir, name)
            if not (name.startswith("array-") and os.path.isdir(path)):
                continue
            try:
                with open(os.path.join(path, "points.json")) as f:
                    keys = json.load(f)
            except (OSError, ValueError):
                keys = None
            try:
                with open(os.path.join(path, "job_id")) as f:
                    job_id = f.read().strip()
            except OSError:
                job_id = None
            if keys is None or job_id is None:  # killed before its sbatch
                shutil.rmtree(path, ignore_errors=True)
                continue
            states = self._states(job_id)
            if states is None:
                raise SweepError(f"--backend slurm: cannot ask SLURM about job {job_id} (an "
                                 f"earlier sweep's, in {path}): squeue failed")
            try:
                done = set(os.listdir(os.path.join(path, "done")))
            except OSError:
                done = set()
            waiting: dict[int, Point] = {}
            stray: list[str] = []
            for i, key in enumerate(keys):
                live = i in states and states[i] not in SLURM_ENDED
                if key in todo and (str(i) in done or live):
                    waiting[i] = todo.pop(key)
                elif live:
                    stray.append(f"{job_id}_{i}")
            self._cancel(stray)
            if waiting:
                self._subs.append(Submission(path, job_id, waiting, adopted=True))
            elif not stray:
                shutil.rmtree(path, ignore_errors=True)

    def _submit(self, points: list[Point], n: int) -> None:
        path = os.path.join(self.workdir, f"array-{time.strftime('%Y%m%d-%H%M%S')}-"
                                          f"{os.getpid()}-{n}")
        try:
            for sub in ("tasks", "done", "logs"):
                os.makedirs(os.path.join(path, sub))
            program = os.path.join(path, "task.py")
            with open(program, "w") as f:
                f.write(SLURM_TASK_PROGRAM)
            os.chmod(program, 0o755)
            for i, p in enumerate(points):
                task_dir = os.path.join(path, "tasks", str(i))
                os.mkdir(task_dir)
                with open(os.path.join(task_dir, "task.json"), "w") as f:
                    json.dump({"point": p.key, "timeout": self.timeout, "cwd": self.cwd,
                               "scenario": self.scenario,
                               "argv": p.argv(self.runner, self.scenario,
                                              os.path.join(task_dir, "out"))}, f)
            with open(os.path.join(path, "points.json.tmp"), "w") as f:
                json.dump([p.key for p in points], f)
            os.replace(os.path.join(path, "points.json.tmp"), os.path.join(path, "points.json"))
        except OSError as e:
            shutil.rmtree(path, ignore_errors=True)
            raise SweepError(f"--workdir {self.workdir}: {e}")
        array = f"0-{len(points) - 1}" + (f"%{self.jobs}" if self.jobs else "")
        cmd = ["sbatch", "--parsable", f"--array={array}", "--job-name=mcast4ai-sweep",
               "--ntasks=1", "--cpus-per-task=1", f"--chdir={self.cwd}",
               f"--output={path}/logs/%a.out"]
        if self.partition:
            cmd.append(f"--partition={self.partition.strip()}")
        if self.time_limit:
            cmd.append(f"--time={self.time_limit.strip()}")
        cmd += self.sbatch_args + [program, path]
        rc, out, err = self._command(cmd)
        job_id = out.strip().split(";")[0]
        if rc != 0 or not job_id.isdigit():
            shutil.rmtree(path, ignore_errors=True)
            raise SweepError("--backend slurm: sbatch did not take the job array: "
                             + (" ".join(err.split()) or f"exit {rc}, output '{out.strip()}'"))
        sub = Submission(path, job_id, dict(enumerate(points)))
        self._subs.append(sub)  # before job_id is written: interrupt() can cancel it
        with open(os.path.join(path, "job_id"), "w") as f:
            f.write(job_id + "\n")

    def describe(self, points: list[Point]) -> str:
        new = [s for s in self._subs if not s.adopted]
        adopted = sum(len(s.waiting) for s in self._subs if s.adopted)
        parts = []
        if new:
            tasks = sum(len(s.waiting) for s in new)
            ids = ", ".join(s.job_id for s in new)
            parts.append(f"job array{'s' * (len(new) > 1)} {ids}: {tasks} "
                         f"task{'s' * (tasks != 1)}"
                         + (f", {self.jobs} at a time" if self.jobs else ""))
        if adopted:
            parts.append(f"{adopted} from the job arrays of an earlier sweep")
        if not parts:
            return "slurm, nothing to submit"
        return "slurm, " + "; ".join(parts) + f"; in {self.workdir}"

    def _forget(self, sub: Submission, i: int) -> None:
        shutil.rmtree(os.path.join(sub.path, "tasks", str(i)), ignore_errors=True)
        for f in (os.path.join(sub.path, "done", str(i)),
                  os.path.join(sub.path, "logs", f"{i}.out")):
            try:
                os.unlink(f)
            except OSError:
                pass

    def _collect(self, sub: Submission, i: int) -> RunResult | None:
        """The RunResult of a task that wrote its marker; None if its result cannot be read
        (yet)."""
        task_dir = os.path.join(sub.path, "tasks", str(i))
        try:
            with open(os.path.join(task_dir, "result.json")) as f:
                r = json.load(f)
            code, stderr, timed_out = r["exit_code"], r.get("stderr") or "", r.get("timed_out")
        except (OSError, ValueError, KeyError, TypeError):
            return None
        out_dir = os.path.join(task_dir, "out")
        result = load_result(sub.waiting[i], code, stderr, out_dir, timed_out)
        result = keep_result(result, out_dir, self.keep, self.scenario,
                             sub.waiting[i].argv(self.runner, self.scenario, out_dir))
        del sub.waiting[i]
        self._forget(sub, i)
        return result

    def _lost(self, sub: Submission, i: int, state: str | None) -> RunResult:
        """A task that ended without a result: killed by SLURM (--time, scancel, node failure,
        memory) or its program could not run; its SLURM log tells."""
        try:
            with open(os.path.join(sub.path, "logs", f"{i}.out"), errors="replace") as f:
                log = f.read()
        except OSError:
            log = ""
        what = (f"SLURM task {sub.job_id}_{i} ended without a result "
                + (f"(state {state})" if state else "(SLURM no longer knows it)"))
        point = sub.waiting.pop(i)
        result = RunResult(point, point.record("failed",
                                               (what + "\n" + stderr_tail(log)).strip()))
        self._forget(sub, i)
        return result

    def run(self, points: list[Point]) -> Iterator[RunResult]:
        if not any(s.waiting for s in self._subs):
            return
        try:
            delay = SLURM_POLL_MIN_S
            next_query = time.monotonic() + SLURM_SQUEUE_EVERY_S
            while any(s.waiting for s in self._subs):
                progressed = False
                for sub in self._subs:
                    try:
                        done = os.listdir(os.path.join(sub.path, "done"))
                    except OSError:
                        done = []
                    for name in done:
                        if name.isdigit() and int(name) in sub.waiting:
                            result = self._collect(sub, int(name))
                            if result is not None:
                                progressed = True
                                yield result
                now = time.monotonic()
                if now >= next_query:
                    next_query = now + SLURM_SQUEUE_EVERY_S
                    for sub in self._subs:
                        if not sub.waiting:
                            continue
                        states = self._states(sub.job_id)
                        if states is None:
                            if sub.job_id not in self._warned:
                                self._warned.add(sub.job_id)
                                note(f"warning: squeue failed for job {sub.job_id}; "
                                     "still waiting for its tasks")
                            continue
                        for i in list(sub.waiting):
                            state = states.get(i)
                            if state is not None and state not in SLURM_ENDED:
                                sub.ended.pop(i, None)
                            elif now - sub.ended.setdefault(i, now) >= SLURM_LOST_GRACE_S:
                                progressed = True
                                yield self._lost(sub, i, state)
                for sub in self._subs:
                    if not sub.waiting and not sub.removed:
                        shutil.rmtree(sub.path, ignore_errors=True)
                        sub.removed = True
                if any(s.waiting for s in self._subs):
                    delay = SLURM_POLL_MIN_S if progressed else min(delay * 1.5, SLURM_POLL_MAX_S)
                    time.sleep(delay)
            self._tidy()
        finally:
            self.interrupt()  # no-op when everything was collected

    def _tidy(self) -> None:
        """Everything collected: the lock file goes, and the working directory when it is the
        default one or this invocation created it, and nothing else is in it."""
        if sorted(os.listdir(self.workdir)) == ["lock"]:
            os.unlink(os.path.join(self.workdir, "lock"))
            if self._created or self._own_workdir:
                try:
                    os.rmdir(self.workdir)
                except OSError:
                    pass

    def interrupt(self) -> None:
        """Cancel the job arrays that still have tasks to collect. Their directories stay: the
        next invocation collects the tasks that finished."""
        jobs = [s.job_id for s in self._subs if s.waiting and s.job_id not in self._cancelled]
        if jobs:
            self._cancelled.update(jobs)
            self._cancel(jobs)
            note(f"cancelled SLURM job{'s' * (len(jobs) > 1)} {', '.join(jobs)}")


BACKENDS = ("local", "slurm")


# --------------------------------------------------------------------------------------------
# Progress


class Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.counts = dict.fromkeys(sweepdb.STATUSES, 0)
        self.start = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.tenth = 0
        if self.tty and total:
            sys.stderr.write(self.line())
            sys.stderr.flush()

    def line(self) -> str:
        if self.done == 0:
            eta = "--:--"
        else:
            left = (time.monotonic() - self.start) / self.done * (self.total - self.done)
            eta = f"{int(left) // 60:02d}:{int(left) % 60:02d}"
        return (f"{self.done}/{self.total}, {self.counts['failed']} failed, "
                f"{self.counts['invalid']} invalid, ETA {eta}")

    def update(self, status: str) -> None:
        self.done += 1
        self.counts[status] += 1
        if self.tty:
            sys.stderr.write("\r\033[K" + self.line())
            sys.stderr.flush()
        elif self.done * 10 // self.total > self.tenth:  # a line every 10 %
            self.tenth = self.done * 10 // self.total
            print(self.line(), file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.tty and self.done:
            sys.stderr.write("\n")


# --------------------------------------------------------------------------------------------
# The command line


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        fail(f"{message} (usage: {self.prog} SCENARIO --db FILE [options]; see --help)")


class AxisOption(argparse.Action):
    """--set and --unset append (option, text) to one list, in command-line order: the order
    of the axes, and of the runner's --set."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        getattr(namespace, self.dest).append((option_string, values))


def parse_axes(specs: Sequence[tuple[str, str]]) -> list[Axis]:
    axes = [parse_unset(text) if option == "--unset" else parse_axis(text)
            for option, text in specs]
    keys = [a.key for a in axes]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise SweepError(f"--set {dup[0]}: the same key is given twice (one --set or --unset "
                         "per key)")
    lowered = [k.lower() for k in keys]
    if len(set(lowered)) < len(lowered):
        raise SweepError("two --set keys differ only in case: SQLite column names do not")
    return axes


def make_parser() -> Parser:
    ap = Parser(prog="scripts/sweep", description=(__doc__ or "").splitlines()[0],
                epilog="Database schema, resume rules and examples: docs/sweeps.md.")
    ap.add_argument("scenario", metavar="SCENARIO", help="scenario file (JSON)")
    ap.add_argument("--db", required=True, metavar="FILE.sqlite",
                    help="results database, created if missing; also the resume state")
    ap.add_argument("--set", action=AxisOption, default=[], dest="axes",
                    metavar="KEY=V1,V2,...",
                    help="an axis: a --set path of the runner and its values (JSON, else "
                         "text), split at commas outside brackets, braces and quotes; null "
                         "removes the key; repeatable")
    ap.add_argument("--unset", action=AxisOption, dest="axes", metavar="KEY",
                    help="remove KEY from the scenario of every point (the runner's "
                         "--set KEY=null); repeatable")
    ap.add_argument("--zip", action="append", default=[], metavar="KEY1,KEY2,...",
                    help="advance these axes together (equal lengths) instead of crossing them")
    ap.add_argument("--skip", action="append", default=[], metavar="KEY=V,KEY2=W",
                    help="leave out the points with all these values (KEY may be seed)")
    ap.add_argument("--seeds", type=int, default=1, metavar="N", help="seeds 1..N (default 1)")
    ap.add_argument("--jobs", type=int, metavar="J",
                    help="runs at a time (local default: the number of CPUs, "
                         f"{os.cpu_count() or 1}; slurm: the array's task limit, default none)")
    ap.add_argument("--backend", default="local",
                    help="where the runs run: local (default) or slurm (one sbatch job array)")
    ap.add_argument("--runner", default=DEFAULT_RUNNER, metavar="PATH",
                    help="the mcast4ai-run binary (default: build/mcast4ai-run of this "
                         "repository)")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep the result directory of every ok run, as DIR/SCENARIO/"
                         "KEY=VALUE,...,seed=N (column kept_dir); created if missing")
    ap.add_argument("--timeout", type=float, metavar="S",
                    help="a run still going after S seconds is killed and counted as failed")
    slurm = ap.add_argument_group("--backend slurm")
    slurm.add_argument("--partition", metavar="P", help="the partition (sbatch --partition)")
    slurm.add_argument("--time", dest="time_limit", metavar="T",
                       help="time limit of each task (sbatch --time: MINUTES, HH:MM:SS, "
                            "D-HH:MM...); default: the partition's")
    slurm.add_argument("--workdir", metavar="DIR",
                       help="a directory the compute nodes share with this machine, for the "
                            "tasks' commands and results (default: FILE.sqlite.slurm next to "
                            "the database)")
    slurm.add_argument("--sbatch-arg", action="append", default=[], dest="sbatch_args",
                       metavar="ARG", help="one more sbatch option, e.g. --sbatch-arg=--mem=4G "
                                           "or --sbatch-arg=--account=A; repeatable")
    return ap


def check_options(args: argparse.Namespace) -> None:
    if args.backend not in BACKENDS:
        raise SweepError(f"--backend {args.backend}: unknown backend "
                         f"(backends: {', '.join(BACKENDS)})")
    if args.backend != "slurm":
        for option, value in (("--partition", args.partition), ("--time", args.time_limit),
                              ("--workdir", args.workdir),
                              ("--sbatch-arg", args.sbatch_args or None)):
            if value is not None:
                raise SweepError(f"{option}: only for --backend slurm")
    if args.seeds < 1:
        raise SweepError(f"--seeds {args.seeds}: must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise SweepError(f"--jobs {args.jobs}: must be at least 1")
    if args.timeout is not None and not args.timeout > 0:
        raise SweepError(f"--timeout {args.timeout:g}: must be a positive number of seconds")
    if not (os.path.isfile(args.runner) and os.access(args.runner, os.X_OK)):
        raise SweepError(f"--runner {args.runner}: not an executable file "
                         "(build it: bash scripts/setup.sh run)")
    if args.keep is not None and (not args.keep.strip() or (os.path.exists(args.keep)
                                                          and not os.path.isdir(args.keep))):
        raise SweepError(f"--keep {args.keep}: not a directory")
    db_dir = os.path.dirname(os.path.abspath(args.db))
    if os.path.isdir(args.db) or not os.path.isdir(db_dir):
        raise SweepError(f"--db {args.db}: not a file in an existing directory")


def read_scenario(path: str) -> Any:
    if not os.path.isfile(path):
        raise SweepError(f"{path}: no such scenario file")
    with open(path, "rb") as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError as e:
        raise SweepError(f"{path}: not JSON: {e}")


def on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def exit_status(counts: dict[str, int], total: int) -> int:
    """1 when a run failed, or when every point is invalid (nothing to plot: the runner
    rejected the whole grid); else 0."""
    if counts.get("failed", 0):
        return 1
    if total and counts.get("invalid", 0) == total:
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> NoReturn:
    args = make_parser().parse_args(argv)

    signal.signal(signal.SIGTERM, on_sigterm)
    backend: LocalBackend | SlurmBackend
    try:
        check_options(args)
        doc = read_scenario(args.scenario)
        scenario_id = sweepdb.scenario_id(doc)
        axes = parse_axes(args.axes)
        groups = build_groups(axes, args.zip)
        seeds = list(range(1, args.seeds + 1))
        skips = [parse_skip(spec, axes, seeds) for spec in args.skip]
        points = build_points(scenario_id, axes, groups, seeds, skips)
        if not points:
            raise SweepError("every point is skipped: nothing to run")

        if args.backend == "slurm":
            backend = SlurmBackend(os.path.abspath(args.runner), args.scenario, args.jobs,
                                   args.timeout, os.path.abspath(args.db), args.partition,
                                   args.time_limit, args.workdir, args.sbatch_args, args.keep)
        else:
            backend = LocalBackend(os.path.abspath(args.runner), args.scenario,
                                   args.jobs or os.cpu_count() or 1, args.timeout, args.keep)
        backend.check()
        point_keys = {p.key for p in points}
        done = sweepdb.done_points(args.db, point_keys)
        todo = [p for p in points if p.key not in done]
        if todo:
            check_keys(os.path.abspath(args.runner), args.scenario, doc, axes)
            backend.prepare(todo)
        try:
            db = sweepdb.Writer(args.db, [a.key for a in axes], args.scenario)
        except BaseException:
            backend.interrupt()
            raise
    except (SweepError, sweepdb.DatabaseError) as e:
        fail(e)
    except sqlite3.Error as e:
        fail(f"{args.db}: {e}")
    except KeyboardInterrupt:
        note("interrupted before any run")
        sys.exit(130)

    note(f"{len(points)} points, {len(done)} already in {args.db}, {len(todo)} to run "
         f"({backend.describe(todo)})")
    progress = Progress(len(todo))
    results = backend.run(todo)
    try:
        for result in results:
            db.write(result.record)
            progress.update(result.status)
    except KeyboardInterrupt:
        backend.interrupt()
        results.close()  # waits for the killed runs and removes their directories
        progress.end()
        note(f"interrupted: {progress.done} of {len(todo)} runs written to {args.db}; "
             "run the same command again to go on")
        sys.exit(130)
    progress.end()
    counts = db.status_counts(point_keys)
    status = exit_status(counts, len(points))
    if not counts["failed"] and status:
        reasons = db.invalid_reasons(point_keys)
        shown = reasons[:INVALID_REASONS_SHOWN]
        note(f"every point is invalid: the runner rejected the scenario with the --set values "
             f"of each; {len(reasons)} distinct reason{'s' * (len(reasons) != 1)}"
             + (f", the first {len(shown)}" if len(shown) < len(reasons) else "") + ":")
        for reason, n in shown:
            print(f"  {reason} ({n} point{'s' * (n != 1)})", file=sys.stderr)
    db.close()
    print(f"sweep: {len(points)} points: "
          + ", ".join(f"{counts[s]} {s}" for s in sweepdb.STATUSES)
          + f" ({len(todo)} run now); database {args.db}", file=sys.stderr)
    sys.exit(status)
