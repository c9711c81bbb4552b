"""The verdict-stochasticity meter: does the target give the same verdict twice on the same input?

The target is called several times on an unchanged input and its outputs (verdicts, or whatever
``layer`` names) are compared in *disjoint consecutive pairs*: draws 1-2, 3-4, and so on. Pairs
never share a draw, so they are independent when the draws are, and the number of flipped pairs
is binomial; all combinations of draws would reuse each draw many times and break that. An odd
number of draws leaves the last one unpaired; it costs an agent call but is no evidence.

A pair *flips* when its two outputs differ. The flip rate p is compared with a tolerance
``epsilon`` and the meter makes one of three calls:

- ``"verdict-stochastic"``: p > epsilon is established. Advice: use noise-robust relations and
  compare their violations with the measured flip rate.
- ``"verdict-deterministic"``: p < epsilon is established. Advice: frozen-baseline diffing is the
  stronger oracle.
- ``"undecided"``: neither; the advice says how many more pairs are needed.

Two designs:

- :func:`fixed_meter`, for a number of pairs fixed in advance. It uses the one-sided
  Clopper-Pearson bounds at level ``alpha``: the exact binomial test, valid at every n. Wilson's
  score interval is not used for the call: its lower bound sits too high when the count of flips
  is small, so at p == epsilon it calls "stochastic" more often than ``alpha`` (at epsilon = 0.05,
  alpha = 0.05 and 35 pairs, about 9.6% of the time instead of at most 5%). Each side is tested at
  level ``alpha``; only one of the two wrong calls is possible when p != epsilon, so the wrong-call
  rate is at most ``alpha`` there. At p == epsilon both calls are wrong and the rate is the sum of
  the two exact tails, at most 2 alpha in general (3.9% at 400 pairs, epsilon 0.01, alpha 0.05,
  thanks to the discreteness of the binomial); the sequential design splits alpha instead.
- :class:`SequentialMeter` and :func:`run_sequential`, which look after every pair and stop as
  soon as the evidence suffices. Checking a fixed-n interval (Wilson or Clopper-Pearson) after
  every pair is *not* valid: repeated looks inflate the error rate without bound. The sequential
  design instead uses two one-sided e-processes (Waudby-Smith & Ramdas, "Estimating means of
  bounded random variables by betting", JRSS-B 86(1), 2024), each a weighted mixture over a small
  grid of alternatives of the likelihood ratio against the boundary of its null. Each is a
  nonnegative supermartingale with initial value 1 under its null, so by Ville's inequality (Ville,
  Etude critique de la notion de collectif, 1939) it ever reaches 1/level with probability at most
  its level, at any stopping time. The levels split alpha unevenly: 0.86 alpha for the
  deterministic call, 0.14 alpha for the stochastic one. They add up to alpha, so the wrong-call
  rate is at most alpha even at p == epsilon, where both nulls hold; elsewhere only one call is
  wrong, at most 0.86 alpha.

  Why uneven: with no flip, the deterministic call then comes after 62 pairs at epsilon 0.05 and
  alpha 0.05 (124 calls; the fixed design's floor is 59 pairs, 0.95^59 < 0.05), where an even split
  needs at least 72 pairs (0.95^72 < 0.025). The price is paid by noisy targets: any valid meter
  that calls "deterministic" after 62 flip-free pairs already risks 0.95^62 = 0.0416 of alpha at
  p == epsilon, so its stochastic call gets at most the remaining 0.0084, and takes longer (at a
  flip rate of 0.15, about 171 calls instead of 132). ``_eprocess`` has the arithmetic.
"""

from __future__ import annotations

import math
import operator
import sys
from collections.abc import Callable, Hashable, Mapping, Sequence

