"""Blindness: does the probe set ever make the agent change its decision?

A metamorphic relation such as "swapping the case of the input must not change the verdict" can only
fail when the verdict can change at all. If nearly every input gets the same verdict (or the
dataset expects nearly every input to get the same route), a green relation result says very little:
the agent may ignore the very thing the relation perturbs and still pass. This module measures that
skew so the report can say so.

- :func:`detect_blindness` reads the verdicts the agent gave;
- :func:`label_skew` reads the dataset's expected labels (routes) the same way.

An input whose draw had no verdict (or label) is counted in ``missing`` and never treated as a
verdict of its own. A blind flag is a warning about the probe set, not a finding about the agent: it
does not prove the agent wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from fairwitness.diagnostics._block import DiagnosticBlock

__all__ = ["BlindnessResult", "detect_blindness", "label_skew"]

Source = Literal["verdicts", "labels"]

_NOUN: dict[Source, tuple[str, str]] = {
    # (what the values are called, what a value is called)
    "verdicts": ("verdicts", "verdict"),
    "labels": ("expected labels", "label"),
}


class BlindnessResult(DiagnosticBlock):
    """How concentrated the verdicts (or expected labels) are, and whether that makes relations
    blind; saved as a report's ``diagnostics.blindness`` (verdicts) and ``diagnostics.label_skew``
    (expected labels).

    An input without a value is counted in ``missing``, left out of ``n`` and of ``skew``.
    ``blind`` is ``skew >= threshold`` with at least one value, so a single distinct value is
    always blind.
    """

    blind: bool
    """Whether the most common value's share reaches ``threshold``."""
    skew: float | None
    """The share of the most common value among the ``n`` inputs that had one; null when none
    had."""
    distinct: int
    """Different values seen."""
    top: str | None
    """The most common value, ties broken by sorted order; null when there was none."""
    n: int
    """Inputs that had a value."""
    missing: int
    """Inputs without a value (left out of ``n``)."""
    threshold: float
    """The share at or above which the probe set counts as blind."""
    source: Source
    """What was measured: the agent's ``verdicts`` or the dataset's expected ``labels``."""
    note: str
    """What the figures mean, in a sentence or two."""


def _threshold(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"threshold must be a number, got {value!r}")
    if not 0.0 < value <= 1.0:  # also refuses NaN
        raise ValueError(f"threshold must be in (0, 1], got {value!r}")
    return float(value)


def _percent(share: float) -> str:
    return f"{share * 100:.1f}%".replace(".0%", "%")


def _note(
    *,
    blind: bool,
    source: Source,
    count: int,
    n: int,
    top: str | None,
    distinct: int,
    missing: int,
    threshold: float,
) -> str:
    plural, singular = _NOUN[source]
    without = (
        f" {missing} input{'s' if missing != 1 else ''} had no {singular} and "
        f"{'were' if missing != 1 else 'was'} left out."
        if missing
        else ""
    )
    if n == 0 or top is None:
        if missing == 0:
            return f"No {plural} were given, so blindness could not be measured."
        if missing == 1:
            return f"The only input had no {singular}, so blindness could not be measured."
        return f"None of the {missing} inputs had a {singular}, so blindness could not be measured."
    share = f"{count} of {n} {plural} ({_percent(count / n)}) were {top!r}"
    if blind:
        asks = (
            "the probe set rarely makes the agent change its decision"
            if source == "verdicts"
            else "the dataset rarely asks the agent for a different decision"
        )
        return (
            f"{share}, at or above the {_percent(threshold)} threshold: {asks}, so green relation "
            "results may be vacuous. A blind flag does not prove the agent wrong: it says this "
            f"probe set could hardly show a wrong decision if there were one.{without}"
        )
    return (
        f"{share}, below the {_percent(threshold)} threshold, across {distinct} distinct "
        f"{plural}: the probe set does exercise more than one decision.{without}"
    )


def _measure(values: Sequence[str | None], threshold: object, source: Source) -> BlindnessResult:
    limit = _threshold(threshold)
    if isinstance(values, str):
        raise TypeError(f"{source} must be a sequence of str or None, not a single str")
    counts: Counter[str] = Counter()
    missing = 0
    for value in values:
        if value is None:
            missing += 1
        elif isinstance(value, str):
            counts[value] += 1
        else:
            raise TypeError(f"each of the {source} must be str or None, got {value!r}")
    n = sum(counts.values())
    top: str | None = None
    count = 0
    if counts:
        # The most common value; among equally common values, the first in sorted order.
        top, count = min(counts.items(), key=lambda item: (-item[1], item[0]))
    skew = count / n if n else None
    blind = skew is not None and skew >= limit
    note = _note(
        blind=blind,
        source=source,
        count=count,
        n=n,
        top=top,
        distinct=len(counts),
        missing=missing,
        threshold=limit,
    )
    return BlindnessResult(
        blind=blind,
        skew=skew,
        distinct=len(counts),
        top=top,
        n=n,
        missing=missing,
        threshold=limit,
        source=source,
        note=note,
    )


def detect_blindness(verdicts: Sequence[str | None], *, threshold: float = 0.9) -> BlindnessResult:
    """Whether the agent's verdicts are so concentrated that verdict relations are blind.

    ``verdicts`` holds one entry per input: the verdict the agent gave, or ``None`` when the draw
    had no verdict (counted in ``missing``, never as a verdict). Blind when the most common verdict's
    share of the inputs that had one is at least ``threshold`` (in (0, 1]).
    """
    return _measure(verdicts, threshold, "verdicts")


def label_skew(labels: Sequence[str | None], *, threshold: float = 0.9) -> BlindnessResult:
    """The same measure on the dataset's expected labels (routes): a suite that expects one class
    for nearly every input is flagged the same way, before the agent is called at all.

    ``None`` entries are inputs without an expected label, counted in ``missing``.
    """
    return _measure(labels, threshold, "labels")
