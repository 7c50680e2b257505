"""mcast4ai.chakra: the wire format against bytes worked out by hand, round trips of the
builders' traces, what the reader tolerates (packed or unpacked deps, unknown fields, list
attributes) and what it refuses (truncated or malformed files, with the byte offset), the
command line; and, when Debian's python3-protobuf is installed, agreement with protobuf itself
on a Node-like descriptor defined here."""
from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import pytest

from mcast4ai import chakra
from mcast4ai.chakra import CommType, Node, NodeType

PYTHON_DIR = Path(__file__).resolve().parents[1]
PYTHON = "/usr/bin/python3"


def h(text: str) -> bytes:
    return bytes.fromhex(text)


# --------------------------------------------------------------------------------------------
# Varints and messages against known bytes


@pytest.mark.parametrize("value,encoded", [
    (0, "00"), (1, "01"), (127, "7f"), (128, "8001"), (300, "ac02"), (16383, "ff7f"),
    (16384, "808001"), (2**63, "80808080808080808001"), (2**64 - 1, "ffffffffffffffffff01"),
])
def test_varint_known_bytes(value: int, encoded: str) -> None:
    assert chakra.encode_varint(value) == h(encoded)
    assert chakra.decode_varint(h(encoded) + b"\x55", 0) == (value, len(h(encoded)))


def test_varint_out_of_range_and_malformed() -> None:
    for bad in (-1, 2**64):
        with pytest.raises(ValueError):
            chakra.encode_varint(bad)
    assert chakra.encode_signed(-1) == h("ffffffffffffffffff01")  # int64 -1: ten bytes
    with pytest.raises(chakra.TraceFormatError, match="byte 1: truncated varint"):
        chakra.decode_varint(h("0080"), 1)
    with pytest.raises(chakra.TraceFormatError, match="longer than 10 bytes"):
        chakra.decode_varint(h("ff" * 10 + "01"), 0)
    with pytest.raises(chakra.TraceFormatError, match="larger than 64 bits"):
        chakra.decode_varint(h("ff" * 9 + "02"), 0)


def test_small_node_exact_bytes() -> None:
    # id=1: tag 1<<3|0 = 08, 01; name "c": tag 2<<3|2 = 12, length 01, 63; type COMP_NODE:
    # tag 3<<3|0 = 18, 04; duration 5: tag 7<<3|0 = 38, 05.
    node = Node(1, "c", NodeType.COMP_NODE, duration_micros=5)
    assert chakra.encode_node(node) == h("08 01 12 01 63 18 04 38 05")
    assert chakra.decode_node(h("08 01 12 01 63 18 04 38 05"), 0, 9) == node


def test_node_with_deps_and_attributes_exact_bytes() -> None:
    node = Node(2, "ar", NodeType.COMM_COLL_NODE, data_deps=[0, 300],
                attrs={"comm_type": 0, "comm_src": -1, "is_cpu_op": False, "x": "y"})
    expected = h(
        "08 02"                      # id 2
        "12 02 6172"                 # name "ar"
        "18 07"                      # type COMM_COLL_NODE
        "2a 03 00 ac02"              # data_deps (5, packed): 0, 300
        # attr (10): name "comm_type", int64_val (9, tag 48) 0 - written though it is the
        # default: a oneof member is present once set
        "52 0d 0a09 636f6d6d5f74797065 48 00"
        # name "comm_src", int32_val (7, tag 38) -1 as ten bytes
        "52 15 0a08 636f6d6d5f737263 38 ffffffffffffffffff01"
        # name "is_cpu_op", bool_val (27, tag 27<<3|0 = 216 = d8 01) false
        "52 0e 0a09 69735f6370755f6f70 d801 00"
        # name "x", string_val (29, tag 29<<3|2 = 234 = ea 01) "y"
        "52 07 0a01 78 ea01 01 79")
    assert chakra.encode_node(node) == expected
    assert chakra.decode_node(expected, 0, len(expected)) == node


