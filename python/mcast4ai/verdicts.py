"""From a claim's runs to its verdict: each cell's figure with its interval, then the rule.

A cell is one axis value under one configuration. Its figure is one number per seed (a
summary.json number, or a statistic of the run's ops.csv rows), summarised by the mean over the
seeds with a 95% interval; ops percentiles are also pooled over every seed's operations and
carry their count ("max of n" below the count they need). Comparisons pair the seeds
(mcast4ai.stats.paired).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import stats
from .claims import Claim, Metric, _axis_value_key
from .sweepdb import SweepDB

VERDICT_TEXT = {
    "supported": "supported",
    "contradicted": "contradicted",
    "depends": "depends",
    "not testable": "not testable",
    "no data": "no data",
}


def canon(value: Any) -> Any:
    """A value as the sweep database stores it, for comparing a claim's value with a column:
    numbers (booleans 0/1) as floats, lists and objects as compact JSON, text as text."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        if isinstance(parsed, (list, dict)):
            return json.dumps(parsed, separators=(",", ":"), sort_keys=True)
        if isinstance(parsed, (int, float)) and not isinstance(parsed, bool):
            return float(parsed)
        return value
    return value


@dataclass
class Run:
    id: int
    seed: int
    kept_dir: str | None
    row: dict[str, Any]


@dataclass
class Cell:
    axis_value: Any
    config: str
    per_seed: dict[int, float] = field(default_factory=dict)
    runs: list[Run] = field(default_factory=list)
    pooled: stats.Percentile | None = None
    run_samples: dict[int, int] = field(default_factory=dict)  # ops per run, ops metrics

    @property
    def estimate(self) -> stats.Estimate | None:
        return stats.mean_ci(self.per_seed.values()) if self.per_seed else None


def read_runs(db: Path, claim: Claim) -> tuple[dict[tuple[str, str], list[Run]], list[str]]:
    """The ok runs of db by (axis value key, configuration id), and the errors of the runs
    that were not ok."""
    e = claim.experiment
    assert e is not None
    with SweepDB(str(db)) as sdb:
        rows = sdb.rows()
    by_cell: dict[tuple[str, str], list[Run]] = {}
    errors: list[str] = []
    wanted = {k: canon(v) for k, v in e.sets.items()}
    for row in rows:
        if any(canon(row.get(k)) != v for k, v in wanted.items()):
            continue
        axis_key = None
        for v in e.axis.values["default"] + e.axis.values["full"]:
            if canon(row.get(e.axis.key)) == canon(v):
                axis_key = _axis_value_key(v)
                break
        config = None
        for c in e.configurations:
            if all(canon(row.get(k)) == canon(v) for k, v in c.sets.items()):
                config = c.id
                break
        if axis_key is None or config is None:
            continue
        if row.get("status") != "ok":
            first = (row.get("error") or "").strip().splitlines()
            errors.append(f"{e.axis.key}={axis_key}, {config}, seed {row.get('seed')}: "
                          f"{row.get('status')}: {first[0] if first else ''}")
            continue
        by_cell.setdefault((axis_key, config), []).append(
            Run(int(row["id"]), int(row["seed"]), row.get("kept_dir"), row))
    return by_cell, errors


def _ops_values(sdb: SweepDB, run_id: int, metric: Metric) -> list[float]:
    """The metric's field over the run's completed operation rows (receiver rows instead when
    its where names kind "receiver") whose columns equal its where values, as the runner wrote
    them: an iteration "1" is the integer 1 in the database."""
    where = dict(metric.ops_where)
    kind = str(where.pop("kind", "op"))
    keys = [k for k in where if k in sdb.ops_columns]
    if len(keys) != len(where) or metric.ops_field not in sdb.ops_columns:
        return []
    field_ = metric.ops_field or ""
    wanted = {k: canon(where[k]) for k in keys}
    out = []
    for row in sdb.ops_rows([run_id], [field_] + keys, kind=kind):
        if row[field_] is not None and all(canon(row[k]) == w for k, w in wanted.items()):
            out.append(float(row[field_]))
    return out


def _count_text(counts: list[int]) -> str:
    lo, hi = min(counts), max(counts)
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"


