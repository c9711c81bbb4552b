"""Stochastic agents: does the gate's rate test keep its level when every trial of a case is a coin
flip, and what does it gain over McNemar's test on majority-collapsed outcomes?

The model. Each case i has a latent success probability p_i, drawn afresh in every replication from
one of four noise levels, all with mean 0.85:

- ``none``: p_i is 1 with probability 0.85, else 0, so a case's repeats always agree;
- ``Beta c=2``: p_i ~ Beta(1.7, 0.3) (concentration a + b = 2: most cases near 0 or 1, some flaky);
- ``Beta c=20``: p_i ~ Beta(17, 3) (concentration 20: every case near 0.85, so every case is flaky);
- ``flaky fifth``: with probability 1/5, p_i ~ Beta(10, 10) (a coin flip, near 0.5); otherwise
  p_i ~ Beta(18.75, 1.25), mean 15/16 and concentration 20. The rest's mean m solves
  1/5 x 0.5 + 4/5 x m = 0.85, which keeps the overall mean at 0.85; the share near 0.5 can be at
  most 0.3 (then the rest must always pass), so a fifth it is.

Each figure names its level with the chance that two repeats of one case disagree, 2 E[p(1 - p)].
At mean 0.85 that is at most 25.5%, reached when every p_i is 0.85: spreading the p_i towards 0
and 1 lowers it, so ``Beta c=20`` is the noisiest per trial, and ``flaky fifth`` puts its noise in
a fifth of the cases, which makes the per-case drops the most unequal in size.

Each of a case's k repeats succeeds independently with probability p_i in the baseline and, also
independently, with q_i in the candidate: q_i = p_i without a change, and q_i = p_i (1 - d / 0.85)
under a drop of d, every case's success probability cut by the same share, so that the mean
per-trial drop is exactly d.

Cases are independent and alike, so a case's (baseline successes a, candidate successes b) has one
distribution over the (k + 1)^2 cells, computed exactly in fractions from the Beta moments
E[p^x (1 - p)^y] = (alpha)_x (beta)_y / (alpha + beta)_(x + y) (rising factorials):
P(a, b) = C(k, a) C(k, b) t^b sum_j C(k - b, j) (-t)^j E[p^(a + b + j) (1 - p)^(k - a)], t = q / p.
Each replication draws its n cases' cells from it (``random.choices``) rather than p_i and every
trial one by one: the same distribution, and fast. A check row draws p_i and the trials case by
case and compares the cell counts with these probabilities.

The tests, on the same draws: the rate test, :func:`fairwitness.stats.sign_flip` on the per-case
drops (a - b) / k (given as floats, which it reads as the fractions they stand for), the test
:func:`fairwitness.gate.rate_test` runs on exact fractions (a check row confirms on the
first replications of every cell that ``rate_test`` on the gate's ``RatePairs`` gives the same
p-value to the last bit); and McNemar's test (:func:`fairwitness.stats.mcnemar`) on the
majority-collapsed outcomes, a case passing when more than half its repeats pass (a tie fails).

Every simulation is seeded (``random.Random`` with a seed naming its cell), so a run reproduces its
figures exactly. :mod:`_stochastic_rows` turns them into rows.
"""

from __future__ import annotations

import functools
import math
import random
import sys
import zlib
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

ALPHA = 0.05
MEAN = Fraction(17, 20)
SIZES = (50, 210, 1000)
REPEATS = (1, 3, 5)
DROPS = (Fraction(3, 100), Fraction(5, 100))
METRICS = 5  # gated metrics of the family-wise rows
FAMILY_CELLS = (("flaky fifth", 50, 3), ("flaky fifth", 210, 3), ("Beta c=20", 210, 3))
SEED = 20240901
Test = Literal["midp", "exact"]
TESTS: tuple[Test, ...] = ("midp", "exact")
NAMES = {"midp": "mid-p", "exact": "exact"}

# a component of a noise level: (weight, alpha, beta) of a Beta, or (weight, value, None) for a
# point mass
Component = tuple[Fraction, Fraction, Fraction | None]


def log(message: str) -> None:
    print(f"  gate (stochastic): {message}", file=sys.stderr, flush=True)


