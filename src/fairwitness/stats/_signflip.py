"""The paired sign-flip test of a drop in per-case rates, exact or seeded Monte Carlo, and the drop
it detects with a given power."""

from __future__ import annotations

import itertools
import math
import numbers
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from fairwitness.stats._beta import binom_pmf, binom_tail
from fairwitness.stats._checks import (
    _count,
    _nonnegative_count,
    _probability,
)
from fairwitness.stats._intervals import normal_quantile

_EXACT_TAIL_MAX = 5000  # the last group of the exact computation is summed in integers up to this
_BLOCK = 8  # drops drawn together from one random byte
# A float within _FLOAT_SLACK of a fraction with denominator at most _FLOAT_DENOMINATOR is read as
# that fraction (a rate such as 2/3 - 1/3 computed in doubles is off by a few units in the last
# place); any other float as the binary fraction it holds.
_FLOAT_DENOMINATOR = 10**6
_FLOAT_SLACK = Fraction(1, 2**50)

# -- pass^k and pass@k --------------------------------------------------------------------------


@dataclass(frozen=True)
class SignFlip:
    """The result of :func:`sign_flip`.

    ``p`` is the one-sided p-value for "the candidate is worse"; ``exact`` says whether it came from
    the exact sign-flip distribution or from ``draws`` seeded Monte Carlo draws, whose standard
    error √(p(1 - p)/draws) is ``mc_error`` (0.0 when exact). ``n`` counts the pairs given,
    ``nonzero`` those whose drop is not 0, and ``drop`` is the mean of all n drops (0.0 when n is
    0).
    """

    p: float
    method: Literal["midp", "exact"]
    exact: bool
    draws: int
    mc_error: float
    n: int
    nonzero: int
    drop: float


def _rational(index: int, value: object) -> Fraction:
    if isinstance(value, Fraction):
        number = value
    elif isinstance(value, numbers.Rational):
        number = Fraction(int(value.numerator), int(value.denominator))
    elif isinstance(value, numbers.Real):
        real = float(value)
        if not math.isfinite(real):
            raise ValueError(f"drops[{index}] must be a finite number, got {value!r}")
        number = Fraction(real)
        if number.denominator > _FLOAT_DENOMINATOR:
            near = number.limit_denominator(_FLOAT_DENOMINATOR)
            if abs(near - number) <= _FLOAT_SLACK:
                number = near
    else:
        raise TypeError(f"drops[{index}] must be a number, got {value!r}")
    if not -1 <= number <= 1:
        raise ValueError(f"drops[{index}] must be between -1 and 1, got {value!r}")
    return number


def _read_drops(drops: Sequence[Fraction | float | int]) -> tuple[Counter[Fraction], int]:
    """The drops as exact rationals with their multiplicities, and how many were given."""
    try:
        rationals: Counter[Fraction] = Counter()
        for value, count in Counter(drops).items():
            rationals[_rational(0, value)] += count
    except (TypeError, ValueError):
        for index, value in enumerate(drops):  # name the first bad one
            _rational(index, value)
        raise
    return rationals, sum(rationals.values())


