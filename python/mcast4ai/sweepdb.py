"""The sweep database: the one module that knows its SQLite schema.

A sweep database (docs/sweeps.md, "The database") has three tables:

- ``runs``: one row per point: ``id``, ``point`` (the point's canonical JSON, UNIQUE), one
  column per axis key, the fixed columns of :data:`FIXED_COLUMNS`, and one column per number
  of the run's ``summary.json``, flattened with dots (``network.link_bytes``,
  ``w0.duration_us.p99``); ``kept_dir`` once a run was kept;
- ``ops``: one row per ``ops.csv`` row of each ok run, ``run_id`` and the file's columns;
- ``steps``: one row per ``steps.csv`` row of each ok run that wrote one (``output.steps``),
  ``run_id`` and the file's columns. Databases from before this table have none.

Columns are added (ALTER TABLE) the first time a run has them, so databases written by any
earlier version read the same way. Writing is :class:`Writer` (only the sweep process writes);
reading is :class:`SweepDB` (read-only, rows as pandas frames or plain dicts) and
:func:`done_points`. pandas is imported only by the methods that return frames, so the sweep
itself needs nothing beyond the standard library.
"""
from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import re
import sqlite3
import urllib.parse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# Columns of `runs` that are not axes or metrics, in table order after `id`, `point` and the
# axes. The text ones come from summary.json (or the sweep), the numbers from summary.json.
FIXED_COLUMNS: list[tuple[str, str]] = [
    ("seed", "INTEGER"), ("status", "TEXT"), ("error", "TEXT"), ("revision", "TEXT"),
    ("wall_s", "REAL"), ("sim_time_s", "REAL"), ("events", "INTEGER"), ("complete", "INTEGER"),
    ("scenario", "TEXT"), ("mechanism", "TEXT"), ("exit_code", "INTEGER"),
    ("scenario_file", "TEXT")]
RESERVED: frozenset[str] = frozenset({"id", "point"} | {name for name, _ in FIXED_COLUMNS})
SUMMARY_TEXT = ("revision", "mechanism", "scenario")  # the only strings kept from summary.json
SUMMARY_NUMBERS_KEPT = ("revision", "wall_s", "sim_time_s", "events", "complete")
STATUSES = ("ok", "failed", "invalid")
DONE_STATUSES = ("ok", "invalid")  # not run again by the next invocation
CHILD_TABLES = ("ops", "steps")  # one row per row of the run's ops.csv, steps.csv
REQUIRED_RUNS_COLUMNS = ("id", "point", "seed", "status", "complete")

NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
INTEGER = re.compile(r"[+-]?\d+")

Scalar = Any  # an SQLite value: int, float, str or None


class DatabaseError(Exception):
    """A file that is not a sweep database, or cannot be read as one."""


def quote(name: str) -> str:
    """An SQL identifier: column names hold dots and brackets."""
    return '"' + name.replace('"', '""') + '"'


def quote_text(text: str) -> str:
    """A string as an SQL literal."""
    return "'" + text.replace("'", "''") + "'"


def is_reserved(key: str) -> bool:
    """Whether an axis key would collide with a fixed or metric column of `runs`."""
    return (key.lower() in RESERVED or key.startswith("network.")
            or re.match(r"w\d+\.", key) is not None)


# --------------------------------------------------------------------------------------------
# Points and axis values


def _no_constant(name: str) -> float:
    raise ValueError(name)


def canonical(raw: str) -> Any:
    """The value the runner sees for a --set text: JSON if the text parses as JSON (as the
    runner's --set does; NaN and Infinity are not JSON), else the text itself. JSON null
    removes the key from the scenario."""
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except ValueError:
        return raw


def canonical_json(raw: str) -> str:
    """The canonical JSON of a --set text: equal for texts the runner reads as the same value."""
    return json.dumps(canonical(raw), sort_keys=True)


def column_value(raw: str) -> Scalar:
    """An axis value as stored in its column: numbers and strings as such, booleans 0/1,
    arrays, objects and null (the key removed) as compact JSON text."""
    v = canonical(raw)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float, str)):
        return v
    return json.dumps(v, separators=(",", ":"), sort_keys=True)


def scenario_id(doc: Any) -> str:
    """The id of a scenario in point keys: a hash of its parsed JSON (blanks do not count)."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def point_key(scenario: str, seed: int, values: Mapping[str, str]) -> str:
    """The `point` column: what the runner is given, so equal texts of equal JSON are one
    point; the scenario's content is part of it, so one database can hold several scenarios
    and an edited scenario is run again."""
    return json.dumps({"scenario": scenario, "seed": seed,
                       "set": {k: canonical(v) for k, v in values.items()}},
                      sort_keys=True, separators=(",", ":"))


def point_axes(point: str) -> list[str]:
    """The axis keys of a `point` column's JSON; DatabaseError if it is not a point."""
    try:
        keys = json.loads(point).get("set", {})
    except (ValueError, AttributeError, TypeError):
        raise DatabaseError(f"a point is not JSON: {str(point)[:60]}")
    return list(keys)