from fairwitness.diagnostics._eprocess import DETERMINISTIC_SHARE as DETERMINISTIC_SHARE
from fairwitness.diagnostics._eprocess import GRID_SIZE as GRID_SIZE
from fairwitness.diagnostics._eprocess import ZERO_WEIGHT as ZERO_WEIGHT
from fairwitness.diagnostics._eprocess import (
    _coefficients,
    _deterministic_alternatives,
    _deterministic_weights,
    _log_levels,
    _log_mixture,
    _stochastic_alternatives,
    _stochastic_weights,
)
from fairwitness.diagnostics._meter_result import (
    DETERMINISTIC,
    STOCHASTIC,
    UNDECIDED,
    Call,
    MeterResult,
    _result,
)
from fairwitness.diagnostics._meter_result import DETERMINISTIC_ADVICE as DETERMINISTIC_ADVICE
from fairwitness.diagnostics._meter_result import STOCHASTIC_ADVICE as STOCHASTIC_ADVICE
from fairwitness.diagnostics._meter_result import Design as Design
from fairwitness.stats import betaincinv

__all__ = [
    "MeterResult",
    "SequentialMeter",
    "extra_pairs_for_deterministic",
    "fixed_meter",
    "pair_outcomes",
    "run_sequential",
]

_LOG_MAX_FLOAT = math.log(sys.float_info.max)


# -- argument checks ----------------------------------------------------------------------------


def _open_unit(name: str, value: object) -> float:
    """``value`` as a float strictly between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not 0.0 < value < 1.0:  # also refuses NaN
        raise ValueError(f"{name} must be strictly between 0 and 1, got {value!r}")
    return float(value)


def _count(name: str, value: object, minimum: int) -> int:
    """``value`` as an int of at least ``minimum``; ``TypeError`` if it is not an integer."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {number}")
    return number


def _layer(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"layer must be a non-empty string, got {value!r}")
    return value


def _input_id(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"input ids must be strings, got {value!r}")
    return value


# -- pairing ------------------------------------------------------------------------------------


def pair_outcomes(draws: Sequence[Hashable]) -> tuple[list[bool], int]:
    """Flips of the disjoint consecutive pairs of ``draws``, and 1 if a draw is left unpaired.

    Draws 1-2, 3-4, ... form the pairs (never all combinations, which would reuse draws and make
    the pairs dependent); a pair flips when its two draws differ (``!=``). With an odd number of
    draws the last one is unpaired and the second value is 1, else 0.
    """
    flips = [bool(draws[i] != draws[i + 1]) for i in range(0, len(draws) - 1, 2)]
    return flips, len(draws) % 2


# -- the fixed design ---------------------------------------------------------------------------


def _cp_lower(flips: int, pairs: int, alpha: float) -> float:
    """One-sided Clopper-Pearson lower bound at level alpha: the alpha quantile of
    Beta(k, n - k + 1); 0 when k = 0."""
    if flips == 0:
        return 0.0
    if flips == pairs:
        return math.exp(math.log(alpha) / pairs)
    return betaincinv(flips, pairs - flips + 1, alpha)


def _cp_upper(flips: int, pairs: int, alpha: float) -> float:
    """One-sided Clopper-Pearson upper bound at level alpha: the 1 - alpha quantile of
    Beta(k + 1, n - k); 1 when k = n; 1 - alpha^(1/n) in closed form when k = 0."""
    if flips == pairs:
        return 1.0
    if flips == 0:
        return -math.expm1(math.log(alpha) / pairs)
    return betaincinv(flips + 1, pairs - flips, 1.0 - alpha)


def extra_pairs_for_deterministic(
    pairs: int, flips: int, *, epsilon: float = 0.01, alpha: float = 0.05
) -> int:
    """How many more pairs, all flip-free, the fixed design needs to call "verdict-deterministic".

    The smallest N >= ``pairs`` whose one-sided Clopper-Pearson upper bound at level ``alpha`` for
    ``flips`` flips in N pairs is below ``epsilon``, minus ``pairs`` (0 when the bound is already
    below). For no flips the bound is 1 - alpha^(1/N), so N is the smallest integer above
    log(alpha) / log(1 - epsilon): 299 at epsilon 0.01 and alpha 0.05.

    With flips > 0 the answer is finite too: for fixed k the upper bound falls to 0 as N grows
    (about chi2_{2(k+1)}(1 - alpha) / (2N)), so some finite number of flip-free pairs always
    suffices and this function never returns ``None``. It is the optimistic minimum: it assumes
    no further flip; each further flip raises it, and when the observed flip rate is above epsilon
    further pairs are more likely to establish "verdict-stochastic" instead.
    """
    pairs = _count("pairs", pairs, 0)
    flips = _count("flips", flips, 0)
    if flips > pairs:
        raise ValueError(f"flips must be <= pairs ({pairs}), got {flips}")
    epsilon = _open_unit("epsilon", epsilon)
    alpha = _open_unit("alpha", alpha)

    def enough(n: int) -> bool:
        return _cp_upper(flips, n, alpha) < epsilon

    low = max(pairs, flips, 1)  # the upper bound needs n >= 1 and n > k to fall below 1
    if enough(low):
        return low - pairs
    high = low
    while not enough(high):  # the bound falls to 0, so this ends
        low, high = high, 2 * high
    while high - low > 1:  # invariant: not enough(low), enough(high)
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high - pairs


