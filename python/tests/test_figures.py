"""The shared figure code: percentile marks and legends under the 'max of n' rule, intervals
only where n >= 2, deterministic files."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from mcast4ai import figures, stats


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    figures.pyplot().close("all")


def texts(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.texts]


def legend(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def errorbar_segments(ax: Any) -> int:
    """The error bars drawn on ax (bars' and lines' alike)."""
    n = 0
    for c in ax.containers:  # a bar's error bar is a container of its own too
        if hasattr(c, "has_yerr") and c.has_yerr:
            n += len(c.lines[2][0].get_segments())
    return n


def test_cdf_marks_p99_only_where_a_curve_has_100_samples() -> None:
    small = figures.Curve.of("a", np.arange(32.0))
    fig = figures.cdf_ccdf([small], "completion time x", "µs", "t", "by")
    ax_cdf, ax_ccdf = fig.axes
    assert texts(ax_cdf) == ["p50"] and texts(ax_ccdf) == ["p50"]
    assert legend(ax_cdf) == ["a (n=32)"]
    assert ax_cdf.get_xlabel() == "completion time x (µs)"

    big = figures.Curve.of("b", np.arange(200.0))
    fig = figures.cdf_ccdf([small, big], "completion time x", "µs")
    ax_cdf, ax_ccdf = fig.axes
    assert texts(ax_cdf) == ["p50", "p99"]
    # The p99 line is where the small curve reaches its largest value: the legend says so.
    assert legend(ax_cdf) == ["a (n=32; p99 = max of 32)", "b (n=200)"]
    assert not any("p99.9" in t for t in texts(ax_ccdf))

    huge = figures.Curve.of("c", np.arange(1500.0))
    fig = figures.cdf_ccdf([big, huge], "x", "µs")
    assert texts(fig.axes[1]) == ["p50", "p99", "p99.9"]
    assert legend(fig.axes[0]) == ["b (n=200; p99.9 = max of 200)", "c (n=1,500)"]


def test_cdf_switches_to_ms_and_counts_have_no_unit() -> None:
    fig = figures.cdf_ccdf([figures.Curve.of("a", [5000.0, 20000.0])], "completion time x", "µs")
    assert fig.axes[0].get_xlabel() == "completion time x (ms)"
    fig = figures.cdf_ccdf([figures.Curve.of("a", [1, 2, 3])], "retransmissions x", "count")
    assert fig.axes[0].get_xlabel() == "retransmissions x"
    with pytest.raises(ValueError):
        figures.cdf_ccdf([figures.Curve.of("a", [])], "x", "µs")


def test_bars_have_an_interval_only_where_n_is_two_or_more() -> None:
    one = stats.mean_ci([5.0])
    two = stats.mean_ci([4.0, 6.0])
    same = stats.mean_ci([3.0, 3.0])
    fig = figures.bar_panels([figures.Panel("ACKs", "count", {"a": one, "b": two, "c": same})],
                             ["a", "b", "c"], "mechanism", "title")
    ax = fig.axes[0]
    bars = [c for c in ax.containers if hasattr(c, "patches")]
    assert [b.errorbar is not None for b in bars] == [False, True, True]
    assert errorbar_segments(ax) == 2
    assert [p.get_height() for p in ax.patches] == [5.0, 5.0, 3.0]
    assert fig._suptitle.get_text() == "title"


def test_bar_panels_put_the_legend_in_the_free_panel() -> None:
    e = stats.mean_ci([1.0, 2.0])
    fig = figures.bar_panels([figures.Panel(f"m{i}", "µs", {"a": e, "b": e}) for i in range(2)],
                             ["a", "b"], "k")
    assert len(fig.axes) == 3 and legend(fig.axes[2]) == ["a", "b"]
    assert [ax.get_title() for ax in fig.axes[:2]] == ["m0", "m1"]


def test_lines_draw_intervals_only_at_points_with_two_runs() -> None:
    plt = figures.pyplot()
    fig, ax = plt.subplots()
    figures.lines_with_intervals(ax, [
        figures.Series("a", [(1.0, stats.mean_ci([1.0])), (2.0, stats.mean_ci([2.0, 3.0])),
                             (4.0, stats.mean_ci([3.0, 5.0, 4.0]))]),
        figures.Series("b", [(1.0, stats.mean_ci([7.0])), (2.0, stats.mean_ci([8.0]))])])
    assert errorbar_segments(ax) == 2
    assert ax.get_legend_handles_labels()[1] == ["a", "b"]
    assert figures.interval_title([stats.mean_ci([1.0])]) == "one run each, no interval"
    assert figures.interval_title([stats.mean_ci([1.0]), stats.mean_ci([1.0, 2.0])]) == \
        "95 % CI where n ≥ 2"
    assert figures.interval_title([stats.mean_ci([1.0, 2.0])]) == "95 % CI"


def test_numeric_x_axis_of_bytes() -> None:
    plt = figures.pyplot()
    fig, ax = plt.subplots()
    ax.plot([1024, 65536], [1, 2])
    figures.numeric_x_axis(ax, "workloads[0].bytes", [1024.0, 65536.0, 1024.0])
    assert ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1 KiB", "64 KiB"]


def test_save_writes_the_same_bytes_twice(tmp_path: Path) -> None:
    def draw() -> Any:
        return figures.bar_panels([figures.Panel("m", "µs", {"a": stats.mean_ci([1.0, 2.0])})],
                                  ["a"], "k", "t")
    first = figures.save(draw(), str(tmp_path / "a" / "f.png"))
    assert first == [str(tmp_path / "a" / "f.png"), str(tmp_path / "a" / "f.pdf")]
    second = figures.save(draw(), str(tmp_path / "b" / "f.png"))
    for p, q in zip(first, second):
        assert Path(p).read_bytes() == Path(q).read_bytes()
    assert Path(first[1]).read_bytes().startswith(b"%PDF")
    assert figures.save(draw(), str(tmp_path / "c.png"), pdf=False) == [str(tmp_path / "c.png")]