def _groups(rationals: Counter[Fraction]) -> tuple[dict[int, int], int]:
    """The drops in integer units: {|drop| in units: how many}, and the sum of the positive ones.

    The unit is the largest that makes every drop an integer: 1 / lcm(denominators), times the gcd
    of the resulting integers.
    """
    common = math.lcm(*(value.denominator for value in rationals))
    scaled = {value.numerator * (common // value.denominator): m for value, m in rationals.items()}
    unit = math.gcd(*scaled)
    groups: dict[int, int] = {}
    positive = 0
    for signed, m in scaled.items():
        if signed != 0:
            groups[abs(signed) // unit] = groups.get(abs(signed) // unit, 0) + m
            positive += max(0, signed) // unit * m
    return groups, positive


def _binomial_row(m: int) -> list[int]:
    """C(m, 0), C(m, 1), …, C(m, m)."""
    row = [1] * (m + 1)
    for b in range(m):
        row[b + 1] = row[b] * (m - b) // (b + 1)
    return row


def _counts(rest: list[tuple[int, int]]) -> list[int]:
    """2^N·P(Σ a·B_a = u) for u = 0 … Σ a·m, B_a ~ Binomial(m, 1/2) independent, N = Σ m.

    The coefficients of Π (1 + x^a)^m, multiplied as integers by Kronecker substitution (von zur
    Gathen & Gerhard, Modern Computer Algebra, 3rd ed., 2013, section 8.4): each polynomial is
    evaluated at x = 2^w, with w bits enough for any coefficient (all are below 2^(N+1)), the
    integers are multiplied exactly, and the coefficients are read back w bits at a time.
    """
    width = (sum(m for _, m in rest) + 1 + 7) // 8  # bytes per coefficient
    factors = []
    for a, m in rest:
        gap = bytes((a - 1) * width)
        packed = gap.join(c.to_bytes(width, "little") for c in _binomial_row(m))
        factors.append(int.from_bytes(packed, "little"))
    span = sum(a * m for a, m in rest)
    data = memoryview(math.prod(factors).to_bytes((span + 1) * width, "little"))
    return [int.from_bytes(data[u * width : (u + 1) * width], "little") for u in range(span + 1)]


def _exact_p(groups: dict[int, int], positive: int, midp: bool, budget: int) -> float | None:
    """P(U > R) + P(U = R)/2 (midp) or P(U >= R), U = Σ a·B_a, R = ``positive``; ``None`` when the
    work is over ``budget``.

    The distribution of all groups but one is computed in exact counts (:func:`_counts`); the
    group left for last, the one that leaves the least work, is then added at each point: in exact
    counts too when it holds at most _EXACT_TAIL_MAX drops (so the p-value is correctly rounded),
    else, and when it is the only group, with :func:`binom_tail` and :func:`binom_pmf`.
    """
    items = sorted(groups.items())
    span = sum(a * m for a, m in items)
    pairs = sum(m for _, m in items)

    def work(j: int) -> int:  # bits of the exact distribution of all groups but the j-th
        a, m = items[j]
        return (span - a * m + 1) * (pairs - m + 1)

    last = min(range(len(items)), key=work)
    if work(last) > budget:
        return None
    rest = items[:last] + items[last + 1 :]
    a, m = items[last]
    above: dict[int, int] = {}  # threshold t: weight of the points where P(B >= t) is needed
    at: dict[int, int] = {}  # b: weight of the points where P(B = b) is needed
    for u, count in enumerate(_counts(rest) if rest else [1]):
        if count:
            need, remainder = divmod(positive - u, a)
            t = min(max(need + 1, 0), m + 1)
            above[t] = above.get(t, 0) + count
            if remainder == 0 and 0 <= need <= m:
                at[need] = at.get(need, 0) + count
    bits = sum(size for _, size in rest)
    if rest and m <= _EXACT_TAIL_MAX:
        row = _binomial_row(m)
        tails = [*reversed(list(itertools.accumulate(reversed(row)))), 0]  # Σ_{b >= t} C(m, b)
        count_above = sum(w * tails[t] for t, w in above.items())
        count_at = sum(w * row[b] for b, w in at.items())
        if midp:
            return (2 * count_above + count_at) / (1 << (bits + m + 1))
        return (count_above + count_at) / (1 << (bits + m))
    total = 1 << bits
    p_above = math.fsum(w / total * binom_tail(t, m) for t, w in above.items() if t <= m)
    p_at = math.fsum(w / total * binom_pmf(b, m, 0.5) for b, w in at.items())
    # For a single group these are the expressions of mcnemar, so the two agree to the last bit.
    return min(1.0, p_above + (0.5 if midp else 1.0) * p_at)


def _subset_sums(values: list[int]) -> list[int]:
    """Σ of values[j] over the set bits j of each byte 0 … 255 (values padded to 8 with zeros)."""
    sums = [0]
    for value in [*values, 0, 0, 0, 0, 0, 0, 0, 0][:_BLOCK]:
        sums += [total + value for total in sums]
    return sums


def _monte_carlo(
    groups: dict[int, int], positive: int, draws: int, rng: random.Random
) -> tuple[int, int]:
    """#{U > R} and #{U = R} over ``draws`` draws of U = Σ a·B_a, R = ``positive``.

    A group of at least 8 equal drops is drawn as the number of set bits of m random bits; the
    other drops, one fair bit each, are drawn 8 at a time as a random byte that indexes a table of
    the sums of its drops. When the drops are too large in their units for exact sums in doubles
    (above 2^53, which a mix of unrelated float drops reaches), the sums are taken in doubles with a
    bound on their rounding error, and only a draw within that bound of R is summed again in
    integers: every comparison is still exact.
    """
    ordered = sorted(groups.items())
    counted = [(a, m) for a, m in ordered if m >= _BLOCK]
    single = [a for a, m in ordered if m < _BLOCK for _ in range(m)]
    tables = [_subset_sums(single[j : j + _BLOCK]) for j in range(0, len(single), _BLOCK)]
    size = len(tables)
    scale = sum(a * m for a, m in ordered)  # the largest U
    rounded = scale >= 2**53
    # In doubles, as shares of the largest U: each table entry and product is rounded once, each
    # addition once, so the error stays below (terms + 4)·2^-52.
    float_tables = [[total / scale for total in table] for table in tables] if rounded else []
    float_counted = [(a / scale, m) for a, m in counted] if rounded else []
    tolerance = (size + len(counted) + 4) * 2.0**-52
    target = positive / scale
    above = equal = 0
    for _ in range(draws):
        data = rng.getrandbits(8 * size).to_bytes(size, "little")
        bits = [rng.getrandbits(m).bit_count() for _, m in counted]
        if rounded:
            estimate = sum(map(list.__getitem__, float_tables, data)) + sum(
                a * b for (a, _), b in zip(float_counted, bits, strict=True)
            )
            if estimate - target > tolerance:
                above += 1
                continue
            if target - estimate > tolerance:
                continue
        u = sum(map(list.__getitem__, tables, data)) + sum(
            a * b for (a, _), b in zip(counted, bits, strict=True)
        )
        if u > positive:
            above += 1
        elif u == positive:
            equal += 1
    return above, equal


def sign_flip(
    drops: Sequence[Fraction | float | int],
    *,
    method: Literal["midp", "exact"] = "midp",
    seed: int = 0,
    draws: int = 50_000,
    exact_budget: int = 4_000_000,
) -> SignFlip:
    """One-sided paired sign-flip (permutation) test of "no drop" against "a drop".

    ``drops[i]`` is case i's baseline rate minus its candidate rate, in the metric's good direction
    (positive: the candidate is worse), between -1 and 1. The statistic is D = Σ drops. Under the
    null hypothesis the repeats of a case in the two runs are exchangeable, so each drop is
    symmetric about 0 and D* = Σ ε_i·|drop_i|, with independent random signs ε_i, has the null
    distribution of D (R. A. Fisher, The Design of Experiments, 1935, section 21). ``"exact"``
    gives P(D* >= D); ``"midp"`` (default) gives P(D* > D) + P(D* = D)/2 (H. O. Lancaster, JASA 56,
    1961; the mid-p that Fagerland, Lydersen & Laake 2013 recommend for McNemar's test). When every
    drop is 0 or ±1 (one repeat per case on both sides) this is McNemar's test: with r drops of 1
    and i of -1 it equals :func:`fairwitness.stats.mcnemar` (r, i, method), computed by the same
    expressions, to the last bit.

    The drops are read as exact rationals: ints and fractions as they are; a float as the nearest
    fraction with denominator at most 10^6 (``Fraction.limit_denominator``) when it lies within
    2^-50 of it, so that a rate such as 2/3 - 1/3 computed in doubles is taken at its intended
    value, and otherwise as the binary fraction it holds (so that unrelated floats do not make the
    common denominator astronomically large). In units of the largest step that makes every drop
    an integer, grouped by magnitude a (m_a drops each), D* = 2U - Σ|drops| with
    U = Σ_a a·B_a, B_a ~ Binomial(m_a, 1/2) independent, and D* > D exactly when U > R, R the sum
    of the positive drops: every comparison is made in integers.

    Exact computation: the distribution of U over all groups but one in exact integer counts, to
    which the last group is added at each point (in integers too when it holds at most 5000
    drops, so the p-value is then correctly rounded; with :func:`binom_tail` and :func:`binom_pmf`
    when it is larger or alone). The group left for last is the one that leaves the least work,
    (span + 1)·(drops + 1) bits for the others' distribution; above ``exact_budget`` bits, ``draws``
    Monte Carlo draws from ``random.Random(seed)`` are made instead, each drop's sign a fair random
    bit (a group of 8 or more as the number of set bits of m_a random bits, exactly
    Binomial(m_a, 1/2)), which takes time proportional to draws times (groups + other drops / 8).
    Counting the observed statistic as one of the draws, p = (#{D* > D} + (#{D* = D} + 1)/2) /
    (draws + 1) (midp) or (#{D* >= D} + 1) / (draws + 1) (exact), so the test keeps its level for
    any number of draws (Phipson & Smyth, Stat. Appl. Genet. Mol. Biol. 9:39, 2010). No pair, or
    no nonzero drop, gives p = 1.0.
    """
    if method not in ("midp", "exact"):
        raise ValueError(f"method must be 'midp' or 'exact', got {method!r}")
    seed = _count("seed", seed)
    draws = _count("draws", draws)
    if draws < 1:
        raise ValueError(f"draws must be >= 1, got {draws}")
    exact_budget = _nonnegative_count("exact_budget", exact_budget)
    rationals, n = _read_drops(drops)
    mean = float(sum(value * m for value, m in rationals.items()) / n) if n else 0.0
    nonzero = n - rationals.get(Fraction(0), 0)
    if nonzero == 0:
        return SignFlip(1.0, method, True, 0, 0.0, n, 0, mean)
    groups, positive = _groups(rationals)
    p = _exact_p(groups, positive, method == "midp", exact_budget)
    if p is not None:
        return SignFlip(p, method, True, 0, 0.0, n, nonzero, mean)
    above, equal = _monte_carlo(groups, positive, draws, random.Random(seed))
    tie = 0.5 if method == "midp" else 1.0
    p = (above + tie * (equal + 1)) / (draws + 1)
    return SignFlip(p, method, False, draws, math.sqrt(p * (1.0 - p) / draws), n, nonzero, mean)


# -- power --------------------------------------------------------------------------------------


def _power_args(mean_square: float, alpha: float, power: float) -> tuple[float, float, float]:
    mean_square = _probability("mean_square", mean_square)
    if not 0.0 < alpha < 0.5:
        raise ValueError(f"alpha must be strictly between 0 and 0.5, got {alpha!r}")
    if not 0.5 <= power < 1.0:
        raise ValueError(f"power must be at least 0.5 and below 1, got {power!r}")
    return mean_square, normal_quantile(1.0 - alpha), normal_quantile(power)


def _gap(delta: float, n: int, mean_square: float, z_alpha: float, z_power: float) -> float:
    spread = min(1.0, mean_square + delta)
    return (
        delta * math.sqrt(n)
        - z_alpha * math.sqrt(spread)
        - z_power * math.sqrt(max(0.0, spread - delta * delta))
    )


def rate_detectable_drop(
    n: int, mean_square: float, *, alpha: float, power: float = 0.8
) -> float | None:
    """The smallest mean per-case drop that the one-sided sign-flip test at level ``alpha`` detects
    with ``power`` in ``n`` paired cases, by the normal approximation; ``None`` when not even a drop
    of 1 (from all good to all bad) is detected.

    The test rejects when D >= z(1 - alpha)·√(Σ d_i²). ``mean_square`` is the observed mean of d_i²;
    under a drop delta, cases that break add to it, so the spread is taken as
    m' = min(1, mean_square + delta), as Connor (Biometrics 43, 1987) does for McNemar's test, and
    delta solves delta·√n = z(1 - alpha)·√m' + z(power)·√max(0, m' - delta²). The left side minus
    the right changes sign once on (0, 1]; the root is found by bisection to 1e-12. With
    mean_square = discordant / n this is the detectable drop of McNemar's test that the gate states.
    """
    n = _nonnegative_count("n", n)
    mean_square, z_alpha, z_power = _power_args(mean_square, alpha, power)
    if _gap(1.0, n, mean_square, z_alpha, z_power) < 0.0:
        return None
    low, high = 0.0, 1.0
    while high - low > 1e-12:
        middle = 0.5 * (low + high)
        if _gap(middle, n, mean_square, z_alpha, z_power) >= 0.0:
            high = middle
        else:
            low = middle
    return high


def cases_needed(delta: float, mean_square: float, *, alpha: float, power: float = 0.8) -> int:
    """The smallest number of paired cases at which :func:`rate_detectable_drop` is at most
    ``delta``, for 0 < delta <= 1.

    Solving its equation for n gives n = ((z(1 - alpha)·√m' + z(power)·√max(0, m' - delta²)) /
    delta)², m' = min(1, mean_square + delta); its ceiling is then moved by one case at a time
    until it is the smallest n that :func:`rate_detectable_drop` agrees with.
    """
    if not 0.0 < delta <= 1.0:  # also refuses NaN
        raise ValueError(f"delta must be above 0 and at most 1, got {delta!r}")
    mean_square, z_alpha, z_power = _power_args(mean_square, alpha, power)
    spread = min(1.0, mean_square + delta)
    root = z_alpha * math.sqrt(spread) + z_power * math.sqrt(max(0.0, spread - delta * delta))
    n = max(1, math.ceil((root / delta) ** 2))

    def detected(cases: int) -> bool:
        found = rate_detectable_drop(cases, mean_square, alpha=alpha, power=power)
        return found is not None and found <= delta

    while not detected(n):
        n += 1
    while n > 1 and detected(n - 1):
        n -= 1
    return n
