"""The report's ``diagnostics.judge`` block: may numbers that come from an LLM judge be shown?

``fairwitness run`` writes the block when the config's ``[judge]`` section names calibration
labels or judge-derived metrics::

    {"measured": true, "labels": "judge-labels.jsonl", "n": 60, "kappa": 0.84, "ci_low": 0.72,
     "ci_high": 0.96, "threshold": 0.6, "publishable": true, "reason": "...", "notes": [],
     "metrics": ["misreport_as_empty"]}

``measured`` is false (and ``publishable`` false) when no labels are configured; ``kappa`` and its
bounds are ``null`` when kappa is not estimated. Reports without the block have no judge-derived
metrics.

When ``[judge] provider`` names a model, the run scores ``misreport_as_empty_judged`` with it; the
block then says which judge that was and what it did in this run::

    "judge": {"provider": "openai", "model": "gpt-4o-mini", "prompt_version": "fw-judge/1"},
    "usage": {"asked": 14, "live_calls": 3, "replayed": 11, "cost_usd": 0.000412, "mode": "record",
              "by_labeller": 166, "by_judge": 12, "unread": 2}

(``by_labeller``: answers the rule-based labeller decided; ``by_judge``: answers it left
unreadable that the judge decided; ``unread``: answers neither could read)

and the calibration figures are those of that model, labelling the calibration file itself.

Each rubric scorer of ``[[scorers]]`` (``kind = "rubric"``) has its own calibration against its
own labels, under ``rubrics``, by metric name::

    "rubrics": {"cites_listing": {"rubric_hash": "sha256:...", "judge": {"provider": "openai",
      "model": "gpt-4o-mini", "prompt_version": "fw-rubric/1"}, "labels": "rubric-labels.jsonl",
      "n": 24, "kappa": 0.91, "ci_low": 0.78, "ci_high": 1.0, "threshold": 0.6,
      "publishable": true, "reason": "...", "notes": []}}

Readers (the gate, the renderings, README blocks) ask :func:`withheld_metrics` which metrics to
withhold: every metric the block lists, unless the block says ``publishable`` is exactly ``true``,
and every rubric metric whose own calibration does not say so. A block edited into something
unreadable therefore withholds rather than publishes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeAlias

from pydantic import StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError

from fairwitness.diagnostics._block import DiagnosticBlock

if TYPE_CHECKING:
    from fairwitness.judge._calibration import Calibration

WITHHELD: Final = "withheld (judge not calibrated)"
"""What is shown instead of a judge-derived number when the judge is not calibrated."""
NO_LABELS: Final = "no calibration labels configured ([judge] labels)"
"""Why judge-derived numbers are withheld when the config names no calibration labels."""
NOT_MARKED: Final = "no metric is marked judge-derived ([judge] metrics)"


class JudgeIdentity(DiagnosticBlock):
    """The model that scored the run's judge metric."""

    provider: StrictStr
    """The provider's name (openai, anthropic)."""
    model: StrictStr
    """The model's name as the provider knows it."""
    prompt_version: StrictStr
    """Version of the judge prompt and reply protocol."""


class JudgeUsage(DiagnosticBlock):
    """What the run's judge did in this run; a count summed over shards that do not all know it
    is null."""

    asked: StrictInt | None
    """Prompts the judge was asked."""
    live_calls: StrictInt | None
    """Calls made to the provider."""
    replayed: StrictInt | None
    """Replies taken from the record/replay cache."""
    cost_usd: StrictFloat | None
    """Estimated spend; null when unknown."""
    mode: StrictStr
    """Call mode (live, record, replay; mixed for shards that differ)."""
    by_labeller: StrictInt | None = None
    """Answers of ``misreport_as_empty_judged`` the rule-based labeller decided (the judge was
    not asked); absent in reports written before the judge read only what the labeller could
    not."""
    by_judge: StrictInt | None = None
    """Answers the labeller left unreadable that the judge decided."""
    unread: StrictInt | None = None
    """Answers neither could read: left out of the metric as unreadable."""