def statistic_text(metric: Metric, cs: list[Cell]) -> str:
    """What one run's figure of a metric is, honestly: a p99 over fewer than 100 samples is
    their maximum and is called so; '' for a plain summary number."""
    p = metric.percentile
    if p is not None:
        counts = [n for c in cs for n in c.run_samples.values()]
        name = f"p{p:g}"
        if not counts:
            return f"{name} per run, sample count unknown"
        need = stats.samples_needed(p)
        if max(counts) < need:
            return f"max of each run's {_count_text(counts)}, too few for a {name}"
        if min(counts) < need:
            return (f"{name} of the runs with at least {need:,} samples, max of the others; "
                    f"{_count_text(counts)} per run")
        return f"{name} of each run's {_count_text(counts)}"
    if metric.from_ops:
        return f"{metric.ops_stat} per run"
    return ""


def display_label(metric: Metric, cs: list[Cell]) -> str:
    """The metric's label with what its per-run figure is: 'TTFT (max of each run's 16, too
    few for a p99)'."""
    t = statistic_text(metric, cs)
    return f"{metric.label} ({t})" if t else metric.label


def per_run_label(metric: Metric, cs: list[Cell]) -> str:
    """Where a metric's per-run figure comes from, for the report's table headers."""
    if metric.from_ops:
        return f"{statistic_text(metric, cs)} of `{metric.ops_field}` over its operations"
    t = statistic_text(metric, cs)
    return f"`{metric.column}`" + (f", {t}" if t else "")


def run_statistic(values: list[float], stat: str) -> float:
    """One run's statistic of its operations (the per-seed figure)."""
    if stat == "count":
        return float(len(values))
    if not values:
        return math.nan
    if stat == "sum":
        return math.fsum(values)
    if stat == "mean":
        return math.fsum(values) / len(values)
    if stat == "max":
        return max(values)
    if stat == "min":
        return min(values)
    p = {"p50": 50.0, "p90": 90.0, "p99": 99.0, "p999": 99.9}[stat]
    return stats.percentile(values, p).value


def cells(db: Path, claim: Claim, metric: Metric, scale: str) -> tuple[list[Cell], list[str]]:
    """Every (axis value, configuration) cell of scale with metric's per-seed values."""
    e = claim.experiment
    assert e is not None
    by_cell, errors = read_runs(db, claim)
    out: list[Cell] = []
    missing = 0
    sdb = SweepDB(str(db)) if metric.from_ops else None
    try:
        for v in e.axis.points(scale):
            for c in e.configurations:
                cell = Cell(v, c.id)
                runs = [r for r in by_cell.get((_axis_value_key(v), c.id), [])
                        if r.seed <= e.seeds[scale]]
                cell.runs = sorted(runs, key=lambda r: r.seed)
                pooled: list[float] = []
                for r in cell.runs:
                    if metric.from_ops:
                        assert sdb is not None and metric.ops_stat is not None
                        vals = _ops_values(sdb, r.id, metric)
                        pooled += vals
                        cell.run_samples[r.seed] = len(vals)
                        x = run_statistic(vals, metric.ops_stat)
                    else:
                        raw = r.row.get(metric.column or "")
                        if metric.samples is not None and r.row.get(metric.samples) is not None:
                            cell.run_samples[r.seed] = int(r.row[metric.samples])
                        if raw is None:
                            missing += 1
                            continue
                        x = float(raw)
                    if not math.isnan(x):
                        cell.per_seed[r.seed] = x
                if pooled and metric.ops_stat in ("p50", "p90", "p99", "p999", "max"):
                    p = {"p50": 50.0, "p90": 90.0, "p99": 99.0, "p999": 99.9,
                         "max": 100.0}[metric.ops_stat]
                    cell.pooled = (stats.maximum(pooled) if p == 100
                                   else stats.percentile(pooled, p))
                out.append(cell)
    finally:
        if sdb is not None:
            sdb.close()
    if missing:
        total = sum(len(c.runs) for c in out)
        errors.append(f"metric {metric.id}: {missing} of {total} runs have no number "
                      f"{metric.column} in their summary.json")
    return out, errors


# ---------------------------------------------------------------------------------------------
# The rules


@dataclass
class Verdict:
    verdict: str
    condition: str
    deciding: str
    detail: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "condition": self.condition,
                "deciding": self.deciding, "detail": self.detail}


def _cell(cs: list[Cell], axis_value: Any, config: str) -> Cell:
    for c in cs:
        if c.config == config and canon(c.axis_value) == canon(axis_value):
            return c
    raise KeyError((axis_value, config))


def _axis_text(claim: Claim, v: Any) -> str:
    unit = claim.experiment.axis.unit if claim.experiment else ""
    return f"{_axis_value_key(v)}{' ' + unit if unit else ''}"


def _fmt(x: float | None, unit: str = "") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return stats._sig(x, 3) + (f" {unit}" if unit else "")


