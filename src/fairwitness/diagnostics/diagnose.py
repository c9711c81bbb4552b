"""``fairwitness.diagnose``: can this probe set and this agent be tested at all?

For any callable, answers three questions before any pass rate is believed:

1. **meter**: is the agent's decision stable on unchanged inputs (verdict-stochastic,
   verdict-deterministic or undecided)?
2. **blindness**: does the probe set make the agent change its mind at all?
3. **relations**: do metamorphic relations hold, and are their violations above the noise the
   meter measured?

Calls are reused: the meter's first draw per input is the blindness sample and the source side of
every relation, so n inputs, k draws and r relations that change an input cost n*(k+r) calls
(sequential design: the meter stops as soon as its answer is clear). A target that raises, hangs
past its time limit or returns no decision is a harness error: the diagnosis stops, is marked
incomplete and exits 4; it is never scored as a verdict.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from fairwitness._jsonable import fields_data
from fairwitness.dataset import Case
from fairwitness.diagnostics.blindness import BlindnessResult, detect_blindness
from fairwitness.diagnostics.meter import MeterResult, SequentialMeter, fixed_meter, pair_outcomes
from fairwitness.diagnostics.relations import (
    BUILTIN_RELATIONS,
    Relation,
    RelationResult,
    compare_with_noise,
    evaluate,
    transform_inputs,
)
from fairwitness.errors import EXIT_INCONCLUSIVE, EXIT_INVALID, EXIT_OK, EXIT_REGRESSION, UsageError
from fairwitness.runner import Runner
from fairwitness.targets.base import Observation, Target
from fairwitness.trace.model import Trace

Layer = Literal["verdict", "tools", "text"]


@dataclass(frozen=True)
class DiagnoseConfig:
    """How to diagnose."""

    design: Literal["sequential", "fixed"] = "sequential"
    k: int = 4
    """Draws per input for the fixed design (an odd k is rounded up: a draw without a partner
    would be wasted)."""
    epsilon: float = 0.01
    alpha: float = 0.05
    layer: Layer = "verdict"
    max_pairs: int = 500
    """Cap on the sequential meter's pairs; hitting it gives ``undecided`` with the evidence. The
    deterministic call needs 316 flip-free pairs at epsilon 0.01 and alpha 0.05 (62 at epsilon
    0.05; the fixed design: 299 and 59), so the default leaves room for it."""
    blindness_threshold: float = 0.9
    relations: tuple[Relation, ...] = BUILTIN_RELATIONS
    timeout_s: float | None = 60.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.k < 2:
            raise UsageError(f"k must be >= 2 (one pair), got {self.k}")
        if not 0 < self.epsilon < 1:
            raise UsageError(f"epsilon must be between 0 and 1, got {self.epsilon}")
        if self.max_pairs < 1:
            raise UsageError(f"max_pairs must be >= 1, got {self.max_pairs}")
        if self.layer not in ("verdict", "tools", "text"):
            raise UsageError(f"layer must be verdict, tools or text, got {self.layer!r}")

    @property
    def draws(self) -> int:
        return self.k + (self.k % 2)


@dataclass
class Diagnosis:
    """The three diagnostics and what they cost."""

    inputs: int
    meter: MeterResult | None
    blindness: BlindnessResult | None
    relations: list[RelationResult] = field(default_factory=list)
    calls_made: int = 0
    calls_saved: int = 0
    error: str | None = None
    """A harness error (the target raised, hung, or returned no decision): the diagnosis stopped."""

    @property
    def exit_code(self) -> int:
        """4 harness error, 3 undecided, 1 blind or a relation violated above noise, 0 clean."""
        if self.error is not None or self.meter is None:
            return EXIT_INVALID
        if self.meter.call == "undecided":
            return EXIT_INCONCLUSIVE
        if self.blindness is not None and self.blindness.blind:
            return EXIT_REGRESSION
        for relation in self.relations:
            above = relation.above_noise
            if above or (above is None and relation.violated):
                return EXIT_REGRESSION
        return EXIT_OK

    def json_data(self) -> dict[str, Any]:
        """The diagnosis as JSON data (what ``diagnose --json`` prints): the calls made and saved
        as one ``calls`` object, and the exit code."""
        data = fields_data(self)
        made, saved = data.pop("calls_made"), data.pop("calls_saved")
        error = data.pop("error")
        return {
            **data,
            "calls": {"made": made, "saved": saved},
            "error": error,
            "exit_code": self.exit_code,
        }


class _HarnessError(Exception):
    pass


def _key(trace: Trace, layer: Layer) -> Hashable:
    if trace.status != "ok":
        detail = f"{trace.error.type}: {trace.error.message}" if trace.error else trace.status
        raise _HarnessError(f"input '{trace.case_id}': the target failed ({detail})")
    if layer == "verdict":
        if trace.verdict is None:
            raise _HarnessError(
                f"input '{trace.case_id}': the target returned no verdict (layer 'verdict' needs one; "
                "return {'text': ..., 'verdict': ...} or call fairwitness.current().set_verdict)"
            )
        return trace.verdict
    if layer == "tools":
        return tuple(call.name for call in trace.tool_calls) or tuple(trace.reported_tools or ())
    return trace.answer


def _observation(trace: Trace) -> Observation:
    tools = tuple(call.name for call in trace.tool_calls) or tuple(trace.reported_tools or ())
    return Observation(text=trace.answer or "", verdict=trace.verdict, tools=tools)


async def adiagnose(
    agent: Target | Callable[..., Any],
    inputs: Sequence[str] | Mapping[str, str],
    config: DiagnoseConfig | None = None,
) -> Diagnosis:
    """:func:`diagnose`, for callers already inside an event loop."""
    config = config or DiagnoseConfig()
    texts = (
        dict(inputs)
        if isinstance(inputs, Mapping)
        else {f"input-{i + 1}": t for i, t in enumerate(inputs)}
    )
    if not texts:
        raise UsageError("diagnose needs at least one input")
    runner = Runner(agent, suite="diagnose", timeout_s=config.timeout_s, seed=config.seed)
    cases = {input_id: Case(id=input_id, input=text) for input_id, text in texts.items()}
    diagnosis = Diagnosis(inputs=len(texts), meter=None, blindness=None)
    draws_made: dict[str, int] = dict.fromkeys(texts, 0)

    async def draw(input_id: str, variant: str = "base", text: str | None = None) -> Trace:
        case = cases[input_id] if text is None else Case(id=input_id, input=text)
        repeat = draws_made[input_id] if variant == "base" else 0
        if variant == "base":
            draws_made[input_id] += 1
        diagnosis.calls_made += 1
        return await runner.call(case, repeat=repeat, variant=variant)

    async with runner.session():
        try:
            first = {input_id: await draw(input_id) for input_id in texts}
            first_keys = {input_id: _key(trace, config.layer) for input_id, trace in first.items()}
            diagnosis.meter = await _meter(config, texts, first_keys, draw)
            verdicts = [trace.verdict for trace in first.values()]
            diagnosis.blindness = detect_blindness(verdicts, threshold=config.blindness_threshold)
            diagnosis.calls_saved += len(texts)  # the blindness sample is the meter's first draw
            sources = {input_id: _observation(trace) for input_id, trace in first.items()}
            for relation in config.relations:
                follows_text = transform_inputs(relation, texts)
                skipped = [i for i, t in follows_text.items() if t is None]
                follows: dict[str, Observation | None] = {}
                errors: list[str] = []
                for input_id, text in follows_text.items():
                    if text is None:
                        continue
                    trace = await draw(input_id, variant=relation.name, text=text)
                    diagnosis.calls_saved += 1  # the source side is the meter's first draw
                    if trace.status != "ok":
                        follows[input_id] = None
                        errors.append(input_id)
                    else:
                        follows[input_id] = _observation(trace)
                result = evaluate(relation, sources, follows, skipped, errors)
                if errors and diagnosis.error is None:
                    diagnosis.error = (
                        f"relation '{relation.name}': the target failed on {len(errors)} "
                        f"transformed input(s), first '{errors[0]}'"
                    )
                meter = diagnosis.meter
                if meter.pairs:
                    result = compare_with_noise(
                        result, meter.flips, meter.pairs, alpha=config.alpha
                    )
                diagnosis.relations.append(result)
        except _HarnessError as exc:
            diagnosis.error = str(exc)
    return diagnosis


async def _meter(
    config: DiagnoseConfig,
    texts: Mapping[str, str],
    first_keys: Mapping[str, Hashable],
    draw: Callable[[str], Any],
) -> MeterResult:
    if config.design == "fixed":
        pairs_by_input: dict[str, list[bool]] = {}
        unpaired = 0
        for input_id in texts:
            keys = [first_keys[input_id]]
            for _ in range(config.draws - 1):
                keys.append(_key(await draw(input_id), config.layer))
            flips, spare = pair_outcomes(keys)
            pairs_by_input[input_id] = flips
            unpaired += spare
        return fixed_meter(
            pairs_by_input,
            epsilon=config.epsilon,
            alpha=config.alpha,
            layer=config.layer,
            unpaired=unpaired,
        )
    meter = SequentialMeter(
        epsilon=config.epsilon, alpha=config.alpha, layer=config.layer, max_pairs=config.max_pairs
    )
    pending = dict(first_keys)  # each input's first pair reuses its first draw
    pairs = 0
    while pairs < config.max_pairs and not meter.decided:
        for input_id in texts:
            if pairs >= config.max_pairs or meter.decided:
                break
            reused = input_id in pending
            left = pending.pop(input_id) if reused else _key(await draw(input_id), config.layer)
            right = _key(await draw(input_id), config.layer)
            meter.update(input_id, bool(left != right))
            pairs += 1
    return meter.result()


def diagnose(
    agent: Target | Callable[..., Any],
    inputs: Sequence[str] | Mapping[str, str],
    config: DiagnoseConfig | None = None,
) -> Diagnosis:
    """Run the meter, the blindness detector and the relations on ``agent`` over ``inputs``."""
    return asyncio.run(adiagnose(agent, inputs, config))
