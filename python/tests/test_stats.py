"""The statistics rules: intervals against closed forms, 'max of n', ties."""
import math

import pytest

from mcast4ai import stats


def test_mean_ci_matches_the_t_closed_form() -> None:
    e = stats.mean_ci([1, 2, 3, 4, 5])
    # s = sqrt(2.5), t(0.975, 4) = 2.7764451
    assert e.mean == 3.0 and e.n == 5
    assert e.half_width == pytest.approx(2.7764451 * math.sqrt(2.5 / 5), rel=1e-6)
    assert e.lo == pytest.approx(3.0 - e.half_width)


def test_one_seed_has_no_interval() -> None:
    e = stats.mean_ci([7.0])
    assert e.half_width is None and e.lo is None
    assert not e.contains(7.0)
    assert "no interval" in stats.fmt_estimate(e, "µs")


@pytest.mark.parametrize("p,needed", [(50, 2), (90, 10), (99, 100), (99.9, 1000)])
def test_samples_needed(p: float, needed: int) -> None:
    assert stats.samples_needed(p) == needed


def test_p99_over_fewer_than_100_samples_is_labelled_max() -> None:
    xs = list(range(1, 17))
    q = stats.percentile(xs, 99)
    assert q.is_max and q.value == 16 and q.label == "max of 16"
    assert "p99" not in q.label


def test_p99_over_enough_samples_is_the_nearest_rank() -> None:
    xs = list(range(1, 201))  # nearest rank of p99 over 200 is the 198th
    q = stats.percentile(reversed(xs), 99)
    assert not q.is_max and q.value == 198 and q.label == "p99 (n=200)"
    assert stats.percentile(range(100), 99).value == 98  # rank 99 of 0..99
    assert stats.percentile(range(100), 99.9).label == "max of 100"


def test_paired_difference_tells_a_consistent_gain_from_noise() -> None:
    a = {1: 10.0, 2: 20.0, 3: 30.0, 4: 15.0}
    lower = stats.paired(a, {s: v - 1.0 + 0.01 * s for s, v in a.items()})
    assert lower.outcome == "lower" and lower.diff.mean < 0
    # The same mean difference with the sign flipping seed to seed is a tie.
    noisy = stats.paired(a, {1: 12.0, 2: 15.0, 3: 33.0, 4: 11.0})
    assert noisy.outcome == "tie"
    # Unpaired means would differ (a's seed 4 is left out), pairing keeps only shared seeds.
    only = stats.paired(a, {1: 11.0, 2: 21.0, 3: 31.0})
    assert only.seeds == (1, 2, 3)
    assert only.diff.mean == 1.0 and only.diff.half_width == 0.0 and only.outcome == "higher"


def test_paired_with_one_seed_is_a_tie() -> None:
    c = stats.paired({1: 1.0}, {1: 100.0})
    assert c.outcome == "tie" and c.diff.half_width is None


def test_paired_without_shared_seeds_fails() -> None:
    with pytest.raises(ValueError):
        stats.paired({1: 1.0}, {2: 1.0})