def test_defaults_are_left_out_and_read_back() -> None:
    assert chakra.encode_node(Node(0, "", NodeType.INVALID_NODE)) == b""
    assert chakra.decode_node(b"", 0, 0) == Node(0, "", 0)
    assert chakra.encode_metadata() == h("0a05") + b"0.0.4"


def test_attribute_encodings() -> None:
    assert chakra.encode_attr("n", 2**40) == h("0a016e 48") + chakra.encode_varint(2**40)
    assert chakra.encode_attr("n", True) == h("0a016e d801 01")
    assert chakra.encode_attr("n", 0.5) == h("0a016e 19") + struct.pack("<d", 0.5)
    assert chakra.encode_attr("n", b"\x00") == h("0a016e fa01 01 00")
    assert chakra.encode_attr("root", 3) == h("0a04726f6f74 38 03")  # int32_val
    with pytest.raises(ValueError, match="int32"):
        chakra.encode_attr("comm_dst", 2**31)
    with pytest.raises(ValueError, match="int64"):
        chakra.encode_attr("comm_size", 2**63)
    with pytest.raises(ValueError, match="cannot write"):
        chakra.encode_attr("n", [1])  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Builders and round trips


def roundtrip(tmp_path: Path, per_rank: list[list[Node]]) -> None:
    for rank, nodes in enumerate(per_rank):
        path = chakra.write_trace(tmp_path / "t", rank, nodes)
        assert path == tmp_path / f"t.{rank}.et"
        metadata, read = chakra.read_trace(path)
        assert metadata == {"version": "0.0.4", "attrs": {}}
        assert read == nodes


def check_topological(nodes: list[Node]) -> None:
    assert [n.id for n in nodes] == list(range(len(nodes)))
    for n in nodes:
        assert all(d < n.id for d in n.data_deps + n.ctrl_deps)


@pytest.mark.parametrize("comm", list(chakra.COLLECTIVES))
def test_data_parallel(tmp_path: Path, comm: str) -> None:
    per_rank = chakra.data_parallel(4, 3, 50, 1 << 20, comm)
    assert len(per_rank) == 4 and all(nodes == per_rank[0] for nodes in per_rank)
    nodes = per_rank[0]
    check_topological(nodes)
    assert [n.type for n in nodes] == [NodeType.COMP_NODE, NodeType.COMM_COLL_NODE] * 3
    assert [n.data_deps for n in nodes] == [[], [0], [1], [2], [3], [4]]
    comp, coll = nodes[0], nodes[1]
    assert comp.name == "compute" and comp.duration_micros == 50
    assert coll.attrs["comm_type"] == chakra.COLLECTIVES[comm]
    assert coll.attrs["comm_size"] == 1 << 20
    assert ("root" in coll.attrs) == (comm == "broadcast")
    roundtrip(tmp_path, per_rank)


def test_data_parallel_without_compute_chains_the_collectives(tmp_path: Path) -> None:
    nodes = chakra.data_parallel(2, 3, 0, 4096)[0]
    assert [n.type for n in nodes] == [NodeType.COMM_COLL_NODE] * 3
    assert [n.data_deps for n in nodes] == [[], [0], [1]]
    roundtrip(tmp_path, chakra.data_parallel(2, 3, 0, 4096))


def test_data_parallel_rank_lists_are_independent() -> None:
    per_rank = chakra.data_parallel(2, 1, 1, 8)
    per_rank[0][0].attrs["x"] = 1
    per_rank[0][1].data_deps.append(7)
    assert "x" not in per_rank[1][0].attrs and per_rank[1][1].data_deps == [0]


