"""Paper figures from a scripts/sweep database: tail CDFs, a metric against a swept parameter,
configuration-comparison bars.

    scripts/plot DB.sqlite cdf  [--by KEY[,KEY...]]... [--metric COLUMN]... [--workload LABEL]
    scripts/plot DB.sqlite p99  [--x KEY] [--by KEY[,KEY...]]... [--metric NAME] [--pct p99]
    scripts/plot DB.sqlite bars [--by KEY[,KEY...]]... [--metrics COL,COL,...]
    common: [--where KEY=VALUE]... [--pool] [--title TEXT] [--csv F] -o OUT.png (+ OUT.pdf)

Only runs with status ok and complete = 1 are used; stderr says how many runs were used and
skipped. A configuration is the tuple of the --by keys' values (default: the swept keys whose
values differ between the runs used); runs of one configuration that differ in another swept
key are not pooled unless --pool says so. Means over seeds come with 95 % confidence
intervals, Student t over the runs of a point (mcast4ai.stats.mean_ci; no interval for n = 1);
a percentile over fewer samples than it needs is labelled "max of n". See docs/plots.md.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, Sequence

import numpy as np
import pandas as pd

from . import figures, labels, stats
from .sweepdb import DatabaseError, SweepDB

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

KINDS = ("cdf", "p99", "bars")
PCTS = labels.STATS
DEFAULT_CDF_METRIC = "duration_us"
DEFAULT_P99_METRIC = "w0.duration_us"
DEFAULT_BARS = ["network.acks_at_senders", "network.header_bytes",
                "network.switch_state_peak_sum", "w0.duration_us.p50", "w0.duration_us.p99"]
# Phases of an operation read from the steps table (runs with output.steps): name -> (step,
# how). "duration": the step's own end - start; "since_start": its end - the operation's
# start. dispatch_us and combine_us are moe-dispatch's, as its summary.json computes them.
PHASES: dict[str, tuple[int, str]] = {"dispatch_us": (0, "since_start"),
                                      "combine_us": (2, "duration")}
STEP_METRIC = re.compile(r"step(\d+)_us")
# summary.json distributions whose sample count another column holds (when there is no
# DIST.count): the count of the workload's completed operations, of its receivers' completions.
# The summary.json counter of each distribution's samples: one per operation (a MoE layer's
# dispatch and combine are one sample each per layer), one per receiver for P2MP receivers.
COUNT_COLUMNS = {"duration_us": "completed", "layer_us": "completed",
                 "dispatch_us": "completed", "combine_us": "completed",
                 "receiver_completion_us": "receiver_completions"}


class PlotError(Exception):
    """Bad input: one `error:` line on stderr, exit 2, no figure."""


def note(message: str) -> None:
    print(f"note: {message}", file=sys.stderr)


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, (float, np.floating)) and math.isnan(v))


# --------------------------------------------------------------------------------------------
# Selecting runs


def parse_where(spec: str) -> tuple[str, str]:
    key, sep, raw = spec.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not key:
        raise PlotError(f"--where '{spec}': expected KEY=VALUE")
    return key, raw


def where_matcher(raw: str) -> Any:
    """The test of a --where value: compared as numbers when both are numbers, else as text;
    JSON as the sweep writes it (booleans 0/1, arrays compact)."""
    try:
        want = json.loads(raw)
    except ValueError:
        want = raw
    if isinstance(want, bool):
        want = int(want)
    elif isinstance(want, (list, dict)):
        want = json.dumps(want, separators=(",", ":"))

    def match(v: Any) -> bool:
        if is_missing(v):
            return False
        if is_number(v) and is_number(want):
            return float(v) == float(want)
        return str(v) == str(want) or str(v) == raw

    return match


def ordered_values(frame: pd.DataFrame, key: str) -> list[Any]:
    """The distinct values of a column: numbers ascending, text in the order of the first run
    (the order of the sweep's --set for a sweep run with --jobs 1); missing values left out."""
    values = frame[key].dropna()
    if len(values) and all(is_number(v) for v in values):
        return sorted(set(values.tolist()))
    first = frame.dropna(subset=[key]).groupby(key, sort=False)["id"].min().sort_values()
    return list(first.index)


def select(db: SweepDB, runs: pd.DataFrame, wheres: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """The runs matching every --where, then the ok and complete ones, with a count on
    stderr."""
    for key, raw in wheres:
        spec = f"{key}={raw}"
        if key not in runs.columns:
            raise PlotError(f"--where '{spec}': no column '{key}' in runs "
                            f"(swept keys: {', '.join(db.axes) or 'none'})")
        selected = runs[runs[key].map(where_matcher(raw))]
        if selected.empty:
            have = ", ".join(labels.value_text(v) for v in ordered_values(runs, key)[:20])
            raise PlotError(f"--where '{spec}' matches no run (values of {key}: {have})")
        runs = selected
    status = runs["status"].fillna("")
    ok = runs[(status == "ok") & (runs["complete"] == 1)]
    failed = int((status == "failed").sum())
    invalid = int((status == "invalid").sum())
    incomplete = int(((status == "ok") & (runs["complete"] != 1)).sum())
    other = len(runs) - len(ok) - failed - invalid - incomplete
    print(f"runs: {len(ok)} used, {len(runs) - len(ok)} skipped ({failed} failed, "
          f"{invalid} invalid, {incomplete} incomplete"
          + (f", {other} other" if other else "") + ")", file=sys.stderr)
    if ok.empty:
        raise PlotError("no ok runs match" + (" the --where filters" if wheres else "")
                        + f" in {db.path}")
    return ok.reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# Configurations: the tuple of the --by keys


def split_list(specs: Sequence[str] | None, option: str | None = None) -> list[str]:
    """An option given several times and/or comma-separated -> its items in order, once each.
    With option named, an empty item is an error (else it is left out)."""
    out: list[str] = []
    for spec in specs or []:
        for item in spec.split(","):
            item = item.strip()
            if not item and option is not None:
                raise PlotError(f"{option} '{spec}': empty key")
            if item and item not in out:
                out.append(item)
    return out


def check_columns(option: str, keys: Sequence[str], runs: pd.DataFrame, db: SweepDB) -> None:
    for k in keys:
        if k not in runs.columns:
            raise PlotError(f"{option} '{k}': no such column (swept keys: "
                            f"{', '.join(db.axes) or 'none'})")


def varying(runs: pd.DataFrame, keys: Sequence[str]) -> list[str]:
    """The keys whose value differs between the runs (a missing value counts as one)."""
    return [k for k in keys if runs[k].nunique(dropna=False) > 1]


def spread_within(runs: pd.DataFrame, groups: Sequence[str], key: str) -> bool:
    """Whether key takes more than one value inside some group of equal groups values (over
    all runs when groups is empty)."""
    if not groups:
        return runs[key].nunique(dropna=False) > 1
    return bool((runs.groupby(list(groups), dropna=False)[key].nunique(dropna=False) > 1).any())


def default_by(runs: pd.DataFrame, axes: Sequence[str], fixed: Sequence[str] = ()) -> list[str]:
    """The swept keys that tell the runs apart, beyond fixed (p99's --x): in table order, a
    key that the keys before it already determine (an axis zipped with another) left out."""
    chosen = list(fixed)
    for a in varying(runs, axes):
        if a not in chosen and spread_within(runs, chosen, a):
            chosen.append(a)
    return [k for k in chosen if k not in fixed]


def pooled_keys(runs: pd.DataFrame, axes: Sequence[str], groups: Sequence[str]) -> list[str]:
    """The swept keys (not in groups) whose value differs inside some group: the runs of a
    configuration that a figure would pool."""
    return [a for a in axes if a not in groups and spread_within(runs, groups, a)]


def check_pooling(runs: pd.DataFrame, axes: Sequence[str], groups: Sequence[str], pool: bool,
                  what: str) -> None:
    """Refuse to pool runs of different swept values into one `what`, unless --pool."""
    pooled = pooled_keys(runs, axes, groups)
    if not pooled:
        return
    values = {a: ", ".join(labels.value_text(v) for v in ordered_values(runs, a))
              for a in pooled}
    if pool:
        for a in pooled:
            note(f"pooled over {a} = {values[a]} (--pool)")
        return
    described = "; ".join(f"{a} ({values[a]})" for a in pooled)
    them = "it" if len(pooled) == 1 else "them"
    raise PlotError(f"the runs of one {what} differ in {described}: add {them} to --by, "
                    f"choose a value with --where '{pooled[0]}=VALUE', or give --pool to pool "
                    f"{them}")


def configurations(runs: pd.DataFrame, by: Sequence[str]) -> list[tuple[str, pd.DataFrame]]:
    """[(label, rows)] per configuration (tuple of --by values present in the runs), in the
    order of each key's values; one series of every run without --by."""
    if not by:
        return [("all runs", runs)]
    choices = []
    for k in by:
        values: list[Any] = ordered_values(runs, k)
        if runs[k].isna().any():
            values.append(None)
        choices.append(values)
    out = []
    for combo in itertools.product(*choices):
        mask = pd.Series(True, index=runs.index)
        for k, v in zip(by, combo):
            mask &= runs[k].isna() if v is None else runs[k].map(lambda x, v=v: x == v)
        if mask.any():
            out.append((labels.configuration_label(by, combo), runs[mask]))
    return out


def legend_title(by: Sequence[str]) -> str | None:
    """The --by key over a legend of its values; none over 'k1=v1, k2=v2' labels."""
    return by[0] if len(by) == 1 else None


# --------------------------------------------------------------------------------------------
# Titles and statistics


def scenario_name(runs: pd.DataFrame) -> str:
    names = list(dict.fromkeys(runs["scenario"].dropna())) if "scenario" in runs else []
    return ", ".join(names) if names else "sweep"


def with_where(title: str, wheres: Sequence[tuple[str, str]]) -> str:
    """A default title and, on a line of its own, the --where conditions."""
    text = labels.where_text(wheres)
    return f"{title}\n{text}" if text else title


def sample_counts(runs: pd.DataFrame, dist: str) -> list[int] | None:
    """The sample count of a summary.json distribution (wI.DIST) in each run: its DIST.count
    column, else the workload's counter of the same samples (COUNT_COLUMNS); None when no
    column says."""
    workload, name = labels.split_workload(dist)
    candidates = [f"{dist}.count"]
    if name in COUNT_COLUMNS:
        prefix = f"w{workload}." if workload is not None else ""
        candidates.append(prefix + COUNT_COLUMNS[name])
    for c in candidates:
        if c in runs.columns:
            values = pd.to_numeric(runs[c], errors="coerce").dropna()
            if len(values):
                return [int(v) for v in values]
    return None


def metric_name(runs: pd.DataFrame, column: str) -> str:
    """A runs column's readable name with its statistic as the runs' sample counts allow:
    'completion time p99', or 'completion time, max of 16' when each run's p99 is the largest
    of its 16 samples."""
    base, stat = labels.split_stat(column)
    if stat not in labels.PERCENTILES:
        return labels.pretty(column)
    stat_label = labels.percentile_label(stat, sample_counts(runs, base))
    sep = " " if stat_label.startswith("p") else ", "
    return f"{labels.pretty(base)}{sep}{stat_label}"


def ci_columns(e: stats.Estimate) -> dict[str, float | int]:
    """A CSV row's n, mean, sd, t and ci95 (NaN without an interval)."""
    if e.half_width is None:
        return {"n": e.n, "mean": e.mean, "sd": math.nan, "t": math.nan, "ci95": math.nan}
    t = stats.t_quantile(stats.CONFIDENCE, e.n - 1)
    return {"n": e.n, "mean": e.mean, "sd": e.half_width * math.sqrt(e.n) / t, "t": t,
            "ci95": e.half_width}


def numeric_values(runs: pd.DataFrame, column: str, what: str) -> pd.Series:
    values = pd.to_numeric(runs[column], errors="coerce")
    bad = runs[column].notna() & values.isna()
    if bad.any():
        raise PlotError(f"{what} '{column}' is not numeric (e.g. {runs[column][bad].iloc[0]!r})")
    return values


# --------------------------------------------------------------------------------------------
# The figures


@dataclass
class Drawing:
    """A figure and the numbers it shows (the --csv rows)."""

    fig: Figure
    table: list[dict[str, Any]]
    columns: list[str]
    float_format: str | None = "%.10g"  # of the CSV; None: full precision


def metric_samples(db: SweepDB, run_ids: Sequence[int], metric: str) -> pd.DataFrame:
    """[run_id, workload, value] of an ops column, of an ops column of one phase of the
    operations (COLUMN@PHASE: its rows of kind phase), or of a phase from the steps table."""
    column, at, phase = metric.partition("@")
    if at:
        if column not in db.ops_columns or column in ("run_id", "workload", "phase", "kind"):
            raise PlotError(f"--metric '{metric}': no such ops column '{column}'")
        have = (sorted(set(db.ops(run_ids, ["phase"], kind="phase")["phase"].dropna()))
                if "phase" in db.ops_columns else [])
        if phase not in have:
            raise PlotError(f"--metric '{metric}': no ops rows of phase '{phase}' (phases: "
                            f"{', '.join(have) or 'none in these runs'})")
        frame = db.ops(run_ids, ["workload", column], kind="phase", equal={"phase": phase})
        return frame.rename(columns={column: "value"})
    if metric in db.ops_columns and metric not in ("run_id", "workload"):
        frame = db.ops(run_ids, ["workload", metric])
        return frame.rename(columns={metric: "value"})
    m = STEP_METRIC.fullmatch(metric)
    if metric not in PHASES and not m:
        numeric = [c for c in db.ops_columns if c.endswith("_us") or c in ("bytes", "net_bytes")]
        phases = list(PHASES) + ["stepN_us"]
        raise PlotError(f"--metric '{metric}': no such ops column (numeric ones: "
                        f"{', '.join(numeric)}; phases from the steps table: "
                        f"{', '.join(phases)})")
    step, how = PHASES[metric] if metric in PHASES else (int(m.group(1)) if m else 0, "duration")
    cols = ["workload", "op", "iteration", "step", "transfers", "end_us", "duration_us"]
    steps = db.steps(run_ids, cols) if set(cols) <= set(db.steps_columns) else None
    if steps is None or steps.empty:
        raise PlotError(f"--metric '{metric}': these runs have no steps (sweep with "
                        "--set output.steps=true; databases written before the steps table "
                        "have none)")
    steps = steps[(steps["step"] == step) & (steps["transfers"] > 0)].copy()
    keys = ["run_id", "workload", "op", "iteration"]
    for k in ("op", "iteration"):
        steps[k] = steps[k].fillna(-1)
    if how == "duration":
        steps["value"] = steps["duration_us"]
    else:
        ops = db.ops(run_ids, ["workload", "op", "iteration", "start_us"])
        for k in ("op", "iteration"):
            ops[k] = ops[k].fillna(-1)
        steps = steps.merge(ops.rename(columns={"start_us": "op_start_us"}), on=keys)
        # Both times are in µs with 3 decimals (ns): so is their difference.
        steps["value"] = (steps["end_us"] - steps["op_start_us"]).round(3)
    return steps[["run_id", "workload", "value"]].reset_index(drop=True)


def choose_workload(frames: Sequence[pd.DataFrame], wanted: str | None) -> str:
    names = list(dict.fromkeys(w for f in frames for w in f["workload"]))
    if wanted is not None:
        if wanted not in names:
            raise PlotError(f"no workload '{wanted}' in the ops of these runs "
                            f"(workloads: {', '.join(names)})")
        return wanted
    if len(names) == 1:
        return names[0]
    if not names:
        raise PlotError("the selected runs have no operations")
    raise PlotError(f"the runs hold several workloads, choose one with --workload: "
                    f"{', '.join(names)}")


def draw_cdf(args: argparse.Namespace, db: SweepDB, runs: pd.DataFrame) -> Drawing:
    metrics = split_list(args.metric) or [DEFAULT_CDF_METRIC]
    by = args.by if args.by is not None else default_by(runs, db.axes)
    check_columns("--by", by, runs, db)
    check_pooling(runs, db.axes, by, args.pool, "curve")
    frames = {m: metric_samples(db, runs["id"].tolist(), m) for m in metrics}
    units = {m: labels.unit_of(m) for m in metrics}
    if len(set(units.values())) > 1:
        raise PlotError("--metric: the metrics have different units ("
                        + ", ".join(f"{m}: {u}" for m, u in units.items())
                        + "); draw them in separate figures")
    workload = choose_workload(list(frames.values()), args.workload)
    configs = configurations(runs, by)
    curves: list[figures.Curve] = []
    table: list[dict[str, Any]] = []
    for metric, frame in frames.items():
        frame = frame[frame["workload"] == workload]
        for label, rows in configs:
            vals = frame[frame["run_id"].isin(rows["id"])]["value"]
            missing = int(vals.isna().sum())
            try:
                v = np.sort(pd.to_numeric(vals.dropna()).to_numpy(dtype=float))
            except (ValueError, TypeError):
                raise PlotError(f"--metric '{metric}': not a numeric column")
            name = label if len(metrics) == 1 else (
                labels.pretty(metric) if not by else f"{labels.pretty(metric)}: {label}")
            if missing:
                note(f"{name}: {missing} of {len(vals)} operations have no {metric} "
                     "(incomplete), not counted")
            if len(v) == 0:
                note(f"{name}: no value of {metric}, not plotted")
                continue
            curves.append(figures.Curve(name, v))
            p50, p99, p999 = (stats.percentile(v, p) for p in (50, 99, 99.9))
            table.append({"series": name, "runs": len(rows), "count": len(v),
                          "missing": missing, "mean": math.fsum(v) / len(v), "p50": p50.value,
                          "p99": p99.value, "p999": p999.value, "max": float(v[-1]),
                          "metric": metric, "p99_label": p99.label, "p999_label": p999.label})
    if not curves:
        raise PlotError(f"no value of {', '.join(metrics)} for workload '{workload}'")
    quantity = ", ".join(labels.pretty(m) for m in metrics)
    title = args.title
    if title is None:
        title = with_where(f"{quantity}: {workload} ({scenario_name(runs)})", args.wheres)
    fig = figures.cdf_ccdf(curves, f"{quantity} x", units[metrics[0]], title or None,
                           legend_title(by))
    return Drawing(fig, table, ["series", "runs", "count", "missing", "mean", "p50", "p99",
                                "p999", "max", "metric", "p99_label", "p999_label"], None)


def metric_column(runs: pd.DataFrame, metric: str, pct: str) -> str:
    if f"{metric}.{pct}" in runs.columns:
        return f"{metric}.{pct}"
    if metric in runs.columns:
        return metric  # a plain number (network.header_bytes), or a statistic named in full
    dists = sorted({c.rsplit(".", 1)[0] for c in runs.columns if c.endswith(".p99")})
    raise PlotError(f"--metric '{metric}': no column '{metric}.{pct}' in runs "
                    f"(distributions: {', '.join(dists)}; or any numeric runs column)")


def group_estimates(rows: pd.DataFrame, y: pd.Series, what: str) -> stats.Estimate | None:
    vals = y[rows.index].dropna()
    if len(rows) and len(vals) < len(rows):
        note(f"{what}: {len(rows) - len(vals)} runs have no value")
    if vals.empty:
        return None
    return stats.mean_ci(vals.tolist())


def draw_p99(args: argparse.Namespace, db: SweepDB, runs: pd.DataFrame) -> Drawing:
    metrics = split_list(args.metric)
    if len(metrics) > 1:
        raise PlotError("p99: one --metric at a time (several are for cdf)")
    metric = metrics[0] if metrics else DEFAULT_P99_METRIC
    by_given = args.by or []
    check_columns("--by", by_given, runs, db)
    if args.x is not None:
        check_columns("--x", [args.x], runs, db)
        x = args.x
    else:
        numeric = [a for a in varying(runs, db.axes)
                   if pd.to_numeric(runs[a], errors="coerce").notna().all() and a not in by_given]
        if not numeric:
            raise PlotError(f"no numeric swept key to put on the x axis; give --x KEY "
                            f"(swept keys: {', '.join(db.axes) or 'none'})")
        x = numeric[0]
    runs = runs.assign(**{x: numeric_values(runs, x, "--x")})
    column = metric_column(runs, metric, args.pct)
    by = [k for k in (args.by if args.by is not None else default_by(runs, db.axes, [x]))
          if k != x]
    check_pooling(runs, db.axes, by + [x], args.pool, "point")
    y = numeric_values(runs, column, "metric")
    series: list[figures.Series] = []
    table: list[dict[str, Any]] = []
    base, stat = labels.split_stat(column)
    for label, rows in configurations(runs, by):
        points = []
        for xv in ordered_values(rows, x):
            sel = rows[rows[x] == xv]
            e = group_estimates(sel, y, f"{label}, {x}={labels.value_text(xv)}")
            if e is None:
                continue
            points.append((float(xv), e))
            counts = sample_counts(sel, base) if stat else None
            table.append({"series": label, "x": xv, **ci_columns(e),
                          "stat": labels.percentile_label(stat, counts) if stat else ""})
        if points:
            series.append(figures.Series(label, points))
    if not series:
        raise PlotError(f"no run has a value of {column}")
    name = metric_name(runs, column)
    title = args.title
    if title is None:
        ests = [e for s in series for _, e in s.points]
        title = with_where(f"{name} vs {labels.short_keys([x])[x]}\n(mean of seeds, "
                           f"{figures.interval_title(ests)}; {scenario_name(runs)})",
                           args.wheres)
    fig = figures.line_figure(series, x, labels.axis_label(x, x),
                              labels.axis_label(column, name), title or None, legend_title(by))
    return Drawing(fig, table, ["series", "x", "n", "mean", "sd", "t", "ci95", "stat"])


def draw_bars(args: argparse.Namespace, db: SweepDB, runs: pd.DataFrame) -> Drawing:
    wanted = split_list([args.metrics] if args.metrics else None) or DEFAULT_BARS
    metrics = []
    for m in wanted:
        if m not in runs.columns:
            note(f"no column '{m}' in runs, skipped")
        elif pd.to_numeric(runs[m], errors="coerce").isna().all():
            note(f"column '{m}' has no numeric value in these runs, skipped")
        else:
            metrics.append(m)
    if not metrics:
        raise PlotError(f"none of the metrics is a numeric column of runs: {', '.join(wanted)}")
    if args.by is not None:
        by = args.by
    else:
        by = default_by(runs, db.axes)
        if not by:
            by = (["p2mp.mechanism"] if "p2mp.mechanism" in runs.columns
                  else db.axes[:1])
    check_columns("--by", by, runs, db)
    check_pooling(runs, db.axes, by, args.pool, "bar")
    configs = configurations(runs, by)
    groups = [label for label, _ in configs]
    panels: list[figures.Panel] = []
    table: list[dict[str, Any]] = []
    all_estimates: list[stats.Estimate] = []
    for m in metrics:
        y = numeric_values(runs, m, "metric")
        base, stat = labels.split_stat(m)
        per_group: dict[str, stats.Estimate] = {}
        for label, rows in configs:
            e = group_estimates(rows, y, f"{label}, {m}")
            if e is None:
                continue
            per_group[label] = e
            all_estimates.append(e)
            counts = sample_counts(rows, base) if stat in labels.PERCENTILES else None
            table.append({"metric": m, "series": label, **ci_columns(e),
                          "stat": labels.percentile_label(stat, counts) if stat else ""})
        unit = labels.unit_of(m)
        panel = figures.Panel(metric_name(runs, m), unit, per_group)
        # p50 and p99 of one sample are the same maximum: draw it once.
        if not any(p.title == panel.title and p.estimates == panel.estimates for p in panels):
            panels.append(panel)
    title = args.title
    if title is None:
        title = with_where(f"{scenario_name(runs)}: mean of seeds, "
                           f"{figures.interval_title(all_estimates)}", args.wheres)
    fig = figures.bar_panels(panels, groups, legend_title(by), title or None)
    return Drawing(fig, table, ["metric", "series", "n", "mean", "sd", "t", "ci95", "stat"])


DRAW = {"cdf": draw_cdf, "p99": draw_p99, "bars": draw_bars}


# --------------------------------------------------------------------------------------------
# The command line


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise PlotError(message)


def make_parser() -> Parser:
    ap = Parser(prog="scripts/plot", description=" ".join((__doc__ or "").split("\n\n")[0].split()),
                epilog="What is plotted, and the CI formula: docs/plots.md.")
    ap.add_argument("db", metavar="DB.sqlite", help="a scripts/sweep database")
    ap.add_argument("kind", metavar="KIND", help="cdf, p99 or bars")
    ap.add_argument("-o", "--output", required=True, metavar="OUT.png",
                    help="the figure (PNG); OUT.pdf is written next to it")
    ap.add_argument("--by", action="append", metavar="KEY[,KEY...]",
                    help="a configuration is the tuple of these keys' values: one curve, line "
                         "or bar per configuration; repeatable (default: the swept keys whose "
                         "values differ)")
    ap.add_argument("--pool", action="store_true",
                    help="pool runs of one configuration that differ in other swept keys "
                         "(refused without it)")
    ap.add_argument("--x", metavar="KEY", help="p99: the numeric swept key of the x axis")
    ap.add_argument("--metric", action="append", metavar="NAME",
                    help="cdf: an ops column, an ops column of one phase (COLUMN@PHASE, "
                         "e.g. queue_us@dispatch) or a phase of the steps table (default "
                         "duration_us; repeatable, one curve per metric and configuration); "
                         "p99: a summary metric (default w0.duration_us, column METRIC.PCT)")
    ap.add_argument("--pct", default="p99", choices=PCTS, help="p99: the statistic (default p99)")
    ap.add_argument("--metrics", metavar="COL,COL,...", help="bars: the runs columns")
    ap.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                    help="only runs with this value; repeatable; shown in the default title")
    ap.add_argument("--workload", metavar="LABEL", help="cdf: the workload (ops.workload)")
    ap.add_argument("--csv", metavar="FILE", help="also write the plotted numbers as CSV")
    ap.add_argument("--title", help="figure title ('' for none)")
    return ap


def build(argv: Sequence[str] | None = None) -> tuple[argparse.Namespace, Drawing]:
    """Parse argv and draw the figure (not saved). PlotError on bad input."""
    args = make_parser().parse_args(argv)
    if args.kind not in KINDS:
        raise PlotError(f"unknown KIND '{args.kind}' (kinds: {', '.join(KINDS)})")
    if os.path.splitext(args.output)[1].lower() != ".png":
        raise PlotError(f"-o {args.output}: expected a .png file (the .pdf is written next "
                        "to it)")
    args.by = split_list(args.by, "--by") if args.by else None
    args.wheres = [parse_where(spec) for spec in args.where]
    try:
        with SweepDB(args.db) as db:
            runs = select(db, db.runs(), args.wheres)
            drawing = DRAW[args.kind](args, db, runs)
    except DatabaseError as e:
        raise PlotError(str(e))
    return args, drawing


def write_csv(path: str, drawing: Drawing) -> None:
    pd.DataFrame(drawing.table, columns=drawing.columns).to_csv(
        path, index=False, float_format=drawing.float_format)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    try:
        args, drawing = build(argv)
    except PlotError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    if args.csv:
        write_csv(args.csv, drawing)
    for path in figures.save(drawing.fig, args.output):
        print(path)
    sys.exit(0)
