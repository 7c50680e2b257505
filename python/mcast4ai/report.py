"""The evaluation's report: claims.json, report.md, a self-contained report.html and one
figure per claim, all generated from the claims' verdicts and cells."""
from __future__ import annotations

import base64
import html
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import figures, stats
from .claims import Claim, _axis_value_key
from .verdicts import Cell, Verdict, display_label, per_run_label, summary_rows

QUESTION = (
    "Should AI point-to-multipoint traffic over RoCEv2 use an extended BIER or a new "
    "purpose-built protocol, where should ACKs be aggregated, and what do ECMP entropy, "
    "spraying, steering and stragglers do to the tail? Each row below is one sentence of the "
    "IETF mcast4ai drafts, tested by a simulation experiment and decided by a stated rule "
    "over seeds paired with 95% confidence intervals.")

VERDICT_FRAME = "#0b3d91"  # the verdict table's border in report.html
FIGURE_FRAME = "#c2185b"  # every figure's border

GENERAL_THREATS = [
    "Model: every frame is simulated, but switches forward in a fixed pipeline time, a NIC's "
    "receive path handles frames at no cost unless a claim gives it a packet rate "
    "(mcbride.ack-implosion and mcbride.aggregation-point: 215 M frames/s, a product brief's "
    "message rate taken as an assumption), and the new protocol's controller installs groups "
    "without a throughput limit unless a claim sets one (mcbride.dynamic-membership does).",
    "Congestion control: runs use the scenario's DCQCN preset (docs/rdma-dcqcn.md); a "
    "verdict that depends on transients may move under another preset.",
    "Topology: two-tier leaf-spine and k-ary fat-tree fabrics with uniform link rates, and "
    "one multi-plane scale-up domain (wang.scale-up-planes: one switch per plane, each XPU "
    "port its own RDMA engine); oversubscription and failures are not in these runs.",
    "Scale: the default scale runs each claim at a small size with 3 seeds, so its "
    "intervals are wide and a difference inside them is reported as a tie; the full scale "
    "(docs/evaluation.md) runs 64 to 1,024 hosts with 5 seeds.",
]


# The mechanism-evaluation draft's comparison table, its rows in order: (dimension, Extend
# BIER, New Protocol, the claims whose experiments measure the row). A row no simulation can
# measure says so.
DRAFT_TABLE = [
    ("ACK aggregation", "Requires significant extension; conflicts with stateless model",
     "Can be designed as first-class feature",
     ("mcbride.aggregation-necessary", "mcbride.aggregation-point", "mcbride.aggregation-state",
      "mcbride.source-tor-spraying")),
    ("RoCE/BTH compatibility", "Payload-agnostic; interworking not specified",
     "Can be co-designed with RoCEv2", ("wang.address-mapping",)),
    ("Congestion control", "Not in scope for BIER; requires additional work",
     "Can integrate DCQCN natively", ("mcbride.congestion-control",)),
    ("Scalability", "Bitstring size limits; hierarchical domains add complexity",
     "Designed for large GPU cluster scale",
     ("mcbride.bitstring-limits", "wang.xpu-list-sparse", "mcbride.dynamic-membership")),
    ("Deployment speed", "Faster; builds on existing implementations",
     "Slower; requires new implementations", ()),
    ("Operational familiarity", "Higher where BIER is deployed", "Lower; new operational model",
     ()),
    ("Standards risk", "Lower; incremental extension", "Higher; new charter/scope required", ()),
    ("Architectural cleanliness", "Lower; AI requirements are a poor fit for BIER assumptions",
     "Higher; purpose-built for use case", ("mcbride.aggregation-state",)),
]


