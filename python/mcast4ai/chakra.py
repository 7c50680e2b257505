"""MLCommons Chakra execution traces (ET), written and read without protobuf or Chakra's code.

Why: a workload described as a Chakra graph (what ASTRA-sim and Chakra's converters exchange)
is what the simulator reads to replay an AI job's dependencies. Generating and checking those
files should need nothing beyond the standard library, so this module encodes the protobuf
wire format by hand: varints, length-delimited fields and the fixed 32/64-bit ones.

The file format is Chakra's: one file per rank, `<prefix>.<rank>.et`, a sequence of messages
each preceded by its length as a varint; the first is a GlobalMetadata, then one Node per node.
Field numbers follow Chakra's public schema, schema/protobuf/et_def.proto (package
ChakraProtoMsg, proto3). The subset covered:

- GlobalMetadata: version (1), attr (2).
- Node: id (1), name (2), type (3), ctrl_deps (4), data_deps (5), start_time_micros (6),
  duration_micros (7), attr (10). inputs/outputs (8, 9, IOInfo), storage (11) and any other
  field are skipped when read and never written.
- AttributeProto: name (1) and one value. Written: int64_val (9) for ints, int32_val (7) for
  the int32 attributes of INT32_ATTRS, bool_val (27), string_val (29), double_val (3) for
  floats, bytes_val (31). Read: every scalar variant (3..31, odd) and every list variant
  (4..32, even; packed or unpacked), a list as a Python list; doc_string (2) is skipped.

Deps are written packed and read packed or unpacked (both are legal protobuf). A truncated or
malformed file raises TraceFormatError (a ValueError) naming the file and the byte offset.

The command line:

    python3 -m mcast4ai.chakra write dp --ranks N --iterations I --compute-us US --bytes B
                                        [--comm all_reduce|all_gather|reduce_scatter|
                                                all_to_all|broadcast] --out PREFIX
    python3 -m mcast4ai.chakra write pipeline --ranks N --microbatches M --compute-us US
                                              --bytes B --out PREFIX
    python3 -m mcast4ai.chakra dump FILE
"""
from __future__ import annotations

import argparse
import enum
import os
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Sequence, Union

SCHEMA_VERSION = "0.0.4"

U64_MAX = 2**64 - 1
I64_MIN, I64_MAX = -(2**63), 2**63 - 1
I32_MIN, I32_MAX = -(2**31), 2**31 - 1

# Attributes written as int32_val, the type Chakra's schema users give them (peer ranks, tags);
# every other int attribute is written as int64_val. The reader takes any integer variant.
INT32_ATTRS = frozenset({"comm_src", "comm_dst", "comm_tag", "root"})

AttrValue = Union[int, bool, str, float, bytes, list]


class NodeType(enum.IntEnum):
    INVALID_NODE = 0
    METADATA_NODE = 1
    MEM_LOAD_NODE = 2
    MEM_STORE_NODE = 3
    COMP_NODE = 4
    COMM_SEND_NODE = 5
    COMM_RECV_NODE = 6
    COMM_COLL_NODE = 7
    STORAGE_NODE = 8
    BATCH_NODE = 9
    CHECKPOINT_NODE = 10


class CommType(enum.IntEnum):
    """CollectiveCommType: the value of a COMM_COLL_NODE's "comm_type" attribute."""

    ALL_REDUCE = 0
    REDUCE = 1
    ALL_GATHER = 2
    GATHER = 3
    SCATTER = 4
    BROADCAST = 5
    ALL_TO_ALL = 6
    REDUCE_SCATTER = 7
    REDUCE_SCATTER_BLOCK = 8
    BARRIER = 9


# The collectives the builders and the command line offer, by their command-line name.
COLLECTIVES = {
    "all_reduce": CommType.ALL_REDUCE,
    "all_gather": CommType.ALL_GATHER,
    "reduce_scatter": CommType.REDUCE_SCATTER,
    "all_to_all": CommType.ALL_TO_ALL,
    "broadcast": CommType.BROADCAST,
}


@dataclass
class Node:
    """One node of a rank's graph. type is a NodeType value; deps name node ids of the same
    rank; attrs maps attribute names to values (see the module docstring for the encodings)."""

    id: int
    name: str
    type: int
    data_deps: list[int] = field(default_factory=list)
    ctrl_deps: list[int] = field(default_factory=list)
    duration_micros: int = 0
    attrs: dict[str, AttrValue] = field(default_factory=dict)
    start_time_micros: int = 0