# --------------------------------------------------------------------------------------------
# One run's result files as columns and rows


def flatten(prefix: str, value: Any, out: dict[str, Scalar]) -> None:
    """Numeric scalars of nested dicts as dotted names; booleans 0/1; strings, lists and nulls
    are left out."""
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, bool):
        out[prefix] = int(value)
    elif isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):
        out[prefix] = value


def summary_columns(summary: Mapping[str, Any]) -> dict[str, Scalar]:
    """The `runs` columns of a summary.json: every number flattened with dots, workload i's
    as wI.KEY, and the strings revision, mechanism and scenario."""
    cols: dict[str, Scalar] = {}
    for key, value in summary.items():
        if key in ("workloads", "seed"):
            continue
        if isinstance(value, str):
            if key in SUMMARY_TEXT:
                cols[key] = value
            continue
        if key in RESERVED and key not in SUMMARY_NUMBERS_KEPT:
            continue
        flatten(key, value, cols)
    for i, w in enumerate(summary.get("workloads") or []):
        if isinstance(w, dict):
            flatten(f"w{i}", w, cols)
    return cols


@dataclass
class Table:
    """Rows of a CSV file of a run, typed: integers if every non-empty cell of a column is
    one, else reals if every one is a number, else text; empty cells None."""

    columns: list[str] = field(default_factory=list)
    rows: list[dict[str, Scalar]] = field(default_factory=list)

    @classmethod
    def from_text(cls, names: Sequence[str], rows: Sequence[Mapping[str, str | None]]) -> Table:
        converters: dict[str, type] = {}
        for name in names:
            cells = [r[name] for r in rows if r.get(name) not in (None, "")]
            if cells and all(INTEGER.fullmatch(str(c)) for c in cells):
                converters[name] = int
            elif cells and all(NUMBER.fullmatch(str(c)) for c in cells):
                converters[name] = float
            else:
                converters[name] = str
        typed = [{n: (converters[n](r[n]) if r.get(n) not in (None, "") else None)
                  for n in names} for r in rows]
        return cls(list(names), typed)

    @classmethod
    def read_csv(cls, path: str) -> Table:
        """A run's ops.csv or steps.csv (a column run_id is left out: the database's own)."""
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            names = [n for n in (reader.fieldnames or []) if n and n != "run_id"]
            rows = list(reader)
        return cls.from_text(names, rows)


@dataclass
class RunRecord:
    """What the database gets for one point: its `runs` row and, when ok, its ops and steps."""

    point: str
    seed: int
    axes: dict[str, Scalar]  # {axis key: column value}
    status: str
    error: str | None = None
    exit_code: int | None = None
    metrics: dict[str, Scalar] = field(default_factory=dict)  # summary_columns()
    ops: Table = field(default_factory=Table)
    steps: Table = field(default_factory=Table)
    kept_dir: str | None = None


# --------------------------------------------------------------------------------------------
# Writing


def _connect_ro(path: str, timeout: float = 60) -> sqlite3.Connection:
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    return sqlite3.connect(uri, uri=True, timeout=timeout)


def _tables(con: sqlite3.Connection) -> set[str]:
    return {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}


def _columns(con: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in con.execute(f"pragma table_info({quote(table)})")]


def done_points(path: str, keys: Iterable[str]) -> set[str]:
    """The points among keys that the database holds as ok or invalid (opened read-only; an
    absent file holds none)."""
    if not os.path.exists(path):
        return set()
    wanted = set(keys)
    try:
        con = _connect_ro(path)
        try:
            if "runs" not in _tables(con):
                return set()
            rows = con.execute("select point, status from runs").fetchall()
        finally:
            con.close()
    except sqlite3.Error as e:
        raise DatabaseError(f"{path}: not a sweep database: {e}")
    return {p for p, status in rows if p in wanted and status in DONE_STATUSES}


