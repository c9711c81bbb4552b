"""Tokens and cost, per model and in total, from the trials of a run or the shards of one.

A trial's cost is the one its target reported. A trial that reported tokens (input and output)
but no cost is priced from ``[pricing]`` when its model has a price there. Nothing else is
guessed: a cost that is neither reported nor priced is unknown, and a sum that includes an
unknown cost is unknown too (null, with the reason), never a smaller number.

Trials are grouped by the model they recorded (:func:`model_key`). A trial that recorded several
models is grouped under their names joined by `` + ``: its usage is one figure for the whole
trial, so it cannot be split between them or priced per model.

Sums are kept unrounded (shard reports store them, see :class:`ShardInfo`) and rounded once, to
6 decimals, when a figure is written; a merged report's figures are rounded from the sums of its
shards' unrounded sums.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from fairwitness.config import ModelPrice
from fairwitness.report.model import NO_MODEL, ModelUsage, Report, UsageTotals

Source = Literal["reported", "pricing"]
COMBINED = " + "
"""Joins the models of a trial that recorded several."""


def model_key(models: Sequence[str]) -> str:
    """The ``usage.by_model`` key of a trial that recorded ``models``."""
    if not models:
        return NO_MODEL
    if len(models) == 1:
        return models[0]
    return COMBINED.join(sorted(set(models)))


def trial_cost(
    cost_usd: float | None,
    input_tokens: int | None,
    output_tokens: int | None,
    price: ModelPrice | None,
) -> tuple[float | None, Source | None]:
    """A trial's cost and where it came from; ``(None, None)`` when it is unknown."""
    if cost_usd is not None:
        return cost_usd, "reported"
    if price is None or input_tokens is None or output_tokens is None:
        return None, None
    return price.cost_usd(input_tokens, output_tokens), "pricing"


def unknown_cause(key: str, models: Sequence[str], price: ModelPrice | None) -> str:
    """Why the cost of a trial under ``key`` that reported no cost is unknown."""
    if not models:
        return "no cost reported, and no model recorded to look a price up by"
    if len(models) > 1:
        return "no cost reported, and tokens shared by several models cannot be priced"
    if price is None:
        return f"no cost reported and no price for model '{key}' in [pricing]"
    return "no cost reported, and no input and output tokens reported to price by [pricing]"


def cost_reason(unknown: int, trials: int, cause: str) -> str:
    """The reason a cost over ``trials`` is unknown when ``unknown`` of them have no cost."""
    if unknown == trials:
        return cause
    return f"cost unknown for {unknown} of {trials} trials: {cause}"


def cause_of(reason: str, unknown: int, trials: int) -> str:
    """The cause inside a reason :func:`cost_reason` wrote."""
    return reason.removeprefix(f"cost unknown for {unknown} of {trials} trials: ")


def total_reason(unknown: int, finished: int, *, priced: bool) -> str | None:
    """Why the run's total cost is unknown (``priced``: a ``[pricing]`` table was used)."""
    if not finished:
        return "no trial finished"
    if not unknown:
        return None
    if priced:
        return f"cost neither reported nor priced for {unknown} of {finished} trials"
    return f"cost not reported for {unknown} of {finished} trials"


def _add(total: int | None, value: int | None) -> int | None:
    if value is None:
        return total
    return (total or 0) + value


class ExactSum:
    """A running sum of floats kept exactly (the partials of Shewchuk's algorithm, which
    :func:`math.fsum` uses), so a sum does not depend on the order trials finished in."""

    __slots__ = ("partials",)

    def __init__(self) -> None:
        self.partials: list[float] = []

    def add(self, x: float) -> None:
        partials = self.partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def value(self) -> float:
        """The sum, correctly rounded."""
        return math.fsum(self.partials)


@dataclass
class _Group:
    key: str
    models: tuple[str, ...]
    price: ModelPrice | None
    trials: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    known: int = 0
    cost: ExactSum = field(default_factory=ExactSum)
    sources: set[Source] = field(default_factory=set)
    cause: str | None = None


@dataclass(frozen=True)
class UsageDigest:
    """A run's usage figures and the unrounded sums a shard keeps for merging."""

    totals: UsageTotals
    cost_usd_sum: float | None
    """Unrounded total, when every trial's cost is known."""
    sums_by_model: dict[str, float]
    """Unrounded cost per key whose cost is known."""


class TrialUsage(Protocol):
    """What usage needs of one finished trial."""

    @property
    def models(self) -> tuple[str, ...]: ...
    @property
    def cost_usd(self) -> float | None: ...
    @property
    def input_tokens(self) -> int | None: ...
    @property
    def output_tokens(self) -> int | None: ...


