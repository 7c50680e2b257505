"""The figures' matplotlib code, shared by scripts/plot and the evaluation report.

- :func:`pyplot`: matplotlib without a display, the house style (9 pt text, paper sizes);
- :func:`save`: a PNG (200 dpi) and a PDF next to it, the same bytes for the same figure;
- :func:`cdf_ccdf`: completion-time style CDF and log-scale CCDF panels of pooled samples,
  with percentile marks that obey the "max of n" rule;
- :func:`bar_panels`: one panel per metric, one bar per configuration, with a 95 %
  interval only where it exists (n >= 2);
- :func:`line_figure` (:func:`lines_with_intervals`, :func:`numeric_x_axis`): a statistic
  against a numeric parameter, one line per configuration, intervals likewise;
- :func:`finish`: the layout: a title of any number of lines, and a legend too big for a
  panel below the panels.

Intervals are :class:`mcast4ai.stats.Estimate` (half_width None for a single value): a
group of one run is drawn without an error bar, never with a zero-width one.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from . import labels, stats

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DPI = 200
STYLES = ["-", "--", "-.", ":"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "--", "++"]
MARKS = ((50.0, "p50", "cdf"), (99.0, "p99", "cdf"), (99.9, "p99.9", "ccdf"))
GRID = {"color": "0.88", "linewidth": 0.6}
LEGEND = {"frameon": True, "framealpha": 1.0, "edgecolor": "0.8"}
MS_FROM_US = 10000.0  # a µs axis whose largest value is at least this is drawn in ms


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend with the house style."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 9, "axes.titlesize": 10, "legend.fontsize": 8,
                         "svg.hashsalt": "mcast4ai", "pdf.fonttype": 42})
    return plt


def colors() -> list[str]:
    return list(pyplot().rcParams["axes.prop_cycle"].by_key()["color"])


def save(fig: Figure, out: str, pdf: bool = True) -> list[str]:
    """Write fig as out (PNG, DPI) and, with pdf, as out's .pdf next to it, without the
    dates and versions that would make two writes differ; close it. Returns the paths."""
    plt = pyplot()
    directory = os.path.dirname(out)
    if directory:
        os.makedirs(directory, exist_ok=True)
    fig.savefig(out, dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    paths = [out]
    if pdf:
        path = os.path.splitext(out)[0] + ".pdf"
        fig.savefig(path, bbox_inches="tight", metadata={"CreationDate": None, "Producer": None})
        paths.append(path)
    plt.close(fig)
    return paths


def interval_title(estimates: Sequence[stats.Estimate]) -> str:
    """What the figure's intervals are: '95 % CI', '95 % CI where n ≥ 2' or 'one run each,
    no interval'."""
    with_ci = [e for e in estimates if e.half_width is not None]
    if not with_ci:
        return "one run each, no interval"
    if len(with_ci) < len(estimates):
        return "95 % CI where n ≥ 2"
    return "95 % CI"


# --------------------------------------------------------------------------------------------
# Layout: titles and legends


LEGEND_INSIDE_MAX_ENTRIES = 4
LEGEND_INSIDE_MAX_CHARS = 28
LINE_IN = 0.19  # height of a line of 8-10 pt text, inches


def legend_fits_inside(labels_: Sequence[str], max_chars: int = LEGEND_INSIDE_MAX_CHARS) -> bool:
    """Whether a legend is small enough to sit inside a panel without hiding much."""
    return (len(labels_) <= LEGEND_INSIDE_MAX_ENTRIES
            and max((len(t) for t in labels_), default=0) <= max_chars)