class RubricBlock(DiagnosticBlock):
    """One rubric metric's judge and its calibration against the rubric's own labels."""

    rubric_hash: StrictStr
    """``sha256:`` and the SHA-256 of the rubric's text."""
    judge: JudgeIdentity
    """The model that scored the rubric, and the rubric prompt's version."""
    labels: StrictStr
    """The rubric's label file as the config names it."""
    n: StrictInt
    """Labelled answers."""
    kappa: StrictFloat | None
    """Cohen's kappa between the judge and the humans; null when not estimated."""
    ci_low: StrictFloat | None
    """Lower bound of kappa's interval."""
    ci_high: StrictFloat | None
    """Upper bound of kappa's interval."""
    threshold: StrictFloat
    """The kappa lower bound the rubric's numbers must reach."""
    publishable: StrictBool
    """Whether the rubric's numbers may be shown (also requires ``ci_low >= threshold``)."""
    reason: StrictStr
    """Why, in one sentence."""
    notes: list[StrictStr]
    """What does not change the decision but a reader should know."""

    def shown(self) -> bool:
        """Whether the block says publishable and its stored bound reaches its threshold."""
        return self.publishable and self.ci_low is not None and self.ci_low >= self.threshold


class JudgeBlock(DiagnosticBlock):
    """The report's ``diagnostics.judge``: the judge's calibration against human labels, and
    whether its numbers may be shown. Booleans and numbers are strict, so an edited block never
    passes for a calibrated one."""

    measured: StrictBool
    """Whether calibration labels were configured and the judge was calibrated on them."""
    labels: StrictStr | None
    """The calibration label file as the config names it."""
    n: StrictInt | None
    """Labelled items; null when nothing was measured."""
    kappa: StrictFloat | None
    """Cohen's kappa between the judge and the humans; null when not estimated."""
    ci_low: StrictFloat | None
    """Lower bound of kappa's interval."""
    ci_high: StrictFloat | None
    """Upper bound of kappa's interval."""
    threshold: StrictFloat
    """The kappa lower bound judge-derived numbers must reach."""
    publishable: StrictBool
    """Whether judge-derived numbers may be shown (also requires ``ci_low >= threshold``)."""
    reason: StrictStr
    """Why, in one sentence."""
    notes: list[StrictStr]
    """What does not change the decision but a reader should know."""
    metrics: list[StrictStr]
    """The metrics that are judge-derived."""
    judge: JudgeIdentity | None = None
    """The model that scored the run's judge metric; absent when none did."""
    usage: JudgeUsage | None = None
    """What that judge did in this run; absent when none did."""
    rubrics: dict[StrictStr, RubricBlock] | None = None
    """Each rubric metric's judge and calibration, by metric name; absent without rubrics."""


class HasJudge(Protocol):
    """Anything holding a report's judge block: :class:`fairwitness.report.Diagnostics`."""

    @property
    def judge(self) -> JudgeBlock | None:
        """The ``diagnostics.judge`` block, or ``None``."""


Judged: TypeAlias = HasJudge | Mapping[str, Any]
"""A report's diagnostics, typed, or as a mapping holding a ``judge`` block as saved."""