@pytest.mark.parametrize("compute_us", [20, 0])
def test_pipeline_sends_match_receives(tmp_path: Path, compute_us: int) -> None:
    ranks, mbs, size = 4, 3, 262144
    per_rank = chakra.pipeline(ranks, mbs, compute_us, size)
    assert len(per_rank) == ranks
    for r, nodes in enumerate(per_rank):
        check_topological(nodes)
        kinds = [n.type for n in nodes]
        assert kinds.count(NodeType.COMM_RECV_NODE) == (mbs if r > 0 else 0)
        assert kinds.count(NodeType.COMM_SEND_NODE) == (mbs if r < ranks - 1 else 0)
        assert kinds.count(NodeType.COMP_NODE) == (mbs if compute_us else 0)
        sends = {(n.attrs["comm_dst"], n.attrs["comm_tag"], n.attrs["comm_size"])
                 for n in nodes if n.type == NodeType.COMM_SEND_NODE}
        assert sends == ({(r + 1, m, size) for m in range(mbs)} if r < ranks - 1 else set())
        if r > 0:
            recvs = {(n.attrs["comm_src"], n.attrs["comm_tag"], n.attrs["comm_size"])
                     for n in nodes if n.type == NodeType.COMM_RECV_NODE}
            assert recvs == {(r - 1, m, size) for m in range(mbs)}
    roundtrip(tmp_path, per_rank)


def test_pipeline_order_of_one_stage() -> None:
    nodes = chakra.pipeline(3, 2, 20, 100)[1]
    assert [(n.name, n.data_deps) for n in nodes] == [
        ("recv.mb0", []), ("compute.mb0", [0]), ("send.mb0", [1]),
        ("recv.mb1", []), ("compute.mb1", [3, 1]), ("send.mb1", [4])]
    assert nodes[1].duration_micros == 20
    # Without compute the send follows the receive, and stage 0's sends wait for nothing.
    assert [n.data_deps for n in chakra.pipeline(3, 1, 0, 100)[1]] == [[], [0]]
    assert [n.data_deps for n in chakra.pipeline(3, 1, 0, 100)[0]] == [[]]