# -- the model ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """A noise level: a mixture of point masses and Beta distributions of p_i."""

    name: str
    what: str
    parts: tuple[Component, ...]

    def moment(self, x: int, y: int) -> Fraction:
        """E[p^x (1 - p)^y], exactly."""
        total = Fraction(0)
        for weight, a, b in self.parts:
            if b is None:  # a point mass at a
                total += weight * a**x * (1 - a) ** y
                continue
            value = Fraction(1)
            for i in range(x):
                value *= (a + i) / (a + b + i)
            for j in range(y):
                value *= (b + j) / (a + b + x + j)
            total += weight * value
        return total

    def draw(self, rng: random.Random) -> float:
        """One p_i, for the case-by-case check."""
        u, chosen = rng.random(), self.parts[-1]
        for part in self.parts[:-1]:
            u -= part[0]
            if u < 0:
                chosen = part
                break
        _, a, b = chosen
        return float(a) if b is None else rng.betavariate(float(a), float(b))

    @property
    def disagree(self) -> float:
        """The chance that two repeats of one case disagree."""
        return float(2 * self.moment(1, 1))

    def label(self) -> str:
        return f"noise {self.name} ({self.what}; repeats disagree {self.disagree:.1%})"


def _beta(weight: Fraction, mean: Fraction, concentration: int) -> Component:
    return weight, mean * concentration, (1 - mean) * concentration


_FIFTH = Fraction(1, 5)
_REST_MEAN = (MEAN - _FIFTH * Fraction(1, 2)) / (1 - _FIFTH)  # 15/16
LEVELS = (
    Level(
        "none",
        "p_i in {0, 1}",
        ((MEAN, Fraction(1), None), (1 - MEAN, Fraction(0), None)),
    ),
    Level("Beta c=2", "p_i ~ Beta(1.7, 0.3)", (_beta(Fraction(1), MEAN, 2),)),
    Level("Beta c=20", "p_i ~ Beta(17, 3)", (_beta(Fraction(1), MEAN, 20),)),
    Level(
        "flaky fifth",
        "1/5 of cases Beta(10, 10), 4/5 Beta(18.75, 1.25)",
        (_beta(_FIFTH, Fraction(1, 2), 20), _beta(1 - _FIFTH, _REST_MEAN, 20)),
    ),
)
BY_NAME = {level.name: level for level in LEVELS}


@functools.cache
def cells(level: Level, k: int, drop: Fraction) -> tuple[tuple[int, int, Fraction], ...]:
    """(a, b, P(a, b)): baseline and candidate successes of one case out of k repeats each."""
    t = 1 - drop / MEAN
    out = []
    for a in range(k + 1):
        for b in range(k + 1):
            inner = sum(
                math.comb(k - b, j) * (-t) ** j * level.moment(a + b + j, k - a)
                for j in range(k - b + 1)
            )
            prob = math.comb(k, a) * math.comb(k, b) * t**b * inner
            if prob < 0:
                raise AssertionError(f"negative cell probability at {(a, b)}")
            if prob > 0:
                out.append((a, b, Fraction(prob)))
    if sum(p for _, _, p in out) != 1:
        raise AssertionError(f"cell probabilities of {level.name}, k = {k} do not sum to 1")
    # the mean per-trial drop is exactly the drop asked for
    mean_drop = sum(p * Fraction(a - b, k) for a, b, p in out)
    if mean_drop != drop:
        raise AssertionError(f"mean drop {mean_drop} != {drop}")
    return tuple(out)