class Writer:
    """The database of a sweep, opened for writing: created if missing, with the axis columns
    added. Only the sweep process writes; each run is one transaction."""

    def __init__(self, path: str, axis_keys: Sequence[str], scenario_file: str) -> None:
        self.path = path
        self.scenario_file = scenario_file
        self.con = sqlite3.connect(path, timeout=60, isolation_level=None)
        self._have: dict[str, set[str]] = {}
        self.con.execute("begin immediate")
        try:
            axis_cols = "".join(f", {quote(k)}" for k in axis_keys)
            fixed = "".join(f", {name} {kind}" for name, kind in FIXED_COLUMNS)
            self.con.execute("create table if not exists runs (id INTEGER PRIMARY KEY, "
                             f"point TEXT UNIQUE NOT NULL{axis_cols}{fixed})")
            for table in CHILD_TABLES:
                self.con.execute(f"create table if not exists {table} "
                                 "(run_id INTEGER NOT NULL REFERENCES runs(id))")
                self.con.execute(f"create index if not exists {table}_run_id on {table}(run_id)")
            for table in ("runs",) + CHILD_TABLES:
                self._have[table] = {c.lower() for c in _columns(self.con, table)}
            self._add_columns("runs", axis_keys)
            self.con.execute("commit")
        except BaseException:
            self.con.execute("rollback")
            raise

    def _add_columns(self, table: str, names: Iterable[str]) -> None:
        have = self._have[table]
        for name in names:
            if name.lower() not in have:
                self.con.execute(f"alter table {table} add column {quote(name)}")
                have.add(name.lower())

    def write(self, record: RunRecord) -> int:
        """One run, in one transaction: its runs row (inserted, or updated in place when the
        point was there as failed: every other column back to NULL) and its ops and steps
        rows. Returns the run's id."""
        row: dict[str, Scalar] = {"point": record.point, "seed": record.seed,
                                  "status": record.status, "error": record.error,
                                  "exit_code": record.exit_code,
                                  "scenario_file": self.scenario_file}
        row.update(record.axes)
        row.update(record.metrics)
        if record.kept_dir is not None:
            row["kept_dir"] = record.kept_dir
        children = {"ops": record.ops, "steps": record.steps}
        self.con.execute("begin immediate")
        try:
            self._add_columns("runs", row)
            for table, rows in children.items():
                self._add_columns(table, rows.columns)
            old = self.con.execute("select id from runs where point = ?",
                                   (record.point,)).fetchone()
            if old is None:
                names = list(row)
                cur = self.con.execute(
                    f"insert into runs ({', '.join(map(quote, names))}) "
                    f"values ({', '.join('?' * len(names))})", [row[n] for n in names])
                run_id = int(cur.lastrowid or 0)
            else:
                run_id = int(old[0])
                names = [n for n in _columns(self.con, "runs") if n not in ("id", "point")]
                given = {k.lower(): v for k, v in row.items()}
                self.con.execute(
                    f"update runs set {', '.join(quote(n) + ' = ?' for n in names)} "
                    "where id = ?", [given.get(n.lower()) for n in names] + [run_id])
                for table in CHILD_TABLES:
                    self.con.execute(f"delete from {table} where run_id = ?", (run_id,))
            for table, rows in children.items():
                if rows.rows:
                    names = rows.columns
                    self.con.executemany(
                        f"insert into {table} (run_id, {', '.join(map(quote, names))}) "
                        f"values (?, {', '.join('?' * len(names))})",
                        [[run_id] + [r[n] for n in names] for r in rows.rows])
            self.con.execute("commit")
        except BaseException:
            self.con.execute("rollback")
            raise
        return run_id

    def status_counts(self, keys: Iterable[str]) -> dict[str, int]:
        """{status: points} over the points among keys."""
        wanted = set(keys)
        counts = dict.fromkeys(STATUSES, 0)
        for point, status in self.con.execute("select point, status from runs"):
            if point in wanted:
                counts[status] = counts.get(status, 0) + 1
        return counts

    def invalid_reasons(self, keys: Iterable[str]) -> list[tuple[str, int]]:
        """The distinct reasons the runner gave for the invalid points among keys, most
        frequent first (ties in the order of the runs): its first `error:` line (else its
        first line) and the number of points."""
        wanted = set(keys)
        counts: dict[str, int] = {}
        for point, error in self.con.execute(
                "select point, error from runs where status = 'invalid' order by id"):
            if point not in wanted:
                continue
            lines = [ln.strip() for ln in str(error or "").splitlines() if ln.strip()]
            reason = next((ln for ln in lines if ln.startswith("error:")),
                          lines[0] if lines else "(no message)")
            counts[reason] = counts.get(reason, 0) + 1
        return sorted(counts.items(), key=lambda kv: -kv[1])  # stable: run order for ties

    def close(self) -> None:
        self.con.close()


# --------------------------------------------------------------------------------------------
# Reading


