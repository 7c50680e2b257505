"""Readable names and units of the sweep database's columns, for axes, legends and titles.

A `runs` metric is summary.json's number flattened with dots (``network.header_bytes``,
``w0.duration_us.p99``), an `ops` column is an ops.csv column (``duration_us``, ``queue_us``).
The unit comes from the name (``*_us`` µs, ``*bytes*`` bytes, ...); the readable name from
:data:`NAMES`, else from the name itself (underscores as blanks, the unit suffix left out).
The first workload's prefix ``w0.`` is left out of a name, other workloads keep theirs
(``w1 completion time p99``).
"""
from __future__ import annotations

import math
import re
from typing import Any, Mapping, Sequence

from . import stats

STATS = ("p50", "p95", "p99", "p999", "max", "mean")
PERCENTILES = {"p50": 50.0, "p95": 95.0, "p99": 99.0, "p999": 99.9}

# Readable names of metrics, by their name without workload prefix and statistic.
NAMES: dict[str, str] = {
    "network.acks_at_senders": "ACKs at senders",
    "network.acks_per_data_packet": "ACKs at senders / data packet",
    "network.header_bytes": "header bytes",
    "network.link_bytes": "bytes on all links",
    "network.switch_state_peak_sum": "switch state (peak)",
    "network.data_packets": "data packets",
    "network.retransmissions": "retransmissions",
    "network.drops": "drops",
    "network.ecn_marks": "ECN marks",
    "network.cnps": "CNPs",
    "duration_us": "completion time",
    "receiver_completion_us": "receiver completion time",
    "queue_us": "queueing delay",
    "queue_max_us": "longest queueing wait",
    "pause_us": "PFC pause",
    "net_bytes": "bytes on links",
    "dispatch_us": "dispatch phase",
    "combine_us": "combine phase",
    "layer_us": "MoE layer",
    "ttft_us": "time to first token",
    "tpot_us": "time per output token",
    "kv_transfer_us": "KV-cache transfer",
    "token_us": "token latency",
    "wall_s": "wall-clock time",
    "sim_time_s": "simulated time",
    "peak_rss_mb": "peak memory",
}

# (name suffix, unit), the first that matches.
UNIT_SUFFIXES = (("_us", "µs"), ("_ms", "ms"), ("_ns", "ns"), ("_s", "s"), ("_mb", "MB"),
                 ("_gbps", "Gb/s"), ("_bits", "bits"), ("_pct", "%"))
UNITLESS = ("count", "ratio")


def split_stat(column: str) -> tuple[str, str | None]:
    """'w0.duration_us.p99' -> ('w0.duration_us', 'p99'); a name without statistic -> None."""
    base, _, last = column.rpartition(".")
    if base and last in STATS + ("count",):
        return base, last
    return column, None


def split_workload(column: str) -> tuple[int | None, str]:
    """'w1.duration_us.p99' -> (1, 'duration_us.p99'); no wI. prefix -> (None, column)."""
    m = re.fullmatch(r"w(\d+)\.(.+)", column)
    if m:
        return int(m.group(1)), m.group(2)
    return None, column


def unit_of(column: str) -> str:
    """The unit of a column, from its name: *_us µs, *bytes bytes, *entries* entries, ...;
    'ratio' for *_per_*, else 'count'."""
    column = column.partition("@")[0]  # an ops column of one phase: COLUMN@PHASE
    base, stat = split_stat(column)
    if stat == "count":
        return "count"
    last = base.split(".")[-1].lower()
    for suffix, unit in UNIT_SUFFIXES:
        if last.endswith(suffix):
            return unit
    if "bytes" in last:
        return "bytes"
    if "entries" in last:
        return "entries"
    if "_per_" in last:
        return "ratio"
    return "count"


def stat_text(stat: str) -> str:
    """How a statistic is written: p999 -> p99.9."""
    return "p99.9" if stat == "p999" else stat