class Sampler:
    """Draws the cell counts of n cases of one (level, k, drop)."""

    def __init__(self, level: Level, k: int, drop: Fraction) -> None:
        self.k = k
        table = cells(level, k, drop)
        self.pairs = [(a, b) for a, b, _ in table]
        running, self.cumulative = Fraction(0), []
        for _, _, p in table:
            running += p
            self.cumulative.append(float(running))
        self.indices = range(len(table))

    def draw(self, rng: random.Random, n: int) -> Counter[int]:
        """How many of the n cases fell into each cell (by index)."""
        return Counter(rng.choices(self.indices, cum_weights=self.cumulative, k=n))

    def drops(self, counts: Counter[int]) -> dict[int, int]:
        """Per-case drops in units of 1/k (baseline minus candidate successes): how many."""
        found: dict[int, int] = {}
        for index, count in counts.items():
            a, b = self.pairs[index]
            found[a - b] = found.get(a - b, 0) + count
        return found

    def collapsed(self, counts: Counter[int]) -> tuple[int, int]:
        """(regressions, improvements) of the majority-collapsed outcomes; a tie fails."""
        k, regressions, improvements = self.k, 0, 0
        for index, count in counts.items():
            a, b = self.pairs[index]
            before, after = 2 * a > k, 2 * b > k
            regressions += count * (before and not after)
            improvements += count * (after and not before)
        return regressions, improvements


# -- the tests ------------------------------------------------------------------------------------


@dataclass
class Tally:
    """Monte Carlo fallbacks and the rate_test cross-check, over every p-value computed."""

    computed: int = 0
    monte_carlo: int = 0
    checked: int = 0
    differ: int = 0


TALLY = Tally()