class TraceFormatError(ValueError):
    """A truncated or malformed trace: where (the file, the byte offset) and what."""

    def __init__(self, offset: int, reason: str, path: str | Path | None = None) -> None:
        self.offset, self.reason, self.path = offset, reason, path
        where = f"{path}: " if path is not None else ""
        super().__init__(f"{where}byte {offset}: {reason}")


# --------------------------------------------------------------------------------------------
# The wire format

VARINT, I64, LEN, I32 = 0, 1, 2, 5  # wire types (3 and 4, groups, are not proto3)


def encode_varint(value: int) -> bytes:
    """An unsigned integer below 2**64 as a base-128 varint, least significant group first."""
    if not 0 <= value <= U64_MAX:
        raise ValueError(f"varint {value} outside 0..2**64-1")
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def encode_signed(value: int) -> bytes:
    """An int32/int64 value as protobuf writes it: a negative one as its 64-bit two's
    complement (ten bytes)."""
    if not I64_MIN <= value <= I64_MAX:
        raise ValueError(f"integer {value} outside the int64 range")
    return encode_varint(value & U64_MAX)


def decode_varint(buf: bytes, pos: int, end: int | None = None) -> tuple[int, int]:
    """The varint at buf[pos:] (not reading at or past end): (value, position after it)."""
    end = len(buf) if end is None else end
    value, shift, start = 0, 0, pos
    while True:
        if pos >= end:
            raise TraceFormatError(start, "truncated varint")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
        if shift >= 70:
            raise TraceFormatError(start, "varint longer than 10 bytes")
    if value > U64_MAX:
        raise TraceFormatError(start, "varint larger than 64 bits")
    return value, pos


def _tag(number: int, wire: int) -> bytes:
    return encode_varint(number << 3 | wire)


def _len_field(number: int, payload: bytes) -> bytes:
    return _tag(number, LEN) + encode_varint(len(payload)) + payload


class _Field(NamedTuple):
    """A field as found: its tag's offset, number and wire type; for VARINT its value, else
    the span [start, stop) of its payload (the bytes after a LEN field's length)."""

    offset: int
    number: int
    wire: int
    value: int
    start: int
    stop: int


def _fields(buf: bytes, pos: int, end: int) -> Iterator[_Field]:
    """The fields of the message buf[pos:end], each checked to lie inside it."""
    while pos < end:
        offset = pos
        key, pos = decode_varint(buf, pos, end)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise TraceFormatError(offset, "field number 0")
        value = 0
        if wire == VARINT:
            start = pos
            value, pos = decode_varint(buf, pos, end)
            stop = pos
        elif wire in (I64, I32):
            start, stop = pos, pos + (8 if wire == I64 else 4)
        elif wire == LEN:
            length, start = decode_varint(buf, pos, end)
            stop = start + length
        else:
            raise TraceFormatError(offset, f"field {number}: unsupported wire type {wire}")
        if stop > end:
            raise TraceFormatError(offset, f"field {number}: truncated: {stop - start} bytes "
                                   f"wanted, {max(0, end - start)} left")
        pos = stop
        yield _Field(offset, number, wire, value, start, stop)


def _expect(f: _Field, wire: int) -> None:
    if f.wire != wire:
        raise TraceFormatError(f.offset, f"field {f.number}: wire type {f.wire}, "
                               f"expected {wire}")


def _text(buf: bytes, f: _Field) -> str:
    _expect(f, LEN)
    try:
        return bytes(buf[f.start:f.stop]).decode("utf-8")
    except UnicodeDecodeError as e:
        raise TraceFormatError(f.start + e.start, f"field {f.number}: invalid UTF-8") from None


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _zigzag(value: int) -> int:
    return (value >> 1) ^ -(value & 1)


# The scalar kinds of AttributeProto's value, by field number: (native wire type, conversion
# of the raw varint or fixed-width bytes). The list variant of field n is n + 1.
_VARINT_KINDS: dict[int, Callable[[int], AttrValue]] = {
    7: lambda v: _signed(v, 32),            # int32
    9: lambda v: _signed(v, 64),            # int64
    11: lambda v: v & 0xFFFFFFFF,           # uint32
    13: lambda v: v,                        # uint64
    15: lambda v: _zigzag(v & 0xFFFFFFFF),  # sint32
    17: _zigzag,                            # sint64
    27: lambda v: v != 0,                   # bool
}
_FIXED_KINDS: dict[int, str] = {3: "<d", 5: "<f", 19: "<I", 21: "<Q", 23: "<i", 25: "<q"}
_LEN_KINDS = (29, 31)  # string, bytes