def judge_block(
    calibration: Calibration | None,
    *,
    labels: str | None,
    threshold: float,
    metrics: Sequence[str],
    judge: Mapping[str, Any] | None = None,
    rubrics: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The JSON-safe ``diagnostics.judge`` block; ``calibration`` is ``None`` when no labels are
    configured. ``labels`` is the label file as the config names it. ``judge`` (provider, model,
    prompt version) is the model that scored the run's judge metric, stored as ``judge``;
    ``rubrics`` are the rubric metrics' blocks by name (:class:`RubricBlock`), stored when any."""
    block = _calibration_block(calibration, labels=labels, threshold=threshold, metrics=metrics)
    if judge is not None:
        block = block.model_copy(update={"judge": JudgeIdentity.model_validate(judge)})
    if rubrics:
        typed = {name: RubricBlock.model_validate(data) for name, data in rubrics.items()}
        block = block.model_copy(update={"rubrics": typed})
    return block.json_data()


def _calibration_block(
    calibration: Calibration | None,
    *,
    labels: str | None,
    threshold: float,
    metrics: Sequence[str],
) -> JudgeBlock:
    if calibration is None:
        return JudgeBlock(
            measured=False,
            labels=labels,
            n=None,
            kappa=None,
            ci_low=None,
            ci_high=None,
            threshold=threshold,
            publishable=False,
            reason=NO_LABELS,
            notes=[],
            metrics=list(metrics),
        )
    decision = calibration.publishable(threshold)
    kappa = calibration.kappa
    return JudgeBlock(
        measured=True,
        labels=labels,
        n=calibration.n,
        kappa=kappa.value,
        ci_low=kappa.ci_low,
        ci_high=kappa.ci_high,
        threshold=decision.threshold,
        publishable=decision.publishable,
        reason=decision.reason,
        notes=list(decision.notes),
        metrics=list(metrics),
    )


def _block(diagnostics: Judged) -> JudgeBlock | None:
    if not isinstance(diagnostics, Mapping):
        return diagnostics.judge
    raw = diagnostics.get("judge")
    if isinstance(raw, JudgeBlock) or not isinstance(raw, Mapping):
        return raw if isinstance(raw, JudgeBlock) else None
    try:
        return JudgeBlock.model_validate(raw)
    except ValidationError as exc:
        return _unreadable(raw, exc)


def _unreadable(raw: Mapping[str, Any], exc: ValidationError) -> JudgeBlock:
    """A block that does not validate withholds every metric it lists."""
    first = exc.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first["loc"])
    names = raw.get("metrics")
    rubrics = raw.get("rubrics")
    if isinstance(names, list) and isinstance(rubrics, Mapping):
        names = [*names, *rubrics]
    return JudgeBlock(
        measured=False,
        labels=None,
        n=None,
        kappa=None,
        ci_low=None,
        ci_high=None,
        threshold=1.0,
        publishable=False,
        reason=f"the judge block is unreadable (field '{field}': {first['msg']})",
        notes=[],
        metrics=[name for name in names if isinstance(name, str)]
        if isinstance(names, list)
        else [],
    )


def judge_metrics(diagnostics: Judged) -> list[str]:
    """The metrics the block marks judge-derived (none without a block)."""
    block = _block(diagnostics)
    return [] if block is None else list(block.metrics)


def _figures_agree(block: JudgeBlock) -> bool:
    return block.ci_low is not None and block.ci_low >= block.threshold


def publishable(diagnostics: Judged) -> bool:
    """Whether judge-derived numbers may be shown: the block says ``publishable`` and its stored
    lower bound reaches its stored threshold (``False`` without a block)."""
    block = _block(diagnostics)
    return block is not None and block.publishable and _figures_agree(block)


def withheld_reason(diagnostics: Judged) -> str:
    """Why judge-derived numbers are withheld, as the block states it."""
    block = _block(diagnostics)
    if block is None:
        return "the report has no judge calibration (diagnostics.judge)"
    if block.publishable:
        return (
            "the judge block says publishable, but its kappa lower bound (ci_low) does not "
            "reach its threshold"
        )
    return block.reason or "the judge calibration gives no reason"


def rubric_reason(name: str, rubric: RubricBlock) -> str:
    """Why a rubric metric's numbers are withheld, with its kappa and n, as the block states it."""
    judge = rubric.judge
    why = rubric.reason
    if rubric.publishable:
        why = "its block says publishable, but its kappa lower bound does not reach its threshold"
    return f"rubric '{name}' (judge {judge.provider}:{judge.model}): {why}"