def _key(drops: dict[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((u, m) for u, m in drops.items() if u))


@functools.cache
def _rate_p(k: int, key: tuple[tuple[int, int], ...], test: Test) -> float:
    """The rate test's p-value for nonzero drops u/k (u, how many); zeros do not change it."""
    from fairwitness.stats import sign_flip

    drops = [u / k for u, m in key for _ in range(m)]
    found = sign_flip(drops, method=test)
    TALLY.computed += 1
    TALLY.monte_carlo += not found.exact
    return found.p


def rate_p(k: int, drops: dict[int, int], test: Test, *, check: bool = False) -> float:
    p = _rate_p(k, _key(drops), test)
    if check:
        from fairwitness.gate import RatePairs, rate_test

        groups = sorted((Fraction(u, k), m) for u, m in drops.items())
        pairs = RatePairs(n=sum(drops.values()), drops=groups)
        TALLY.checked += 1
        TALLY.differ += rate_test(pairs, "metric", test).p != p
    return p


@functools.cache
def mcnemar_p(regressions: int, improvements: int) -> float:
    from fairwitness.stats import mcnemar

    return mcnemar(regressions, improvements, method="midp")


# -- simulations ----------------------------------------------------------------------------------


def _rng(*parts: object) -> random.Random:
    return random.Random(zlib.crc32(repr((SEED, *parts)).encode()))


def mc_se(rate: float, replications: int) -> float:
    return math.sqrt(rate * (1.0 - rate) / replications)


@dataclass
class Null:
    """Rejections without a change, per test."""

    replications: int
    rejected: dict[Test, int] = field(default_factory=lambda: dict.fromkeys(TESTS, 0))

    def rate(self, test: Test) -> float:
        return self.rejected[test] / self.replications

    def se(self, test: Test) -> float:
        return mc_se(self.rate(test), self.replications)


def simulate_null(level: Level, n: int, k: int, replications: int, checked: int) -> Null:
    sampler, rng = Sampler(level, k, Fraction(0)), _rng("null", level.name, n, k)
    found = Null(replications)
    for rep in range(replications):
        drops = sampler.drops(sampler.draw(rng, n))
        for test in TESTS:
            found.rejected[test] += rate_p(k, drops, test, check=rep < checked) <= ALPHA
    return found


@dataclass
class Power:
    """Rejections under a drop: rate test, McNemar, and the draws on which only one rejected."""

    replications: int
    rate: int = 0
    mcnemar: int = 0
    only_rate: int = 0
    only_mcnemar: int = 0

    def share(self, which: str) -> float:
        return getattr(self, which) / self.replications

    def se(self, which: str) -> float:
        return mc_se(self.share(which), self.replications)

    def difference_z(self) -> float:
        """(McNemar power - rate power) / its paired standard error, the error taken as at least
        1 / replications (the resolution of a rate) so that a cell where one test rejected on
        every draw and the other on none has a finite z; 0 when the tests agreed on every draw."""
        r = self.replications
        diff = (self.only_mcnemar - self.only_rate) / r
        var = ((self.only_mcnemar + self.only_rate) / r - diff * diff) / r
        return diff / max(math.sqrt(max(var, 0.0)), 1.0 / r)


def simulate_power(
    level: Level, n: int, k: int, drop: Fraction, replications: int, checked: int
) -> Power:
    sampler, rng = Sampler(level, k, drop), _rng("power", level.name, n, k, drop)
    found = Power(replications)
    for rep in range(replications):
        counts = sampler.draw(rng, n)
        by_rate = rate_p(k, sampler.drops(counts), "midp", check=rep < checked) <= ALPHA
        by_mcnemar = mcnemar_p(*sampler.collapsed(counts)) <= ALPHA
        found.rate += by_rate
        found.mcnemar += by_mcnemar
        found.only_rate += by_rate and not by_mcnemar
        found.only_mcnemar += by_mcnemar and not by_rate
    return found


def simulate_family(level: Level, n: int, k: int, replications: int) -> float:
    """Share of replications in which Holm over METRICS independent metrics rejects any."""
    from fairwitness.stats import holm

    sampler, rng = Sampler(level, k, Fraction(0)), _rng("family", level.name, n, k)
    alarms = 0
    for _ in range(replications):
        pvalues = [rate_p(k, sampler.drops(sampler.draw(rng, n)), "midp") for _ in range(METRICS)]
        alarms += any(result.rejected for result in holm(pvalues, ALPHA))
    return alarms / replications


# -- exact rates for k = 1 ------------------------------------------------------------------------


@functools.cache
def _critical(test: Test, largest: int) -> tuple[int, ...]:
    """Per d = 0..largest: the fewest regressions of d discordant pairs McNemar's test rejects at
    (d + 1 when none); its p-value falls as regressions rise, so found by bisection."""
    from fairwitness.stats import mcnemar

    out = []
    for d in range(largest + 1):
        low, high = 0, d + 1
        while low < high:
            middle = (low + high) // 2
            if mcnemar(middle, d - middle, method=test) <= ALPHA:
                high = middle
            else:
                low = middle + 1
        out.append(low)
    return tuple(out)


def exact_single(level: Level, n: int, drop: Fraction, test: Test) -> float:
    """P(reject) for k = 1, where the rate test is McNemar's: summed over every (D, R)."""
    from fairwitness.stats import binom_pmf, binom_tail

    probs = {(a, b): float(p) for a, b, p in cells(level, 1, drop)}
    regress, improve = probs.get((1, 0), 0.0), probs.get((0, 1), 0.0)
    psi = regress + improve
    if psi == 0:
        return 0.0
    critical = _critical(test, max(SIZES))
    return math.fsum(
        binom_pmf(d, n, psi) * binom_tail(critical[d], d, regress / psi)
        for d in range(n + 1)
        if critical[d] <= d
    )


# -- the cell probabilities, case by case ---------------------------------------------------------


def case_level_z(draws: int) -> tuple[float, int]:
    """Largest |z| of case-by-case cell counts against :func:`cells`, and the cells compared; a
    draw in a cell of probability 0 is an error."""
    worst, compared = 0.0, 0
    for level in LEVELS:
        for k in REPEATS:
            drop = DROPS[-1]
            t = float(1 - drop / MEAN)
            rng = _rng("cases", level.name, k)
            found: Counter[tuple[int, int]] = Counter()
            for _ in range(draws):
                p = level.draw(rng)
                q = p * t
                a = sum(rng.random() < p for _ in range(k))
                b = sum(rng.random() < q for _ in range(k))
                found[a, b] += 1
            probs = {(a, b): float(p) for a, b, p in cells(level, k, drop)}
            impossible = set(found) - set(probs)
            if impossible:
                raise RuntimeError(
                    f"{level.name}, k = {k}: case-by-case draws fell in cells of probability 0: "
                    f"{sorted(impossible)}"
                )
            for key, prob in probs.items():
                spread = math.sqrt(draws * prob * (1.0 - prob))
                if prob < 1.0:
                    worst = max(worst, abs(found[key] - draws * prob) / spread)
                    compared += 1
    return worst, compared