def _scalar(buf: bytes, f: _Field, kind: int) -> AttrValue:
    """The value of field f read as the scalar kind (an AttributeProto value field number)."""
    if kind in _VARINT_KINDS:
        _expect(f, VARINT)
        return _VARINT_KINDS[kind](f.value)
    if kind in _FIXED_KINDS:
        fmt = _FIXED_KINDS[kind]
        _expect(f, I64 if struct.calcsize(fmt) == 8 else I32)
        return struct.unpack(fmt, buf[f.start:f.stop])[0]
    if kind == 29:
        return _text(buf, f)
    _expect(f, LEN)
    return bytes(buf[f.start:f.stop])


def _packed(buf: bytes, f: _Field, kind: int) -> list[AttrValue]:
    """The elements of a packed repeated field of a varint or fixed-width kind."""
    if kind in _VARINT_KINDS:
        out, pos = [], f.start
        while pos < f.stop:
            start = pos
            v, pos = decode_varint(buf, pos, f.stop)
            out.append(_scalar(buf, _Field(start, f.number, VARINT, v, start, pos), kind))
        return out
    fmt = _FIXED_KINDS[kind]
    size = struct.calcsize(fmt)
    if (f.stop - f.start) % size:
        raise TraceFormatError(f.offset, f"field {f.number}: packed length {f.stop - f.start} "
                               f"not a multiple of {size}")
    return [v for (v,) in struct.iter_unpack(fmt, buf[f.start:f.stop])]


def _repeated(buf: bytes, f: _Field, kind: int, into: list) -> None:
    """Append the element(s) of one occurrence of a repeated field: packed or not."""
    if f.wire == LEN and kind not in _LEN_KINDS:
        into.extend(_packed(buf, f, kind))
    else:
        into.append(_scalar(buf, f, kind))


# --------------------------------------------------------------------------------------------
# Messages


def encode_attr(name: str, value: AttrValue) -> bytes:
    """An AttributeProto: bool -> bool_val, int -> int64_val (int32_val for INT32_ATTRS),
    str -> string_val, float -> double_val, bytes -> bytes_val."""
    out = _len_field(1, name.encode("utf-8"))
    if isinstance(value, bool):
        return out + _tag(27, VARINT) + encode_varint(int(value))
    if isinstance(value, int):
        if name in INT32_ATTRS:
            if not I32_MIN <= value <= I32_MAX:
                raise ValueError(f"attribute {name}={value}: outside the int32 range")
            return out + _tag(7, VARINT) + encode_signed(value)
        return out + _tag(9, VARINT) + encode_signed(value)
    if isinstance(value, str):
        return out + _len_field(29, value.encode("utf-8"))
    if isinstance(value, float):
        return out + _tag(3, I64) + struct.pack("<d", value)
    if isinstance(value, bytes):
        return out + _len_field(31, value)
    raise ValueError(f"attribute {name}: cannot write a {type(value).__name__} "
                     "(int, bool, str, float or bytes)")


def decode_attr(buf: bytes, start: int, stop: int) -> tuple[str, AttrValue | None]:
    """An AttributeProto at buf[start:stop]: (name, value); None when it has no value."""
    name, value = "", None
    for f in _fields(buf, start, stop):
        if f.number == 1:
            name = _text(buf, f)
        elif 3 <= f.number <= 31 and f.number % 2 == 1:
            value = _scalar(buf, f, f.number)
        elif 4 <= f.number <= 32 and f.number % 2 == 0:
            _expect(f, LEN)
            kind, items = f.number - 1, []
            for g in _fields(buf, f.start, f.stop):
                if g.number == 1:
                    _repeated(buf, g, kind, items)
            value = items
    return name, value


def _uint(f: _Field) -> int:
    _expect(f, VARINT)
    return f.value


