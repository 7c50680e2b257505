"""scripts/evaluate: run every claim's experiment, decide each claim, write the report.

    scripts/evaluate [--scale default|full] [--out DIR] [--jobs J] [--runner PATH]
                     [--claim ID]... [--backend local|slurm] [--timeout S] [--quiet]

Each claim's runs go into DIR/db/ID-FINGERPRINT.sqlite through one scripts/sweep (their
result directories kept under DIR/runs), so an
interrupted evaluation resumes where it stopped and an edited claim or scenario is run anew.
Then DIR/claims.json, DIR/report.md, DIR/report.html and DIR/figures/ are written and the
verdict table is printed. docs/evaluation.md describes it.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from . import claims as claims_mod
from . import report
from .claims import Claim, ClaimError
from .verdicts import cells, decide

REPO = Path(__file__).resolve().parents[2]
CLAIMS_DIR = REPO / "claims"
DEFAULT_RUNNER = REPO / "build" / "mcast4ai-run"
SWEEP = REPO / "scripts" / "sweep"
PYTHON = "/usr/bin/python3"


class UsageError(Exception):
    pass


def sweep_task(claim: Claim, scale: str, db: Path, keep: Path) -> list[str]:
    """The scripts/sweep arguments of a claim's experiment: the axis zipped with the keys that
    move with it, the configurations' keys zipped, seeds 1..N (claims.sweep_arguments)."""
    e = claim.experiment
    assert e is not None
    return [str(REPO / e.scenario), "--db", str(db), "--keep", str(keep)] + \
        claims_mod.sweep_arguments(claim, scale)


def git_revision() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"],
                              capture_output=True, text=True, timeout=10).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


class Progress:
    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.done, self.quiet = total, 0, quiet
        self.start = time.monotonic()
        self.lock = threading.Lock()

    def step(self, what: str) -> None:
        with self.lock:
            self.done += 1
            if not self.quiet:
                el = time.monotonic() - self.start
                eta = el / self.done * (self.total - self.done)
                print(f"evaluate: {self.done}/{self.total} claims, {el:.0f} s, ETA {eta:.0f} s "
                      f"({what})", file=sys.stderr, flush=True)


def run_sweeps(work: list[tuple[Claim, list[str]]], args: argparse.Namespace) -> list[str]:
    """Runs the claims' sweeps one after another, each with --jobs runs at a time; returns
    the failures (the sweep's exit status and its last lines)."""
    failures: list[str] = []
    progress = Progress(len(work), args.quiet)
    for claim, sweep_args in work:
        cmd = [PYTHON, str(SWEEP)] + sweep_args + ["--runner", str(args.runner),
                                                   "--backend", args.backend,
                                                   "--jobs", str(args.jobs)]
        if args.timeout:
            cmd += ["--timeout", str(args.timeout)]
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        if proc.returncode != 0:
            tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
            failures.append(f"{claim.id}: sweep exited {proc.returncode}: {tail}")
        progress.step(claim.id)
    return failures


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="scripts/evaluate", description=__doc__.splitlines()[0])
    p.add_argument("--scale", default="default")
    p.add_argument("--out", type=Path, default=REPO / "results" / "evaluation")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--runner", type=Path, default=DEFAULT_RUNNER)
    p.add_argument("--claim", action="append", default=[])
    p.add_argument("--claims-dir", type=Path, default=CLAIMS_DIR)
    p.add_argument("--backend", default="local", choices=("local", "slurm"))
    p.add_argument("--timeout", type=float, default=None)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.scale not in claims_mod.SCALES:
        raise UsageError(f"--scale {args.scale}: unknown scale (scales: "
                         f"{', '.join(claims_mod.SCALES)})")
    if args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: expected at least 1")
    if not (args.runner.is_file() and os.access(args.runner, os.X_OK)):
        raise UsageError(f"--runner {args.runner}: not an executable file (build it: cmake "
                         f"--build build --target mcast4ai-run)")
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        # The project's own folder must decide every required claim; another (a test's, a
        # user's draft of new claims) holds what it holds.
        every = claims_mod.load_claims(args.claims_dir.resolve(), REPO,
                                       require_all=args.claims_dir.resolve() == CLAIMS_DIR)
        drafts = claims_mod.load_drafts(args.claims_dir.resolve(), REPO)
        ids = [c.id for c in every]
        for cid in args.claim:
            if cid not in ids:
                raise UsageError(f"--claim {cid}: unknown claim (claims: {', '.join(ids)})")
        selected = [c for c in every if not args.claim or c.id in args.claim]
    except (UsageError, ClaimError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    out: Path = args.out
    (out / "db").mkdir(parents=True, exist_ok=True)
    keep = out / "runs"
    started = time.monotonic()
    work: list[tuple[Claim, list[str]]] = []
    dbs: dict[str, Path] = {}
    for c in selected:
        if c.experiment is None:
            continue
        db = out / "db" / f"{c.id}-{c.fingerprint(REPO)}.sqlite"
        dbs[c.id] = db
        work.append((c, sweep_task(c, args.scale, db, keep)))
    points = sum(claims_mod.point_count(c, args.scale) for c in selected)
    if not args.quiet:
        print(f"evaluate: {len(selected)} claims, {points} runs ({args.scale} scale, "
              f"{args.jobs} at a time); results in {out}", file=sys.stderr)
    failures = run_sweeps(work, args)

    results: list[report.ClaimResult] = []
    for c in selected:
        cell_map: dict[str, list[Any]] = {}
        errors: list[str] = []
        if c.experiment is not None and dbs[c.id].exists():
            for m in c.metrics:
                cs, errs = cells(dbs[c.id], c, m, args.scale)
                cell_map[m.id] = cs
                errors += [x for x in errs if x not in errors]
            metric = c.decision.params["metric"]
            verdict = decide(c, cell_map.get(metric, []), args.scale)
        else:
            verdict = decide(c, [], args.scale)
        errors += [f for f in failures if f.startswith(c.id + ":")]
        results.append(report.ClaimResult(c, verdict, cell_map, errors))
    for r in results:
        r.figure = report.draw(r, out / "figures")

    runs = sum(len(x.runs) for r in results for cs in list(r.cells.values())[:1] for x in cs)
    meta = {"revision": git_revision(), "runs": runs, "jobs": args.jobs,
            "wall_s": time.monotonic() - started}
    (out / "claims.json").write_text(json.dumps(report.claims_json(results, args.scale, meta),
                                                indent=1, default=str) + "\n")
    md = report.markdown(results, args.scale, meta, drafts)
    (out / "report.md").write_text(md + "\n")
    figures = {r.figure.name: r.figure for r in results if r.figure is not None}
    (out / "report.html").write_text(report.html_page(md, figures))
    print(report.terminal_table(results))
    print(f"\n{len(results)} claims, {runs} runs, {meta['wall_s']:.0f} s: "
          f"{out / 'report.md'}, {out / 'report.html'}, {out / 'claims.json'}")
    if failures:
        print(f"warning: {len(failures)} sweep(s) failed; their claims count only the runs "
              "that finished:", file=sys.stderr)
        for f in failures[:5]:
            print(f"  {f}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