def pretty(column: str) -> str:
    """A readable name: 'w0.duration_us.p99' -> 'completion time p99',
    'network.header_bytes' -> 'header bytes', 'w1.ttft_us.p50' -> 'w1 time to first token
    p50'; unknown names lose their unit suffix and underscores."""
    if column in NAMES:
        return NAMES[column]
    if "@" in column:  # an ops column of one phase: COLUMN@PHASE
        base, _, phase = column.partition("@")
        return f"{pretty(base)}, {phase}"
    workload, rest = split_workload(column)
    base, stat = split_stat(rest)
    name = NAMES.get(base)
    if name is None:
        name = NAMES.get(f"network.{base}") if workload is None else None
    if name is None:
        parts = base.split(".")
        if parts[0] == "network" and len(parts) > 1:
            parts = parts[1:]
        last = parts[-1]
        for suffix, _ in UNIT_SUFFIXES:
            if last.endswith(suffix) and len(last) > len(suffix):
                last = last[: -len(suffix)]
                break
        name = " ".join(parts[:-1] + [last]).replace("_", " ")
    if stat is not None:
        name = f"{name} {stat_text(stat)}"
    if workload:
        name = f"w{workload} {name}"
    return name


def axis_label(column: str, name: str | None = None) -> str:
    """'completion time p99 (µs)'; a count or a ratio has no unit in parentheses."""
    unit = unit_of(column)
    text = name if name is not None else pretty(column)
    return text if unit in UNITLESS else f"{text} ({unit})"


def percentile_label(stat: str, counts: Sequence[int] | None) -> str:
    """The statistic as it may be called over runs of these sample counts: 'p99' only when
    every count has enough samples for it (stats.samples_needed: 100 for p99); 'max of 16'
    when every count is too small (the nearest-rank p99 of 16 samples is their maximum),
    'max of 8-16' for several such counts; 'p99 (max where n < 100)' for a mix. A statistic
    that is not a percentile, or unknown counts, give the statistic's name."""
    name = stat_text(stat)
    p = PERCENTILES.get(stat)
    if p is None or not counts:
        return name
    needed = stats.samples_needed(p)
    lo, hi = min(counts), max(counts)
    if lo >= needed:
        return name
    if hi < needed:
        return stats.Percentile(p, math.nan, lo).label if lo == hi else f"max of {lo:,}–{hi:,}"
    return f"{name} (max where n < {needed:,})"


def value_text(v: Any) -> str:
    """A value as text: 65536.0 -> '65536', None/NaN -> 'none'."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "none"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def bytes_text(v: Any) -> str:
    """A byte count as text: 65536 -> '64 KiB' (exact multiples only), else value_text."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return value_text(v)
    if math.isnan(f):
        return value_text(v)
    for unit, size in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if f >= size and (f / size).is_integer():
            return f"{int(f / size)} {unit}"
    return value_text(v)


def key_value_text(key: str, v: Any) -> str:
    """A value of a key as text: bytes keys in KiB/MiB/GiB."""
    if key.endswith("bytes") and not isinstance(v, str):
        return bytes_text(v)
    return value_text(v)


def short_keys(keys: Sequence[str]) -> dict[str, str]:
    """{key: the shortest dotted suffix of it that no other key ends in}:
    p2mp.mechanism -> mechanism, workloads[0].bytes -> bytes (workloads[0].bytes and
    workloads[1].bytes stay whole)."""
    out = {}
    for key in keys:
        parts = key.split(".")
        for i in range(len(parts) - 1, -1, -1):
            cand = ".".join(parts[i:])
            if not any(other != key and (other == cand or other.endswith("." + cand))
                       for other in keys):
                out[key] = cand
                break
        else:
            out[key] = key
    return out


def configuration_label(keys: Sequence[str], values: Sequence[Any]) -> str:
    """A configuration's legend label: one key -> its value alone ('bier'; the legend's title
    names the key), several -> 'k1=v1, k2=v2' with short_keys names."""
    if len(keys) == 1:
        return key_value_text(keys[0], values[0])
    short = short_keys(keys)
    return ", ".join(f"{short[k]}={key_value_text(k, v)}" for k, v in zip(keys, values))


def where_text(conditions: Mapping[str, str] | Sequence[tuple[str, str]]) -> str:
    """--where conditions for a title: 'where workloads[0].bytes=131072, seed=1'; '' for none."""
    pairs = list(conditions.items()) if isinstance(conditions, Mapping) else list(conditions)
    if not pairs:
        return ""
    return "where " + ", ".join(f"{k}={v}" for k, v in pairs)
