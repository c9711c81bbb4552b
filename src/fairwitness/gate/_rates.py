"""The paired per-case success shares of one metric, as the rate test reads them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from fairwitness.scoring import Scorer

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
