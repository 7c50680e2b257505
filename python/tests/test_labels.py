"""Readable names, units, configuration labels and the 'max of n' rule for statistics."""
import math

import pytest

from mcast4ai import labels


@pytest.mark.parametrize("column,unit", [
    ("w0.duration_us.p99", "µs"), ("duration_us", "µs"), ("sim_time_s", "s"),
    ("network.header_bytes", "bytes"), ("net_bytes", "bytes"),
    ("network.switch_state.bift_entries", "entries"), ("peak_rss_mb", "MB"),
    ("network.acks_per_data_packet", "ratio"), ("network.acks_at_senders", "count"),
    ("w1.receiver_completion_us.count", "count"),
])
def test_unit_of(column: str, unit: str) -> None:
    assert labels.unit_of(column) == unit


@pytest.mark.parametrize("column,name", [
    ("w0.duration_us.p99", "completion time p99"),
    ("w0.duration_us.p999", "completion time p99.9"),
    ("w1.duration_us.p50", "w1 completion time p50"),
    ("duration_us", "completion time"),
    ("queue_us", "queueing delay"),
    ("network.header_bytes", "header bytes"),
    ("network.switch_state.group_table_live_peak_max", "switch state group table live peak max"),
    ("w0.dispatch_us.max", "dispatch phase max"),
    ("w2.some_new_thing_us.mean", "w2 some new thing mean"),
])
def test_pretty(column: str, name: str) -> None:
    assert labels.pretty(column) == name


def test_axis_label_has_a_unit_except_for_counts() -> None:
    assert labels.axis_label("w0.duration_us.p99") == "completion time p99 (µs)"
    assert labels.axis_label("network.header_bytes") == "header bytes (bytes)"
    assert labels.axis_label("network.acks_at_senders") == "ACKs at senders"
    assert labels.axis_label("workloads[0].bytes", "flow size") == "flow size (bytes)"


def test_percentile_label_is_max_of_n_below_the_samples_a_percentile_needs() -> None:
    assert labels.percentile_label("p99", [16, 16]) == "max of 16"
    assert labels.percentile_label("p99", [8, 16]) == "max of 8–16"
    assert labels.percentile_label("p99", [100, 250]) == "p99"
    assert labels.percentile_label("p99", [64, 128]) == "p99 (max where n < 100)"
    assert labels.percentile_label("p999", [500]) == "max of 500"
    assert labels.percentile_label("p999", [1000]) == "p99.9"
    assert labels.percentile_label("p50", [1]) == "max of 1"
    assert labels.percentile_label("p50", [2]) == "p50"
    # Not a percentile, or counts unknown: the statistic's own name.
    assert labels.percentile_label("mean", [3]) == "mean"
    assert labels.percentile_label("max", [3]) == "max"
    assert labels.percentile_label("p99", None) == "p99"
    for counts in ([1], [16], [99], [5, 99]):
        assert "p99" not in labels.percentile_label("p99", counts)


def test_values_as_text() -> None:
    assert labels.value_text(65536.0) == "65536"
    assert labels.value_text(0.5) == "0.5"
    assert labels.value_text(None) == labels.value_text(math.nan) == "none"
    assert labels.bytes_text(65536) == "64 KiB"
    assert labels.bytes_text(3 * 2 ** 20) == "3 MiB"
    assert labels.bytes_text(1000) == "1000"
    assert labels.key_value_text("workloads[0].bytes", 131072) == "128 KiB"
    assert labels.key_value_text("p2mp.mechanism", "bier") == "bier"


def test_short_keys_are_unique_suffixes() -> None:
    assert labels.short_keys(["p2mp.mechanism", "p2mp.ack_aggregation"]) == {
        "p2mp.mechanism": "mechanism", "p2mp.ack_aggregation": "ack_aggregation"}
    assert labels.short_keys(["workloads[0].bytes", "workloads[1].bytes"]) == {
        "workloads[0].bytes": "workloads[0].bytes", "workloads[1].bytes": "workloads[1].bytes"}
    assert labels.short_keys(["a.x.bytes", "b.y.bytes", "seed"]) == {
        "a.x.bytes": "x.bytes", "b.y.bytes": "y.bytes", "seed": "seed"}


def test_configuration_label() -> None:
    assert labels.configuration_label(["p2mp.mechanism"], ["bier"]) == "bier"
    assert labels.configuration_label(["workloads[0].bytes"], [65536]) == "64 KiB"
    assert labels.configuration_label(["p2mp.mechanism", "p2mp.ack_aggregation"],
                                      ["bier", "none"]) == "mechanism=bier, ack_aggregation=none"
    assert labels.configuration_label(["p2mp.mechanism", "workloads[0].bytes"],
                                      ["unicast", 32768.0]) == "mechanism=unicast, bytes=32 KiB"


def test_where_text() -> None:
    assert labels.where_text([]) == ""
    assert labels.where_text([("workloads[0].bytes", "131072"), ("seed", "1")]) == \
        "where workloads[0].bytes=131072, seed=1"
    assert labels.where_text({"p2mp.mechanism": "bier"}) == "where p2mp.mechanism=bier"