@pytest.mark.parametrize("call", [
    lambda: chakra.data_parallel(0, 1, 1, 1), lambda: chakra.data_parallel(1, 0, 1, 1),
    lambda: chakra.data_parallel(1, 1, -1, 1), lambda: chakra.data_parallel(1, 1, 1, 0),
    lambda: chakra.data_parallel(1, 1, 1, 1, "allreduce"), lambda: chakra.pipeline(1, 1, 1, 1),
    lambda: chakra.pipeline(2, 0, 1, 1),
])
def test_builders_refuse_bad_arguments(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        call()


def test_writer_refuses_duplicate_ids_and_dangling_deps(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="given twice"):
        chakra.write_trace(tmp_path / "t", 0, [Node(0, "a", 4), Node(0, "b", 4)])
    with pytest.raises(ValueError, match="depends on node 5"):
        chakra.write_trace(tmp_path / "t", 0, [Node(0, "a", 4, data_deps=[5])])
    assert not list(tmp_path.iterdir())


def test_metadata_attributes_round_trip(tmp_path: Path) -> None:
    path = chakra.write_trace(tmp_path / "m", 3, [], metadata_attrs={"schema": "x", "n": -5})
    assert chakra.read_trace(path) == ({"version": "0.0.4", "attrs": {"schema": "x", "n": -5}},
                                       [])


# --------------------------------------------------------------------------------------------
# What the reader tolerates


def framed(*messages: bytes) -> bytes:
    return b"".join(chakra.encode_varint(len(m)) + m for m in messages)


def test_packed_and_unpacked_deps(tmp_path: Path) -> None:
    node = h("08 09"
             "28 00 28 05"      # data_deps unpacked: 0, 5
             "2a 02 07 08"      # then packed: 7, 8
             "20 03"            # ctrl_deps unpacked: 3
             "22 02 01 02")     # ctrl_deps packed: 1, 2
    path = tmp_path / "d.0.et"
    path.write_bytes(framed(chakra.encode_metadata(), node))
    _, (n,) = chakra.read_trace(path)
    assert n.id == 9 and n.data_deps == [0, 5, 7, 8] and n.ctrl_deps == [3, 1, 2]


def test_unknown_fields_are_skipped(tmp_path: Path) -> None:
    node = h(
        "08 01"
        "42 05 0a03 616263"            # inputs (8, IOInfo): skipped
        "78 2a"                        # field 15, varint
        "9906 0102030405060708"        # field 99, fixed64 (tag 99<<3|1 = 793)
        "a506 01020304"                # field 100, fixed32 (tag 805)
        "f206 03 000000"               # field 110, length-delimited
        "52 0c 0a01 6b 1202 6464 48 07 c00201"  # attr k: doc_string skipped, int64 7, field 40
        "38 0b")                       # duration 11, after the unknown fields
    metadata = h("0a 05") + b"0.0.4" + h("18 01 1205 0a01 61 3801")  # field 3, attr a=int32 1
    path = tmp_path / "u.0.et"
    path.write_bytes(framed(metadata, node))
    meta, (n,) = chakra.read_trace(path)
    assert meta == {"version": "0.0.4", "attrs": {"a": 1}}
    assert n == Node(1, "", 0, duration_micros=11, attrs={"k": 7})


def test_every_attribute_variant_is_read() -> None:
    def attr(value_field: bytes) -> bytes:
        return h("0a01 76") + value_field  # name "v"

    cases: list[tuple[bytes, object]] = [
        (h("19") + struct.pack("<d", -2.5), -2.5),                 # double_val
        (h("2d") + struct.pack("<f", 0.25), 0.25),                 # float_val
        (h("38 feffffffffffffffff01"), -2),                         # int32_val
        (h("48 feffffffffffffffff01"), -2),                         # int64_val
        (h("58 ffffffff0f"), 2**32 - 1),                            # uint32_val
        (h("68 ffffffffffffffffff01"), 2**64 - 1),                  # uint64_val
        (h("78 03"), -2),                                           # sint32_val (zigzag)
        (h("8801 04"), 2),                                          # sint64_val
        (h("9d01") + struct.pack("<I", 7), 7),                      # fixed32_val
        (h("a901") + struct.pack("<Q", 8), 8),                      # fixed64_val
        (h("bd01") + struct.pack("<i", -9), -9),                    # sfixed32_val
        (h("c901") + struct.pack("<q", -10), -10),                  # sfixed64_val
        (h("d801 01"), True),                                       # bool_val
        (h("ea01 02 6869"), "hi"),                                  # string_val
        (h("fa01 02 0001"), b"\x00\x01"),                           # bytes_val
        (h("52 0e 0a 0c 01 02 ffffffffffffffffff01"), [1, 2, -1]),  # int64_list, packed
        (h("42 04 08 05 08 06"), [5, 6]),                           # int32_list, unpacked
        (h("22 0a 0a08") + struct.pack("<d", 1.5), [1.5]),          # double_list, packed
        (h("f201 06 0a01 61 0a01 62"), ["a", "b"]),                 # string_list
        (h("e201 04 0a02 0100"), [True, False]),                    # bool_list
        (h("72 00"), []),                                           # empty uint64_list
    ]
    for field_bytes, value in cases:
        buf = attr(field_bytes)
        assert chakra.decode_attr(buf, 0, len(buf)) == ("v", value), field_bytes.hex()
    # An attribute without a value is dropped from the node.
    node = h("52 03 0a01 76")
    assert chakra.decode_node(node, 0, len(node)).attrs == {}


FIXTURES = PYTHON_DIR.parent / "test" / "data" / "chakra-generator"


@pytest.mark.skipif(not (FIXTURES / "ALL_REDUCE.0.et").is_file(),
                    reason="no traces from Chakra's generator in test/data/chakra-generator")
def test_reads_traces_written_by_chakra() -> None:
    for path in sorted(FIXTURES.glob("*.et")):
        metadata, nodes = chakra.read_trace(path)
        assert metadata["version"] and nodes, path
    _, (n,) = chakra.read_trace(FIXTURES / "ALL_REDUCE.0.et")
    assert n.type == NodeType.COMM_COLL_NODE
    assert (n.attrs["comm_type"], n.attrs["comm_size"]) == (CommType.ALL_REDUCE, 65536)
    _, (a, b) = chakra.read_trace(FIXTURES / "two_comp_nodes_dependent.0.et")
    assert b.data_deps == [a.id] and a.duration_micros == b.duration_micros == 5
    every = FIXTURES / "one_metadata_node_all_types.0.et"
    if every.is_file():
        attrs = chakra.read_trace(every)[1][0].attrs
        assert attrs["sint64"] == -9876543210 and attrs["sfixed32_list"] == [12345, -23456]
        assert attrs["bool_list"][:2] == [True, False] and attrs["bytes"] == b"12345"


# --------------------------------------------------------------------------------------------
# What the reader refuses


def test_truncated_file_names_the_file_and_offset(tmp_path: Path) -> None:
    nodes = chakra.data_parallel(1, 2, 10, 1000)[0]
    whole = chakra.encode_trace(nodes)
    last = len(chakra.encode_trace(nodes[:-1]))  # where the last message's length starts
    path = tmp_path / "cut.0.et"
    path.write_bytes(whole[:-3])
    with pytest.raises(ValueError, match=rf"cut\.0\.et: byte {last}: truncated") as e:
        chakra.read_trace(path)
    assert isinstance(e.value, chakra.TraceFormatError) and e.value.offset == last
    path.write_bytes(whole[:last] + h("ff"))  # a length varint cut short
    with pytest.raises(ValueError, match=rf"byte {last}: truncated varint"):
        chakra.read_trace(path)


@pytest.mark.parametrize("node,offset,reason", [
    ("12 05 61", 0, "field 2: truncated"),        # name claims 5 bytes, 1 left in the node
    ("08 01 1b", 2, "field 3: unsupported wire type 3"),   # a group
    ("08 01 00", 2, "field number 0"),
    ("0a 01 01", 0, "field 1: wire type 2, expected 0"),  # id as length-delimited
    ("12 02 c328", 2, "field 2: invalid UTF-8"),
    ("52 03 0a02 68", 2, "field 1: truncated"),  # attr's name overruns the attr
    ("09 0102", 0, "field 1: truncated"),          # fixed64 with 2 bytes
])
def test_malformed_node_offsets(tmp_path: Path, node: str, offset: int, reason: str) -> None:
    meta = chakra.encode_metadata()
    body = h(node)
    path = tmp_path / "bad.0.et"
    path.write_bytes(framed(meta, body))
    start = len(framed(meta)) + len(chakra.encode_varint(len(body)))  # the node's first byte
    with pytest.raises(ValueError, match=rf"bad\.0\.et: byte {start + offset}: {reason}"):
        chakra.read_trace(path)


def test_empty_file_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.0.et"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match="byte 0: empty"):
        chakra.read_trace(path)
    with pytest.raises(OSError):
        chakra.read_trace(tmp_path / "missing.0.et")


# --------------------------------------------------------------------------------------------
# Command line


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, "-m", "mcast4ai.chakra", *args], cwd=PYTHON_DIR,
                          capture_output=True, text=True, timeout=60)


