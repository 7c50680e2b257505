"""scripts/plot on small synthetic databases written with mcast4ai.sweepdb: configurations as
tuples of --by keys, no silent pooling, --where in titles, readable labels with units, 'max
of n' instead of a p99 that is the largest sample, intervals only where n >= 2, per-phase
CDFs from the steps table; and end to end on a sweep of the runner when it is built."""
from __future__ import annotations

import csv
import itertools
import json
import os
import subprocess
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest

from mcast4ai import figures, plot, sweepdb
from mcast4ai.sweepdb import RunRecord, Table, Writer

REPO = Path(__file__).resolve().parents[2]
# The runner of the build ctest runs (MCAST4AI_RUNNER), else build-test/'s.
RUNNER = Path(os.environ.get("MCAST4AI_RUNNER") or REPO / "build-test" / "mcast4ai-run")
PYTHON = "/usr/bin/python3"
MECH, AGG, SIZE = "p2mp.mechanism", "p2mp.ack_aggregation", "workloads[0].bytes"


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    figures.pyplot().close("all")


def make_db(path: Path, *, mechanisms: Sequence[str] = ("unicast", "bier"),
            aggs: Sequence[str] = ("none",), sizes: Sequence[int] = (1024, 4096),
            seeds: Sequence[int] = (1, 2), ops_per_run: int = 16, steps: bool = False,
            zipped: bool = False) -> Path:
    """A sweep database: one ok run per (mechanism, aggregation, size, seed); run metrics
    w0.duration_us.p99 (= the largest of its ops), w0.completed, network.header_bytes; ops
    rows of workload 'perm' with duration_us; with steps, a dispatch step (0) ending 1 µs
    after the operation starts and a combine step (2) of 2 µs, per operation. zipped adds
    an axis 'workloads[0].ranks' that advances with the size."""
    db = Writer(str(path), [MECH, AGG, SIZE], "synthetic.json")
    for mech, agg, size, seed in itertools.product(mechanisms, aggs, sizes, seeds):
        values = {MECH: mech, AGG: agg, SIZE: str(size)}
        if zipped:
            values["workloads[0].ranks"] = f"[0,{size // 1024}]"
        base = (10.0 if mech == "unicast" else 1.0) * size / 1024
        durations = [base + seed + i / 10 for i in range(ops_per_run)]
        op_rows = [{"workload": "perm", "op": str(i), "iteration": str(i),
                    "start_us": "100.000", "duration_us": f"{d:.3f}", "outcome": "completed"}
                   for i, d in enumerate(durations)]
        step_rows = []
        if steps:
            for i in range(ops_per_run):
                step_rows += [
                    {"workload": "perm", "op": str(i), "iteration": str(i), "step": "0",
                     "transfers": "4", "start_us": "100.000", "end_us": f"{101 + seed:.3f}",
                     "duration_us": f"{1 + seed:.3f}"},
                    {"workload": "perm", "op": str(i), "iteration": str(i), "step": "2",
                     "transfers": "4", "start_us": "110.000", "end_us": "112.000",
                     "duration_us": "2.000"}]
        metrics = {"complete": 1, "scenario": "synthetic", "mechanism": mech,
                   "w0.duration_us.p99": max(durations), "w0.duration_us.p50": durations[0],
                   "w0.completed": ops_per_run,
                   "network.header_bytes": 1000 * (2 if mech == "unicast" else 1) + seed}
        db.write(RunRecord(sweepdb.point_key("s", seed, values), seed,
                           {k: sweepdb.column_value(v) for k, v in values.items()}, "ok",
                           None, 0, metrics,
                           Table.from_text(list(op_rows[0]), op_rows),
                           Table.from_text(list(step_rows[0]), step_rows) if steps else Table()))
    db.close()
    return path


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_db(tmp_path / "s.sqlite")


def draw(*argv: str) -> plot.Drawing:
    _, drawing = plot.build([*argv, "-o", "unused.png"])
    return drawing


