"""Claim files: one draft sentence, the experiment that tests it and the rule that decides.

A claim file (claims/ID.json, described in docs/claims.md) is validated here, every error
naming the file and the JSON path; the experiment becomes the arguments of one scripts/sweep.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

SCALES = ("default", "full")
VERDICTS = ("supported", "contradicted", "depends", "not testable")
DRAFT_KEYS = ("mcbride", "wang", "li", "fu")
RULES = ("compare", "crossover", "scaling", "bound", "not-testable")
OPS_STATS = ("mean", "max", "min", "p50", "p90", "p99", "p999", "sum", "count")

# The claim ids the evaluation must decide, in report order (the evaluation issue names them).
REQUIRED_IDS = (
    "mcbride.unicast-replication",
    "mcbride.ack-implosion",
    "mcbride.aggregation-necessary",
    "mcbride.aggregation-point",
    "mcbride.aggregation-state",
    "mcbride.source-tor-spraying",
    "mcbride.bitstring-limits",
    "mcbride.dynamic-membership",
    "mcbride.congestion-control",
    "mcbride.straggler-tail",
    "wang.xpu-list-sparse",
    "wang.ack-free-batch",
    "wang.address-mapping",
    "wang.dispatch-combine",
    "wang.scale-up-planes",
    "li.low-entropy",
    "li.differentiated-reliability",
    "fu.kv-ttft",
    "fu.straggler-amplification",
)


class ClaimError(Exception):
    """A claim file that cannot be run: FILE: PATH: reason."""

    def __init__(self, file: str | os.PathLike[str], path: str, reason: str) -> None:
        super().__init__(f"{file}: {path}: {reason}")
        self.file = str(file)
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Source:
    draft: str
    section: str
    quote: str


@dataclass(frozen=True)
class Configuration:
    id: str
    label: str
    sets: dict[str, Any]


@dataclass(frozen=True)
class Axis:
    key: str
    label: str
    unit: str
    values: dict[str, list[Any]]
    set_with: dict[str, dict[str, Any]]

    def points(self, scale: str) -> list[Any]:
        return list(self.values[scale])


@dataclass(frozen=True)
class Experiment:
    scenario: str
    sets: dict[str, Any]
    axis: Axis
    configurations: list[Configuration]
    seeds: dict[str, int]

    def configuration(self, cid: str) -> Configuration:
        for c in self.configurations:
            if c.id == cid:
                return c
        raise KeyError(cid)


@dataclass(frozen=True)
class Metric:
    id: str
    label: str
    unit: str
    better: str
    column: str | None = None
    samples: str | None = None  # column: the run's sample count behind a percentile column
    ops_where: dict[str, Any] = field(default_factory=dict)
    ops_field: str | None = None
    ops_stat: str | None = None

    @property
    def from_ops(self) -> bool:
        return self.ops_field is not None

    @property
    def percentile(self) -> float | None:
        """The percentile this metric's per-run figure is (p99 -> 99), or None."""
        stat = self.ops_stat if self.from_ops else (self.column or "").rsplit(".", 1)[-1]
        return PERCENTILE_OF.get(stat or "")


@dataclass(frozen=True)
class Decision:
    rule: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Claim:
    id: str
    title: str
    source: Source
    question: str
    experiment: Experiment | None
    metrics: list[Metric]
    decision: Decision
    threats: list[str]
    file: str

    def metric(self, mid: str) -> Metric:
        for m in self.metrics:
            if m.id == mid:
                return m
        raise KeyError(mid)

    def fingerprint(self, repo: Path) -> str:
        """A hash of what the runs depend on: the experiment and the scenario file's bytes. A
        changed experiment gets a new database instead of mixing old runs into new figures."""
        assert self.experiment is not None
        h = hashlib.sha256()
        h.update(json.dumps(_experiment_json(self.experiment), sort_keys=True).encode())
        h.update((repo / self.experiment.scenario).read_bytes())
        return h.hexdigest()[:12]


def _experiment_json(e: Experiment) -> dict[str, Any]:
    return {"scenario": e.scenario, "set": e.sets,
            "axis": {"key": e.axis.key, "values": e.axis.values, "set_with": e.axis.set_with},
            "configurations": [{"id": c.id, "set": c.sets} for c in e.configurations]}