def digest_usage(
    trials: Iterable[TrialUsage],
    prices: Mapping[str, ModelPrice],
    pricing_version: str | None,
) -> UsageDigest:
    """Tokens and cost of ``trials``, in total and per model, priced by ``prices``."""
    by_models: dict[tuple[str, ...], _Group] = {}
    groups: dict[str, _Group] = {}
    for t in trials:
        group = by_models.get(t.models)
        if group is None:
            key = model_key(t.models)
            group = groups.get(key)
            if group is None:
                price = prices.get(t.models[0]) if len(t.models) == 1 else None
                group = groups[key] = _Group(key, t.models, price)
            by_models[t.models] = group
        group.trials += 1
        group.input_tokens = _add(group.input_tokens, t.input_tokens)
        group.output_tokens = _add(group.output_tokens, t.output_tokens)
        cost, source = trial_cost(t.cost_usd, t.input_tokens, t.output_tokens, group.price)
        if cost is None or source is None:
            group.cause = group.cause or unknown_cause(group.key, group.models, group.price)
        else:
            group.known += 1
            group.cost.add(cost)
            group.sources.add(source)
    by_model: dict[str, ModelUsage] = {}
    sums: dict[str, float] = {}
    total = ExactSum()
    for key in sorted(groups, key=lambda k: (k == NO_MODEL, k)):
        group = groups[key]
        cost_sum = group.cost.value() if group.known == group.trials else None
        if cost_sum is not None:
            sums[key] = cost_sum
        for part in group.cost.partials:
            total.add(part)
        by_model[key] = model_usage(
            trials=group.trials,
            input_tokens=group.input_tokens,
            output_tokens=group.output_tokens,
            cost_sum=cost_sum,
            sources=group.sources,
            known=group.known,
            cause=group.cause,
        )
    finished = sum(g.trials for g in groups.values())
    known_trials = sum(g.known for g in groups.values())
    reason = total_reason(finished - known_trials, finished, priced=pricing_version is not None)
    total_sum = total.value() if reason is None else None
    totals = UsageTotals(
        input_tokens=_sum_optional([g.input_tokens for g in groups.values()]),
        output_tokens=_sum_optional([g.output_tokens for g in groups.values()]),
        cost_usd=None if total_sum is None else round(total_sum, 6),
        cost_known_trials=known_trials,
        cost_unknown_reason=reason,
        by_model=by_model,
        pricing_version=pricing_version,
    )
    return UsageDigest(totals, total_sum, sums)


def model_usage(
    *,
    trials: int,
    input_tokens: int | None,
    output_tokens: int | None,
    cost_sum: float | None,
    sources: Iterable[str],
    known: int,
    cause: str | None,
) -> ModelUsage:
    """One ``usage.by_model`` entry from its sums (``cost_sum`` unrounded, null when unknown;
    ``sources``: the sources of its known costs, or of the shards' known figures)."""
    source: Literal["reported", "pricing", "mixed"] | None = None
    if cost_sum is not None:
        found = set(sources)
        if len(found) > 1 or "mixed" in found:
            source = "mixed"
        else:
            source = "pricing" if found == {"pricing"} else "reported"
    return ModelUsage(
        trials=trials,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cost_usd=None if cost_sum is None else round(cost_sum, 6),
        cost_source=source,
        cost_known_trials=known,
        cost_unknown_reason=None
        if cost_sum is not None
        else cost_reason(trials - known, trials, cause or "cost not known"),
    )


def merge_usage(heads: Sequence[Report]) -> UsageTotals:
    """The usage of the whole run, from the headers of all its shards (each with ``shard``)."""
    finished = sum(h.counts.trials for h in heads)
    known = sum(h.usage.cost_known_trials for h in heads)
    pricing_version = heads[0].usage.pricing_version if heads else None
    reason = total_reason(finished - known, finished, priced=pricing_version is not None)
    sums = [_shard_total(h) for h in heads]
    cost = None
    if reason is None and all(v is not None for v in sums):
        cost = round(math.fsum(v for v in sums if v is not None), 6)
    keys = sorted({k for h in heads for k in h.usage.by_model}, key=lambda k: (k == NO_MODEL, k))
    by_model: dict[str, ModelUsage] = {}
    for key in keys:
        parts = [(h, h.usage.by_model[key]) for h in heads if key in h.usage.by_model]
        trials = sum(m.trials for _, m in parts)
        known_here = sum(m.cost_known_trials for _, m in parts)
        cause = next(
            (
                cause_of(m.cost_unknown_reason, m.trials - m.cost_known_trials, m.trials)
                for _, m in parts
                if m.cost_unknown_reason is not None
            ),
            None,
        )
        cost_sum = None
        if all(m.cost_usd is not None for _, m in parts):
            cost_sum = math.fsum(_unrounded(h, key, m) for h, m in parts)
        by_model[key] = model_usage(
            trials=trials,
            input_tokens=_sum_optional([m.input_tokens for _, m in parts]),
            output_tokens=_sum_optional([m.output_tokens for _, m in parts]),
            cost_sum=cost_sum,
            sources=[m.cost_source for _, m in parts if m.cost_source is not None],
            known=known_here,
            cause=cause,
        )
    return UsageTotals(
        input_tokens=_sum_optional([h.usage.input_tokens for h in heads]),
        output_tokens=_sum_optional([h.usage.output_tokens for h in heads]),
        cost_usd=cost,
        cost_known_trials=known,
        cost_unknown_reason=reason,
        by_model=by_model,
        pricing_version=pricing_version,
    )


def _shard_total(head: Report) -> float | None:
    """A shard's unrounded total cost (its rounded figure when the shard lacks it; 0 when it
    finished no trial), or None when unknown."""
    if head.shard is not None and head.shard.cost_usd_sum is not None:
        return head.shard.cost_usd_sum
    if head.usage.cost_usd is not None:
        return head.usage.cost_usd
    return 0.0 if head.counts.trials == 0 else None


def _unrounded(head: Report, key: str, usage: ModelUsage) -> float:
    """A shard's unrounded cost of ``key`` (its rounded figure when the shard lacks it)."""
    sums = head.shard.cost_usd_sum_by_model if head.shard else {}
    value = sums.get(key, usage.cost_usd)
    return 0.0 if value is None else value


def _sum_optional(values: Sequence[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None
