"""What a paired suite could have seen: the smallest drop McNemar's test detects with given power.

Connor (1987), "Sample size for testing differences in proportions for the paired-sample design",
Biometrics 43:207-211, approximates the power of McNemar's test with a normal distribution: with
``n`` pairs, discordance probability psi (regressions plus improvements, per pair) and a drop
delta in the metric's proportion (regression minus improvement probability), a one-sided test at
level alpha has power 1 - beta when

    delta * sqrt(n) = z(1 - alpha) * sqrt(psi) + z(1 - beta) * sqrt(psi - delta**2).

psi is the discordance *with* the drop present. A report only shows the discordance of a run in
which the drop is absent (or unknown), and a drop of delta adds about delta of discordance (cases
that break), so the observed rate plus delta stands in for psi, capped at 1:
psi' = min(1, psi_observed + delta). Plugging in the observed rate alone overstates power: the
simulations in ``benchmarks/bench_power.py`` measured 51-72% power at drops it called detectable
with 80%. The left side minus the right side is negative near 0 and, as a function of delta,
changes sign once on (0, 1], so the smallest solution is found by bisection. It remains an
approximation: at a few dozen discordant pairs the exact and mid-p tests are somewhat less
powerful than it says.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairwitness.stats import rate_detectable_drop

POWER = 0.8
"""The power the gate's statement is made at."""


@dataclass(frozen=True)
class DetectableDrop:
    """The smallest detectable drop, or ``None`` with the reason."""

    drop: float | None
    n: int
    psi: float | None
    alpha: float
    power: float
    reason: str | None = None


def detectable_drop(
    n: int, discordant: int, *, alpha: float, power: float = POWER
) -> DetectableDrop:
    """The smallest drop in a paired proportion that ``n`` pairs with ``discordant`` discordant
    ones detect with ``power`` at one-sided level ``alpha`` (Connor 1987; see the module)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a whole number >= 0, got {n!r}")
    if isinstance(discordant, bool) or not isinstance(discordant, int):
        raise ValueError(f"discordant must be a whole number, got {discordant!r}")
    if not 0 <= discordant <= n:
        raise ValueError(f"discordant must be between 0 and n = {n}, got {discordant}")
    if not 0.0 < alpha < 0.5:
        raise ValueError(f"alpha must be strictly between 0 and 0.5, got {alpha!r}")
    if not 0.5 <= power < 1.0:
        raise ValueError(f"power must be at least 0.5 and below 1, got {power!r}")
    if n == 0:
        return DetectableDrop(
            None, 0, None, alpha, power, "no case was measured in both reports: nothing to compare"
        )
    psi = discordant / n
    # McNemar's statement is the rate test's at k = 1: the mean squared drop is the discordance
    drop = rate_detectable_drop(n, psi, alpha=alpha, power=power)
    if drop is None:
        return DetectableDrop(
            None,
            n,
            psi,
            alpha,
            power,
            f"{n} paired case(s) are too few: not even a drop from all good to all bad "
            f"would be detected with {power:.0%} power",
        )
    return DetectableDrop(drop, n, psi, alpha, power)
