"""The stochastic-agent rows of ``benchmarks/run --only gate``, from the simulations of
:mod:`_stochastic` (which describes the model and the tests).

Rows (alpha 0.05, one-sided; n = 50, 210, 1000 cases; k = 1, 3, 5 repeats on both sides):

a. Type-I error of the rate test with no change, per noise level, n and k: mid-p (the gate's
   default) as the figure, the exact test beside it. For k = 1 the rate test is McNemar's test and
   its size is exact for the model, summed over every (regressions, improvements) count: that is
   the figure (target alpha), the simulation beside it. For k > 1 the figure is simulated, with its
   Monte Carlo s.e. sqrt(rate (1 - rate) / replications); the target is alpha plus two Monte Carlo
   s.e. of a rate of alpha, the slack a test of exact level alpha needs not to miss by noise.
   Replications per cell: 40,000 at n = 50, 10,000 at n = 210, 4,000 at n = 1000 (a small cell's
   p-values repeat and are computed once, so it is cheap to run long). Under ``none`` every drop
   is 0 and nothing is ever rejected: one row for its nine cells. One row gives the exact test in
   the cell closest to its target.
b. Family-wise false-alarm rate with five independent gated metrics, each drawn from the same
   model, Holm at 0.05 over their mid-p rate tests (:func:`fairwitness.stats.holm`), at three
   cells; target 5% plus two Monte Carlo s.e.
c. Power for true drops of 3 and 5 points, rate test (mid-p) and majority-collapse McNemar (mid-p)
   on the same draws, per cell (informational; for k = 1 the two are the same test, and the exact
   power is shown beside).
d. Is the rate test at least as powerful as McNemar's in every cell? The largest (McNemar power -
   rate power) over the cells with k > 1, in standard errors of that paired difference (taken as
   at least 1 / replications, so that a cell where one test always rejected and the other never
   has a finite z); target 2. At k = 1 the two are one test, and must agree on every draw.
e. Checks: simulated against exact rates for k = 1 (largest |z|, target 4); case-by-case draws
   against the cell probabilities (largest |z|, target the two-sided 0.1% Bonferroni bound over the
   cells); ``rate_test`` on ``RatePairs`` against the simulation's p-values (target 0 differences).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from _rows import row
from _stochastic import (
    ALPHA,
    BY_NAME,
    DROPS,
    FAMILY_CELLS,
    LEVELS,
    METRICS,
    NAMES,
    REPEATS,
    SIZES,
    TALLY,
    TESTS,
    Null,
    Power,
    case_level_z,
    exact_single,
    log,
    mc_se,
    simulate_family,
    simulate_null,
    simulate_power,
)

# per n: small cells are cheap (their p-values repeat and are computed once), large ones are not
NULL_REPLICATIONS = {50: 40_000, 210: 10_000, 1000: 4_000}
QUICK_NULL = {50: 400, 210: 200, 1000: 100}
POWER_REPLICATIONS = 1_000
FAMILY_REPLICATIONS = 4_000
CHECKED = 25  # replications per cell and test also run through rate_test on RatePairs
CASE_DRAWS = 20_000  # cases drawn one by one per (level, k) for the cell-probability check
QUICK = {"power": 60, "family": 200, "checked": 5, "cases": 2_000}
FULL = {
    "power": POWER_REPLICATIONS,
    "family": FAMILY_REPLICATIONS,
    "checked": CHECKED,
    "cases": CASE_DRAWS,
}
MAX_Z = 4.0


def _pts(x: float) -> str:
    return f"{100 * x:.2f}"


def _points(drop: Fraction) -> str:
    return f"{float(100 * drop):g}-point"


def _timed(what: str, work: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    out = work()
    log(f"{what} in {time.perf_counter() - started:.1f}s")
    return out


def _slack(replications: int) -> float:
    """alpha plus two Monte Carlo s.e. of a rate of alpha."""
    return ALPHA + 2.0 * mc_se(ALPHA, replications)


def _setting(cell: Null) -> str:
    return f"{cell.replications:,} seeded replications"


def _null_rows(nulls: dict[tuple[str, int, int], Null], command: str) -> list[dict[str, Any]]:
    rows = []
    none = [nulls["none", n, k] for n in SIZES for k in REPEATS]
    counts = sorted({cell.replications for cell in none})
    each = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"
    worst = max(cell.rate(test) for cell in none for test in TESTS)
    rows.append(
        row(
            f"no change, {BY_NAME['none'].label()}, n = {', '.join(map(str, SIZES))}, k = "
            f"{', '.join(map(str, REPEATS))}: largest type-I error of the rate test (one-sided "
            f"sign-flip on per-case rate drops), mid-p and exact, at alpha {ALPHA:g} over the "
            f"{len(none)} cells (every drop is 0, so nothing can be rejected; {each} seeded "
            f"replications per cell)",
            100.0 * worst,
            "%",
            100.0 * ALPHA,
            worst <= ALPHA,
            command,
        )
    )
    for level in LEVELS[1:]:
        for n in SIZES:
            for k in REPEATS:
                cell = nulls[level.name, n, k]
                setting, slack = _setting(cell), _slack(cell.replications)
                where = f"no change, {level.label()}, n = {n}, k = {k}"
                if k == 1:
                    exact = {test: exact_single(level, n, Fraction(0), test) for test in TESTS}
                    simulated = "; ".join(
                        f"{NAMES[test]}: exact {_pts(exact[test])}%, simulated "
                        f"{_pts(cell.rate(test))}% ±{_pts(cell.se(test))} pts"
                        for test in TESTS
                    )
                    rows.append(
                        row(
                            f"{where}: type-I error of the rate test, mid-p, at alpha "
                            f"{ALPHA:g}, which at k = 1 is McNemar's test; exact for the "
                            f"model, summed over every count ({simulated}; {setting})",
                            100.0 * exact["midp"],
                            "%",
                            100.0 * ALPHA,
                            exact["midp"] <= ALPHA,
                            command,
                        )
                    )
                    continue
                rate = cell.rate("midp")
                rows.append(
                    row(
                        f"{where}: type-I error of the rate test (one-sided sign-flip on "
                        f"per-case rate drops), mid-p, at alpha {ALPHA:g} ({setting}; "
                        f"±{_pts(cell.se('midp'))} pts Monte Carlo s.e.; exact test "
                        f"{_pts(cell.rate('exact'))}% ±{_pts(cell.se('exact'))} pts; target "
                        f"alpha + 2 Monte Carlo s.e.)",
                        100.0 * rate,
                        "%",
                        round(100.0 * slack, 4),
                        rate <= slack,
                        command,
                    )
                )
    noisy = [(key, cell) for key, cell in nulls.items() if key[0] != "none" and key[2] > 1]
    (name, n, k), cell = max(
        noisy, key=lambda item: item[1].rate("exact") - _slack(item[1].replications)
    )
    rate, slack = cell.rate("exact"), _slack(cell.replications)
    rows.append(
        row(
            f"no change, k > 1: type-I error of the exact rate test in the cell closest to its "
            f"target of the {len(noisy)} noisy cells, {name}, n = {n}, k = {k} "
            f"({_setting(cell)}; ±{_pts(cell.se('exact'))} pts Monte Carlo s.e.; target alpha + "
            f"2 Monte Carlo s.e.)",
            100.0 * rate,
            "%",
            round(100.0 * slack, 4),
            rate <= slack,
            command,
        )
    )
    return rows


def _family_rows(
    family: dict[tuple[str, int, int], float], replications: int, command: str
) -> list[dict[str, Any]]:
    rows = []
    for (name, n, k), rate in family.items():
        rows.append(
            row(
                f"no change, {METRICS} independent gated metrics, {BY_NAME[name].label()}, "
                f"n = {n}, k = {k}: family-wise false-alarm rate, Holm at alpha {ALPHA:g} over "
                f"the mid-p rate tests ({replications:,} seeded replications; "
                f"±{_pts(mc_se(rate, replications))} pts Monte Carlo s.e.; target alpha + 2 "
                f"Monte Carlo s.e.)",
                100.0 * rate,
                "%",
                round(100.0 * _slack(replications), 4),
                rate <= _slack(replications),
                command,
            )
        )
    return rows


def _power_rows(
    powers: dict[tuple[str, int, int, Fraction], Power], replications: int, command: str
) -> list[dict[str, Any]]:
    rows = []
    for level in LEVELS:
        for n in SIZES:
            for k in REPEATS:
                parts = []
                for drop in reversed(DROPS):
                    cell = powers[level.name, n, k, drop]
                    text = (
                        f"{_points(drop)} drop: rate test "
                        f"{_pts(cell.share('rate'))}% ±{_pts(cell.se('rate'))}, McNemar "
                        f"{_pts(cell.share('mcnemar'))}% ±{_pts(cell.se('mcnemar'))}"
                    )
                    if k == 1:
                        text += f", exact {_pts(exact_single(level, n, drop, 'midp'))}%"
                    parts.append(text)
                top = powers[level.name, n, k, DROPS[-1]]
                rows.append(
                    row(
                        f"{level.label()}, n = {n}, k = {k}: power of the mid-p rate test at "
                        f"alpha {ALPHA:g} for a 5-point per-trial drop (0.85 to 0.80, every "
                        f"p_i cut by the same share), beside majority-collapse McNemar mid-p on "
                        f"the same draws ({'; '.join(parts)}; Monte Carlo s.e. in pts; "
                        f"{replications:,} seeded replications; informational)",
                        100.0 * top.share("rate"),
                        "%",
                        None,
                        None,
                        command,
                    )
                )
    return rows


def _dominance_row(
    powers: dict[tuple[str, int, int, Fraction], Power], command: str
) -> dict[str, Any]:
    """Over the cells with k > 1, where the two tests differ: the largest z of McNemar's power
    over the rate test's; at k = 1 they are one test, and must agree on every draw."""
    several = {key: cell for key, cell in powers.items() if key[2] > 1}
    (name, n, k, drop), worst = max(several.items(), key=lambda item: item[1].difference_z())
    z = worst.difference_z()
    gaps = {key: cell.share("rate") - cell.share("mcnemar") for key, cell in several.items()}
    (g_name, g_n, g_k, g_drop), gap = min(gaps.items(), key=lambda item: item[1])
    single = [cell for key, cell in powers.items() if key[2] == 1]
    same = all(cell.only_rate == cell.only_mcnemar == 0 for cell in single)
    return row(
        f"is the rate test at least as powerful as majority-collapse McNemar? Largest (McNemar "
        f"power - rate-test power) over the {len(several)} (noise, n, k > 1, drop) cells, in "
        f"standard errors of the paired difference (at least 1/replications), at {name}, "
        f"n = {n}, k = {k}, {_points(drop)} drop (smallest rate - McNemar difference "
        f"{100 * gap:+.2f} pts, at {g_name}, n = {g_n}, k = {g_k}, {_points(g_drop)} drop; at "
        f"k = 1, where the two are one test, they "
        f"{'agreed on every draw' if same else 'DISAGREED on some draws'} of the "
        f"{len(single)} cells; target 2 s.e.)",
        z,
        "s.e.",
        2.0,
        z <= 2.0 and same,
        command,
        digits=3,
    )


