"""Power: does the gate's paired test keep its level, how often does it catch a real drop, and does
the power statement it prints hold?

The test is the gate's own for one gated metric: :func:`fairwitness.gate.paired_tests` (one-sided
McNemar, mid-p or exact, Holm over one metric) at alpha 0.05, on n = 60, 100, 210 and 500 paired
cases.

The model (a suite of cases of varying difficulty, run once on the baseline and once on the
candidate):

- every case has a latent pass probability p ~ Beta(0.85, 0.15): most cases nearly always pass,
  some nearly always fail, a few are flaky. The mean pass rate is 0.85; given p, the baseline and
  the candidate outcome are independent draws, so they are correlated across cases (correlation
  1 / (0.85 + 0.15 + 1) = 0.5) and discordant on 2 E[p(1 - p)] = 12.75% of the cases, the
  discordance of a real suite run twice without a change;
- a real drop of delta breaks each case of the candidate independently with probability
  theta = delta / 0.85 (a change that breaks a random share of what used to work), so the
  candidate passes 0.85 - delta on average. This raises discordance, to 12.75% + 0.85 delta.

Cases are independent, so (regressions, improvements, the rest) is multinomial with probabilities
that depend on p's distribution only through E[p] and E[p^2]: P(regression) = E[p(1 - p)] +
theta E[p^2], P(improvement) = (1 - theta) E[p(1 - p)]. Each replication draws the two counts
directly (discordant D ~ Binomial(n, psi), regressions R | D ~ Binomial(D, share), both by
inversion) instead of n cases: exact for this model, and fast enough for many replications. Each
replication draws a fresh suite from the population; a fixed suite rerun gives D a slightly
narrower distribution, and the test, conditional on D, is the same.

a. Type-I error (no change), mid-p and exact, per n; target 5% (the exact test's level is
   guaranteed; mid-p's is approximate and may exceed alpha at some n: reported as it is). The
   figure is the exact rate under the model, summed over every (D, R); the simulated rate is
   shown beside it, and (e) checks that the two agree. A simulated rate alone would decide a
   5% target by its Monte Carlo noise when the true level is close to it.
b. Power at true drops of 3 and 5 points, per test and n (informational).
c. The drop :func:`fairwitness.gate.detectable_drop` states is detectable with 80% power, from the
   discordance of a no-change run (round(n x 12.75%) discordant), per n (informational). Its
   text also gives the drop the statement claims when fed the discordance that drop itself
   produces (iterated to a fixed point), and the simulated power there.
d. Per n and test, the chance of missing the drop of (c): target 30% (power >= 70%; a statement
   that held would miss 20%), since the statement must not overclaim.
e. Checks: every simulated rate against the exact rate summed over every (D, R) (max |z|,
   target 4); and the closed-form regression and improvement probabilities against a case-level
   draw of the latent model (max |z|, target 4).

Every figure gives its Monte Carlo standard error (sqrt(rate (1 - rate) / replications)) and the
exact rate. Seeded (``random.Random``), so a run reproduces its figures exactly. Run with
``benchmarks/run --only power`` (``--quick`` for fewer replications).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
import sys
from collections.abc import Iterator
from typing import Any, Literal

from _rows import row

COMMAND = "benchmarks/run --only power"

ALPHA = 0.05
SIZES = (60, 100, 210, 500)
PASS_RATE = 0.85
CONCENTRATION = 1.0  # a + b of the Beta distribution of a case's pass probability
DROPS = (0.03, 0.05)
POWER_FLOOR = 0.70
REPLICATIONS = 500_000
QUICK_REPLICATIONS = 2_000
CASE_DRAWS = 200_000  # cases drawn one by one for the latent-model check
QUICK_CASE_DRAWS = 20_000
CHECK_DROP = 0.05
MAX_Z = 4.0
SEED = 20240715
Test = Literal["midp", "exact"]
TESTS: tuple[Test, ...] = ("midp", "exact")
NAMES = {"midp": "mid-p", "exact": "exact"}


def _log(message: str) -> None:
    print(f"  power: {message}", file=sys.stderr, flush=True)


# -- the model ------------------------------------------------------------------------------------


def _moments() -> tuple[float, float]:
    """(E[p(1 - p)], E[p^2]) for p ~ Beta with mean PASS_RATE and a + b = CONCENTRATION."""
    variance = PASS_RATE * (1.0 - PASS_RATE) / (CONCENTRATION + 1.0)
    square = variance + PASS_RATE * PASS_RATE
    return PASS_RATE - square, square


def _cells(drop: float) -> tuple[float, float]:
    """(P(regression), P(improvement)) of one case when the candidate drops by ``drop``."""
    flaky, square = _moments()
    broken = drop / PASS_RATE
    return flaky + broken * square, (1.0 - broken) * flaky


def _discordance(drop: float) -> float:
    return sum(_cells(drop))


def _claim(n: int, discordant: int) -> float:
    from fairwitness.gate import detectable_drop

    found = detectable_drop(n, discordant, alpha=ALPHA)
    if found.drop is None:
        raise RuntimeError(f"detectable_drop({n}, {discordant}) states nothing: {found.reason}")
    return found.drop


def _consistent_claim(n: int) -> tuple[float, int]:
    """The drop the statement claims when its discordance is the one that drop produces.

    Starting from the no-change discordance, feed the claimed drop's expected discordance back;
    the claim grows with the discordance, so the counts rise until they repeat."""
    discordant = round(n * _discordance(0.0))
    for _ in range(n + 1):
        drop = _claim(n, discordant)
        following = round(n * _discordance(drop))
        if following == discordant:
            return drop, discordant
        discordant = following
    raise RuntimeError(f"no fixed point of the power statement at n = {n}")


# -- simulation -----------------------------------------------------------------------------------


def _cdf(n: int, p: float) -> list[float]:
    """P(X <= k) for X ~ Binomial(n, p), k = 0..n, the last set to 1 (for inversion)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, got {p!r}")
    log_p, log_q = math.log(p), math.log1p(-p)
    total, out = 0.0, []
    for k in range(n + 1):
        total += math.exp(
            math.lgamma(n + 1)
            - math.lgamma(k + 1)
            - math.lgamma(n - k + 1)
            + k * log_p
            + (n - k) * log_q
        )
        out.append(total)
    out[-1] = 1.0
    return out


