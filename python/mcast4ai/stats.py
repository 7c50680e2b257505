"""The statistics every figure of the evaluation goes through.

The rules a reviewer holds the project to, in one place:

- a percentile is computed over the pooled samples and carries their count; one over fewer
  samples than it needs (p99 needs 100, p99.9 needs 1,000) is not a percentile but the largest
  sample, and is labelled "max of n";
- every compared figure has a 95% confidence interval, Student's t over the seeds' values;
- designs are compared paired by seed (the same seed draws the same ECMP hashes, gating and
  arrivals in both), and a difference whose interval contains zero is a tie.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from scipy import stats as _scipy_stats

CONFIDENCE = 0.95


def t_quantile(confidence: float, df: int) -> float:
    """The two-sided Student's t quantile for a confidence level and df degrees of freedom."""
    return float(_scipy_stats.t.ppf(0.5 + confidence / 2.0, df))


@dataclass(frozen=True)
class Estimate:
    """A mean over n independent values (one per seed) with its confidence interval. The
    interval is None when n < 2: one seed says nothing about the spread."""

    mean: float
    n: int
    half_width: float | None

    @property
    def lo(self) -> float | None:
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def hi(self) -> float | None:
        return None if self.half_width is None else self.mean + self.half_width

    def contains(self, value: float) -> bool:
        """Whether value lies inside the interval (an estimate without one contains nothing)."""
        if self.half_width is None:
            return False
        return self.mean - self.half_width <= value <= self.mean + self.half_width

    def to_json(self) -> dict[str, float | int | None]:
        return {"mean": self.mean, "n": self.n, "ci95_lo": self.lo, "ci95_hi": self.hi}


def mean_ci(values: Iterable[float], confidence: float = CONFIDENCE) -> Estimate:
    """The mean of values with its Student's t confidence interval."""
    xs = [float(v) for v in values]
    if not xs:
        raise ValueError("mean_ci: no values")
    n = len(xs)
    mean = math.fsum(xs) / n
    if n < 2:
        return Estimate(mean, n, None)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    return Estimate(mean, n, t_quantile(confidence, n - 1) * math.sqrt(var / n))


@dataclass(frozen=True)
class Comparison:
    """B against A paired by seed: the mean of (B - A) with its interval, and the verdict."""

    diff: Estimate
    a_mean: float
    b_mean: float
    seeds: tuple[int, ...]

    @property
    def outcome(self) -> str:
        """'lower' when B is below A beyond the interval, 'higher' when above, else 'tie'.
        With fewer than two pairs there is no interval, and no difference can be told apart."""
        d = self.diff
        if d.half_width is None or d.contains(0.0):
            return "tie"
        return "lower" if d.mean < 0 else "higher"

    @property
    def ratio(self) -> float | None:
        """B's mean over A's (None when A's is zero)."""
        return None if self.a_mean == 0 else self.b_mean / self.a_mean

    def to_json(self) -> dict[str, object]:
        return {"diff": self.diff.to_json(), "a_mean": self.a_mean, "b_mean": self.b_mean,
                "seeds": list(self.seeds), "outcome": self.outcome}


def paired(a: Mapping[int, float], b: Mapping[int, float],
           confidence: float = CONFIDENCE) -> Comparison:
    """B against A over the seeds both ran. Seeds only one side ran are left out: an unpaired
    seed would compare two draws of the randomness, not two designs."""
    seeds = tuple(sorted(set(a) & set(b)))
    if not seeds:
        raise ValueError("paired: the two sides share no seed")
    diffs = [float(b[s]) - float(a[s]) for s in seeds]
    return Comparison(mean_ci(diffs, confidence),
                      math.fsum(float(a[s]) for s in seeds) / len(seeds),
                      math.fsum(float(b[s]) for s in seeds) / len(seeds), seeds)


def samples_needed(p: float) -> int:
    """The fewest samples for which the nearest-rank p-th percentile (0 < p < 100) is not the
    maximum: 100 for p99, 1,000 for p99.9, 2 for the median."""
    if not 0 < p < 100:
        raise ValueError(f"percentile {p} outside (0, 100)")
    return math.ceil(round(100.0 / (100.0 - p), 9))


@dataclass(frozen=True)
class Percentile:
    """The p-th percentile of n pooled samples, or their maximum when n is too small for it."""

    p: float
    value: float
    n: int

    @property
    def is_max(self) -> bool:
        return self.p >= 100 or self.n < samples_needed(self.p)

    @property
    def label(self) -> str:
        """'p99 (n=1,000)' or 'max of 16': never a p99 that is the largest sample."""
        if self.is_max:
            return f"max of {self.n:,}"
        return f"p{self.p:g} (n={self.n:,})"

    def to_json(self) -> dict[str, object]:
        return {"p": self.p, "value": self.value, "n": self.n, "is_max": self.is_max,
                "label": self.label}


def nearest_rank(sorted_values: Sequence[float], p: float) -> float:
    """The nearest-rank p-th percentile of values sorted ascending."""
    if not sorted_values:
        raise ValueError("nearest_rank: no values")
    rank = max(1, math.ceil(round(p / 100.0 * len(sorted_values), 9)))
    return float(sorted_values[rank - 1])


def maximum(samples: Iterable[float]) -> Percentile:
    """The largest of pooled samples, labelled "max of n"."""
    xs = [float(v) for v in samples]
    if not xs:
        raise ValueError("maximum: no samples")
    return Percentile(100.0, max(xs), len(xs))


def percentile(samples: Iterable[float], p: float) -> Percentile:
    """The nearest-rank p-th percentile over pooled samples, or their maximum with the
    'max of n' label when there are fewer than samples_needed(p)."""
    xs = sorted(float(v) for v in samples)
    if not xs:
        raise ValueError("percentile: no samples")
    if len(xs) < samples_needed(p):
        return Percentile(p, xs[-1], len(xs))
    return Percentile(p, nearest_rank(xs, p), len(xs))


def fmt_estimate(e: Estimate, unit: str = "", digits: int = 3) -> str:
    """'12.3 µs ± 0.4 (n=5)'; '12.3 µs (n=1, no interval)' for a single seed."""
    u = f" {unit}" if unit else ""
    if e.half_width is None:
        return f"{_sig(e.mean, digits)}{u} (n={e.n}, no interval)"
    # Seeds that agree to the last bits of a double have no spread worth printing.
    hw = 0.0 if e.half_width <= 1e-9 * max(abs(e.mean), 1e-300) else e.half_width
    return f"{_sig(e.mean, digits)}{u} ± {_sig(hw, 2)} (n={e.n})"


def _sig(x: float, digits: int) -> str:
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    magnitude = math.floor(math.log10(abs(x)))
    decimals = max(0, digits - 1 - magnitude)
    return f"{x:,.{decimals}f}"