def test_cli_write_and_dump(tmp_path: Path) -> None:
    prefix = tmp_path / "sub" / "dp"
    proc = cli("write", "dp", "--ranks", "16", "--iterations", "2", "--compute-us", "50",
               "--bytes", "1048576", "--out", str(prefix))
    assert proc.returncode == 0, proc.stderr
    assert "wrote 16 traces, 64 nodes" in proc.stdout
    assert sorted(p.name for p in prefix.parent.iterdir()) == sorted(
        f"dp.{r}.et" for r in range(16))
    _, nodes = chakra.read_trace(f"{prefix}.15.et")
    assert nodes == chakra.data_parallel(16, 2, 50, 1048576)[15]

    proc = cli("dump", f"{prefix}.0.et")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["version: 0.0.4", "nodes: 4"]
    assert "COMP_NODE" in lines[2] and "'compute'" in lines[2] and "duration_us=50" in lines[2]
    assert "COMM_COLL_NODE" in lines[3] and "data_deps=[0]" in lines[3]
    assert "comm_type=ALL_REDUCE(0)" in lines[3] and "comm_size=1048576" in lines[3]

    pp = tmp_path / "pp"
    proc = cli("write", "pipeline", "--ranks", "4", "--microbatches", "8", "--compute-us",
               "20", "--bytes", "262144", "--out", str(pp))
    assert proc.returncode == 0, proc.stderr
    assert chakra.read_trace(f"{pp}.3.et")[1] == chakra.pipeline(4, 8, 20, 262144)[3]
    proc = cli("dump", f"{pp}.1.et")
    assert proc.returncode == 0 and "comm_src=0 comm_tag=0" in proc.stdout

    proc = cli("write", "dp", "--ranks", "2", "--iterations", "1", "--compute-us", "0",
               "--bytes", "8", "--comm", "broadcast", "--out", str(tmp_path / "b"))
    assert proc.returncode == 0, proc.stderr
    assert "BROADCAST(5)" in cli("dump", str(tmp_path / "b.1.et")).stdout