@functools.cache
def _rejects(regressions: int, improvements: int, test: Test) -> bool:
    """The gate's decision on one metric: exactly :func:`fairwitness.gate.paired_tests`."""
    from fairwitness.gate import paired_tests

    return paired_tests([(regressions, improvements)], alpha=ALPHA, test=test)[0].rejected


def _simulate(n: int, drop: float, replications: int, seed: int) -> dict[Test, int]:
    """Replications in which each test rejects; both tests see the same draws."""
    regress, improve = _cells(drop)
    psi = regress + improve
    share = regress / psi
    discordant = _cdf(n, psi)
    tables: dict[int, list[float]] = {}
    rejected: dict[Test, int] = dict.fromkeys(TESTS, 0)
    rng = random.Random(seed)
    for _ in range(replications):
        d = bisect.bisect_right(discordant, rng.random())
        table = tables.get(d)
        if table is None:
            table = tables[d] = _cdf(d, share) if d else [1.0]
        r = bisect.bisect_right(table, rng.random())
        for test in TESTS:
            rejected[test] += _rejects(r, d - r, test)
    return rejected


# -- exact rates ----------------------------------------------------------------------------------


@functools.cache
def _critical(test: Test, largest: int) -> tuple[int, ...]:
    """Per d = 0..largest: the fewest regressions out of d discordant pairs the test rejects at
    (d + 1 when none); the p-value falls as regressions rise, so this is found by bisection."""
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


def _exact(n: int, drop: float, test: Test) -> float:
    """P(the test rejects), summed over every discordant count."""
    from fairwitness.stats import binom_pmf, binom_tail

    regress, improve = _cells(drop)
    psi = regress + improve
    critical = _critical(test, max(SIZES))
    return math.fsum(
        binom_pmf(d, n, psi) * binom_tail(critical[d], d, regress / psi)
        for d in range(n + 1)
        if critical[d] <= d
    )


# -- the latent model, case by case ---------------------------------------------------------------