def encode_node(node: Node) -> bytes:
    """A Node message; fields at their proto3 defaults (0, "", []) are left out, as protobuf
    does."""
    out = bytearray()
    if node.id:
        out += _tag(1, VARINT) + encode_varint(node.id)
    if node.name:
        out += _len_field(2, node.name.encode("utf-8"))
    if node.type:
        if not 0 <= node.type <= I32_MAX:
            raise ValueError(f"node {node.id}: type {node.type} is not a NodeType")
        out += _tag(3, VARINT) + encode_varint(int(node.type))
    for number, deps in ((4, node.ctrl_deps), (5, node.data_deps)):
        if deps:
            out += _len_field(number, b"".join(encode_varint(d) for d in deps))
    if node.start_time_micros:
        out += _tag(6, VARINT) + encode_varint(node.start_time_micros)
    if node.duration_micros:
        out += _tag(7, VARINT) + encode_varint(node.duration_micros)
    for name, value in node.attrs.items():
        out += _len_field(10, encode_attr(name, value))
    return bytes(out)


def decode_node(buf: bytes, start: int, stop: int) -> Node:
    """A Node message at buf[start:stop]."""
    node = Node(0, "", 0)
    for f in _fields(buf, start, stop):
        if f.number == 1:
            node.id = _uint(f)
        elif f.number == 2:
            node.name = _text(buf, f)
        elif f.number == 3:
            node.type = _signed(_uint(f), 32)
        elif f.number in (4, 5):
            _repeated(buf, f, 13, node.ctrl_deps if f.number == 4 else node.data_deps)
        elif f.number == 6:
            node.start_time_micros = _uint(f)
        elif f.number == 7:
            node.duration_micros = _uint(f)
        elif f.number == 10:
            _expect(f, LEN)
            name, value = decode_attr(buf, f.start, f.stop)
            if value is not None:
                node.attrs[name] = value
    return node


def encode_metadata(version: str = SCHEMA_VERSION,
                    attrs: dict[str, AttrValue] | None = None) -> bytes:
    out = _len_field(1, version.encode("utf-8"))
    for name, value in (attrs or {}).items():
        out += _len_field(2, encode_attr(name, value))
    return out


def decode_metadata(buf: bytes, start: int, stop: int) -> dict[str, object]:
    """A GlobalMetadata at buf[start:stop]: {"version": str, "attrs": {name: value}}."""
    version, attrs = "", {}
    for f in _fields(buf, start, stop):
        if f.number == 1:
            version = _text(buf, f)
        elif f.number == 2:
            _expect(f, LEN)
            name, value = decode_attr(buf, f.start, f.stop)
            if value is not None:
                attrs[name] = value
    return {"version": version, "attrs": attrs}


# --------------------------------------------------------------------------------------------
# Files


def trace_path(prefix: str | Path, rank: int) -> Path:
    return Path(f"{prefix}.{rank}.et")


def check_nodes(nodes: Sequence[Node]) -> None:
    """Ids unique, every dep naming a node of the list: a dangling dep would leave a node
    that never runs."""
    ids: set[int] = set()
    for n in nodes:
        if not 0 <= n.id <= U64_MAX:
            raise ValueError(f"node id {n.id} outside 0..2**64-1")
        if n.id in ids:
            raise ValueError(f"node id {n.id} given twice")
        ids.add(n.id)
    for n in nodes:
        for d in list(n.data_deps) + list(n.ctrl_deps):
            if d not in ids:
                raise ValueError(f"node {n.id} ({n.name}) depends on node {d}, not in the trace")


def encode_trace(nodes: Sequence[Node], metadata_attrs: dict[str, AttrValue] | None = None
                 ) -> bytes:
    """The bytes of a trace file: each message preceded by its varint length."""
    out = bytearray()
    for msg in [encode_metadata(attrs=metadata_attrs)] + [encode_node(n) for n in nodes]:
        out += encode_varint(len(msg)) + msg
    return bytes(out)


def write_trace(prefix: str | Path, rank: int, nodes: Sequence[Node],
                metadata_attrs: dict[str, AttrValue] | None = None) -> Path:
    """Write rank's nodes to <prefix>.<rank>.et; returns the path."""
    if rank < 0:
        raise ValueError(f"rank {rank}: expected 0 or more")
    check_nodes(nodes)
    path = trace_path(prefix, rank)
    path.write_bytes(encode_trace(nodes, metadata_attrs))
    return path


def decode_trace(buf: bytes) -> tuple[dict[str, object], list[Node]]:
    """The metadata and nodes of a trace file's bytes (errors without the file's name)."""
    messages: list[tuple[int, int]] = []
    pos = 0
    while pos < len(buf):
        offset = pos
        length, pos = decode_varint(buf, pos)
        if pos + length > len(buf):
            raise TraceFormatError(offset, f"truncated: message of {length} bytes, "
                                   f"{len(buf) - pos} left")
        messages.append((pos, pos + length))
        pos += length
    if not messages:
        raise TraceFormatError(0, "empty: no GlobalMetadata")
    metadata = decode_metadata(buf, *messages[0])
    return metadata, [decode_node(buf, start, stop) for start, stop in messages[1:]]