def _check_rows(
    nulls: dict[tuple[str, int, int], Null],
    powers: dict[tuple[str, int, int, Fraction], Power],
    draws: int,
    command: str,
) -> list[dict[str, Any]]:
    from fairwitness.stats import normal_quantile

    worst = 0.0
    compared = 0
    for level in LEVELS[1:]:
        for n in SIZES:
            for test in TESTS:
                null = nulls[level.name, n, 1]
                exact = exact_single(level, n, Fraction(0), test)
                spread = mc_se(exact, null.replications)
                worst = max(worst, abs(null.rate(test) - exact) / spread if spread else 0.0)
                compared += 1
            for drop in DROPS:
                cell = powers[level.name, n, 1, drop]
                exact = exact_single(level, n, drop, "midp")
                spread = mc_se(exact, cell.replications)
                worst = max(worst, abs(cell.share("rate") - exact) / spread if spread else 0.0)
                compared += 1
    case_z, cases = case_level_z(draws)
    bound = normal_quantile(1.0 - 0.0005 / max(1, cases))
    return [
        row(
            f"check (stochastic agents): largest |simulated - exact| / s.e. over the {compared} "
            f"k = 1 type-I and power rates above (exact: summed over every count)",
            worst,
            "z",
            MAX_Z,
            worst <= MAX_Z,
            command,
            digits=3,
        ),
        row(
            f"check (stochastic agents): p_i and every trial drawn case by case ({draws:,} cases "
            f"per noise level and k, 5-point drop) against the exact cell probabilities the "
            f"simulation draws from: largest |z| over {cases} cells (target: the two-sided 0.1% "
            f"Bonferroni bound for {cases} cells)",
            case_z,
            "z",
            round(bound, 3),
            case_z <= bound,
            command,
            digits=3,
        ),
        row(
            f"check (stochastic agents): p-values of fairwitness.gate.rate_test on RatePairs that "
            f"differ from the simulation's, over {TALLY.checked:,} checked draws (the first of "
            f"every cell and test); {TALLY.computed:,} distinct p-values computed, "
            f"{TALLY.monte_carlo} of them by Monte Carlo, the rest exactly",
            float(TALLY.differ),
            "p-values",
            0.0,
            TALLY.differ == 0,
            command,
        ),
    ]


