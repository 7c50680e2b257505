"""The sweep database: written by Writer, read back by SweepDB (frames and plain rows), resume
state, and databases of the schema before the steps table."""
import json
import sqlite3
from pathlib import Path

import pytest

from mcast4ai import sweepdb
from mcast4ai.sweepdb import RunRecord, SweepDB, Table, Writer

SUMMARY = {
    "complete": True, "events": 1234, "events_per_s": 1e6, "mechanism": "bier",
    "ns3_version": "3.37", "revision": "abc1234", "scenario": "tiny", "seed": 2,
    "sim_time_s": 0.001, "stopped_by": None, "wall_s": 0.25, "peak_rss_mb": 30.5,
    "network": {"header_bytes": 4096, "switch_state": {"bift_entries": 12}, "pfc": False},
    "workloads": [
        {"label": "perm", "type": "flows", "completed": 8, "ops": 8,
         "duration_us": {"mean": 10.5, "p50": 10.0, "p99": 20.0, "max": 20.0},
         "stragglers": [1, 2]},
    ],
}


def ok_record(point: str, seed: int, axes: dict, *, ops=None, steps=None,
              summary=None) -> RunRecord:
    ops = ops if ops is not None else Table.from_text(
        ["workload", "op", "duration_us", "outcome"],
        [{"workload": "perm", "op": "0", "duration_us": "10.5", "outcome": "completed"},
         {"workload": "perm", "op": "1", "duration_us": "", "outcome": "unfinished"}])
    return RunRecord(point, seed, axes, "ok", None, 0,
                     sweepdb.summary_columns(summary or SUMMARY), ops,
                     steps or Table())


def test_summary_columns_flatten_numbers_and_keep_three_strings() -> None:
    cols = sweepdb.summary_columns(SUMMARY)
    assert cols["network.header_bytes"] == 4096
    assert cols["network.switch_state.bift_entries"] == 12
    assert cols["network.pfc"] == 0  # booleans 0/1
    assert cols["complete"] == 1
    assert cols["w0.duration_us.p99"] == 20.0 and cols["w0.completed"] == 8
    assert cols["revision"] == "abc1234" and cols["mechanism"] == "bier"
    assert cols["scenario"] == "tiny"
    for left_out in ("seed", "ns3_version", "stopped_by", "w0.label", "w0.stragglers"):
        assert left_out not in cols


def test_table_types_columns_by_their_cells() -> None:
    t = Table.from_text(["a", "b", "c", "d"], [
        {"a": "1", "b": "1.5", "c": "x", "d": ""},
        {"a": "-2", "b": "3", "c": "4", "d": ""}])
    assert t.rows == [{"a": 1, "b": 1.5, "c": "x", "d": None},
                      {"a": -2, "b": 3.0, "c": "4", "d": None}]


def test_point_keys_and_column_values_are_those_the_runner_sees() -> None:
    a = sweepdb.point_key("s", 1, {"p2mp.mechanism": '"bier"', "x": "1"})
    b = sweepdb.point_key("s", 1, {"x": "1", "p2mp.mechanism": "bier"})
    assert a == b
    assert sweepdb.point_key("s", 2, {"x": "1"}) != sweepdb.point_key("s", 1, {"x": "1"})
    assert sweepdb.column_value("true") == 1
    assert sweepdb.column_value("[0, 1]") == "[0,1]"
    assert sweepdb.column_value("null") == "null"  # the key removed
    assert sweepdb.column_value("bier") == "bier" and sweepdb.column_value("2.5") == 2.5
    assert sweepdb.point_axes(a) == ["p2mp.mechanism", "x"]
    assert sweepdb.scenario_id({"a": 1, "b": [1]}) == sweepdb.scenario_id({"b": [1], "a": 1})