@pytest.mark.parametrize("args,message", [
    (["write", "dp", "--ranks", "0", "--iterations", "1", "--compute-us", "1", "--bytes", "1",
      "--out", "X"], "--ranks: 0: expected 1 or more"),
    (["write", "dp", "--ranks", "2", "--iterations", "1", "--compute-us", "1", "--bytes", "1",
      "--comm", "allreduce", "--out", "X"], "--comm"),
    (["write", "dp", "--ranks", "2", "--iterations", "x", "--compute-us", "1", "--bytes", "1",
      "--out", "X"], "'x' is not an integer"),
    (["write", "dp", "--ranks", "2", "--iterations", "1", "--compute-us", "1", "--bytes", "1"],
     "--out"),
    (["write", "pipeline", "--ranks", "1", "--microbatches", "1", "--compute-us", "1",
      "--bytes", "1", "--out", "X"], "--ranks: 1: expected 2 or more"),
    (["write", "pipeline", "--ranks", "2", "--microbatches", "1", "--compute-us", "-1",
      "--bytes", "1", "--out", "X"], "--compute-us"),
    (["write"], "kind"),
    ([], "command"),
    (["dump", "/nonexistent/x.0.et"], "error: [Errno 2]"),
])
def test_cli_bad_arguments_exit_2(args: list[str], message: str) -> None:
    proc = cli(*args)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stdout == ""


def test_cli_dump_of_a_malformed_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.0.et"
    path.write_bytes(framed(chakra.encode_metadata(), h("08")))
    proc = cli("dump", str(path))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {path}: byte 10: truncated varint"


# --------------------------------------------------------------------------------------------
# Against protobuf itself (Debian's python3-protobuf), when installed


