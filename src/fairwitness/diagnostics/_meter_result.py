"""What the meter reports: the three calls, the advice for each, and the :class:`MeterResult`
(saved in a report as :class:`MeasuredMeter`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from fairwitness.diagnostics._block import DiagnosticBlock
from fairwitness.stats import wilson

Call = Literal["verdict-stochastic", "verdict-deterministic", "undecided"]
Design = Literal["fixed", "sequential"]

STOCHASTIC: Call = "verdict-stochastic"
DETERMINISTIC: Call = "verdict-deterministic"
UNDECIDED: Call = "undecided"

STOCHASTIC_ADVICE = (
    "use noise-robust relations and compare their violations with the measured flip rate"
)
DETERMINISTIC_ADVICE = "frozen-baseline diffing is the stronger oracle"


# -- the result ---------------------------------------------------------------------------------


class MeterResult(DiagnosticBlock):
    """What the meter observed and the call it makes.

    ``ci_low``/``ci_high`` are the two-sided Wilson 1 - alpha interval on the flip rate over all
    pairs, for description only: the call never uses it. Under the sequential design it is computed
    once, at the end, and is not anytime-valid (the e-values are the valid evidence there).
    ``e_stochastic``/``e_deterministic`` are the final e-values of the sequential design (capped at
    the largest float), ``None`` under the fixed design; the calls need 1/(0.14 alpha) and
    1/(0.86 alpha) respectively (143 and 23.3 at alpha 0.05: alpha is split unevenly, see
    :class:`SequentialMeter`). ``extra_pairs_needed`` is set only for an
    undecided call: the further pairs, all flip-free, that would establish
    ``"verdict-deterministic"`` (see :func:`extra_pairs_for_deterministic` and
    :meth:`SequentialMeter.result`). ``unstable_inputs`` lists (input id, flips, pairs) for every
    input with at least one flip: most flips first, then the highest flip share, then by id.
    """

    call: Call
    """verdict-stochastic, verdict-deterministic or undecided."""
    design: Design
    """fixed (pairs fixed before looking) or sequential (e-processes, anytime-valid)."""
    layer: str
    """What was compared between the two calls of a pair (verdict, route, ...)."""
    epsilon: float
    """The flip rate the call is made against."""
    alpha: float
    """The error level of the call."""
    pairs: int
    """Pairs of calls on unchanged input."""
    flips: int
    """Pairs whose two calls differ."""
    flip_rate: float | None
    """flips / pairs; null without pairs."""
    ci_low: float | None
    """Lower bound of the Wilson 1 - alpha interval on the flip rate."""
    ci_high: float | None
    """Upper bound of that interval."""
    calls: int
    """Calls counted: two per pair, plus the unpaired ones."""
    unpaired: int
    """Answered calls left without a partner."""
    e_stochastic: float | None
    """Final e-value against "flip rate at most epsilon" (sequential design only)."""
    e_deterministic: float | None
    """Final e-value against "flip rate at least epsilon" (sequential design only)."""
    extra_pairs_needed: int | None
    """For an undecided call, the further flip-free pairs that would establish
    verdict-deterministic."""
    advice: str
    """What the call means for testing this agent, in one paragraph."""
    unstable_inputs: list[tuple[str, int, int]]
    """(input id, flips, pairs) of every input with a flip, most flips first."""


class MeasuredMeter(MeterResult):
    """The report's ``diagnostics.meter`` when the meter could run: the result, marked measured."""

    measured: Literal[True]
    """Always true."""

    @classmethod
    def of(cls, result: MeterResult) -> MeasuredMeter:
        """``result`` marked measured."""
        return cls(**dict(result), measured=True)


def _advice(
    call: Call,
    design: Design,
    layer: str,
    epsilon: float,
    pairs: int,
    flips: int,
    extra: int | None,
) -> str:
    if call == STOCHASTIC:
        return (
            f"The {layer} changed between two calls on unchanged input in {flips} of {pairs} "
            f"pairs (flip rate {flips / pairs:.3g}, established above epsilon {epsilon:g}): "
            f"{STOCHASTIC_ADVICE}."
        )
    if call == DETERMINISTIC:
        return (
            f"The {layer} changed between two calls on unchanged input in {flips} of {pairs} "
            f"pairs (flip rate established below epsilon {epsilon:g}): {DETERMINISTIC_ADVICE}."
        )
    total = pairs + (extra or 0)
    how = (
        f"Run with max_pairs of at least {total}: the e-values stay valid when a run is extended."
        if design == "sequential"
        else f"That is {total} pairs in all, fixed before looking."
    )
    return (
        f"Undecided: {flips} flips in {pairs} pairs establish the {layer} flip rate neither above "
        f"nor below epsilon {epsilon:g}. Add more inputs or more repeats: at least {extra} more "
        "pairs, all flip-free, would establish verdict-deterministic; every further flip raises "
        f"that number, and enough flips would establish verdict-stochastic instead. {how}"
    )


def _unstable(per_input: Mapping[str, tuple[int, int]]) -> list[tuple[str, int, int]]:
    rows = [(i, f, n) for i, (f, n) in per_input.items() if f > 0]
    return sorted(rows, key=lambda row: (-row[1], -row[1] / row[2], row[0]))


def _result(
    *,
    call: Call,
    design: Design,
    layer: str,
    epsilon: float,
    alpha: float,
    per_input: Mapping[str, tuple[int, int]],
    unpaired: int,
    e_stochastic: float | None,
    e_deterministic: float | None,
    extra: int | None,
) -> MeterResult:
    flips = sum(f for f, _ in per_input.values())
    pairs = sum(n for _, n in per_input.values())
    flip_rate = ci_low = ci_high = None
    if pairs:
        flip_rate = flips / pairs
        ci_low, ci_high = wilson(flips, pairs, 1.0 - alpha)
    return MeterResult(
        call=call,
        design=design,
        layer=layer,
        epsilon=epsilon,
        alpha=alpha,
        pairs=pairs,
        flips=flips,
        flip_rate=flip_rate,
        ci_low=ci_low,
        ci_high=ci_high,
        calls=2 * pairs + unpaired,
        unpaired=unpaired,
        e_stochastic=e_stochastic,
        e_deterministic=e_deterministic,
        extra_pairs_needed=extra,
        advice=_advice(call, design, layer, epsilon, pairs, flips, extra),
        unstable_inputs=_unstable(per_input),
    )