class SweepDB:
    """A sweep database opened read-only. DatabaseError if the file is missing or not a sweep
    database (no tables runs and ops, or runs without its fixed columns)."""

    def __init__(self, path: str) -> None:
        if not os.path.isfile(path):
            raise DatabaseError(f"{path}: no such database")
        self.path = path
        try:
            self.con = _connect_ro(path)
            tables = _tables(self.con)
            if not {"runs", "ops"} <= tables:
                raise DatabaseError(f"{path}: not a sweep database (no tables runs and ops)")
            self.runs_columns = _columns(self.con, "runs")
            missing = set(REQUIRED_RUNS_COLUMNS) - set(self.runs_columns)
            if missing:
                raise DatabaseError(f"{path}: not a sweep database (table runs has no "
                                    f"{', '.join(sorted(missing))})")
            self.ops_columns = _columns(self.con, "ops")
            self.steps_columns = _columns(self.con, "steps") if "steps" in tables else []
            points = [r[0] for r in self.con.execute("select point from runs")]
        except sqlite3.DatabaseError as e:
            raise DatabaseError(f"{path}: not a sweep database: {e}")
        keys: set[str] = set()
        for point in points:
            try:
                keys |= set(point_axes(point))
            except DatabaseError as e:
                raise DatabaseError(f"{path}: not a sweep database ({e})")
        # The swept keys, in table order (the order of their first --set).
        self.axes = [c for c in self.runs_columns if c in keys]

    def __enter__(self) -> SweepDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.con.close()

    def _query(self, sql: str, params: Sequence[Scalar] = ()) -> list[dict[str, Scalar]]:
        cur = self.con.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    # --- runs

    def rows(self, points: Iterable[str] | None = None) -> list[dict[str, Scalar]]:
        """The runs rows as plain dicts, by id; only those of these points if given."""
        rows = self._query("select * from runs order by id")
        if points is None:
            return rows
        wanted = set(points)
        return [r for r in rows if r["point"] in wanted]

    def runs(self) -> pd.DataFrame:
        """The runs table as a pandas frame, by id."""
        import pandas as pd

        try:
            return pd.read_sql_query("select * from runs order by id", self.con)
        except (sqlite3.DatabaseError, pd.errors.DatabaseError) as e:
            raise DatabaseError(f"{self.path}: not a sweep database: {e}")

    # --- ops and steps

    def _child_sql(self, table: str, run_ids: Iterable[int], columns: Sequence[str],
                   where: str = "", equal: Mapping[str, Scalar] | None = None
                   ) -> tuple[str, list[Scalar]]:
        have = self.ops_columns if table == "ops" else self.steps_columns
        unknown = [c for c in list(columns) + list(equal or {}) if c not in have]
        if unknown:
            raise DatabaseError(f"no {table} column {', '.join(unknown)}")
        ids = ",".join(str(int(i)) for i in run_ids) or "NULL"
        cols = ", ".join(["run_id"] + [quote(c) for c in columns])
        params: list[Scalar] = []
        for key, value in (equal or {}).items():
            where += f" and {quote(key)} = ?"
            params.append(value)
        return (f"select {cols} from {table} where run_id in ({ids}){where} "
                "order by run_id, rowid", params)

    def op_filter(self, completed_only: bool = True, kind: str = "op") -> str:
        """The SQL condition of the rows of one kind (ops.csv column kind: 'op', the default,
        'phase' or 'receiver') and, with completed_only, not failed ones (column outcome): by default
        what summary.json's duration_us counts. Databases from before those columns have
        neither."""
        cond = ""
        if "kind" in self.ops_columns:
            cond += f" and coalesce(kind, 'op') = {quote_text(kind)}"
        if completed_only and "outcome" in self.ops_columns:
            cond += " and coalesce(outcome, '') != 'failed'"
        return cond

    def ops(self, run_ids: Iterable[int], columns: Sequence[str], completed_only: bool = True,
            equal: Mapping[str, Scalar] | None = None, kind: str = "op") -> pd.DataFrame:
        """ops rows of these runs (run_id and the columns), in run and file order: rows of one
        kind (operation rows by default; 'phase', 'receiver'), without failed operations
        unless completed_only is False, and only those whose columns have the values of equal
        ({column: value}) if given."""
        import pandas as pd

        sql, params = self._child_sql("ops", run_ids, columns,
                                      self.op_filter(completed_only, kind), equal)
        return pd.read_sql_query(sql, self.con, params=params)

    def steps(self, run_ids: Iterable[int], columns: Sequence[str]) -> pd.DataFrame:
        """steps rows of these runs (run_id and the columns), in run and file order; an empty
        frame when the database has no steps (runs without output.steps, or written before the
        table)."""
        import pandas as pd

        if len(self.steps_columns) <= 1:  # no table, or no run has written a row yet
            return pd.DataFrame(columns=["run_id"] + list(columns))
        sql, params = self._child_sql("steps", run_ids, columns)
        return pd.read_sql_query(sql, self.con, params=params)

    def ops_rows(self, run_ids: Iterable[int], columns: Sequence[str],
                 completed_only: bool = True, equal: Mapping[str, Scalar] | None = None,
                 kind: str = "op") -> list[dict[str, Scalar]]:
        """ops() as plain dicts (no pandas), of rows of this kind."""
        return self._query(*self._child_sql("ops", run_ids, columns,
                                            self.op_filter(completed_only, kind), equal))