def protobuf_classes() -> dict[str, type]:
    """Message classes for a subset of et_def.proto, from a descriptor built here."""
    pytest.importorskip("google.protobuf")
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    F = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="mcast4ai_chakra_test.proto",
                                             package="ChakraTest", syntax="proto3")
    enum = fdp.enum_type.add(name="NodeType")
    for t in NodeType:
        enum.value.add(name=t.name, number=int(t))

    def add(msg: descriptor_pb2.DescriptorProto, name: str, number: int, type_: int,
            repeated: bool = False, type_name: str = "", oneof: bool = False) -> None:
        f = msg.field.add(name=name, number=number, type=type_,
                          label=F.LABEL_REPEATED if repeated else F.LABEL_OPTIONAL)
        if type_name:
            f.type_name = type_name
        if oneof:
            f.oneof_index = 0

    lst = fdp.message_type.add(name="Int64List")
    add(lst, "values", 1, F.TYPE_INT64, repeated=True)
    attr = fdp.message_type.add(name="AttributeProto")
    attr.oneof_decl.add(name="value")
    add(attr, "name", 1, F.TYPE_STRING)
    for name, number, type_ in [("double_val", 3, F.TYPE_DOUBLE), ("int32_val", 7, F.TYPE_INT32),
                                ("int64_val", 9, F.TYPE_INT64), ("sint64_val", 17, F.TYPE_SINT64),
                                ("bool_val", 27, F.TYPE_BOOL), ("string_val", 29, F.TYPE_STRING)]:
        add(attr, name, number, type_, oneof=True)
    add(attr, "int64_list", 10, F.TYPE_MESSAGE, type_name=".ChakraTest.Int64List", oneof=True)
    meta = fdp.message_type.add(name="GlobalMetadata")
    add(meta, "version", 1, F.TYPE_STRING)
    add(meta, "attr", 2, F.TYPE_MESSAGE, repeated=True, type_name=".ChakraTest.AttributeProto")
    node = fdp.message_type.add(name="Node")
    add(node, "id", 1, F.TYPE_UINT64)
    add(node, "name", 2, F.TYPE_STRING)
    add(node, "type", 3, F.TYPE_ENUM, type_name=".ChakraTest.NodeType")
    add(node, "ctrl_deps", 4, F.TYPE_UINT64, repeated=True)
    add(node, "data_deps", 5, F.TYPE_UINT64, repeated=True)
    add(node, "start_time_micros", 6, F.TYPE_UINT64)
    add(node, "duration_micros", 7, F.TYPE_UINT64)
    add(node, "attr", 10, F.TYPE_MESSAGE, repeated=True, type_name=".ChakraTest.AttributeProto")

    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    classes = {}
    for name in ("Node", "GlobalMetadata"):
        desc = pool.FindMessageTypeByName(f"ChakraTest.{name}")
        if hasattr(message_factory, "GetMessageClass"):
            classes[name] = message_factory.GetMessageClass(desc)
        else:  # protobuf < 4.22
            classes[name] = message_factory.MessageFactory(pool).GetPrototype(desc)
    return classes


def test_agrees_with_protobuf() -> None:
    classes = protobuf_classes()
    PbNode = classes["Node"]
    nodes = (chakra.data_parallel(1, 2, 5, 1 << 30, "broadcast")[0]
             + chakra.pipeline(3, 2, 7, 65536)[1]
             + [Node(2**64 - 1, "ünïcode", NodeType.CHECKPOINT_NODE, [1, 2**40], [3],
                     start_time_micros=9, attrs={"neg": -(2**63), "s": "", "f": 1e-3})])
    for node in nodes:
        ours = chakra.encode_node(node)
        pb = PbNode()
        pb.ParseFromString(ours)
        assert pb.SerializeToString(deterministic=True) == ours
        assert (pb.id, pb.name, pb.type, list(pb.data_deps), list(pb.ctrl_deps),
                pb.duration_micros, pb.start_time_micros) == (
            node.id, node.name, node.type, node.data_deps, node.ctrl_deps,
            node.duration_micros, node.start_time_micros)
        for a in pb.attr:
            assert getattr(a, a.WhichOneof("value")) == node.attrs[a.name]
        for a in pb.attr:
            if a.name in chakra.INT32_ATTRS:
                assert a.WhichOneof("value") == "int32_val"

    # protobuf's bytes, read by ours: values the writer does not produce included.
    pb = PbNode(id=5, name="n", type=NodeType.COMM_RECV_NODE, data_deps=[1, 300],
                duration_micros=2**33)
    pb.attr.add(name="z", sint64_val=-3)
    pb.attr.add(name="d", double_val=2.5)
    pb.attr.add(name="l").int64_list.values.extend([4, -4])
    data = pb.SerializeToString()
    assert chakra.decode_node(data, 0, len(data)) == Node(
        5, "n", NodeType.COMM_RECV_NODE, [1, 300], duration_micros=2**33,
        attrs={"z": -3, "d": 2.5, "l": [4, -4]})

    meta = classes["GlobalMetadata"]()
    meta.ParseFromString(chakra.encode_metadata(attrs={"k": 1}))
    assert meta.version == "0.0.4" and meta.attr[0].int64_val == 1