def fixed_meter(
    pairs_by_input: Mapping[str, Sequence[bool]],
    *,
    epsilon: float = 0.01,
    alpha: float = 0.05,
    layer: str = "verdict",
    unpaired: int = 0,
) -> MeterResult:
    """The call for pairs whose number was fixed in advance, pooled over all inputs.

    ``pairs_by_input`` maps each input id to its pair outcomes (True for a flip, e.g. the first
    value of :func:`pair_outcomes`); ``unpaired`` counts draws left without a partner (they count
    as agent calls only). With k flips in n pairs:

    - "verdict-stochastic" when the one-sided Clopper-Pearson lower bound at level ``alpha``
      exceeds ``epsilon``, i.e. the exact binomial test rejects p <= epsilon;
    - "verdict-deterministic" when the one-sided Clopper-Pearson upper bound at level ``alpha`` is
      below ``epsilon``, i.e. the exact test rejects p >= epsilon;
    - "undecided" otherwise (always when n = 0), with the further flip-free pairs needed from
      :func:`extra_pairs_for_deterministic`.

    Clopper-Pearson, not Wilson, because the exact bound keeps P(call stochastic | p <= epsilon)
    <= alpha for every n, while Wilson's lower bound, an approximation, exceeds alpha at small n
    near small epsilon (see the module docstring). For alpha < 1/2 both calls cannot hold at
    once, as the lower bound is below the upper one (for larger alpha "stochastic" is checked
    first). Use this only with a number of pairs fixed before looking;
    to stop early, use :class:`SequentialMeter`.
    """
    epsilon = _open_unit("epsilon", epsilon)
    alpha = _open_unit("alpha", alpha)
    layer = _layer(layer)
    unpaired = _count("unpaired", unpaired, 0)
    per_input: dict[str, tuple[int, int]] = {}
    for input_id, outcomes in pairs_by_input.items():
        input_id = _input_id(input_id)
        flips = pairs = 0
        for outcome in outcomes:
            if not isinstance(outcome, bool):
                raise TypeError(
                    f"pair outcomes must be bools (True for a flip), got {outcome!r} "
                    f"for input {input_id!r}"
                )
            flips += outcome
            pairs += 1
        per_input[input_id] = (flips, pairs)

    flips = sum(f for f, _ in per_input.values())
    pairs = sum(n for _, n in per_input.values())
    call: Call = UNDECIDED
    if pairs and _cp_lower(flips, pairs, alpha) > epsilon:
        call = STOCHASTIC
    elif pairs and _cp_upper(flips, pairs, alpha) < epsilon:
        call = DETERMINISTIC
    extra = (
        extra_pairs_for_deterministic(pairs, flips, epsilon=epsilon, alpha=alpha)
        if call == UNDECIDED
        else None
    )
    return _result(
        call=call,
        design="fixed",
        layer=layer,
        epsilon=epsilon,
        alpha=alpha,
        per_input=per_input,
        unpaired=unpaired,
        e_stochastic=None,
        e_deterministic=None,
        extra=extra,
    )


# -- the sequential design ----------------------------------------------------------------------


def _e_value(log_value: float) -> float:
    return sys.float_info.max if log_value >= _LOG_MAX_FLOAT else math.exp(log_value)