def _case_level_z(draws: int, seed: int) -> float:
    """Largest |z| of the case-level regression and improvement counts against ``_cells``."""
    rng = random.Random(seed)
    a = PASS_RATE * CONCENTRATION
    b = CONCENTRATION - a
    broken = CHECK_DROP / PASS_RATE
    regressions = improvements = 0
    for _ in range(draws):
        p = rng.betavariate(a, b)
        before = rng.random() < p
        after = rng.random() < p and rng.random() >= broken
        regressions += before and not after
        improvements += after and not before
    worst = 0.0
    for count, prob in zip((regressions, improvements), _cells(CHECK_DROP), strict=True):
        worst = max(worst, abs(count - draws * prob) / math.sqrt(draws * prob * (1.0 - prob)))
    return worst


# -- rows -----------------------------------------------------------------------------------------


class _Cell:
    """One (n, drop): simulated and exact rejection rates per test."""

    def __init__(self, n: int, drop: float, replications: int, seed: int) -> None:
        self.n, self.drop, self.replications = n, drop, replications
        counts = _simulate(n, drop, replications, seed)
        self.rate = {test: counts[test] / replications for test in TESTS}
        self.exact = {test: _exact(n, drop, test) for test in TESTS}

    def se(self, test: Test) -> float:
        rate = self.rate[test]
        return math.sqrt(rate * (1.0 - rate) / self.replications)

    def z(self, test: Test) -> float:
        exact = self.exact[test]
        spread = math.sqrt(exact * (1.0 - exact) / self.replications)
        return abs(self.rate[test] - exact) / spread if spread > 0 else 0.0

    def text(self, test: Test, what: str = "exact") -> str:
        """The Monte Carlo standard error and the exact rate, for a figure's text."""
        se, exact = 100 * self.se(test), 100 * self.exact[test]
        return f"±{se:.2f} pts Monte Carlo s.e., {what} {exact:.2f}%"


def _pts(drop: float) -> str:
    return f"{100 * drop:.1f} pts"


class _Size:
    """Every cell at one number of paired cases: no change, the fixed drops, the stated drops."""

    def __init__(self, n: int, replications: int, seeds: Iterator[int]) -> None:
        self.n = n
        self.null = _Cell(n, 0.0, replications, next(seeds))
        self.drops = {drop: _Cell(n, drop, replications, next(seeds)) for drop in DROPS}
        # what a no-change run states, and the simulated power at that drop
        self.discordant = round(n * _discordance(0.0))
        self.stated = _Cell(n, _claim(n, self.discordant), replications, next(seeds))
        # what the statement says when fed the discordance its own drop produces
        drop, self.consistent_discordant = _consistent_claim(n)
        self.consistent = _Cell(n, drop, replications, next(seeds))

    def cells(self) -> list[_Cell]:
        return [self.null, *self.drops.values(), self.stated, self.consistent]


def _type_one_rows(size: _Size, setting: str, command: str) -> list[dict[str, Any]]:
    """The level is the exact rate, summed over every (D, R) of the model; the simulation beside
    it is the check that the model and the gate's test were run as described (row e)."""
    rows = []
    cell = size.null
    for test in TESTS:
        rate = cell.exact[test]
        caveat = "; mid-p's level is approximate, not guaranteed" if test == "midp" else ""
        simulated = f"simulated {100 * cell.rate[test]:.2f}% ±{100 * cell.se(test):.2f} pts"
        rows.append(
            row(
                f"no change, n = {size.n}: type-I error of the one-sided McNemar {NAMES[test]} "
                f"gate at alpha {ALPHA:g}, exact for the model ({setting}; {simulated}{caveat})",
                100.0 * rate,
                "%",
                100.0 * ALPHA,
                rate <= ALPHA,
                command,
            )
        )
    return rows


def _power_rows(size: _Size, drop: float, command: str) -> list[dict[str, Any]]:
    cell = size.drops[drop]
    return [
        row(
            f"true drop of {_pts(drop)} ({PASS_RATE:g} to {PASS_RATE - drop:.2f}), n = {size.n}: "
            f"power of the {NAMES[test]} gate, the chance it flags the drop (discordance "
            f"{_discordance(drop):.2%}; {cell.text(test)}; informational)",
            100.0 * cell.rate[test],
            "%",
            None,
            None,
            command,
        )
        for test in TESTS
    ]