def read_trace(path: str | Path) -> tuple[dict[str, object], list[Node]]:
    """Read a trace file: ({"version": ..., "attrs": {...}}, nodes in file order). OSError when
    it cannot be read; TraceFormatError (a ValueError) naming the file and byte offset when it
    is truncated or malformed."""
    buf = Path(path).read_bytes()
    try:
        return decode_trace(buf)
    except TraceFormatError as e:
        raise TraceFormatError(e.offset, e.reason, path) from None


# --------------------------------------------------------------------------------------------
# Builders


def _check_counts(**counts: int) -> None:
    for name, (value, minimum) in counts.items():
        if value < minimum:
            raise ValueError(f"{name} {value}: expected {minimum} or more")


def data_parallel(ranks: int, iterations: int, compute_us: int, bytes_: int,
                  comm: str = "all_reduce") -> list[list[Node]]:
    """Data-parallel training: on every rank, each iteration a COMP_NODE "compute"
    (compute_us long, after the previous iteration's collective) then a COMM_COLL_NODE of
    bytes_ (after the compute). With compute_us == 0 there is no compute: the collectives
    chain directly. A broadcast's root is rank 0."""
    _check_counts(ranks=(ranks, 1), iterations=(iterations, 1), compute_us=(compute_us, 0),
                  bytes_=(bytes_, 1))
    if comm not in COLLECTIVES:
        raise ValueError(f"comm {comm!r}: expected one of {', '.join(COLLECTIVES)}")
    coll_attrs: dict[str, AttrValue] = {"comm_type": int(COLLECTIVES[comm]),
                                        "comm_size": bytes_, "is_cpu_op": False}
    if COLLECTIVES[comm] == CommType.BROADCAST:
        coll_attrs["root"] = 0
    nodes: list[Node] = []
    previous: list[int] = []
    for _ in range(iterations):
        if compute_us:
            nodes.append(Node(len(nodes), "compute", NodeType.COMP_NODE, previous,
                              duration_micros=compute_us, attrs={"is_cpu_op": False}))
            previous = [nodes[-1].id]
        nodes.append(Node(len(nodes), comm, NodeType.COMM_COLL_NODE, previous,
                          attrs=dict(coll_attrs)))
        previous = [nodes[-1].id]
    return [_copy(nodes) for _ in range(ranks)]


def pipeline(ranks: int, microbatches: int, compute_us: int, bytes_: int) -> list[list[Node]]:
    """A pipeline-parallel forward pass over ranks stages. For each microbatch m in order,
    stage r receives it from r - 1 (COMM_RECV_NODE, comm_src r - 1, comm_tag m; not on stage
    0), computes it (COMP_NODE, after the receive and after its previous microbatch's
    compute: a stage computes one microbatch at a time) and sends the activation to r + 1
    (COMM_SEND_NODE, comm_dst r + 1, comm_tag m, after the compute; not on the last stage).
    Every message is bytes_. With compute_us == 0 there is no compute: the send follows the
    receive. Ids per rank from 0, in this (topological) order; all deps are data_deps."""
    _check_counts(ranks=(ranks, 2), microbatches=(microbatches, 1),
                  compute_us=(compute_us, 0), bytes_=(bytes_, 1))
    stages: list[list[Node]] = []
    for r in range(ranks):
        nodes: list[Node] = []
        last_compute: list[int] = []
        for m in range(microbatches):
            ready: list[int] = []
            if r > 0:
                nodes.append(Node(len(nodes), f"recv.mb{m}", NodeType.COMM_RECV_NODE, attrs={
                    "comm_src": r - 1, "comm_tag": m, "comm_size": bytes_,
                    "is_cpu_op": False}))
                ready = [nodes[-1].id]
            if compute_us:
                nodes.append(Node(len(nodes), f"compute.mb{m}", NodeType.COMP_NODE,
                                  ready + last_compute, duration_micros=compute_us,
                                  attrs={"is_cpu_op": False}))
                ready = last_compute = [nodes[-1].id]
            if r < ranks - 1:
                nodes.append(Node(len(nodes), f"send.mb{m}", NodeType.COMM_SEND_NODE,
                                  list(ready), attrs={
                                      "comm_dst": r + 1, "comm_tag": m, "comm_size": bytes_,
                                      "is_cpu_op": False}))
        stages.append(nodes)
    return stages