class SequentialMeter:
    """The anytime-valid meter: feed it pairs one at a time; it calls as soon as it can.

    Two e-processes run side by side on the pairs seen so far (k flipped, s flip-free), each a
    weighted sum over alternatives q_j of (q_j/epsilon)^k ((1 - q_j)/(1 - epsilon))^s with
    weights summing to 1:

    - "stochastic" (null p <= epsilon): 12 alternatives q_j > epsilon, spaced geometrically from
      1.5 epsilon to (1 + epsilon)/2 (about 0.5) for epsilon <= 1/3, each weighted 1/12. For
      q > epsilon each factor has expectation p q/epsilon + (1 - p)(1 - q)/(1 - epsilon) <= 1
      under every p <= epsilon, so the mixture is a nonnegative supermartingale starting at 1.
    - "deterministic" (null p >= epsilon): q = 0, weighted 0.95, and 11 alternatives spaced
      geometrically from epsilon/20 to epsilon/1.5 sharing the other 0.05. q = 0 is the largest
      bet the null allows: each flip-free pair multiplies it by 1/(1 - epsilon), and one flip sets
      it to 0 for good (the others carry on).

    The meter calls "verdict-deterministic" when the second reaches 1/(0.86 alpha) and
    "verdict-stochastic" when the first reaches 1/(0.14 alpha) (23.3 and 143 at alpha 0.05). By
    Ville's inequality each reaches its threshold under its null with probability at most
    0.86 alpha and 0.14 alpha however long the run, so stopping at the first call (or at any other
    time) keeps the wrong-call rate at or below alpha even at p == epsilon, where both nulls hold.
    The two cannot cross together: with an observed flip share at or above epsilon every
    deterministic component is at most 1, at or below epsilon every stochastic one is, and both
    thresholds exceed 1. Everything is computed in log space from the counts, so any number of
    pairs is safe.

    With no flip at all the deterministic call needs 62 pairs at epsilon 0.05 and 316 at epsilon
    0.01 (alpha 0.05), where the fixed design needs 59 and 299: the price of anytime validity is
    about 5%. The split is what buys that (an even one needs 86 and 440 with this grid's former
    uniform weights); it makes the stochastic call slower than an even split would (see the
    module docstring).

    Checking a Wilson (or any fixed-n) interval after every pair is not a valid alternative and is
    not offered: repeated looks inflate its error rate.
    """

    def __init__(
        self,
        *,
        epsilon: float = 0.01,
        alpha: float = 0.05,
        layer: str = "verdict",
        max_pairs: int = 400,
    ) -> None:
        self._epsilon = _open_unit("epsilon", epsilon)
        self._alpha = _open_unit("alpha", alpha)
        self._layer = _layer(layer)
        self._max_pairs = _count("max_pairs", max_pairs, 1)
        self._log_stochastic_threshold, self._log_deterministic_threshold = _log_levels(self._alpha)
        self._stochastic = _coefficients(
            _stochastic_alternatives(self._epsilon), self._epsilon, _stochastic_weights()
        )
        self._deterministic = _coefficients(
            _deterministic_alternatives(self._epsilon), self._epsilon, _deterministic_weights()
        )
        self._flips = 0
        self._pairs = 0
        self._per_input: dict[str, list[int]] = {}  # input id -> [flips, pairs]
        self._call: Call | None = None

    @property
    def decided(self) -> bool:
        """Whether the meter has made a call (stochastic or deterministic)."""
        return self._call is not None

    @property
    def stopped(self) -> bool:
        """Whether the meter takes no more pairs: it has decided, or reached ``max_pairs``."""
        return self._call is not None or self._pairs >= self._max_pairs

    @property
    def pairs(self) -> int:
        """The pairs fed so far."""
        return self._pairs

    def update(self, input_id: str, flipped: bool) -> str | None:
        """Record one pair of draws on ``input_id``; return the call once made, else ``None``.

        Raises ``RuntimeError`` when the meter has stopped (decided, or ``max_pairs`` reached).
        """
        input_id = _input_id(input_id)
        if not isinstance(flipped, bool):
            raise TypeError(f"flipped must be a bool, got {flipped!r}")
        if self.stopped:
            raise RuntimeError(
                f"the meter has stopped after {self._pairs} pairs "
                f"({self._call or 'max_pairs reached'}); start a new one to measure again"
            )
        counts = self._per_input.setdefault(input_id, [0, 0])
        counts[1] += 1
        self._pairs += 1
        if flipped:
            counts[0] += 1
            self._flips += 1
        self._call = self._crossing(self._flips, self._pairs - self._flips, flipped)
        return self._call

    def _crossing(self, flips: int, steady: int, flipped: bool) -> Call | None:
        """The call made on reaching ``flips`` flipped and ``steady`` flip-free pairs by a pair that
        ``flipped`` (or not), from a state without a call; ``None`` if neither side crosses.

        A flip can only raise the stochastic e-process and a flip-free pair only the deterministic
        one, so only that side can newly cross its threshold. The call depends on the counts
        alone, which lets the benchmark sum the exact probability of every call.
        """
        if flipped:
            if _log_mixture(self._stochastic, flips, steady) >= self._log_stochastic_threshold:
                return STOCHASTIC
        elif _log_mixture(self._deterministic, flips, steady) >= self._log_deterministic_threshold:
            return DETERMINISTIC
        return None

    def _extra_pairs(self) -> int:
        """Further flip-free pairs until the deterministic e-process reaches 1/(0.86 alpha)."""
        flips, steady = self._flips, self._pairs - self._flips

        def enough(more: int) -> bool:
            log_e = _log_mixture(self._deterministic, flips, steady + more)
            return log_e >= self._log_deterministic_threshold

        if enough(0):
            return 0
        low, high = 0, 1
        while not enough(high):  # every flip-free pair multiplies some component by > 1
            low, high = high, 2 * high
        while high - low > 1:
            middle = (low + high) // 2
            if enough(middle):
                high = middle
            else:
                low = middle
        return high

    def result(self) -> MeterResult:
        """The call and the evidence so far.

        Without a call (``max_pairs`` reached, or asked before stopping) the call is "undecided"
        and ``extra_pairs_needed`` is an estimate, not ``None``: the smallest number of further
        pairs, all flip-free, after which the deterministic e-process on this evidence would reach
        its threshold, 1/(0.86 alpha). Continuing this run that far is valid (the e-values are
        valid at any stopping time), and a fresh run with ``max_pairs`` at least pairs + that
        number, all flip-free, would decide too. Each further flip raises the number.
        """
        steady = self._pairs - self._flips
        log_stochastic = _log_mixture(self._stochastic, self._flips, steady)
        log_deterministic = _log_mixture(self._deterministic, self._flips, steady)
        call: Call = self._call or UNDECIDED
        return _result(
            call=call,
            design="sequential",
            layer=self._layer,
            epsilon=self._epsilon,
            alpha=self._alpha,
            per_input={i: (f, n) for i, (f, n) in self._per_input.items()},
            unpaired=0,
            e_stochastic=_e_value(log_stochastic),
            e_deterministic=_e_value(log_deterministic),
            extra=self._extra_pairs() if call == UNDECIDED else None,
        )


