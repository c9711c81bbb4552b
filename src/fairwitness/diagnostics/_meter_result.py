"""What the meter reports: the three calls, the advice for each, and the :class:`MeterResult`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

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


@dataclass(frozen=True)
class MeterResult:
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
    design: Design
    layer: str
    epsilon: float
    alpha: float
    pairs: int
    flips: int
    flip_rate: float | None
    ci_low: float | None
    ci_high: float | None
    calls: int
    unpaired: int
    e_stochastic: float | None
    e_deterministic: float | None
    extra_pairs_needed: int | None
    advice: str
    unstable_inputs: list[tuple[str, int, int]]

    def to_dict(self) -> dict[str, Any]:
        """The fields by name, JSON-safe (``unstable_inputs`` as lists of [id, flips, pairs])."""
        return {
            "call": self.call,
            "design": self.design,
            "layer": self.layer,
            "epsilon": self.epsilon,
            "alpha": self.alpha,
            "pairs": self.pairs,
            "flips": self.flips,
            "flip_rate": self.flip_rate,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "calls": self.calls,
            "unpaired": self.unpaired,
            "e_stochastic": self.e_stochastic,
            "e_deterministic": self.e_deterministic,
            "extra_pairs_needed": self.extra_pairs_needed,
            "advice": self.advice,
            "unstable_inputs": [[i, f, n] for i, f, n in self.unstable_inputs],
        }


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