def finish(fig: Figure, title: str | None = None,
           legend_below: tuple[Sequence[Any], Sequence[str], str | None] | None = None) -> None:
    """Lay the figure out: the title (any number of lines) above the panels and, when given,
    a legend (handles, labels, title) below them, the figure made taller by what they take so
    that the panels keep their size."""
    w, h = fig.get_size_inches()
    top_in = (LINE_IN * (title.count("\n") + 1) + 0.12) if title else 0.0
    bottom_in = 0.0
    ncol = 1
    if legend_below is not None:
        handles, texts, ltitle = legend_below
        longest = max((len(t) for t in texts), default=0)
        ncol = max(1, min(len(texts), 3 if longest <= 24 else 2 if longest <= 48 else 1,
                          int(w // (0.09 * longest + 0.6)) or 1))
        rows = math.ceil(len(texts) / ncol)
        bottom_in = LINE_IN * (rows + (1 if ltitle else 0)) + 0.2
    height = h + top_in + bottom_in
    fig.set_size_inches(w, height)
    if title:
        fig.suptitle(title, y=1 - 0.04 / height, va="top")
    if legend_below is not None:
        handles, texts, ltitle = legend_below
        fig.legend(handles, texts, title=ltitle, loc="lower center", ncol=ncol,
                   bbox_to_anchor=(0.5, 0.0), **LEGEND)
    fig.tight_layout(rect=(0, bottom_in / height, 1, 1))  # it makes room for the title


# --------------------------------------------------------------------------------------------
# CDF and CCDF


@dataclass
class Curve:
    """Pooled samples of one series, sorted ascending."""

    label: str
    values: np.ndarray

    @classmethod
    def of(cls, label: str, values: Any) -> Curve:
        return cls(label, np.sort(np.asarray(values, dtype=float)))

    @property
    def n(self) -> int:
        return len(self.values)


def marks_drawn(curves: Sequence[Curve]) -> list[tuple[float, str, str]]:
    """The percentile marks worth drawing: a pN line only when some curve has enough samples
    for pN to be more than its maximum (100 for p99, 1,000 for p99.9)."""
    n_max = max((c.n for c in curves), default=0)
    return [m for m in MARKS if n_max >= stats.samples_needed(m[0])]


def legend_label(curve: Curve, marks: Sequence[tuple[float, str, str]]) -> str:
    """'bier (n=32)'; with a p99 mark drawn and fewer than 100 samples, the curve's crossing
    of that mark is its maximum, and the label says so: 'bier (n=32; p99 = max of 32)'."""
    text = f"{curve.label} (n={curve.n:,})"
    short = [name for p, name, _ in marks
             if name != "p50" and curve.n < stats.samples_needed(p)]
    if short:
        text = text[:-1] + f"; {' and '.join(short)} = max of {curve.n:,})"
    return text


def cdf_ccdf(curves: Sequence[Curve], xlabel: str, unit: str, title: str | None = None,
             legend_title: str | None = None) -> Figure:
    """Two panels: the CDF P(X ≤ x) on a linear axis, the CCDF P(X ≥ x) on a log axis (the
    slowest sample stays visible at 1/n). Lines differ in colour and dash, so the figure reads
    in greyscale. xlabel is the quantity without unit; µs become ms when the largest value is
    10 ms or more."""
    plt = pyplot()
    curves = [c for c in curves if c.n]
    if not curves:
        raise ValueError("cdf_ccdf: no curve has a value")
    scale, unit_text = 1.0, unit
    hi_raw = max(float(c.values[-1]) for c in curves)
    if unit == "µs" and hi_raw >= MS_FROM_US:
        scale, unit_text = 1e-3, "ms"
    marks = marks_drawn(curves)
    fig, (ax_cdf, ax_ccdf) = plt.subplots(1, 2, figsize=(7.0, 2.9))
    for i, c in enumerate(curves):
        x = c.values * scale
        n = c.n
        style = {"linestyle": STYLES[i % len(STYLES)], "linewidth": 1.4}
        line = ax_cdf.step(np.concatenate(([x[0]], x)), np.arange(0, n + 1) / n, where="post",
                           label=legend_label(c, marks), **style)[0]
        ax_ccdf.step(x, (n - np.arange(n)) / n, where="pre", color=line.get_color(), **style)
    for p, text, panel in marks:
        q = p / 100.0
        targets = [(ax_cdf, q), (ax_ccdf, 1 - q)] if panel == "cdf" else [(ax_ccdf, 1 - q)]
        for ax, y in targets:
            ax.axhline(y, color="0.6", linewidth=0.6, linestyle=":", zorder=0)
            ax.annotate(text, xy=(1.0, y), xycoords=("axes fraction", "data"), xytext=(2, 0),
                        textcoords="offset points", va="center", fontsize=7, color="0.4")
    n_max = max(c.n for c in curves)
    ax_cdf.set_ylim(0, 1.02)
    ax_cdf.set_ylabel("CDF  P(X ≤ x)")
    ax_cdf.set_title("CDF")
    ax_ccdf.set_yscale("log")
    ax_ccdf.set_ylim(10 ** math.floor(math.log10(0.5 / n_max)), 1.5)
    ax_ccdf.set_ylabel("CCDF  P(X ≥ x)")
    ax_ccdf.set_title("CCDF (tail, log scale)")
    lo = min(float(c.values[0]) for c in curves) * scale
    hi = hi_raw * scale
    pad = (hi - lo) * 0.03 or max(abs(hi) * 0.03, 1e-3)
    xtext = xlabel if unit_text in labels.UNITLESS else f"{xlabel} ({unit_text})"
    for ax in (ax_cdf, ax_ccdf):
        ax.set_xlabel(xtext)
        ax.grid(True, which="major", **GRID)
        ax.set_xlim(lo - pad, hi + pad)
    handles, texts = ax_cdf.get_legend_handles_labels()
    if len(texts) <= 3 and legend_fits_inside(texts, 30):  # "(n=...)" included
        ax_cdf.legend(loc="lower right", title=legend_title, **LEGEND)
        finish(fig, title)
    else:
        finish(fig, title, (handles, texts, legend_title))
    return fig


# --------------------------------------------------------------------------------------------
# Bars


@dataclass
class Panel:
    """One metric: a title, the y axis label, and the estimate of each group that has one."""

    title: str
    ylabel: str
    estimates: Mapping[str, stats.Estimate]


def draw_bar(ax: Axes, i: int, estimate: stats.Estimate, label: str | None = None) -> None:
    """Bar i (colour and hatch i) at the mean, with the interval only when there is one."""
    cs = colors()
    kwargs: dict[str, Any] = {}
    if estimate.half_width is not None:
        kwargs = {"yerr": estimate.half_width, "capsize": 3, "error_kw": {"elinewidth": 0.9}}
    ax.bar(i, estimate.mean, width=0.75, color=cs[i % len(cs)], hatch=HATCHES[i % len(HATCHES)],
           edgecolor="0.25", linewidth=0.5, label=label, **kwargs)


def compact_text(v: float) -> str:
    """A tick value: 1.5k, 2M, 3G from 10,000 on; '%g' below."""
    for suffix, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= max(size, 1e4):
            return f"{v / size:g}{suffix}"
    return f"{v:g}"


def compact_y_ticks(ax: Axes) -> None:
    """y tick labels as compact_text (no '×10⁵' offset above the panel, where it runs into
    the panel's title)."""
    from matplotlib.ticker import FuncFormatter

    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: compact_text(v)))


def bar_panels(panels: Sequence[Panel], groups: Sequence[str], legend_title: str | None = None,
               title: str | None = None) -> Figure:
    """One panel per metric (three per row), one bar per group in the order of groups; the
    legend in the free panel (or in the first). Bars differ in colour and hatch."""
    plt = pyplot()
    cs = colors()
    k = len(panels)
    ncols = min(3, k + 1) if k > 1 else 1
    nrows = math.ceil((k + (1 if k > 1 else 0)) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(2.35 * ncols, 2.1 * nrows + 0.3),
                             squeeze=False)
    flat = list(axes.flat)
    for ax, panel in zip(flat, panels):
        for i, g in enumerate(groups):
            e = panel.estimates.get(g)
            if e is not None:
                draw_bar(ax, i, e, g)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels([""] * len(groups))
        ax.tick_params(axis="x", length=0)
        ax.set_title(panel.title)
        ax.set_ylabel(panel.ylabel)
        ax.grid(True, axis="y", **GRID)
        ax.set_axisbelow(True)
        compact_y_ticks(ax)
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor=cs[i % len(cs)],
                             hatch=HATCHES[i % len(HATCHES)], edgecolor="0.25", linewidth=0.5)
               for i in range(len(groups))]
    rest = flat[k:]
    for ax in rest:
        ax.axis("off")
    if rest and legend_fits_inside(groups, 22):
        rest[0].legend(handles, list(groups), title=legend_title, loc="center", **LEGEND)
        finish(fig, title)
    elif not rest and legend_fits_inside(groups, 16):
        flat[0].legend(handles, list(groups), title=legend_title, fontsize=7, **LEGEND)
        finish(fig, title)
    else:
        finish(fig, title, (handles, list(groups), legend_title))
    return fig