def _statement_row(size: _Size, command: str) -> dict[str, Any]:
    n, at = size.n, size.consistent
    powers = ", ".join(
        f"{NAMES[test]} {at.rate[test]:.1%} ± {100 * at.se(test):.2f} pts" for test in TESTS
    )
    return row(
        f"n = {n}, no change ({size.discordant} of {n} discordant): the drop `detectable_drop()` "
        f"states is detected with 80% power at one-sided alpha {ALPHA:g} (such a drop itself "
        f"raises discordance; fed the discordance it produces, {size.consistent_discordant} of "
        f"{n}, the statement claims {_pts(at.drop)}, where simulated power is {powers}; "
        f"informational)",
        100.0 * size.stated.drop,
        "pts",
        None,
        None,
        command,
    )


def _miss_rows(size: _Size, command: str) -> list[dict[str, Any]]:
    """Power at the stated drop, as the chance of missing it (the ratio reads lower-is-better)."""
    cell = size.stated
    rows = []
    for test in TESTS:
        power = cell.rate[test]
        rows.append(
            row(
                f"n = {size.n}: chance the {NAMES[test]} gate misses the {_pts(cell.drop)} drop "
                f"the power statement of a no-change run calls detectable with 80% power (power "
                f"{power:.1%}; {cell.text(test, 'exact power')}; a statement that held would miss "
                f"20%, the target allows {1 - POWER_FLOOR:.0%})",
                100.0 * (1.0 - power),
                "%",
                round(100.0 * (1.0 - POWER_FLOOR), 6),
                power >= POWER_FLOOR,
                command,
            )
        )
    return rows


def _check_rows(sizes: list[_Size], draws: int, seed: int, command: str) -> list[dict[str, Any]]:
    cells = [cell for size in sizes for cell in size.cells()]
    worst = max(cell.z(test) for cell in cells for test in TESTS)
    case_z = _case_level_z(draws, seed)
    return [
        row(
            f"check: largest |simulated - exact| / s.e. over the {len(cells)} (n, drop) cells x "
            f"{len(TESTS)} tests above (exact: summed over every discordant and regression count)",
            worst,
            "z",
            MAX_Z,
            worst <= MAX_Z,
            command,
            digits=3,
        ),
        row(
            f"check: the latent model drawn case by case ({draws:,} cases, Beta"
            f"({PASS_RATE * CONCENTRATION:g}, {(1 - PASS_RATE) * CONCENTRATION:g}) pass "
            f"probability, {_pts(CHECK_DROP)} drop) against the closed-form regression and "
            f"improvement probabilities the simulation uses: largest |z|",
            case_z,
            "z",
            MAX_Z,
            case_z <= MAX_Z,
            command,
            digits=3,
        ),
    ]


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Simulate the single-metric gate under the null and under real drops; one row per figure."""
    command = COMMAND + (" --quick" if quick else "")
    replications = QUICK_REPLICATIONS if quick else REPLICATIONS
    seeds = itertools.count(SEED)
    sizes = []
    for n in SIZES:
        size = _Size(n, replications, seeds)
        _log(
            f"n = {n}: type-I mid-p {size.null.rate['midp']:.2%}, exact "
            f"{size.null.rate['exact']:.2%}; power at the stated {_pts(size.stated.drop)}: "
            f"mid-p {size.stated.rate['midp']:.1%}, exact {size.stated.rate['exact']:.1%}"
        )
        sizes.append(size)
    setting = (
        f"pass rate {PASS_RATE:g}, no-change discordance {_discordance(0.0):.2%}, "
        f"{replications:,} seeded replications"
    )
    rows = [r for size in sizes for r in _type_one_rows(size, setting, command)]
    rows += [r for drop in DROPS for size in sizes for r in _power_rows(size, drop, command)]
    rows += [_statement_row(size, command) for size in sizes]
    rows += [r for size in sizes for r in _miss_rows(size, command)]
    draws = QUICK_CASE_DRAWS if quick else CASE_DRAWS
    rows += _check_rows(sizes, draws, next(seeds), command)
    return rows