@dataclass
class ClaimResult:
    claim: Claim
    verdict: Verdict
    cells: dict[str, list[Cell]]  # metric id -> cells
    errors: list[str]
    figure: Path | None = None


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def conclusion(results: list[ClaimResult]) -> list[str]:
    """Five to eight sentences, each from the data."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict.verdict] = counts.get(r.verdict.verdict, 0) + 1
    order = ("supported", "contradicted", "depends", "not testable", "no data")
    parts = [f"{counts[k]} {k}" for k in order if counts.get(k)]
    out = [f"Of the {len(results)} claims tested, " + ", ".join(parts) + "."]
    decided = [r for r in results if r.verdict.verdict in ("supported", "contradicted",
                                                            "depends")]
    for r in decided[:6]:
        out.append(f"{r.claim.title} ({r.claim.id}) is {r.verdict.verdict}: "
                   f"{r.verdict.condition}.")
    if len(out) < 5:
        missing = [r.claim.id for r in results if r.verdict.verdict in ("not testable",
                                                                          "no data")]
        if missing:
            out.append("Not decided here: " + ", ".join(missing) + ".")
    return out[:8]


def draw(result: ClaimResult, out_dir: Path) -> Path | None:
    """The deciding metric against the axis, one line per configuration, 95% intervals as error
    bars where there are at least two seeds (figures.lines_with_intervals); PNG and PDF."""
    claim = result.claim
    e = claim.experiment
    if e is None or claim.decision.rule == "not-testable":
        return None
    metric = claim.metric(claim.decision.params["metric"])
    cs = result.cells.get(metric.id, [])
    if not any(c.per_seed for c in cs):
        return None
    values: list[Any] = []
    for c in cs:
        if c.axis_value not in values:
            values.append(c.axis_value)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    x_of = {_axis_value_key(v): (float(v) if numeric else float(i)) for i, v in enumerate(values)}
    series = []
    for conf in e.configurations:
        pts = [(x_of[_axis_value_key(c.axis_value)], est) for c in cs
               if c.config == conf.id and (est := c.estimate) is not None]
        if pts:
            series.append(figures.Series(conf.label, pts))
    plt = figures.pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    figures.lines_with_intervals(ax, series)
    if numeric:
        figures.numeric_x_axis(ax, e.axis.key, list(x_of.values()))
    else:
        ax.set_xticks(list(x_of.values()), [_axis_value_key(v) for v in values])
    ax.set_xlabel(e.axis.label + (f" ({e.axis.unit})" if e.axis.unit else ""))
    ax.set_ylabel(display_label(metric, cs) + (f", {metric.unit}" if metric.unit else ""),
                  fontsize=8)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    fig.suptitle(f"{claim.id}: {result.verdict.verdict}", fontsize=10)
    fig.tight_layout()
    path = out_dir / f"{claim.id}.png"
    figures.save(fig, str(path))
    return path


def _cell_text(c: Cell, unit: str) -> str:
    est = c.estimate
    if est is None:
        return "—"
    text = stats.fmt_estimate(est, unit)
    if c.pooled is not None:
        text += f"; pooled {c.pooled.label}: {stats._sig(c.pooled.value, 3)}"
    return text


def claims_json(results: list[ClaimResult], scale: str, meta: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"scale": scale, **meta, "claims": {}}
    for r in results:
        c = r.claim
        out["claims"][c.id] = {
            "title": c.title,
            "source": {"draft": c.source.draft, "section": c.source.section,
                       "quote": c.source.quote},
            **r.verdict.to_json(),
            "rule": c.decision.rule,
            "metrics": {mid: {"label": c.metric(mid).label, "unit": c.metric(mid).unit,
                              "cells": summary_rows(c, cs, c.metric(mid))}
                        for mid, cs in r.cells.items()},
            "errors": r.errors,
            "figure": r.figure.name if r.figure else None,
        }
    return out


def markdown(results: list[ClaimResult], scale: str, meta: dict[str, Any],
             drafts: dict[str, Any]) -> str:
    lines = [f"# Do the drafts' claims hold? mcast4ai evaluation ({scale} scale)", "",
             f"Revision `{meta.get('revision', '?')}`, {meta.get('runs', 0)} runs, "
             f"{meta.get('wall_s', 0):.0f} s on {meta.get('jobs', '?')} cores. "
             "Generated by `scripts/evaluate` from the claim files in `claims/` "
             "([docs/evaluation.md](../docs/evaluation.md)).", "",
             "## The question", "", QUESTION, "", "## Verdicts", "",
             "| claim | verdict | deciding figure (95% interval) | condition |",
             "|---|---|---|---|"]
    for r in results:
        lines.append(f"| `{r.claim.id}` | **{r.verdict.verdict}** | "
                     f"{_md_cell(r.verdict.deciding or '—')} | "
                     f"{_md_cell(r.verdict.condition)} |")
    lines += ["", "Statistics: a figure is the mean over seeds with its 95% Student's t interval "
              "(± half-width, n seeds); comparisons pair the seeds and a difference whose "
              "interval holds zero is a tie; a percentile over fewer samples than it needs "
              "(100 for p99) is printed as \"max of n\".", ""]
    lines += ["## Conclusion", ""] + [" ".join(conclusion(results))] + [""]
    lines += ["## Threats to validity", ""] + [f"- {t}" for t in GENERAL_THREATS] + [""]
    by_id = {r.claim.id: r for r in results}
    lines += ["## The draft's table, measured", "",
              "McBride et al., section 3: each measured cell names the claim it comes from.", "",
              "| dimension | Extend BIER (draft) | New Protocol (draft) | measured |",
              "|---|---|---|---|"]
    for dim, bier, new, ids in DRAFT_TABLE:
        cells = [f"`{i}`: {by_id[i].verdict.verdict}"
                 + (f" ({by_id[i].verdict.deciding})" if by_id[i].verdict.deciding else "")
                 for i in ids if i in by_id]
        measured = "; ".join(cells) if cells else (
            "not measured here" if ids else "not measurable by simulation")
        lines.append(f"| {dim} | {bier} | {new} | {_md_cell(measured)} |")
    lines.append("")
    for r in results:
        c = r.claim
        d = drafts.get(c.source.draft, {})
        lines += [f"## {c.id}: {c.title}", "",
                  f"> {c.source.quote}", ">",
                  f"> — {d.get('authors', c.source.draft)}, \"{d.get('title', '')}\", "
                  f"section {c.source.section}"
                  + (" (numbered by paragraph order: the draft's text has no headings)"
                     if d.get("sections") == "inferred" else ""), "",
                  f"**Question.** {c.question}", "",
                  f"**Verdict: {r.verdict.verdict}.** {r.verdict.condition}"
                  + (f" Deciding figure: {r.verdict.deciding}." if r.verdict.deciding else ""),
                  ""]
        e = c.experiment
        if e is not None:
            conf = "; ".join(f"{x.label} (`" + ", ".join(f"{k}={json.dumps(v)}"
                                                         for k, v in x.sets.items()) + "`)"
                             for x in e.configurations)
            lines += [f"**Experiment.** `{e.scenario}`"
                      + (" with " + ", ".join(f"`{k}={json.dumps(v)}`" for k, v in e.sets.items())
                         if e.sets else "")
                      + f"; {e.axis.label} (`{e.axis.key}`) = "
                      + ", ".join(_axis_value_key(v) for v in e.axis.points(scale))
                      + f"; {e.seeds[scale]} seeds; configurations: {conf}.", ""]
        if r.figure is not None:
            lines += [f"![{c.id}](figures/{r.figure.name})", ""]
        for mid, cs in r.cells.items():
            m = c.metric(mid)
            if e is None or not cs:
                continue
            lines += [f"**{m.label}** ({m.unit or 'value'}, {m.better} is better"
                      + f"; per run: {per_run_label(m, cs)}"
                      + (f" where {m.ops_where}" if m.ops_where else "") + ")", "",
                      "| " + e.axis.label + " | " + " | ".join(x.label for x in e.configurations)
                      + " |", "|---" * (len(e.configurations) + 1) + "|"]
            for v in e.axis.points(scale):
                row = [_axis_value_key(v)]
                for x in e.configurations:
                    cell = next((k for k in cs if k.config == x.id
                                 and _axis_value_key(k.axis_value) == _axis_value_key(v)), None)
                    row.append(_cell_text(cell, m.unit) if cell else "—")
                lines.append("| " + " | ".join(_md_cell(t) for t in row) + " |")
            lines.append("")
        if r.errors:
            lines += ["Runs that did not count: " + "; ".join(_md_cell(x) for x in r.errors[:5])
                      + (f" (and {len(r.errors) - 5} more)" if len(r.errors) > 5 else ""), ""]
        if c.threats:
            lines += ["Threats:", ""] + [f"- {t}" for t in c.threats] + [""]
    return "\n".join(lines)


def html_page(md: str, figures: dict[str, Path]) -> str:
    """report.md as one self-contained page: tables, headings, lists and the figures inlined
    as data: URIs, nothing loaded from elsewhere."""
    out: list[str] = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
                      "<title>mcast4ai evaluation</title><style>",
                      "body{font-family:sans-serif;max-width:1100px;margin:2em auto;"
                      "line-height:1.4}table{border-collapse:collapse;margin:1em 0}"
                      "td,th{border:1px solid #bbb;padding:3px 6px;font-size:13px;"
                      "vertical-align:top}th{background:#eee}"
                      "blockquote{color:#444;border-left:3px solid #ccc;margin:0;"
                      "padding-left:1em}img{max-width:100%}"
                      "#verdicts td:nth-child(2){font-weight:bold}"
                      # Colours of their own, so that a screenshot shows where the verdict
                      # table and the figures are (tests/test_report_browser.py).
                      f"#verdicts{{border:4px solid {VERDICT_FRAME}}}"
                      f"img{{border:4px solid {FIGURE_FRAME}}}",
                      "</style></head><body>"]
    table: list[list[str]] = []
    in_list = False
    tables_seen = 0

    def inline(t: str) -> str:
        t = html.escape(t)
        t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
        t = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", t)
        return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1", t)

    def flush_table() -> None:
        nonlocal table, tables_seen
        if not table:
            return
        ident = " id='verdicts'" if tables_seen == 0 else ""
        tables_seen += 1
        out.append(f"<table{ident}><tr>" + "".join(f"<th>{inline(c)}</th>" for c in table[0])
                   + "</tr>")
        for row in table[2:]:
            out.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
        out.append("</table>")
        table = []

    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip().replace("\\|", "|")
                     for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            table.append(cells)
            continue
        flush_table()
        if in_list and not line.startswith("- "):
            out.append("</ul>")
            in_list = False
        m = re.match(r"!\[([^\]]*)\]\(figures/([^)]+)\)", line)
        if m:
            path = figures.get(m.group(2))
            if path is not None and path.is_file():
                data = base64.b64encode(path.read_bytes()).decode()
                out.append(f"<p><img alt='{html.escape(m.group(1))}' "
                           f"src='data:image/png;base64,{data}'></p>")
            continue
        if line.startswith("# "):
            out.append(f"<h1>{inline(line[2:])}</h1>")
        elif line.startswith("## "):
            out.append(f"<h2>{inline(line[3:])}</h2>")
        elif line.startswith("> "):
            out.append(f"<blockquote>{inline(line[2:])}</blockquote>")
        elif line.startswith("- "):
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{inline(line[2:])}</li>")
        elif line.strip() and line.strip() != ">":
            out.append(f"<p>{inline(line)}</p>")
    flush_table()
    if in_list:
        out.append("</ul>")
    out.append("</body></html>")
    return "\n".join(out)


def terminal_table(results: list[ClaimResult], width: int = 100) -> str:
    """The verdicts for a terminal: the condition wrapped under its column, never cut."""
    import textwrap

    w = max(len(r.claim.id) for r in results)
    indent = " " * (w + 2 + 13 + 1)
    lines = [f"{'claim':<{w}}  {'verdict':<13} condition"]
    for r in results:
        wrapped = textwrap.wrap(r.verdict.condition, max(30, width - len(indent))) or [""]
        lines.append(f"{r.claim.id:<{w}}  {r.verdict.verdict:<13} {wrapped[0]}")
        lines += [indent + t for t in wrapped[1:]]
    return "\n".join(lines)


def finite(x: float) -> bool:
    return not (math.isnan(x) or math.isinf(x))
