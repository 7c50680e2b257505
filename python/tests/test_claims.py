"""Claim files: what loads, what is refused (with the JSON path), and the sweeps they become."""
from pathlib import Path

import pytest

from claim_fixtures import REPO, doc, load
from mcast4ai import claims


def test_a_valid_claim_loads(tmp_path: Path) -> None:
    c = load(tmp_path, doc())
    assert c.id == "mcbride.ack-implosion" and c.experiment is not None
    assert [x.id for x in c.experiment.configurations] == ["none", "tor"]
    assert claims.point_count(c, "default") == 2 * 2 * 3


@pytest.mark.parametrize("edit,path,reason", [
    (lambda d: d.pop("question"), "question", "missing"),
    (lambda d: d.update(extra=1), "extra", "unknown key"),
    (lambda d: d.update(id="mcbride.other"), "id", "file name"),
    (lambda d: d["source"].update(draft="nope"), "source.draft", "expected one of"),
    (lambda d: d["experiment"].update(scenario="scenarios/nope.json"), "experiment.scenario",
     "no such file"),
    (lambda d: d["experiment"]["seeds"].update(default=1), "experiment.seeds.default", ">= 3"),
    (lambda d: d["experiment"]["seeds"].update(full=3), "experiment.seeds.full", ">= 5"),
    (lambda d: d["experiment"]["configurations"][1]["set"].update(x=1),
     "experiment.configurations[1].set", "same keys"),
    (lambda d: d["experiment"]["axis"]["values"].update(default=[2, 2]),
     "experiment.axis.values.default", "repeated"),
    (lambda d: d["experiment"]["set"].update({"p2mp.ack_aggregation": "none"}), "experiment",
     "set by both"),
    (lambda d: d["experiment"]["axis"].update(set_with={"topology.leaves": {"2": 4}}),
     "experiment.axis.set_with.topology.leaves", "no value for axis value 4"),
    (lambda d: d["metrics"][0].update(ops={"field": "x", "stat": "mean"}), "metrics[0]",
     "exactly one"),
    (lambda d: d["decision"].update(metric="nope"), "decision.metric", "not one of"),
    (lambda d: d["decision"].update(candidate="none"), "decision.candidate", "same"),
    (lambda d: d["decision"].update(baseline="x"), "decision.baseline", "not a configuration"),
    (lambda d: d.update(decision={"rule": "not-testable", "reason": "r"}), "decision",
     "no experiment"),
])
def test_bad_claims_name_the_path(tmp_path: Path, edit, path: str, reason: str) -> None:
    d = doc()
    edit(d)
    with pytest.raises(claims.ClaimError) as e:
        load(tmp_path, d)
    assert e.value.path == path, str(e.value)
    assert reason in e.value.reason, str(e.value)


def test_workload_keys_map_to_sweep_columns() -> None:
    assert claims.sweep_column("workloads[0].ttft_us.p99") == "w0.ttft_us.p99"
    assert claims.sweep_column("workloads.2.network.acks") == "w2.network.acks"
    assert claims.sweep_column("network.acks_at_senders") == "network.acks_at_senders"


def test_set_text_quotes_what_the_runner_would_misread() -> None:
    assert claims.set_text("bier") == "bier"
    assert claims.set_text("1") == '"1"'          # a string that would parse as a number
    assert claims.set_text("a,b") == '"a,b"'      # the sweep would split it
    assert claims.set_text([0, 1]) == "[0,1]"
    assert claims.set_text(True) == "true"


def test_the_project_claims_cover_every_required_id() -> None:
    folder = REPO / "claims"
    if not folder.is_dir():
        pytest.skip("claims/ not there yet")
    loaded = claims.load_claims(folder, REPO)
    assert [c.id for c in loaded][:len(claims.REQUIRED_IDS)] == list(claims.REQUIRED_IDS)


@pytest.mark.parametrize("metric,path", [
    ({"column": "workloads.0.duration_us.p99"}, "metrics[0].samples"),
    ({"column": "w0.ttft_us.p999"}, "metrics[0].samples"),
    ({"label": "completion p99"}, "metrics[0].label"),
    ({"samples": "w0.completed"}, "metrics[0].samples"),
    ({"column": None, "ops": {"field": "duration_us", "stat": "p99"}, "samples": "w0.ops"},
     "metrics[0].samples"),
])
def test_percentiles_come_from_pooled_ops_only(tmp_path: Path, metric, path: str) -> None:
    d = doc()
    d["metrics"][0].update(metric)
    if d["metrics"][0].get("column", "") is None:
        del d["metrics"][0]["column"]
    with pytest.raises(claims.ClaimError) as e:
        load(tmp_path, d)
    assert e.value.path == path, str(e.value)


def test_a_percentile_column_with_its_count_is_labelled_by_it(tmp_path: Path) -> None:
    from mcast4ai import verdicts

    d = doc()
    d["metrics"][0].update(column="w0.ttft_us.p99", samples="w0.completed", label="TTFT")
    m = load(tmp_path, d).metrics[0]
    few = verdicts.Cell(2, "none", per_seed={1: 5.0}, run_samples={1: 16})
    assert verdicts.display_label(m, [few]) == "TTFT (max of each run's 16, too few for a p99)"
    many = verdicts.Cell(2, "none", per_seed={1: 5.0}, run_samples={1: 400})
    assert verdicts.display_label(m, [many]) == "TTFT (p99 of each run's 400)"