# ---------------------------------------------------------------------------------------------
# Loading and validation


class _Reader:
    """Reads one JSON object, naming the path of whatever is wrong."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, reason: str) -> ClaimError:
        return ClaimError(self.file, path, reason)

    def obj(self, doc: Any, path: str, required: Iterable[str],
            optional: Iterable[str] = ()) -> dict[str, Any]:
        if not isinstance(doc, dict):
            raise self.fail(path, f"expected an object, got {type(doc).__name__}")
        required = list(required)
        allowed = set(required) | set(optional)
        for key in doc:
            if key not in allowed:
                raise self.fail(_join(path, key),
                                f"unknown key; allowed: {', '.join(sorted(allowed))}")
        for key in required:
            if key not in doc:
                raise self.fail(_join(path, key), "missing")
        return doc

    def text(self, doc: dict[str, Any], key: str, path: str, empty_ok: bool = False) -> str:
        v = doc.get(key)
        if not isinstance(v, str) or (not empty_ok and not v.strip()):
            raise self.fail(_join(path, key), "expected a non-empty string")
        return v

    def choice(self, doc: dict[str, Any], key: str, path: str, choices: Iterable[str]) -> str:
        v = doc.get(key)
        choices = list(choices)
        if v not in choices:
            raise self.fail(_join(path, key), f"{json.dumps(v)}: expected one of "
                            + ", ".join(choices))
        return str(v)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return key if path == "" else f"{path}.{key}"


SET_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\]|\.[A-Za-z0-9_]+)*$")


def _sets(r: _Reader, doc: Any, path: str) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise r.fail(path, "expected an object of --set KEY: value")
    for key in doc:
        if not SET_KEY.match(key):
            raise r.fail(_join(path, key), "not a --set path (e.g. p2mp.ack_aggregation, "
                         "workloads[0].bytes)")
    return dict(doc)


def _axis_value_key(v: Any) -> str:
    """How an axis value is spelt as a key of set_with: 8 -> "8", "spray" -> "spray"."""
    return v if isinstance(v, str) else json.dumps(v)


def _experiment(r: _Reader, doc: Any, path: str, repo: Path) -> Experiment:
    r.obj(doc, path, ("scenario", "axis", "configurations", "seeds"), ("set",))
    scenario = r.text(doc, "scenario", path)
    if not (repo / scenario).is_file():
        raise r.fail(_join(path, "scenario"), f"{scenario}: no such file in the repository")
    sets = _sets(r, doc.get("set", {}), _join(path, "set"))

    ap = _join(path, "axis")
    a = r.obj(doc["axis"], ap, ("key", "label", "values"), ("unit", "set_with"))
    akey = r.text(a, "key", ap)
    if not SET_KEY.match(akey):
        raise r.fail(_join(ap, "key"), "not a --set path")
    vp = _join(ap, "values")
    values = r.obj(a["values"], vp, SCALES)
    for scale in SCALES:
        vs = values[scale]
        if not isinstance(vs, list) or not vs:
            raise r.fail(_join(vp, scale), "expected a non-empty list of axis values")
        if len({json.dumps(v) for v in vs}) != len(vs):
            raise r.fail(_join(vp, scale), "repeated value")
    set_with: dict[str, dict[str, Any]] = {}
    wp = _join(ap, "set_with")
    for key, table in _sets(r, a.get("set_with", {}), wp).items():
        if not isinstance(table, dict):
            raise r.fail(_join(wp, key), "expected an object: axis value -> value")
        for scale in SCALES:
            for v in values[scale]:
                if _axis_value_key(v) not in table:
                    raise r.fail(_join(wp, key), f"no value for axis value "
                                 f"{_axis_value_key(v)} (scale {scale})")
        set_with[key] = dict(table)
    axis = Axis(akey, r.text(a, "label", ap), str(a.get("unit", "")),
                {s: list(values[s]) for s in SCALES}, set_with)

    cp = _join(path, "configurations")
    raw = doc["configurations"]
    if not isinstance(raw, list) or not raw:
        raise r.fail(cp, "expected a non-empty list")
    configs: list[Configuration] = []
    keys: set[str] | None = None
    for i, c in enumerate(raw):
        p = _join(cp, i)
        r.obj(c, p, ("id", "label", "set"))
        cid = r.text(c, "id", p)
        if any(x.id == cid for x in configs):
            raise r.fail(_join(p, "id"), f"{cid}: repeated configuration id")
        csets = _sets(r, c["set"], _join(p, "set"))
        if keys is None:
            keys = set(csets)
        elif set(csets) != keys:
            raise r.fail(_join(p, "set"), "every configuration must set the same keys ("
                         + ", ".join(sorted(keys)) + ")")
        configs.append(Configuration(cid, r.text(c, "label", p), csets))
    owners = {"set": set(sets), "axis": {akey} | set(set_with), "configurations": keys or set()}
    for a_name, a_keys in owners.items():
        for b_name, b_keys in owners.items():
            if a_name < b_name and a_keys & b_keys:
                raise r.fail(path, f"{', '.join(sorted(a_keys & b_keys))} set by both "
                             f"{a_name} and {b_name}")
    if len(configs) > 1 and not keys:
        raise r.fail(cp, "configurations that set nothing cannot differ")
    seen_sets: dict[str, str] = {}
    for c in configs:
        text = json.dumps(c.sets, sort_keys=True)
        if text in seen_sets:
            raise r.fail(cp, f"{c.id} sets the same values as {seen_sets[text]}")
        seen_sets[text] = c.id

    sp = _join(path, "seeds")
    seeds = r.obj(doc["seeds"], sp, SCALES)
    minimum = {"default": 3, "full": 5}
    for scale in SCALES:
        n = seeds[scale]
        if not isinstance(n, int) or isinstance(n, bool) or n < minimum[scale]:
            raise r.fail(_join(sp, scale), f"expected an integer >= {minimum[scale]} (a "
                         f"comparison needs seeds to pair)")
    return Experiment(scenario, sets, axis, configs, {s: int(seeds[s]) for s in SCALES})


def _metric(r: _Reader, doc: Any, path: str) -> Metric:
    r.obj(doc, path, ("id", "label", "better"), ("unit", "column", "ops", "samples"))
    mid = r.text(doc, "id", path)
    better = r.choice(doc, "better", path, ("lower", "higher"))
    if ("column" in doc) == ("ops" in doc):
        raise r.fail(path, "give exactly one of column (a summary.json number) and ops "
                     "(a statistic of ops.csv rows)")
    label = r.text(doc, "label", path)
    if PERCENTILE_WORD.search(label):
        raise r.fail(_join(path, "label"), f"{label!r}: name the quantity, not its statistic; "
                     "the report labels a percentile with its sample count (or 'max of n')")
    if "column" in doc:
        column = sweep_column(r.text(doc, "column", path))
        samples = sweep_column(r.text(doc, "samples", path)) if "samples" in doc else None
        if PERCENTILE_COLUMN.search(column) and samples is None:
            raise r.fail(_join(path, "samples"), f"{column} is a percentile of one run's "
                         "samples, which summary.json does not count: name the column that "
                         "does (e.g. w0.completed), so that a p99 of 16 is called their "
                         "maximum; or use ops with stat p99, which pools the seeds")
        if samples is not None and not PERCENTILE_COLUMN.search(column):
            raise r.fail(_join(path, "samples"), "only a percentile column needs its count")
        return Metric(mid, label, str(doc.get("unit", "")), better, column=column,
                      samples=samples)
    op = _join(path, "ops")
    o = r.obj(doc["ops"], op, ("field", "stat"), ("where",))
    where = o.get("where", {})
    if not isinstance(where, dict):
        raise r.fail(_join(op, "where"), "expected an object: ops.csv column -> value")
    if "samples" in doc:
        raise r.fail(_join(path, "samples"), "an ops metric counts its own samples")
    return Metric(mid, label, str(doc.get("unit", "")), better,
                  ops_where=dict(where), ops_field=r.text(o, "field", op),
                  ops_stat=r.choice(o, "stat", op, OPS_STATS))


PERCENTILE_WORD = re.compile(r"\bp(?:50|9\d|99\.?9)\b|percentile", re.I)
PERCENTILE_COLUMN = re.compile(r"\.p(?:50|9\d|99\d?)$")
PERCENTILE_OF = {"p50": 50.0, "p90": 90.0, "p95": 95.0, "p99": 99.0, "p999": 99.9}


def sweep_column(key: str) -> str:
    """The sweep database's column for a summary.json key: workloads[0].x and workloads.0.x are
    stored as w0.x (docs/sweeps.md, "The database")."""
    return re.sub(r"^workloads(?:\[(\d+)\]|\.(\d+))\.", lambda m: f"w{m.group(1) or m.group(2)}.",
                  key)


DECISION_PARAMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # rule: (required, optional)
    "compare": (("metric", "baseline", "candidate", "expect"), ("min_effect",)),
    "crossover": (("metric", "baseline", "candidate"), ("min_effect",)),
    "scaling": (("metric", "configuration", "expect_exponent", "tolerance"), ()),
    "bound": (("metric", "configuration"), ("min", "max")),
    "not-testable": (("reason",), ()),
}


def _decision(r: _Reader, doc: Any, path: str, experiment: Experiment | None,
              metrics: list[Metric]) -> Decision:
    if not isinstance(doc, dict):
        raise r.fail(path, "expected an object")
    rule = r.choice(doc, "rule", path, RULES)
    required, optional = DECISION_PARAMS[rule]
    r.obj(doc, path, ("rule",) + required, optional)
    params = {k: v for k, v in doc.items() if k != "rule"}
    if rule == "not-testable":
        r.text(doc, "reason", path)
        if experiment is not None:
            raise r.fail(path, "a not-testable claim has no experiment (set it to null)")
        return Decision(rule, params)
    if experiment is None:
        raise r.fail(path, f"rule {rule} needs an experiment")
    if params["metric"] not in {m.id for m in metrics}:
        raise r.fail(_join(path, "metric"), f"{params['metric']}: not one of the metrics' ids")
    ids = [c.id for c in experiment.configurations]
    for key in ("baseline", "candidate", "configuration"):
        if key in params:
            allowed = ids + (["all"] if key == "configuration" and rule == "bound" else [])
            if params[key] not in allowed:
                raise r.fail(_join(path, key), f"{params[key]}: not a configuration id "
                             f"({', '.join(allowed)})")
    if rule in ("compare", "crossover") and params["baseline"] == params["candidate"]:
        raise r.fail(_join(path, "candidate"), "the same configuration as the baseline")
    if rule == "compare":
        r.choice(doc, "expect", path, ("lower", "higher"))
    if "min_effect" in params:
        x = params["min_effect"]
        if not isinstance(x, (int, float)) or isinstance(x, bool) or not 0 <= x < 1:
            raise r.fail(_join(path, "min_effect"), "expected a fraction in [0, 1) of the "
                         "baseline's mean")
    if rule == "scaling":
        for key in ("expect_exponent", "tolerance"):
            if not isinstance(params[key], (int, float)) or isinstance(params[key], bool):
                raise r.fail(_join(path, key), "expected a number")
        if any(not isinstance(v, (int, float)) or v <= 0
               for s in SCALES for v in experiment.axis.values[s]):
            raise r.fail(path, "scaling needs positive numeric axis values")
    if rule == "bound":
        if "min" not in params and "max" not in params:
            raise r.fail(path, "a bound needs min or max")
    return Decision(rule, params)


def load_claim(path: Path, repo: Path, drafts: dict[str, Any]) -> Claim:
    r = _Reader(os.path.relpath(path, repo))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise r.fail("(root)", f"not JSON: {e}")
    r.obj(doc, "", ("id", "title", "source", "question", "experiment", "metrics", "decision",
                    "threats"))
    cid = r.text(doc, "id", "")
    if cid != path.stem:
        raise r.fail("id", f"{cid}: must equal the file name ({path.stem})")
    s = r.obj(doc["source"], "source", ("draft", "section", "quote"))
    draft = r.choice(s, "draft", "source", sorted(drafts))
    if not cid.startswith(draft + "."):
        raise r.fail("id", f"{cid}: must start with its draft's key, {draft}.")
    source = Source(draft, r.text(s, "section", "source"), r.text(s, "quote", "source"))
    experiment = None
    if doc["experiment"] is not None:
        experiment = _experiment(r, doc["experiment"], "experiment", repo)
    raw_metrics = doc["metrics"]
    if not isinstance(raw_metrics, list) or (experiment is not None and not raw_metrics):
        raise r.fail("metrics", "expected a list of metrics (non-empty with an experiment)")
    metrics = [_metric(r, m, _join("metrics", i)) for i, m in enumerate(raw_metrics)]
    if len({m.id for m in metrics}) != len(metrics):
        raise r.fail("metrics", "repeated metric id")
    decision = _decision(r, doc["decision"], "decision", experiment, metrics)
    threats = doc["threats"]
    if not isinstance(threats, list) or not all(isinstance(t, str) and t for t in threats):
        raise r.fail("threats", "expected a list of sentences")
    return Claim(cid, r.text(doc, "title", ""), source, r.text(doc, "question", ""),
                 experiment, metrics, decision, list(threats), r.file)


def load_drafts(folder: Path, repo: Path) -> dict[str, Any]:
    path = folder / "drafts.json"
    r = _Reader(os.path.relpath(path, repo))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise r.fail("(root)", f"cannot read: {e}")
    r.obj(doc, "", (), DRAFT_KEYS)
    for key, d in doc.items():
        # sections: "numbered" when the draft's text numbers its sections, "inferred" when
        # the claims number them by paragraph order (a text without headings).
        r.obj(d, key, ("title", "authors", "date", "file"), ("sections",))
        if "sections" in d:
            r.choice(d, "sections", key, ("numbered", "inferred"))
    return doc


def load_claims(folder: Path, repo: Path, require_all: bool = True) -> list[Claim]:
    """Every claim file of folder, in REQUIRED_IDS order, then the others by id."""
    drafts = load_drafts(folder, repo)
    claims = [load_claim(p, repo, drafts) for p in sorted(folder.glob("*.json"))
              if p.name != "drafts.json"]
    ids = {c.id for c in claims}
    missing = [i for i in REQUIRED_IDS if i not in ids]
    if require_all and missing:
        raise ClaimError(os.path.relpath(folder, repo), "(folder)",
                         "no claim file for " + ", ".join(missing))
    order = {cid: i for i, cid in enumerate(REQUIRED_IDS)}
    return sorted(claims, key=lambda c: (order.get(c.id, len(order)), c.id))


# ---------------------------------------------------------------------------------------------
# The sweep of an experiment


def set_text(value: Any) -> str:
    """A value as scripts/sweep takes it in a --set list: text as itself unless the runner
    would read it as JSON or the sweep would split it, everything else as compact JSON."""
    if isinstance(value, str):
        try:
            json.loads(value)
            parses = True
        except ValueError:
            parses = False
        if parses or any(ch in value for ch in ",[]{}\""):
            return json.dumps(value)
        return value
    return json.dumps(value, separators=(",", ":"))


def sweep_arguments(claim: Claim, scale: str) -> list[str]:
    """The scripts/sweep arguments (after SCENARIO) that run the claim's experiment at scale:
    the axis zipped with the keys that move with it, the configurations' keys zipped, every
    point on seeds 1..N."""
    e = claim.experiment
    assert e is not None
    args: list[str] = []
    for key, value in e.sets.items():
        args += ["--set", f"{key}={set_text(value)}"]
    values = e.axis.points(scale)
    axis_keys = [e.axis.key] + list(e.axis.set_with)
    args += ["--set", f"{e.axis.key}=" + ",".join(set_text(v) for v in values)]
    for key, table in e.axis.set_with.items():
        args += ["--set", f"{key}=" + ",".join(set_text(table[_axis_value_key(v)])
                                              for v in values)]
    if len(axis_keys) > 1 and len(values) > 1:
        args += ["--zip", ",".join(axis_keys)]
    config_keys = list(e.configurations[0].sets)
    for key in config_keys:
        args += ["--set", f"{key}=" + ",".join(set_text(c.sets[key]) for c in e.configurations)]
    if len(config_keys) > 1 and len(e.configurations) > 1:
        args += ["--zip", ",".join(config_keys)]
    args += ["--seeds", str(e.seeds[scale])]
    return args


def point_count(claim: Claim, scale: str) -> int:
    e = claim.experiment
    if e is None:
        return 0
    return len(e.axis.points(scale)) * len(e.configurations) * e.seeds[scale]