def withheld_metrics(diagnostics: Judged) -> dict[str, str]:
    """Metric name -> why its numbers are withheld; empty when nothing is withheld."""
    found: dict[str, str] = {}
    if not publishable(diagnostics):
        found = dict.fromkeys(judge_metrics(diagnostics), withheld_reason(diagnostics))
    block = _block(diagnostics)
    for name, rubric in ((block.rubrics or {}) if block is not None else {}).items():
        if not rubric.shown():
            found[name] = rubric_reason(name, rubric)
    return found


def _rubric_summary(name: str, rubric: RubricBlock) -> str:
    if not rubric.shown() or rubric.ci_low is None:
        return f"withheld: {rubric_reason(name, rubric)}"
    shown = "not stored" if rubric.kappa is None else f"{rubric.kappa:.2f}"
    upper = "?" if rubric.ci_high is None else f"{rubric.ci_high:.2f}"
    return (
        f"rubric '{name}': kappa {shown} [{_bound_text(rubric.ci_low, rubric.threshold)}, "
        f"{upper}], n = {rubric.n}, lower bound reaches {rubric.threshold:g}: shown"
    )


def judge_model(diagnostics: Judged) -> str | None:
    """``provider:model (prompt version)`` of the judge that scored the run, or ``None``."""
    block = _block(diagnostics)
    judge = block.judge if block is not None else None
    if judge is None:
        return None
    return f"{judge.provider}:{judge.model} (prompt {judge.prompt_version})"


def judge_changed(baseline: Judged, candidate: Judged) -> str | None:
    """Why two reports' judge-derived numbers are not comparable (their judges differ), or
    ``None`` when the same judge scored both, or neither recorded one."""
    before, after = judge_model(baseline), judge_model(candidate)
    if before == after:
        return None
    return (
        f"the judge changed: the baseline was scored by {before or 'no recorded judge'}, "
        f"the candidate by {after or 'no recorded judge'}"
    )


def judge_summary(diagnostics: Judged) -> str | None:
    """One line on the judge calibration for a "can this suite be trusted?" table, from the
    block's stored figures; ``None`` without a block."""
    block = _block(diagnostics)
    if block is None:
        return None
    rubrics = "".join(
        f"; {_rubric_summary(name, rubric)}" for name, rubric in (block.rubrics or {}).items()
    )
    return _misreport_summary(diagnostics, block) + _decided(block) + rubrics


def _decided(block: JudgeBlock) -> str:
    """How many answers of the judged metric each reader decided, when the block knows."""
    usage = block.usage
    if usage is None or usage.by_labeller is None or usage.by_judge is None:
        return ""
    unread = usage.unread or 0
    asked = usage.by_judge + unread
    return (
        f"; answers decided: {usage.by_labeller} by the labeller, {usage.by_judge} of the "
        f"{asked} it could not read by the judge"
        + (f" ({unread} left unreadable)" if unread else "")
    )


def _misreport_summary(diagnostics: Judged, block: JudgeBlock) -> str:
    marked = judge_metrics(diagnostics)
    tail = "" if marked else f"; {NOT_MARKED}"
    model = judge_model(diagnostics)
    if model is not None:
        tail += f"; judge {model}"
    low, threshold = block.ci_low, block.threshold
    if not publishable(diagnostics) or low is None:
        return f"withheld: {withheld_reason(diagnostics)}{tail}"
    shown = "not stored" if block.kappa is None else f"{block.kappa:.2f}"
    upper = "?" if block.ci_high is None else f"{block.ci_high:.2f}"
    return (
        f"kappa {shown} [{_bound_text(low, threshold)}, {upper}], n = {block.n}, lower "
        f"bound reaches {threshold:g}: judge-derived numbers shown{tail}"
    )


def _bound_text(low: float, threshold: float) -> str:
    # the calibration module (statistics, the judge protocol) loads only when a judge is shown
    from fairwitness.judge._calibration import bound_text

    return bound_text(low, threshold)