# --------------------------------------------------------------------------------------------
# Lines with intervals


@dataclass
class Series:
    """A line: its label and an estimate per x value."""

    label: str
    points: Sequence[tuple[float, stats.Estimate]]


def lines_with_intervals(ax: Axes, series: Sequence[Series]) -> None:
    """One line per series through the means; error bars (95 % CI) only at the points with
    n >= 2."""
    for i, s in enumerate(series):
        xs = [x for x, _ in s.points]
        ys = [e.mean for _, e in s.points]
        line = ax.plot(xs, ys, label=s.label, linestyle=STYLES[i % len(STYLES)],
                       marker=MARKERS[i % len(MARKERS)], markersize=4, linewidth=1.3)[0]
        ci = [(x, e) for x, e in s.points if e.half_width is not None]
        if ci:
            ax.errorbar([x for x, _ in ci], [e.mean for _, e in ci],
                        yerr=[e.half_width for _, e in ci], fmt="none",
                        ecolor=line.get_color(), elinewidth=1.0, capsize=3)


def line_figure(series: Sequence[Series], x_key: str, xlabel: str, ylabel: str,
                title: str | None = None, legend_title: str | None = None) -> Figure:
    """A statistic against a numeric parameter (one column wide): lines_with_intervals on a
    numeric_x_axis, the y axis from 0."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(3.6, 2.4))
    lines_with_intervals(ax, series)
    numeric_x_axis(ax, x_key, [x for s in series for x, _ in s.points])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, **GRID)
    ax.set_ylim(bottom=0)
    handles, texts = ax.get_legend_handles_labels()
    if legend_fits_inside(texts, 20):
        ax.legend(title=legend_title, **LEGEND)
        finish(fig, title)
    else:
        finish(fig, title, (handles, texts, legend_title))
    return fig


def numeric_x_axis(ax: Axes, key: str, xs: Sequence[float]) -> None:
    """A parameter axis: log (base 2 for bytes) when the values span a factor of 16 or more;
    every value a tick when there are few, bytes as '64 KiB'."""
    xs = sorted(set(xs))
    if len(xs) > 1 and xs[0] > 0 and xs[-1] / xs[0] >= 16:
        ax.set_xscale("log", base=2 if key.endswith("bytes") else 10)
    if key.endswith("bytes") or len(xs) <= 8:
        ax.set_xticks(xs)
        ax.set_xticklabels([labels.key_value_text(key, v) for v in xs])
        ax.minorticks_off()