def series(drawing: plot.Drawing) -> list[str]:
    return list(dict.fromkeys(r["series"] for r in drawing.table))


def legend(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def suptitle(fig: Any) -> str:
    return fig._suptitle.get_text() if fig._suptitle is not None else ""


def errorbars(ax: Any) -> int:
    return sum(len(c.lines[2][0].get_segments()) for c in ax.containers
               if hasattr(c, "has_yerr") and c.has_yerr)


# --------------------------------------------------------------------------------------------
# Configurations


def test_by_tuple_labels_series_k1_v1_k2_v2(tmp_path: Path) -> None:
    path = make_db(tmp_path / "t.sqlite", aggs=("none", "source-tor"), sizes=(1024,))
    expected = ["mechanism=unicast, ack_aggregation=none",
                "mechanism=unicast, ack_aggregation=source-tor",
                "mechanism=bier, ack_aggregation=none",
                "mechanism=bier, ack_aggregation=source-tor"]
    for by in (["--by", MECH, "--by", AGG], ["--by", f"{MECH},{AGG}"], []):
        d = draw(str(path), "bars", *by, "--metrics", "network.header_bytes")
        assert series(d) == expected, by
        # Too long for a panel: below the panels, without a title (the labels name the keys).
        assert [t.get_text() for t in d.fig.legends[0].get_texts()] == expected
        assert d.fig.legends[0].get_title().get_text() == ""
    # One key: the value alone, the key in the legend's title.
    d = draw(str(path), "bars", "--by", MECH, "--where", f"{AGG}=none")
    assert series(d) == ["unicast", "bier"]
    (ax,) = [ax for ax in d.fig.axes if ax.get_legend() is not None]
    assert legend(ax) == ["unicast", "bier"]
    assert ax.get_legend().get_title().get_text() == MECH


def test_a_key_that_another_determines_is_not_added_to_the_default(tmp_path: Path) -> None:
    path = make_db(tmp_path / "z.sqlite", mechanisms=("bier",), zipped=True)
    d = draw(str(path), "cdf")
    assert series(d) == ["1 KiB", "4 KiB"]  # by the size alone: the ranks follow it


def test_runs_differing_in_another_key_are_not_pooled_silently(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for kind, what in (("bars", "bar"), ("cdf", "curve")):
        with pytest.raises(plot.PlotError) as e:
            draw(str(db), kind, "--by", MECH)
        assert str(e.value) == (
            f"the runs of one {what} differ in {SIZE} (1024, 4096): add it to --by, choose a "
            f"value with --where '{SIZE}=VALUE', or give --pool to pool it")
    with pytest.raises(plot.PlotError, match=f"one point differ in {MECH} .unicast, bier."):
        draw(str(db), "p99", "--x", SIZE, "--by", "seed")
    capsys.readouterr()
    d = draw(str(db), "bars", "--by", MECH, "--pool", "--metrics", "network.header_bytes")
    assert series(d) == ["unicast", "bier"]
    assert [r["n"] for r in d.table] == [4, 4]
    assert f"note: pooled over {SIZE} = 1024, 4096 (--pool)" in capsys.readouterr().err


def test_where_conditions_are_in_the_default_titles(db: Path) -> None:
    d = draw(str(db), "bars", "--where", f"{SIZE}=4096", "--where", "seed=1")
    assert suptitle(d.fig).endswith(f"\nwhere {SIZE}=4096, seed=1")
    d = draw(str(db), "cdf", "--by", MECH, "--where", f"{SIZE}=1024")
    assert suptitle(d.fig) == f"completion time: perm (synthetic)\nwhere {SIZE}=1024"
    d = draw(str(db), "p99", "--where", f"{MECH}=bier")
    assert suptitle(d.fig).endswith(f"\nwhere {MECH}=bier")
    d = draw(str(db), "bars", "--where", f"{SIZE}=4096", "--title", "mine")
    assert suptitle(d.fig) == "mine"
    d = draw(str(db), "bars", "--where", f"{SIZE}=4096", "--title", "")
    assert suptitle(d.fig) == ""


# --------------------------------------------------------------------------------------------
# Labels, percentiles and intervals


def test_a_p99_over_16_samples_is_labelled_max_of_16(db: Path) -> None:
    d = draw(str(db), "p99", "--x", SIZE, "--by", MECH)
    ax = d.fig.axes[0]
    assert ax.get_ylabel() == "completion time, max of 16 (µs)"
    assert ax.get_xlabel() == f"{SIZE} (bytes)"
    assert suptitle(d.fig).startswith("completion time, max of 16 vs bytes\n")
    assert "p99" not in ax.get_ylabel() + suptitle(d.fig)
    assert {r["stat"] for r in d.table} == {"max of 16"}
    # The column named in full is the same statistic.
    d = draw(str(db), "p99", "--x", SIZE, "--by", MECH, "--metric", "w0.duration_us.p99")
    assert d.fig.axes[0].get_ylabel() == "completion time, max of 16 (µs)"
    d = draw(str(db), "bars", "--where", f"{SIZE}=4096",
             "--metrics", "w0.duration_us.p99,w0.duration_us.p50,network.header_bytes")
    assert [ax.get_title() for ax in d.fig.axes[:3]] == [
        "completion time, max of 16", "completion time p50", "header bytes"]
    assert [ax.get_ylabel() for ax in d.fig.axes[:3]] == ["µs", "µs", "bytes"]


def test_a_p99_over_enough_samples_is_a_p99(tmp_path: Path) -> None:
    path = make_db(tmp_path / "big.sqlite", ops_per_run=120)
    d = draw(str(path), "p99", "--x", SIZE, "--by", MECH)
    assert d.fig.axes[0].get_ylabel() == "completion time p99 (µs)"
    assert {r["stat"] for r in d.table} == {"p99"}


def test_cdf_percentiles_and_their_labels(db: Path) -> None:
    d = draw(str(db), "cdf", "--by", MECH, "--where", f"{SIZE}=1024")
    rows = {r["series"]: r for r in d.table}
    bier = sorted(1.0 + seed + i / 10 for seed in (1, 2) for i in range(16))
    assert rows["bier"]["count"] == 32 and rows["bier"]["runs"] == 2
    assert rows["bier"]["p50"] == pytest.approx(bier[15])
    assert rows["bier"]["p99"] == pytest.approx(bier[-1])
    assert rows["bier"]["p99_label"] == "max of 32" and rows["bier"]["p999_label"] == "max of 32"
    ax = d.fig.axes[0]
    assert legend(ax) == ["unicast (n=32)", "bier (n=32)"]  # no p99 mark to explain
    assert ax.get_xlabel() == "completion time x (µs)"


def test_intervals_only_where_a_group_has_two_runs(tmp_path: Path) -> None:
    one = make_db(tmp_path / "one.sqlite", seeds=(1,))
    d = draw(str(one), "bars", "--where", f"{SIZE}=1024")
    assert sum(errorbars(ax) for ax in d.fig.axes) == 0
    assert "one run each, no interval" in suptitle(d.fig)
    d = draw(str(one), "p99", "--x", SIZE, "--by", MECH)
    assert errorbars(d.fig.axes[0]) == 0
    assert "one run each, no interval" in suptitle(d.fig)
    assert all(r["ci95"] != r["ci95"] for r in d.table)  # NaN: empty in the CSV
    two = make_db(tmp_path / "two.sqlite")
    d = draw(str(two), "bars", "--where", f"{SIZE}=1024",
             "--metrics", "network.header_bytes,w0.duration_us.p99")
    assert [errorbars(ax) for ax in d.fig.axes[:2]] == [2, 2]
    assert suptitle(d.fig) == f"synthetic: mean of seeds, 95 % CI\nwhere {SIZE}=1024"
    d = draw(str(two), "p99", "--x", SIZE, "--by", MECH)
    assert errorbars(d.fig.axes[0]) == 4
    # n = 2: half-width t(0.975, 1) * s / sqrt(2), s of header bytes = sqrt(0.5)
    d = draw(str(two), "bars", "--where", f"{SIZE}=1024", "--metrics", "network.header_bytes")
    r = d.table[0]
    assert r["n"] == 2 and r["t"] == pytest.approx(12.7062047)
    assert r["sd"] == pytest.approx(0.5 ** 0.5) and r["ci95"] == pytest.approx(12.7062047 * 0.5)


# --------------------------------------------------------------------------------------------
# Per-phase CDFs


def test_per_phase_cdfs_from_the_steps_table(tmp_path: Path) -> None:
    path = make_db(tmp_path / "moe.sqlite", mechanisms=("bier",), sizes=(1024,), steps=True)
    d = draw(str(path), "cdf", "--metric", "dispatch_us", "--metric", "combine_us")
    rows = {r["series"]: r for r in d.table}
    assert list(rows) == ["dispatch phase", "combine phase"]
    assert rows["dispatch phase"]["count"] == 32  # 16 operations x 2 seeds
    assert rows["dispatch phase"]["p50"] == 2.0 and rows["dispatch phase"]["max"] == 3.0
    assert rows["combine phase"]["max"] == 2.0
    assert d.fig.axes[0].get_xlabel() == "dispatch phase, combine phase x (µs)"
    assert legend(d.fig.axes[0]) == ["dispatch phase (n=32)", "combine phase (n=32)"]
    # The same with a configuration: "phase: configuration".
    d2 = draw(str(path), "cdf", "--metric", "dispatch_us,step2_us", "--by", MECH)
    assert series(d2) == ["dispatch phase: bier", "step2: bier"]
    # Units must agree; a database without steps says how to get them.
    with pytest.raises(plot.PlotError, match="different units"):
        draw(str(path), "cdf", "--metric", "dispatch_us,op")
    with pytest.raises(plot.PlotError, match="output.steps=true"):
        draw(str(make_db(tmp_path / "nosteps.sqlite")), "cdf", "--metric", "dispatch_us",
             "--by", MECH, "--pool")


# --------------------------------------------------------------------------------------------
# The command line


def test_main_writes_the_figure_and_the_csv(db: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "figs" / "bars.png"
    with pytest.raises(SystemExit) as e:
        plot.main([str(db), "bars", "--by", MECH, "--by", SIZE, "-o", str(out),
                   "--csv", str(tmp_path / "bars.csv")])
    assert e.value.code == 0
    assert capsys.readouterr().out.split() == [str(out), str(out.with_suffix(".pdf"))]
    rows = list(csv.DictReader(open(tmp_path / "bars.csv")))
    assert rows[0]["series"] == "mechanism=unicast, bytes=1 KiB" and rows[0]["n"] == "2"
    assert list(rows[0]) == ["metric", "series", "n", "mean", "sd", "t", "ci95", "stat"]


def test_bad_input_is_exit_2_without_a_figure(db: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in (
            ([str(db), "pie"], "unknown KIND 'pie'"),
            ([str(db), "bars", "--by", "nope"], "--by 'nope': no such column"),
            ([str(db), "bars", "--by", f"{MECH},"], f"--by '{MECH},': empty key"),
            ([str(db), "p99", "--metric", "a", "--metric", "b"], "p99: one --metric at a time"),
            ([str(tmp_path / "no.sqlite"), "bars"], "no such database")):
        with pytest.raises(SystemExit) as e:
            plot.main([*argv, "-o", str(tmp_path / "bad.png")])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.splitlines()[-1].startswith("error: ") and message in err
        assert "Traceback" not in err
    assert not (tmp_path / "bad.png").exists()


def test_the_entry_point_runs_the_module(db: Path, tmp_path: Path) -> None:
    script = REPO / "scripts" / "plot"
    assert script.read_text().startswith("#!/usr/bin/python3\n")
    proc = subprocess.run([str(script), str(db), "p99", "-o", str(tmp_path / "p.png")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("runs: 8 used, 0 skipped")
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")


# --------------------------------------------------------------------------------------------
# End to end: a sweep of the runner, then figures

needs_runner = pytest.mark.skipif(not os.access(RUNNER, os.X_OK),
                                  reason=f"{RUNNER} is not built")

MOE = {
    "name": "moe-tiny", "seed": 1, "stop_time_ms": 50,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                 "host_link": {"rate_gbps": 100, "delay_us": 1},
                 "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
    "nic": {"mtu_bytes": 1024},
    "p2mp": {"mechanism": "bier", "ack_aggregation": "none"},
    "workloads": [{"type": "moe-dispatch", "label": "moe", "experts": 8, "top_k": 2,
                   "tokens_per_rank": 8, "hidden": 64, "dispatch_token_bytes": 256,
                   "combine_bytes_per_element": 2, "expert_us": 5, "iterations": 3}],
    "output": {"steps": True},
}


@needs_runner
def test_end_to_end_moe_sweep_phase_cdfs_and_max_of_n(tmp_path: Path) -> None:
    scenario = tmp_path / "moe.json"
    scenario.write_text(json.dumps(MOE))
    db = tmp_path / "moe.sqlite"
    proc = subprocess.run([PYTHON, str(REPO / "scripts" / "sweep"), str(scenario), "--db",
                           str(db), "--runner", str(RUNNER), "--jobs", "1", "--seeds", "2",
                           "--set", "p2mp.mechanism=unicast,bier"],
                          capture_output=True, text=True, env={**os.environ,
                                                               "TMPDIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    # The phases' CDF pools what each run's summary.json summarises: the same maxima.
    d = draw(str(db), "cdf", "--metric", "dispatch_us,combine_us", "--by", MECH)
    rows = {r["series"]: r for r in d.table}
    with sweepdb.SweepDB(str(db)) as r:
        runs = r.rows()
    for mech in ("unicast", "bier"):
        mine = [x for x in runs if x[MECH] == mech]
        for phase, name in (("dispatch_us", "dispatch phase"), ("combine_us", "combine phase")):
            row = rows[f"{name}: {mech}"]
            assert row["max"] == pytest.approx(max(x[f"w0.{phase}.max"] for x in mine))
            assert row["count"] == sum(x["w0.completed"] for x in mine) == 6
            assert row["p99_label"] == "max of 6"
    # An ops column of one phase: the rows of kind phase alone, never the layer's mixed row.
    d = draw(str(db), "cdf", "--metric", "queue_us@dispatch,queue_us@combine", "--by", MECH)
    rows = {r["series"]: r for r in d.table}
    for mech in ("unicast", "bier"):
        ids = [x["id"] for x in runs if x[MECH] == mech]
        with sweepdb.SweepDB(str(db)) as r:
            phase_rows = r.ops(ids, ["phase", "queue_us"], kind="phase")
            layer_rows = r.ops(ids, ["queue_us"])
        for phase in ("dispatch", "combine"):
            want = sorted(phase_rows[phase_rows["phase"] == phase]["queue_us"])
            row = rows[f"queueing delay, {phase}: {mech}"]
            assert row["count"] == len(want) == 6
            assert row["max"] == pytest.approx(want[-1])
        assert len(layer_rows) == 6  # the layers' own rows are apart
    with pytest.raises(plot.PlotError, match="no ops rows of phase 'expert'.*dispatch"):
        draw(str(db), "cdf", "--metric", "queue_us@expert")
    # Each run's layer_us p99 is the largest of its 3 layers: labelled so, never p99.
    d = draw(str(db), "bars", "--metrics", "w0.layer_us.p99,w0.layer_us.mean")
    assert d.fig.axes[0].get_title() == "MoE layer, max of 3"
    assert {r["stat"] for r in d.table if r["metric"] == "w0.layer_us.p99"} == {"max of 3"}
