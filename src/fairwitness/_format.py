"""How numbers are written, everywhere fairwitness prints one.

The reporting rules, in one place:

- nothing measured (n = 0) is "not measured", never 0%;
- below n = 10 a rate is shown as k/n only: no percentage, no interval;
- from n = 10 a percentage is shown with its 95% interval, labelled "(indicative)" below n = 50;
- 0.0% prints as 0.0% (never -0.0%), 100% as 100.0%;
- p-values keep three significant digits and never round to 0 (``< 0.001`` style is avoided
  because the gate compares exact values; tiny ones print in scientific notation).
"""

from __future__ import annotations

import math
from typing import Final

SMALL_N: Final = 10
"""Below this many measured cases a rate shows k/n only: no percentage, no interval."""
INDICATIVE_N: Final = 50
"""Below this many measured cases a percentage is labelled "(indicative)"."""
NOT_MEASURED: Final = "not measured"
DASH: Final = "\u2014"


def percent(share: float, digits: int = 1) -> str:
    """``0.1234`` -> ``12.3%``; negative zero prints as ``0.0%``."""
    text = f"{100 * share:.{digits}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text + "%"


def count(k: float) -> str:
    """A count as written: ``3`` for whole numbers, up to two decimals otherwise."""
    if float(k).is_integer():
        return str(int(k))
    return f"{k:.2f}".rstrip("0").rstrip(".")


def interval(low: float | None, high: float | None) -> str:
    """``[12.3%, 45.6%]``, or an empty string when either bound is unknown."""
    if low is None or high is None:
        return ""
    return f"[{percent(low)}, {percent(high)}]"


def rate(
    k: float,
    n: int,
    value: float | None = None,
    low: float | None = None,
    high: float | None = None,
    *,
    with_interval: bool = True,
) -> str:
    """A rate by the reporting rules: ``not measured``, ``k/n`` or ``k/n = p% [lo, hi]``."""
    if n <= 0:
        return NOT_MEASURED
    if value is None:
        value = k / n
    if n < SMALL_N:
        return f"{count(k)}/{n}"
    text = f"{count(k)}/{n} = {percent(value)}"
    if with_interval and low is not None and high is not None:
        text += f" {interval(low, high)}"
    if n < INDICATIVE_N:
        text += " (indicative)"
    return text


def share(
    value: float | None,
    n: int,
    low: float | None = None,
    high: float | None = None,
    *,
    unit: str = "per trial",
    successes: int | None = None,
    trials: int | None = None,
    with_trials: bool = True,
) -> str:
    """A mean over ``n`` cases of per-case shares (a per-trial rate, pass^k) by the reporting
    rules (``n`` counts cases): ``not measured``; below 10 cases ``17/36 trials`` (or
    ``6.5/9`` without trial counts); else ``42.0% [35.1%, 49.2%] per trial, 84/200 trials``.
    One trial per case is a plain rate: ``9/10 = 90.0% [...]``. ``with_trials=False`` leaves
    the trial counts out of a percentage."""
    if n <= 0 or value is None:
        return NOT_MEASURED
    counted = successes is not None and trials is not None
    if counted and trials == n:
        return rate(float(successes or 0), n, value, low, high)
    if n < SMALL_N:
        if counted:
            return f"{successes}/{trials} trials"
        return f"{count(round(value * n, 2))}/{n}"
    text = f"{percent(value)}"
    if low is not None and high is not None:
        text += f" {interval(low, high)}"
    if unit:
        text += f" {unit}"
    if counted and with_trials:
        text += f", {successes}/{trials} trials"
    if n < INDICATIVE_N:
        text += " (indicative)"
    return text


def points(delta: float | None) -> str:
    """A difference of two shares in percentage points: ``+1.5 pp``, ``-3.0 pp``, ``0.0 pp``."""
    if delta is None:
        return DASH
    text = f"{100 * delta:+.1f}"
    if float(text) == 0:
        text = "0.0"
    return f"{text} pp"


def p_value(p: float | None) -> str:
    """Three significant digits; scientific below 0.001; a dash when not tested."""
    if p is None or math.isnan(p):
        return DASH
    if p >= 0.001 or p == 0:
        return f"{p:.3g}"
    return f"{p:.2e}"


def number(value: float | None, spec: str = ".3g") -> str:
    """Any other number, with a dash for unknown."""
    return DASH if value is None else format(value, spec)
