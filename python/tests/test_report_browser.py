"""report.html as a reader sees it: headless Chromium renders a report, and the screenshot
shows the verdict table near the top and figures that are not blank. The same check rejects a
page whose figure is blank."""
from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest

from claim_fixtures import doc, load
from mcast4ai import browser, report, verdicts
from mcast4ai.verdicts import Cell

pytestmark = pytest.mark.skipif(browser.chromium() is None, reason="chromium not installed")


def synthetic_result(tmp: Path) -> report.ClaimResult:
    c = load(tmp, doc())
    cs = []
    for v in (2, 4):
        for conf, f in (("none", lambda n, s: 8 * n - 1 + 0.1 * s), ("tor", lambda n, s: 1.0)):
            cell = Cell(v, conf)
            cell.per_seed = {s: f(v, s) for s in (1, 2, 3)}
            cs.append(cell)
    v = verdicts.decide(c, cs, "default")
    r = report.ClaimResult(c, v, {"acks": cs}, [])
    r.figure = report.draw(r, tmp / "figures")
    return r


def render(tmp: Path, page_html: str) -> Path:
    page = tmp / "report.html"
    page.write_text(page_html)
    png = tmp / "shot.png"
    browser.screenshot(page, png, height=2400)
    return png


def test_the_verdict_table_and_figures_show(tmp_path: Path) -> None:
    r = synthetic_result(tmp_path)
    md = report.markdown([r], "default", {"revision": "test", "runs": 12, "jobs": 2,
                                          "wall_s": 1.0}, {})
    assert r.figure is not None
    png = render(tmp_path, report.html_page(md, {r.figure.name: r.figure}))
    rgb = browser.read_rgb(png)
    tables = browser.frames(rgb, report.VERDICT_FRAME)
    assert tables, "no verdict table in the screenshot"
    assert tables[0].top < 1200, f"the verdict table starts at {tables[0].top} px, not on page one"
    assert not browser.is_blank(browser.inside(rgb, tables[0]))
    figures = browser.frames(rgb, report.FIGURE_FRAME)
    assert figures, "no figure in the screenshot"
    assert all(not browser.is_blank(browser.inside(rgb, f)) for f in figures)


def test_a_blank_figure_is_caught(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(6, 4), dpi=100)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode()
    page = (f"<html><body><style>img{{border:4px solid {report.FIGURE_FRAME}}}</style>"
            f"<img src='data:image/png;base64,{data}'></body></html>")
    rgb = browser.read_rgb(render(tmp_path, page))
    figures = browser.frames(rgb, report.FIGURE_FRAME)
    assert figures and all(browser.is_blank(browser.inside(rgb, f)) for f in figures)
    assert not browser.frames(rgb, report.VERDICT_FRAME)