def test_writer_and_reader_round_trip(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    db = Writer(path, ["p2mp.mechanism"], "tiny.json")
    steps = Table.from_text(["workload", "op", "iteration", "step", "transfers", "duration_us"],
                            [{"workload": "perm", "op": "0", "iteration": "0", "step": "0",
                              "transfers": "4", "duration_us": "2.5"}])
    p1 = sweepdb.point_key("s", 1, {"p2mp.mechanism": "bier"})
    p2 = sweepdb.point_key("s", 1, {"p2mp.mechanism": "unicast"})
    id1 = db.write(ok_record(p1, 1, {"p2mp.mechanism": "bier"}, steps=steps))
    db.write(RunRecord(p2, 1, {"p2mp.mechanism": "unicast"}, "invalid",
                       "error: tiny.json: p2mp.ack_aggregation: must be 'none'\nmore", 2))
    assert db.status_counts({p1, p2}) == {"ok": 1, "failed": 0, "invalid": 1}
    assert db.status_counts({p1}) == {"ok": 1, "failed": 0, "invalid": 0}
    db.close()
    assert sweepdb.done_points(path, {p1, p2, "other"}) == {p1, p2}
    with SweepDB(path) as r:
        assert r.axes == ["p2mp.mechanism"]
        rows = r.rows()
        assert [row["status"] for row in rows] == ["ok", "invalid"]
        assert rows[0]["w0.duration_us.p99"] == 20.0 and rows[0]["scenario_file"] == "tiny.json"
        assert r.rows([p2])[0]["exit_code"] == 2
        frame = r.runs()
        assert list(frame["p2mp.mechanism"]) == ["bier", "unicast"]
        assert frame.loc[1, "w0.duration_us.p99"] != frame.loc[1, "w0.duration_us.p99"]  # NaN
        ops = r.ops([id1], ["workload", "duration_us"])
        assert list(ops.columns) == ["run_id", "workload", "duration_us"]
        assert len(ops) == 2  # an unfinished operation is a row with no duration
        assert r.ops_rows([id1], ["op"]) == [{"run_id": id1, "op": 0}, {"run_id": id1, "op": 1}]
        assert r.ops_rows([id1], ["op"], equal={"outcome": "unfinished"}) == \
            [{"run_id": id1, "op": 1}]
        assert r.ops([id1], ["op"], equal={"op": 0})["op"].tolist() == [0]
        with pytest.raises(sweepdb.DatabaseError, match="no ops column nope"):
            r.ops([id1], ["op"], equal={"nope": 1})
        st = r.steps([id1], ["step", "duration_us"])
        assert st.to_dict("records") == [{"run_id": id1, "step": 0, "duration_us": 2.5}]


def test_ops_leave_out_failed_operations_and_receiver_rows(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    db = Writer(path, [], "x.json")
    ops = Table.from_text(["workload", "op", "duration_us", "outcome", "kind"], [
        {"workload": "b", "op": "0", "duration_us": "5", "outcome": "completed", "kind": "op"},
        {"workload": "b", "op": "1", "duration_us": "9", "outcome": "failed", "kind": "op"},
        {"workload": "b", "op": "0", "duration_us": "4", "outcome": "completed",
         "kind": "receiver"}])
    rid = db.write(ok_record(sweepdb.point_key("s", 1, {}), 1, {}, ops=ops))
    db.close()
    with SweepDB(path) as r:
        assert r.ops([rid], ["duration_us"])["duration_us"].tolist() == [5]
        assert sorted(r.ops([rid], ["duration_us"], completed_only=False)["duration_us"]) == [5, 9]


def test_a_failed_point_run_again_is_replaced_in_place(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    key = sweepdb.point_key("s", 1, {"k": "1"})
    db = Writer(path, ["k"], "x.json")
    first = db.write(RunRecord(key, 1, {"k": 1}, "failed", "exit 1\ncrash", 1,
                               {"w0.duration_us.p99": 99.0}))
    second = db.write(ok_record(key, 1, {"k": 1}))
    assert first == second
    db.close()
    with SweepDB(path) as r:
        rows = r.rows()
        assert len(rows) == 1 and rows[0]["status"] == "ok" and rows[0]["error"] is None
        assert rows[0]["w0.duration_us.p99"] == 20.0


def test_invalid_reasons_are_distinct_first_error_lines(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    db = Writer(path, ["k"], "x.json")
    keys = []
    for i, err in enumerate(["error: a.json: k: must be small\nerror: second problem",
                             "warning: x\nerror: a.json: k: must be small",
                             "error: a.json: k: must be even", "", "exit 2"]):
        keys.append(sweepdb.point_key("s", 1, {"k": str(i)}))
        db.write(RunRecord(keys[-1], 1, {"k": i}, "invalid", err, 2))
    assert db.invalid_reasons(keys) == [("error: a.json: k: must be small", 2),
                                        ("error: a.json: k: must be even", 1),
                                        ("(no message)", 1), ("exit 2", 1)]
    assert db.invalid_reasons(keys[2:3]) == [("error: a.json: k: must be even", 1)]
    db.close()


def test_a_database_of_the_schema_before_the_steps_table_reads(tmp_path: Path) -> None:
    """A database written by the scripts/sweep before this package: no steps table, no
    kind/outcome columns; it reads, and a sweep that writes to it adds the steps table."""
    path = tmp_path / "old.sqlite"
    con = sqlite3.connect(path)
    fixed = ", ".join(f"{n} {t}" for n, t in sweepdb.FIXED_COLUMNS)
    con.execute(f'create table runs (id INTEGER PRIMARY KEY, point TEXT UNIQUE NOT NULL, '
                f'"p2mp.mechanism", {fixed}, "w0.duration_us.p99")')
    con.execute("create table ops (run_id INTEGER NOT NULL REFERENCES runs(id), workload, "
                "duration_us)")
    point = json.dumps({"scenario": "s", "seed": 1, "set": {"p2mp.mechanism": "bier"}},
                       sort_keys=True, separators=(",", ":"))
    con.execute('insert into runs (point, "p2mp.mechanism", seed, status, complete, '
                '"w0.duration_us.p99") values (?, ?, 1, ?, 1, 7.5)', (point, "bier", "ok"))
    con.execute("insert into ops values (1, 'perm', 7.5)")
    con.commit()
    con.close()
    with SweepDB(str(path)) as r:
        assert r.axes == ["p2mp.mechanism"] and r.steps_columns == []
        assert r.ops([1], ["duration_us"])["duration_us"].tolist() == [7.5]
        assert r.steps([1], ["step"]).empty
    assert sweepdb.done_points(str(path), {point}) == {point}
    Writer(str(path), ["p2mp.mechanism"], "x.json").close()
    with SweepDB(str(path)) as r:
        assert r.steps_columns == ["run_id"] and len(r.rows()) == 1
        assert r.steps([1], ["step"]).empty


def test_files_that_are_not_sweep_databases(tmp_path: Path) -> None:
    with pytest.raises(sweepdb.DatabaseError, match="no such database"):
        SweepDB(str(tmp_path / "nope.sqlite"))
    text = tmp_path / "text.sqlite"
    text.write_text("not a database\n")
    with pytest.raises(sweepdb.DatabaseError, match="not a sweep database"):
        SweepDB(str(text))
    with pytest.raises(sweepdb.DatabaseError, match="not a sweep database"):
        sweepdb.done_points(str(text), {"x"})
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("create table t (a)")
    with pytest.raises(sweepdb.DatabaseError, match="no tables runs and ops"):
        SweepDB(str(other))
    assert sweepdb.done_points(str(tmp_path / "absent.sqlite"), {"x"}) == set()