def collect(*, quick: bool, command: str) -> list[dict[str, Any]]:
    """Every stochastic-agent row: type-I, family-wise, power, dominance, checks."""
    size = QUICK if quick else FULL
    checked = size["checked"]
    null_replications = QUICK_NULL if quick else NULL_REPLICATIONS

    def nulls_work() -> dict[tuple[str, int, int], Null]:
        return {
            (level.name, n, k): simulate_null(level, n, k, null_replications[n], checked)
            for level in LEVELS
            for n in SIZES
            for k in REPEATS
        }

    def powers_work() -> dict[tuple[str, int, int, Fraction], Power]:
        return {
            (level.name, n, k, drop): simulate_power(level, n, k, drop, size["power"], checked)
            for level in LEVELS
            for n in SIZES
            for k in REPEATS
            for drop in DROPS
        }

    def family_work() -> dict[tuple[str, int, int], float]:
        return {
            (name, n, k): simulate_family(BY_NAME[name], n, k, size["family"])
            for name, n, k in FAMILY_CELLS
        }

    nulls = _timed("type-I cells", nulls_work)
    family = _timed("family-wise cells", family_work)
    powers = _timed("power cells", powers_work)
    worst = max(nulls.items(), key=lambda item: item[1].rate("midp"))
    log(f"largest simulated mid-p type-I {worst[1].rate('midp'):.2%} at {worst[0]}")
    rows = _null_rows(nulls, command)
    rows += _family_rows(family, size["family"], command)
    rows += _power_rows(powers, size["power"], command)
    rows.append(_dominance_row(powers, command))
    rows += _timed("checks", lambda: _check_rows(nulls, powers, size["cases"], command))
    return rows
