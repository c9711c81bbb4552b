"""The paired per-case success shares of one metric, as the rate test reads them: of a pass/fail
metric, each case's share of measured repeats that passed; of a continuous metric, each case's
mean value over its measured repeats (values in [0, 1], so that each drop is in [-1, 1])."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from fairwitness.scoring import Scorer

if TYPE_CHECKING:
    from fairwitness.report import Report

Key = tuple[int, int]
"""A case's key into an audit's success counts (cases that read alike share one)."""


@dataclass
class RatePairs:
    """A metric's per-case success shares over the cases measured in both reports.

    ``drops`` holds each paired case's drop (baseline share minus candidate share, signed so that
    a positive drop is the candidate doing worse), as exact fractions, in groups: ``(drop,
    cases)``."""

    n: int = 0
    drops: list[tuple[Fraction, int]] = field(default_factory=list)
    baseline: float | None = None
    """Mean per-trial rate of the baseline over the paired cases."""
    candidate: float | None = None
    """Mean per-trial rate of the candidate over the paired cases."""
    single: bool = True
    """Every paired case has exactly one measured repeat on both sides (the test is McNemar's)."""
    trials_baseline: int = 0
    trials_candidate: int = 0
    outside: float | None = None
    """A continuous metric's first per-trial value outside [0, 1], which the test cannot take;
    ``None`` when every value is inside (always for pass/fail metrics)."""

    @property
    def mean_square(self) -> float:
        """The mean over paired cases of the squared drop."""
        if not self.n:
            return 0.0
        return float(sum(drop * drop * count for drop, count in self.drops) / self.n)

    def expanded(self) -> list[Fraction]:
        return [drop for drop, count in self.drops for _ in range(count)]


def pair_rates(
    name: str,
    scorer: Scorer,
    combos: Mapping[tuple[Key, Key], int],
    before: Mapping[Key, Mapping[str, tuple[int, int]]],
    after: Mapping[Key, Mapping[str, tuple[int, int]]],
) -> RatePairs:
    """``name``'s shares over the paired cases, from how many paired cases have each combination
    of baseline and candidate keys (``combos``) and each side's success counts by key."""
    sign = 1 if scorer.higher_is_better else -1
    drops: Counter[Fraction] = Counter()
    found = RatePairs()
    b_sum = c_sum = Fraction(0)
    for (b_key, c_key), count in combos.items():
        b_pair, c_pair = before[b_key].get(name), after[c_key].get(name)
        if b_pair is None or c_pair is None:
            continue
        b_share, c_share = Fraction(*b_pair), Fraction(*c_pair)
        drops[sign * (b_share - c_share)] += count
        found.n += count
        b_sum += b_share * count
        c_sum += c_share * count
        found.trials_baseline += b_pair[1] * count
        found.trials_candidate += c_pair[1] * count
        found.single = found.single and b_pair[1] == 1 and c_pair[1] == 1
    found.drops = sorted(drops.items())
    if found.n:
        found.baseline, found.candidate = float(b_sum / found.n), float(c_sum / found.n)
    return found


def base_values(
    baseline: Report, candidate: Report, paired: Iterable[str], name: str
) -> Iterator[tuple[list[float | None], list[float | None]]]:
    """Per paired case, ``name``'s values in the base repeats of the baseline and of the
    candidate (``None`` where a repeat was not measured)."""
    for case_id in paired:
        before, after = baseline.cases[case_id].repeats, candidate.cases[case_id].repeats
        yield (
            [o.scores.get(name) for o in before if o.variant == "base"],
            [o.scores.get(name) for o in after if o.variant == "base"],
        )


def _rational(value: float) -> Fraction:
    """``value`` as :func:`fairwitness.stats.sign_flip` reads a float: the nearest fraction with
    denominator at most 10^6 when within 2^-50 of it (a share such as 0.35 is 7/20, so the test
    can be exact), else the binary fraction it holds."""
    number = Fraction(value)
    near = number.limit_denominator(10**6)
    return near if abs(near - number) <= Fraction(1, 2**50) else number


def _mean(values: Sequence[float | None]) -> tuple[Fraction, int] | None:
    """The exact mean of the measured values and how many there are; ``None`` when none is."""
    measured = [_rational(value) for value in values if value is not None]
    return (sum(measured, Fraction(0)) / len(measured), len(measured)) if measured else None


def pair_means(
    scorer: Scorer, cases: Iterable[tuple[Sequence[float | None], Sequence[float | None]]]
) -> RatePairs:
    """A continuous metric's per-case means over the paired cases, from each paired case's base
    repeats' values in the baseline and in the candidate (``None``: not measured). A case with no
    measured repeat on either side is left out, as :func:`pair_rates` leaves it. The result is
    never ``single``: with values other than 0 and 1 the test is not McNemar's."""
    sign = 1 if scorer.higher_is_better else -1
    drops: Counter[Fraction] = Counter()
    found = RatePairs(single=False)
    b_sum = c_sum = Fraction(0)
    for before, after in cases:
        if found.outside is None:
            found.outside = next(
                (v for v in (*before, *after) if v is not None and not 0.0 <= v <= 1.0), None
            )
        b_mean, c_mean = _mean(before), _mean(after)
        if b_mean is None or c_mean is None:
            continue
        drops[sign * (b_mean[0] - c_mean[0])] += 1
        found.n += 1
        b_sum += b_mean[0]
        c_sum += c_mean[0]
        found.trials_baseline += b_mean[1]
        found.trials_candidate += c_mean[1]
    found.drops = sorted(drops.items())
    if found.n:
        found.baseline, found.candidate = float(b_sum / found.n), float(c_sum / found.n)
    return found
