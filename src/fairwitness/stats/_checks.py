"""Argument checks and the constants and small numeric helpers that the statistics share."""

from __future__ import annotations

import math
import operator
import statistics

_STANDARD_NORMAL = statistics.NormalDist()
_MAX_EXP = 709.782712893384  # math.exp overflows above this


# -- argument checks ----------------------------------------------------------------------------


def _count(name: str, value: object) -> int:
    """``value`` as an ``int`` if it is an integer (not a bool), else ``TypeError``."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None


def _nonnegative_count(name: str, value: object) -> int:
    number = _count(name, value)
    if number < 0:
        raise ValueError(f"{name} must be >= 0, got {number}")
    return number


def _confidence(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:  # also refuses NaN
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return float(confidence)


def _probability(name: str, value: float) -> float:
    if not 0.0 <= value <= 1.0:  # also refuses NaN
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
    return float(value)


def _positive(name: str, value: float) -> float:
    if not 0.0 < value < math.inf:  # also refuses NaN
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def _two_sided_z(confidence: float) -> float:
    """z = Φ⁻¹(1 - (1 - confidence)/2), computed from the small tail (no rounding of 1 - tail)."""
    return -_STANDARD_NORMAL.inv_cdf((1.0 - confidence) / 2.0)


def _exp(x: float) -> float:
    """``math.exp`` that returns ``inf`` instead of raising ``OverflowError``."""
    return math.inf if x > _MAX_EXP else math.exp(x)
