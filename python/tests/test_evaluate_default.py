"""The whole default-scale evaluation with the repository's claims (ctest evaluate-default),
then its acceptance checks, each recomputed here from the runs' own files with code of this
test's own (key paths, statistics, the crossover), not through the evaluation's modules:

- every required claim id has a verdict, and every decided claim's deciding figure has n and
  an interval;
- no printed p99 rests on fewer than 100 samples (tables, verdicts and claims.json labels);
- a sample of claims.json's cells equals what the runs' summary.json and ops.csv give;
- the crossovers and "from N on" conditions the report states follow from the runs;
- report.html, rendered by Chromium, shows the verdict table and non-blank figures.
"""
from __future__ import annotations

import csv
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps

REPO = Path(__file__).resolve().parents[2]
RUNNER = Path(os.environ.get("MCAST4AI_RUNNER", REPO / "build-test" / "mcast4ai-run"))

pytestmark = pytest.mark.evaluation


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not RUNNER.is_file():
        pytest.skip(f"no runner at {RUNNER}")
    out = tmp_path_factory.mktemp("evaluation")
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "evaluate"), "--scale",
                           "default", "--out", str(out), "--runner", str(RUNNER), "--jobs",
                           str(os.cpu_count() or 2), "--quiet"],
                          capture_output=True, text=True)
    (out / "stdout.txt").write_text(proc.stdout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


def claims_doc(out: Path) -> dict[str, Any]:
    return json.loads((out / "claims.json").read_text())


def required_ids() -> list[str]:
    sys.path.insert(0, str(REPO / "python"))
    from mcast4ai.claims import REQUIRED_IDS

    return list(REQUIRED_IDS)


def test_every_required_claim_has_a_verdict(evaluation: Path) -> None:
    doc = claims_doc(evaluation)["claims"]
    printed = (evaluation / "stdout.txt").read_text()
    for cid in required_ids():
        assert cid in doc, f"{cid} missing from claims.json"
        c = doc[cid]
        assert c["verdict"] in ("supported", "contradicted", "depends", "not testable"), \
            f"{cid}: {c['verdict']}: {c['condition']} {c['errors'][:2]}"
        assert c["condition"], cid
        assert cid in printed, f"{cid} not in the printed verdict table"
        if c["verdict"] != "not testable":
            assert re.search(r"n=\d+", c["deciding"]), f"{cid}: {c['deciding']}"
            metric = c["metrics"]
            assert any(cell["estimate"] and cell["estimate"]["ci95_lo"] is not None
                       for m in metric.values() for cell in m["cells"]), cid
    first_page = (evaluation / "report.md").read_text().split("## Conclusion")[0]
    assert "## Verdicts" in first_page and all(f"`{cid}`" in first_page
                                               for cid in required_ids())


# A p99 is printed as "p99 (n=N)" (pooled), "p99 of each run's N[ to M]" or "p99 of the runs
# with at least N samples"; "too few for a p99" says there is none.
P99 = re.compile(r"(too few for a )?\bp99(\.9)?\b(?: \(n=([\d,]+)\)| of each run's ([\d,]+)"
                 r"| of the runs with at least ([\d,]+) samples)?")


def test_no_printed_p99_rests_on_fewer_than_100_samples(evaluation: Path) -> None:
    lines = [line for line in (evaluation / "report.md").read_text().splitlines()
             if line.startswith("|") or line.startswith("**Verdict")]
    printed = (evaluation / "stdout.txt").read_text().splitlines()
    for line in lines + printed:
        for m in P99.finditer(line):
            if m.group(1):
                continue
            count = m.group(3) or m.group(4) or m.group(5)
            assert count, f"a p99 without its count: {line[:300]}"
            need = 1000 if m.group(2) else 100
            assert int(count.replace(",", "")) >= need, line[:300]
    for cid, c in claims_doc(evaluation)["claims"].items():
        for m in c["metrics"].values():
            for cell in m["cells"]:
                pooled = cell["pooled"]
                if pooled and pooled["label"].startswith("p"):
                    need = 1000 if pooled["p"] > 99 else 100
                    assert pooled["n"] >= need and not pooled["is_max"], (cid, pooled)


# --- Recomputing cells from the runs' files --------------------------------------------------


def summary_number(summary: dict[str, Any], column: str) -> float:
    m = re.match(r"w(\d+)\.(.*)$", column)
    node: Any = summary["workloads"][int(m.group(1))] if m else summary
    for part in (m.group(2) if m else column).split("."):
        node = node[part]
    return float(node)


def ops_statistic(run_dir: Path, spec: dict[str, Any]) -> tuple[float, int]:
    with open(run_dir / "ops.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    where = dict(spec.get("where", {}))
    kind = str(where.pop("kind", "op"))
    # Operation rows (or receiver rows when asked), failed operations left out, as
    # summary.json counts them (docs/results.md, ops.csv).
    vals = [float(r[spec["field"]]) for r in rows
            if r.get(spec["field"]) not in (None, "")
            and (r.get("kind") or "op") == kind and r.get("outcome") != "failed"
            and all(str(r.get(k)) == str(v) for k, v in where.items())]
    stat = spec["stat"]
    if stat == "count":
        return float(len(vals)), len(vals)
    x = np.array(vals)
    if stat in ("p50", "p90", "p99", "p999"):
        p = {"p50": 50, "p90": 90, "p99": 99, "p999": 99.9}[stat]
        need = math.ceil(100 / (100 - p) - 1e-9)
        if len(vals) < need:
            return float(x.max()), len(vals)
        return float(np.percentile(x, p, method="inverted_cdf")), len(vals)
    return float({"mean": np.mean, "max": np.max, "min": np.min, "sum": np.sum}[stat](x)), \
        len(vals)


def claim_file(cid: str) -> dict[str, Any]:
    return json.loads((REPO / "claims" / f"{cid}.json").read_text())


def run_point(run_dir: Path) -> dict[str, Any]:
    return json.loads((run_dir / "sweep-point.json").read_text())["point"]


def same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def per_seed_from_files(cid: str, metric_id: str, cell: dict[str, Any]) -> dict[int, float]:
    spec = claim_file(cid)
    metric = next(m for m in spec["metrics"] if m["id"] == metric_id)
    conf = next(c for c in spec["experiment"]["configurations"]
                if c["id"] == cell["configuration"])
    out: dict[int, float] = {}
    for run in cell["runs"]:
        d = Path(run)
        point = run_point(d)
        # The run is the cell's: its axis value and configuration are what it was given.
        assert same(point["set"][spec["experiment"]["axis"]["key"]], cell["axis"]), run
        for k, v in conf["set"].items():
            assert same(point["set"][k], v), (run, k)
        if "column" in metric:
            column = re.sub(r"^workloads(?:\[(\d+)\]|\.(\d+))\.",
                            lambda m: f"w{m.group(1) or m.group(2)}.", metric["column"])
            out[point["seed"]] = summary_number(json.loads((d / "summary.json").read_text()),
                                                column)
        else:
            out[point["seed"]] = ops_statistic(d, metric["ops"])[0]
    return out


def t_interval(xs: list[float]) -> tuple[float, float | None]:
    mean = float(np.mean(xs))
    if len(xs) < 2:
        return mean, None
    return mean, float(sps.t.ppf(0.975, len(xs) - 1) * np.std(xs, ddof=1) / math.sqrt(len(xs)))


def test_a_sample_of_cells_is_recomputed_from_the_runs(evaluation: Path) -> None:
    checked = 0
    for cid, c in claims_doc(evaluation)["claims"].items():
        if c["verdict"] == "not testable":
            continue
        metric_id = claim_file(cid)["decision"]["metric"]
        cells = c["metrics"][metric_id]["cells"]
        axis = [cell["axis"] for cell in cells]
        # The first and the last axis value, every configuration.
        for cell in cells:
            if not cell["runs"] or cell["axis"] not in (axis[0], axis[-1]):
                continue
            mine = per_seed_from_files(cid, metric_id, cell)
            theirs = {int(k): v for k, v in cell["per_seed"].items()}
            assert mine.keys() == theirs.keys(), (cid, cell["axis"], cell["configuration"])
            for s in mine:
                assert mine[s] == pytest.approx(theirs[s], rel=1e-9, abs=1e-9), (cid, s)
            mean, hw = t_interval([mine[s] for s in sorted(mine)])
            est = cell["estimate"]
            assert est["mean"] == pytest.approx(mean, rel=1e-9, abs=1e-12)
            if hw is None:
                assert est["ci95_lo"] is None
            else:
                assert est["ci95_hi"] - est["mean"] == pytest.approx(hw, rel=1e-6, abs=1e-9)
            checked += 1
    assert checked >= 20, f"only {checked} cells recomputed"


def test_stated_crossovers_follow_from_the_runs(evaluation: Path) -> None:
    derived = 0
    for cid, c in claims_doc(evaluation)["claims"].items():
        spec = claim_file(cid)
        d = spec["decision"]
        if d["rule"] not in ("compare", "crossover") or c["verdict"] == "no data":
            continue
        metric = next(m for m in spec["metrics"] if m["id"] == d["metric"])
        expect = d.get("expect", metric["better"])
        cells = c["metrics"][d["metric"]]["cells"]
        values = []
        for cell in cells:
            if cell["axis"] not in values:
                values.append(cell["axis"])
        holds = []
        for v in values:
            a = next(x for x in cells if same(x["axis"], v) and x["configuration"] == d["baseline"])
            b = next(x for x in cells if same(x["axis"], v) and x["configuration"] == d["candidate"])
            pa = per_seed_from_files(cid, d["metric"], a)
            pb = per_seed_from_files(cid, d["metric"], b)
            seeds = sorted(set(pa) & set(pb))
            diffs = [pb[s] - pa[s] for s in seeds]
            mean, hw = t_interval(diffs)
            base_mean = float(np.mean([pa[s] for s in seeds]))
            better = (hw is not None and abs(mean) > hw and ((mean < 0) == (expect == "lower"))
                      and abs(mean) >= d.get("min_effect", 0.0) * abs(base_mean))
            holds.append(better)
        unit = spec["experiment"]["axis"].get("unit", "")
        text = lambda v: f"{v if isinstance(v, str) else json.dumps(v)}" + (f" {unit}" if unit else "")
        if all(holds):
            assert c["verdict"] == "supported", (cid, holds, c["condition"])
        elif not any(holds):
            assert c["verdict"] == "contradicted", (cid, holds, c["condition"])
        else:
            assert c["verdict"] == "depends", (cid, holds, c["condition"])
            first = holds.index(True)
            if all(holds[first:]):
                assert f"from {text(values[first])} on" in c["condition"], (cid, c["condition"])
        derived += 1
    assert derived >= 5


def test_the_html_report_shows_its_verdicts_and_figures(evaluation: Path) -> None:
    sys.path.insert(0, str(REPO / "python"))
    from mcast4ai import browser, report

    if browser.chromium() is None:
        pytest.skip("chromium not installed")
    png = evaluation / "screenshot.png"
    browser.screenshot(evaluation / "report.html", png, height=6000)
    rgb = browser.read_rgb(png)
    tables = browser.frames(rgb, report.VERDICT_FRAME)
    assert tables and tables[0].top < 1500
    assert not browser.is_blank(browser.inside(rgb, tables[0]))
    figures = browser.frames(rgb, report.FIGURE_FRAME)
    assert figures, "no figure within the first 6000 px"
    assert all(not browser.is_blank(browser.inside(rgb, f)) for f in figures)