def run_sequential(
    draw: Callable[[str], Hashable],
    input_ids: Sequence[str],
    *,
    epsilon: float = 0.01,
    alpha: float = 0.05,
    layer: str = "verdict",
    max_pairs: int = 400,
) -> MeterResult:
    """Draw pairs round-robin across ``input_ids`` until the meter decides or ``max_pairs``.

    One pair per input in turn (input 1, input 2, ..., input 1 again), each pair being two calls
    ``draw(input_id)`` compared with ``!=``. Stops right after the pair that decides, so ``calls``
    in the result counts exactly the draws made (2 per pair). ``draw`` is synchronous; wrap an
    async agent in a function that runs it to completion.
    """
    if isinstance(input_ids, str):
        raise TypeError("input_ids must be a sequence of input ids, not a single string")
    ids = [_input_id(i) for i in input_ids]
    if not ids:
        raise ValueError("input_ids is empty: there is nothing to draw")
    if len(set(ids)) != len(ids):
        raise ValueError("input_ids holds duplicates; each input id must appear once")
    meter = SequentialMeter(epsilon=epsilon, alpha=alpha, layer=layer, max_pairs=max_pairs)
    while not meter.stopped:
        for input_id in ids:
            first = draw(input_id)
            second = draw(input_id)
            meter.update(input_id, bool(first != second))
            if meter.stopped:
                break
    return meter.result()