def _copy(nodes: Sequence[Node]) -> list[Node]:
    return [Node(n.id, n.name, n.type, list(n.data_deps), list(n.ctrl_deps),
                 n.duration_micros, dict(n.attrs), n.start_time_micros) for n in nodes]


# --------------------------------------------------------------------------------------------
# Command line


def type_name(value: int) -> str:
    try:
        return NodeType(value).name
    except ValueError:
        return f"NodeType({value})"


def format_value(name: str, value: AttrValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if name == "comm_type" and isinstance(value, int) and value in CommType._value2member_map_:
        return f"{CommType(value).name}({value})"
    if isinstance(value, list):
        return "[" + ", ".join(format_value("", v) for v in value) + "]"
    if isinstance(value, (str, bytes)):
        return repr(value)
    return str(value)


def format_node(node: Node) -> str:
    """One line of `dump`: id, type, name, deps, duration, attributes."""
    parts = [f"{node.id:>5}", f"{type_name(node.type):<14}", repr(node.name),
             f"data_deps={node.data_deps}"]
    if node.ctrl_deps:
        parts.append(f"ctrl_deps={node.ctrl_deps}")
    if node.start_time_micros:
        parts.append(f"start_us={node.start_time_micros}")
    parts.append(f"duration_us={node.duration_micros}")
    parts += [f"{k}={format_value(k, v)}" for k, v in node.attrs.items()]
    return " ".join(parts)


def _at_least(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value}: expected {minimum} or more")
        return value
    return parse


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python3 -m mcast4ai.chakra",
                                description="Write synthetic Chakra execution traces "
                                "(<prefix>.<rank>.et) or dump one.")
    sub = p.add_subparsers(dest="command", required=True)
    write = sub.add_parser("write", help="write one trace per rank")
    kinds = write.add_subparsers(dest="kind", required=True)
    dp = kinds.add_parser("dp", help="data parallel: compute then a collective, per iteration")
    pp = kinds.add_parser("pipeline", help="pipeline-parallel forward pass over the ranks")
    for k, min_ranks in ((dp, 1), (pp, 2)):
        k.add_argument("--ranks", type=_at_least(min_ranks), required=True,
                       help="one trace per rank" if k is dp else "pipeline stages")
        if k is dp:
            k.add_argument("--iterations", type=_at_least(1), required=True)
        else:
            k.add_argument("--microbatches", type=_at_least(1), required=True)
        k.add_argument("--compute-us", type=_at_least(0), required=True,
                       help="each compute node's duration (0: no compute nodes)")
        k.add_argument("--bytes", type=_at_least(1), required=True,
                       help="each collective's comm_size" if k is dp
                       else "each activation's comm_size")
        if k is dp:
            k.add_argument("--comm", choices=list(COLLECTIVES), default="all_reduce",
                           help="the collective (default all_reduce; broadcast's root: 0)")
        k.add_argument("--out", required=True, metavar="PREFIX",
                       help="files PREFIX.0.et, PREFIX.1.et, ... (directories created)")
    dump = sub.add_parser("dump", help="print a trace file's metadata and nodes")
    dump.add_argument("file")
    return p


def write_command(args: argparse.Namespace) -> int:
    if args.kind == "dp":
        per_rank = data_parallel(args.ranks, args.iterations, args.compute_us, args.bytes,
                                 args.comm)
    else:
        per_rank = pipeline(args.ranks, args.microbatches, args.compute_us, args.bytes)
    try:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        paths = [write_trace(args.out, rank, nodes) for rank, nodes in enumerate(per_rank)]
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    count = sum(len(n) for n in per_rank)
    print(f"wrote {len(paths)} traces, {count} nodes: {paths[0]} .. {paths[-1]}")
    return 0


def dump_command(args: argparse.Namespace) -> int:
    try:
        metadata, nodes = read_trace(args.file)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"version: {metadata['version']}")
    attrs = metadata["attrs"]
    assert isinstance(attrs, dict)
    for k, v in attrs.items():
        print(f"attr {k}={format_value(k, v)}")
    print(f"nodes: {len(nodes)}")
    for n in nodes:
        print(format_node(n))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)  # exits 2 on bad arguments
    try:
        return write_command(args) if args.command == "write" else dump_command(args)
    except BrokenPipeError:  # `dump FILE | head`
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