def _diff_text(comp: stats.Comparison, metric: Metric) -> str:
    d = comp.diff
    ratio = comp.ratio
    hw = "no interval" if d.half_width is None else f"± {_fmt(d.half_width)}"
    r = f", ×{ratio:.3g}" if ratio is not None else ""
    return f"{_fmt(d.mean, metric.unit)} {hw} (n={d.n}{r})"


def _runs_of(*cs: Cell) -> list[str]:
    return [r.kept_dir or f"run {r.id}" for c in cs for r in c.runs]


def _ranges(claim: Claim, values: list[Any], holds: list[bool]) -> str:
    """'from 64 receivers on', 'up to 32 receivers', or the list where it holds."""
    where = [v for v, h in zip(values, holds) if h]
    if not where:
        return "nowhere in the range tested"
    first = holds.index(True)
    if all(holds[first:]):
        return f"from {_axis_text(claim, values[first])} on"
    last = len(holds) - 1 - holds[::-1].index(True)
    if all(holds[:last + 1]):
        return f"up to {_axis_text(claim, values[last])}"
    return "at " + ", ".join(_axis_text(claim, v) for v in where)


def decide(claim: Claim, cs: list[Cell], scale: str) -> Verdict:
    d = claim.decision
    if d.rule == "not-testable":
        return Verdict("not testable", d.params["reason"], "", [])
    e = claim.experiment
    assert e is not None
    metric = claim.metric(d.params["metric"])
    values = e.axis.points(scale)
    if not any(c.per_seed for c in cs):
        return Verdict("no data", "no run of the experiment finished", "", [])
    if d.rule in ("compare", "crossover"):
        return _compare(claim, metric, cs, values, d.params)
    if d.rule == "scaling":
        return _scaling(claim, metric, cs, values, d.params)
    return _bound(claim, metric, cs, values, d.params)


def _compare(claim: Claim, metric: Metric, cs: list[Cell], values: list[Any],
             params: dict[str, Any]) -> Verdict:
    e = claim.experiment
    assert e is not None
    base, cand = params["baseline"], params["candidate"]
    expect = params.get("expect", "lower" if metric.better == "lower" else "higher")
    min_effect = float(params.get("min_effect", 0.0))
    holds: list[bool] = []
    detail: list[dict[str, Any]] = []
    outcomes: list[str] = []
    for v in values:
        a, b = _cell(cs, v, base), _cell(cs, v, cand)
        if not a.per_seed or not b.per_seed or not set(a.per_seed) & set(b.per_seed):
            holds.append(False)
            outcomes.append("missing")
            detail.append({"axis": v, "outcome": "missing"})
            continue
        comp = stats.paired(a.per_seed, b.per_seed)
        outcome = comp.outcome
        # A difference below the claim's stated smallest effect is a tie too: a 21 ns gain on
        # 35 µs is real in a deterministic model and says nothing about the design.
        if outcome != "tie" and abs(comp.diff.mean) < min_effect * abs(comp.a_mean):
            outcome = "tie"
        holds.append(outcome == expect)
        outcomes.append(outcome)
        detail.append({"axis": v, "baseline": base, "candidate": cand, **comp.to_json(),
                       "runs": _runs_of(a, b)})
    bl = e.configuration(base).label
    cl = e.configuration(cand).label
    # The deciding figure: the comparison at the largest axis value that has one.
    last = max((i for i, o in enumerate(outcomes) if o != "missing"), default=None)
    deciding = ""
    if last is not None:
        a, b = _cell(cs, values[last], base), _cell(cs, values[last], cand)
        comp = stats.paired(a.per_seed, b.per_seed)
        deciding = (f"{display_label(metric, cs)} at {_axis_text(claim, values[last])}: "
                    f"{cl} − {bl} = {_diff_text(comp, metric)}")
    word = {"lower": "below", "higher": "above"}[expect]
    if params.get("expect") is None:  # crossover
        where = _ranges(claim, values, holds)
        if all(holds):
            return Verdict("supported", f"{cl} better than {bl} at every {e.axis.label} "
                           f"tested", deciding, detail)
        if not any(holds):
            return Verdict("contradicted", f"{cl} never better than {bl} in the range tested "
                           f"({', '.join(outcomes)})", deciding, detail)
        return Verdict("depends", f"{cl} better than {bl} {where} (crossover)", deciding, detail)
    if all(holds):
        return Verdict("supported", f"{cl} {word} {bl} at every {e.axis.label} tested",
                       deciding, detail)
    if not any(holds):
        ties = sum(o == "tie" for o in outcomes)
        why = f"{ties} tie(s)" if ties else "the opposite holds"
        return Verdict("contradicted", f"{cl} not {word} {bl} at any {e.axis.label} tested "
                       f"({why})", deciding, detail)
    return Verdict("depends", f"{cl} {word} {bl} {_ranges(claim, values, holds)}", deciding,
                   detail)


