"""The trend line of each gated metric: a sparkline of unicode blocks over the default branch's
recent runs and the candidate, and the last values as numbers.

``route ▅▆▆▇▇█▆ 91.0% 93.0% 94.0% → 90.0%``: the blocks are scaled between the lowest and the
highest value shown (a flat series is all middle blocks, as is a single point); a run that did
not measure the metric is a ``·``, never a block, so "not measured" never looks like a low value.
Values follow the reporting rules: below 10 cases a rate is ``k/n``, never a percentage.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from fairwitness import _format as fmt
from fairwitness.report.history import History, TrendPoint

BLOCKS: Final = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
"""▁▂▃▄▅▆▇█, lowest to highest."""
MIDDLE: Final = BLOCKS[3]
"""A flat series, or a single point."""
GAP: Final = "\u00b7"
"""A run that did not measure the metric."""
LAST_VALUES: Final = 3
"""Earlier values written out before the candidate's."""


class _Escape(Protocol):
    def __call__(self, text: object, limit: int | None = ...) -> str: ...


def _usable(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def sparkline(values: Sequence[float | None]) -> str:
    """One block per value, scaled between the least and the greatest measured value; a value
    that is None or NaN is :data:`GAP` and takes no part in the scale."""
    measured = [v for v in values if v is not None and _usable(v)]
    if not measured:
        return GAP * len(values)
    low, high = min(measured), max(measured)
    out = []
    for value in values:
        if value is None or not _usable(value):
            out.append(GAP)
        elif high == low:
            out.append(MIDDLE)
        else:
            out.append(BLOCKS[round((value - low) / (high - low) * (len(BLOCKS) - 1))])
    return "".join(out)


def point_text(point: TrendPoint | None) -> str:
    """A run's value as the trend writes it: ``91.0%``, ``7/9`` below 10 cases, a continuous
    metric's number, or ``not measured``."""
    if point is None or point.value is None:
        return fmt.NOT_MEASURED
    if point.continuous:
        return fmt.number(point.value)
    if point.n < fmt.SMALL_N:
        return f"{fmt.count(round(point.k, 2))}/{point.n}"
    return fmt.percent(point.value)


@dataclass(frozen=True)
class TrendRow:
    """One gated metric's trend, formatted and escaped."""

    name: str
    spark: str
    earlier: str
    """The last few earlier values, oldest first (``—`` when there is none)."""
    candidate: str
    runs: int
    """Runs in the sparkline, the candidate included."""
    missing: int
    """Of those, runs that did not measure the metric."""

    @property
    def line(self) -> str:
        """``route ▅▆▆▇▇█▆ 91.0% 93.0% 94.0% → 90.0%``."""
        earlier = f"{self.earlier} " if self.earlier != fmt.DASH else ""
        return f"{self.name} {self.spark} {earlier}\u2192 {self.candidate}"


def trend_rows(history: History, metrics: Sequence[str], escape: _Escape) -> list[TrendRow]:
    """The trend of each of ``metrics`` over ``history``'s runs (the candidate last)."""
    rows = []
    for name in metrics:
        series = history.series(name)
        values = [p.value if p is not None else None for p in series]
        before = series[:-1][-LAST_VALUES:]
        rows.append(
            TrendRow(
                name=escape(name),
                spark=sparkline(values),
                earlier=" ".join(point_text(p) for p in before) or fmt.DASH,
                candidate=point_text(series[-1]) if series else fmt.NOT_MEASURED,
                runs=len(series),
                missing=sum(not _usable(v) for v in values),
            )
        )
    return rows


def trend_caption(history: History, escape: _Escape) -> str:
    """What the sparklines cover, escaped."""
    return escape(
        f"Each gated metric over {history.summary()}, then this run (the last block): "
        f"{BLOCKS[0]} is the lowest value shown, {BLOCKS[-1]} the highest, {GAP} not measured."
    )
