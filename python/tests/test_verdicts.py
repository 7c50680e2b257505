"""The decision rules on made-up cells: each verdict, and each rule rejecting the wrong data."""
from pathlib import Path
from typing import Callable

from claim_fixtures import doc, load
from mcast4ai import claims, verdicts
from mcast4ai.verdicts import Cell


def cells_for(c: claims.Claim, f: Callable[[float, str, int], float]) -> list[Cell]:
    assert c.experiment is not None
    out = []
    for v in c.experiment.axis.points("default"):
        for conf in c.experiment.configurations:
            cell = Cell(v, conf.id)
            cell.per_seed = {s: f(float(v), conf.id, s) for s in (1, 2, 3)}
            out.append(cell)
    return out


def claim_with(tmp: Path, values: list[int], **decision: object) -> claims.Claim:
    d = doc()
    d["experiment"]["axis"]["values"]["default"] = values
    d["decision"] = {"metric": "acks", **decision}
    return load(tmp, d)


def test_compare_supported_contradicted_and_tie(tmp_path: Path) -> None:
    c = claim_with(tmp_path, [2, 4, 8], rule="compare", baseline="none", candidate="tor",
                   expect="lower")
    # Aggregation: one ACK per packet against one per receiver.
    good = verdicts.decide(c, cells_for(c, lambda n, k, s: 1 + 0.01 * s if k == "tor"
                                        else 8 * n - 1 + 0.02 * s), "default")
    assert good.verdict == "supported" and "at 8 hosts" in good.deciding
    # The wrong model: both configurations the same, up to seed noise. No difference is a tie,
    # and ties contradict a claim of "lower".
    same = verdicts.decide(c, cells_for(c, lambda n, k, s: n + (0.5 if s == 2 else -0.25)
                                        * (1 if k == "tor" else -1)), "default")
    assert same.verdict == "contradicted" and "tie" in same.condition
    worse = verdicts.decide(c, cells_for(c, lambda n, k, s: n * (2 if k == "tor" else 1)
                                         + 0.1 * s), "default")
    assert worse.verdict == "contradicted" and "opposite" in worse.condition


def test_compare_depends_names_where_it_holds(tmp_path: Path) -> None:
    c = claim_with(tmp_path, [2, 4, 8, 16], rule="compare", baseline="none",
                   candidate="tor", expect="lower")
    v = verdicts.decide(c, cells_for(c, lambda n, k, s: (20.0 if k == "tor" else 4 * n)
                                     + 0.1 * s), "default")
    assert v.verdict == "depends" and v.condition.endswith("from 8 hosts on")


def test_crossover_states_the_crossing(tmp_path: Path) -> None:
    c = claim_with(tmp_path, [2, 4, 8, 16], rule="crossover", baseline="none",
                   candidate="tor")
    v = verdicts.decide(c, cells_for(c, lambda n, k, s: (30.0 if k == "tor" else 3 * n)
                                     + 0.1 * s), "default")
    assert v.verdict == "depends" and "from 16 hosts on" in v.condition
    assert "crossover" in v.condition


def test_scaling_fits_the_exponent(tmp_path: Path) -> None:
    c = claim_with(tmp_path, [2, 4, 8, 16], rule="scaling", configuration="none",
                   expect_exponent=1.0, tolerance=0.1)
    linear = verdicts.decide(c, cells_for(c, lambda n, k, s: 3 * n * (1 + 0.01 * s)),
                             "default")
    assert linear.verdict == "supported"
    assert abs(linear.detail[0]["exponent"] - 1.0) < 1e-6
    flat = verdicts.decide(c, cells_for(c, lambda n, k, s: 5.0 + 0.01 * s), "default")
    assert flat.verdict == "contradicted"


def test_bound_counts_the_runs_outside(tmp_path: Path) -> None:
    c = claim_with(tmp_path, [2, 4], rule="bound", configuration="all", min=1)
    assert verdicts.decide(c, cells_for(c, lambda n, k, s: 1.0), "default").verdict \
        == "supported"
    some = verdicts.decide(c, cells_for(c, lambda n, k, s: 0.0 if (k, s) == ("tor", 2) else 1.0),
                           "default")
    assert some.verdict == "depends" and "2 of 12 runs" in some.condition


def test_no_runs_is_no_data_not_a_verdict(tmp_path: Path) -> None:
    c = claim_with(tmp_path, [2, 4], rule="compare", baseline="none", candidate="tor",
                   expect="lower")
    assert verdicts.decide(c, [], "default").verdict == "no data"


def test_canon_matches_the_sweep_columns() -> None:
    assert verdicts.canon(8) == verdicts.canon(8.0) == verdicts.canon("8")
    assert verdicts.canon(True) == 1.0
    assert verdicts.canon([0, 1]) == verdicts.canon("[0, 1]") == "[0,1]"
    assert verdicts.canon("bier") == "bier"