def _scaling(claim: Claim, metric: Metric, cs: list[Cell], values: list[Any],
             params: dict[str, Any]) -> Verdict:
    """Least squares of log(metric) on log(axis) over every seed's value; the exponent's 95%
    interval from the slope's standard error."""
    config = params["configuration"]
    xs: list[float] = []
    ys: list[float] = []
    for v in values:
        for x in _cell(cs, v, config).per_seed.values():
            if x > 0:
                xs.append(math.log(float(v)))
                ys.append(math.log(x))
    label = claim.experiment.configuration(config).label if claim.experiment else config
    if len(set(xs)) < 2 or len(xs) < 3:
        return Verdict("no data", "fewer than two axis values with positive figures", "", [])
    n = len(xs)
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    slope = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    resid = math.fsum((y - my - slope * (x - mx)) ** 2 for x, y in zip(xs, ys))
    se = math.sqrt(resid / (n - 2) / sxx) if n > 2 else math.nan
    hw = stats.t_quantile(stats.CONFIDENCE, n - 2) * se if n > 2 else math.nan
    expected, tol = float(params["expect_exponent"]), float(params["tolerance"])
    deciding = (f"{display_label(metric, cs)} ∝ "
                f"{claim.experiment.axis.label if claim.experiment else 'x'}"
                f"^k under {label}: k = {slope:.3f} ± {hw:.3f} (n={n} runs)")
    detail = [{"configuration": config, "exponent": slope, "ci95_half_width": hw, "n": n,
               "expected": expected, "tolerance": tol}]
    if abs(slope - expected) <= tol:
        return Verdict("supported", f"k within {tol:g} of {expected:g}", deciding, detail)
    return Verdict("contradicted", f"k = {slope:.2f}, not within {tol:g} of {expected:g}",
                   deciding, detail)


def _bound(claim: Claim, metric: Metric, cs: list[Cell], values: list[Any],
           params: dict[str, Any]) -> Verdict:
    e = claim.experiment
    assert e is not None
    config = params["configuration"]
    lo, hi = params.get("min"), params.get("max")
    configs = [c.id for c in e.configurations] if config == "all" else [config]
    bad: list[str] = []
    total = 0
    detail: list[dict[str, Any]] = []
    for cid in configs:
        for v in values:
            c = _cell(cs, v, cid)
            for seed, x in sorted(c.per_seed.items()):
                total += 1
                if (lo is not None and x < lo) or (hi is not None and x > hi):
                    bad.append(f"{cid} at {_axis_text(claim, v)}, seed {seed}: {_fmt(x)}")
            est = c.estimate
            detail.append({"axis": v, "configuration": cid,
                           "estimate": est.to_json() if est else None})
    bounds = " and ".join(t for t in (f"≥ {lo}" if lo is not None else "",
                                      f"≤ {hi}" if hi is not None else "") if t)
    every = [x for cid in configs for v in values for x in _cell(cs, v, cid).per_seed.values()]
    spread = stats.fmt_estimate(stats.mean_ci(every), metric.unit) if every else "no run"
    deciding = (f"{display_label(metric, cs)} {bounds} in {total - len(bad)} of {total} runs; "
                f"over them {spread}, min {_fmt(min(every)) if every else 'n/a'}")
    if not bad:
        return Verdict("supported", f"every run {bounds}", deciding, detail)
    if len(bad) == total:
        return Verdict("contradicted", f"no run {bounds}", deciding, detail)
    return Verdict("depends", f"{len(bad)} of {total} runs outside: " + "; ".join(bad[:3]),
                   deciding, detail)


def summary_rows(claim: Claim, cs: list[Cell], metric: Metric) -> list[dict[str, Any]]:
    """Every cell of a metric as a plain row for claims.json and the report's tables."""
    out = []
    for c in cs:
        est = c.estimate
        out.append({"axis": c.axis_value, "configuration": c.config,
                    "per_seed": {str(k): v for k, v in sorted(c.per_seed.items())},
                    "estimate": est.to_json() if est else None,
                    "pooled": c.pooled.to_json() if c.pooled else None,
                    "samples_per_run": {str(k): v for k, v in sorted(c.run_samples.items())},
                    "runs": _runs_of(c)})
    return out


def iter_metrics(claim: Claim) -> Iterable[Metric]:
    return iter(claim.metrics)
