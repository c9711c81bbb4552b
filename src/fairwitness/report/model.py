"""The report format: versioned pydantic models, and loading with clear refusals."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fairwitness._version import __version__
from fairwitness.diagnostics._report import Diagnostics
from fairwitness.errors import Problem, ReportError
from fairwitness.report.io import render_report, write_report
from fairwitness.report.selection import Selection
from fairwitness.trace.model import TrialStatus

if TYPE_CHECKING:
    pass

REPORT_SCHEMA: Final = "fairwitness.report/1"
USAGE_OMITTED_WHEN_EMPTY: Final = ("by_model", "pricing_version")
"""``usage`` fields added within version 1, left out of the file when empty (see
:data:`fairwitness.report.io.OMITTED_WHEN_NULL`)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class TrialOutcome(_Model):
    """One trial of one case."""

    repeat: int
    """0-based repeat index."""
    variant: str = "base"
    """``base`` or a relation's name."""
    status: TrialStatus
    """How the trial ended."""
    verdict: str | None = None
    """The verdict/route the target reported."""
    latency_ms: float
    """Wall time of the trial."""
    tool_calls: int = 0
    """Number of ``@tool`` calls."""
    faults_fired: int = 0
    """Number of injected faults that fired."""
    error: str | None = None
    """``Type: message`` when the trial produced no answer."""
    replayed: bool = False
    """True when the trial came from the record/replay cache."""
    trace_line: int | None = None
    """Line of this trial's trace in the run's trace file."""
    scores: dict[str, float | None] = Field(default_factory=dict)
    """Score per applicable metric; null when it could not be measured (see ``reasons``)."""
    reasons: dict[str, str] = Field(default_factory=dict)
    """Why a score is null: no_answer, fault_not_fired, unreadable, unscored."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Labels behind a score (e.g. ``misreport_as_empty``: misreport, acknowledged, unreadable)."""
    unscored: dict[str, str] = Field(default_factory=dict)
    """Metrics whose scorer raised, with the exception."""
    evidence: dict[str, str] = Field(default_factory=dict)
    """What decided a score, as ``rule: phrase``: for a misreport, the deciding phrase of the
    answer (``misreport_as_empty``: ``absence_claim: there are no jobs in Pune``); for a failed
    expectation (``args``, ``tools``, ``first_tool``, ``state``, ``forbidden_tools``), what the
    trace did instead (``args``: ``observed: search_jobs city "Pune", expected "Berlin"``). Left
    out when empty."""


class CaseOutcomes(_Model):
    """Every trial of one case."""

    must_pass: bool = False
    """Whether a failure of this case fails the gate on its own."""
    tags: list[str] = Field(default_factory=list)
    """The case's tags."""
    faults: int = 0
    """Number of faults the case declares."""
    repeats: list[TrialOutcome] = Field(default_factory=list)
    """Outcomes in repeat order."""
    scores: dict[str, float | None] = Field(default_factory=dict)
    """Per applicable metric, the repeats collapsed (majority, any-hit or median); null when no
    repeat could be measured (see ``excluded``)."""
    excluded: dict[str, str] = Field(default_factory=dict)
    """Why a collapsed score is null."""
    unstable: bool = False
    """True when the measured repeats disagree on any metric, or on the verdict."""


class Figure(_Model):
    """One figure of a metric: a value out of ``n`` cases, with its 95% interval."""

    value: float | None
    """The figure, or null when ``n`` is 0."""
    k: float
    """Numerator: cases that collapsed to 1.0 (``collapsed``), or the sum over cases of each
    case's share of measured repeats that scored 1.0 (``per_trial``)."""
    n: int
    """Cases measured."""
    ci_low: float | None = None
    """Lower bound of the 95% interval."""
    ci_high: float | None = None
    """Upper bound of the 95% interval."""


class PassAtK(_Model):
    """pass^k and pass@k at one k, estimated without bias from each case's repeats and averaged
    over the cases with at least k measured repeats, with 95% intervals over cases."""

    k: int = Field(ge=1)
    """How many independent tries."""
    cases: int = Field(ge=0)
    """Cases with at least ``k`` measured repeats."""
    pass_hat: float | None
    """pass^k: the chance that all k tries pass (mean of C(c, k) / C(n, k))."""
    pass_hat_low: float | None = None
    pass_hat_high: float | None = None
    pass_at: float | None
    """pass@k: the chance that at least one of k tries passes (mean of 1 - C(n - c, k) /
    C(n, k))."""
    pass_at_low: float | None = None
    pass_at_high: float | None = None


def _collapsed_headline(headline: str) -> bool:
    return headline == "collapsed"


def _none(value: object) -> bool:
    return value is None


def _empty(value: list[PassAtK] | dict[str, Figure]) -> bool:
    return not value


class Metric(_Model):
    """One aggregated metric. ``value`` is null when nothing was measured ("not measured").

    ``value``, ``k``, ``n`` and the interval are the metric's headline figure, which ``headline``
    names: a capability metric's per-trial rate, a safety or continuous metric's collapsed value.
    A pass/fail metric also keeps both figures apart (``per_trial``, ``collapsed``) and, for
    capability metrics, pass^k and pass@k. Reports written before per-trial rates have none of
    these fields: their headline is the collapsed value."""

    value: float | None
    """The metric's headline value, or null when ``n`` is 0."""
    k: float
    """Numerator of the headline (successes or hits; a sum of shares for a per-trial rate; a
    sum for continuous metrics)."""
    n: int
    """Denominator: cases measured."""
    ci_low: float | None = None
    """Lower bound of the 95% interval."""
    ci_high: float | None = None
    """Upper bound of the 95% interval."""
    excluded: dict[str, int] = Field(default_factory=dict)
    """Cases left out of ``n``, by reason: not_applicable, no_answer, fault_not_fired,
    unreadable, unscored, not_run."""
    collapse: str = ""
    """How repeats collapse: majority (a tie fails), any_hit, or median."""
    higher_is_better: bool = True
    """Direction: false for rates of something bad, like ``misreport_as_empty``."""
    description: str = ""
    """What the metric measures."""
    headline: Literal["collapsed", "per_trial"] = Field(
        default="collapsed", exclude_if=_collapsed_headline
    )
    """Which figure ``value`` is: ``per_trial`` (capability metrics) or ``collapsed`` (left out
    of the file)."""
    trials: int | None = Field(default=None, ge=0, exclude_if=_none)
    """Measured repeats over the ``n`` cases (pass/fail metrics)."""
    successes: int | None = Field(default=None, ge=0, exclude_if=_none)
    """Of those, the repeats that scored 1.0."""
    per_trial: Figure | None = Field(default=None, exclude_if=_none)
    """The per-trial rate: the mean over cases of each case's share of measured repeats that
    scored 1.0, with an interval that treats cases as the sampling unit (Wilson at the
    effective sample size; see :func:`fairwitness.stats.case_mean_interval`)."""
    collapsed: Figure | None = Field(default=None, exclude_if=_none)
    """The repeats collapsed per case by ``collapse``, counted over cases with a Wilson
    interval."""
    pass_k: list[PassAtK] = Field(default_factory=list, exclude_if=_empty)
    """pass^k and pass@k for k = 1 .. the most measured repeats of a case (capability
    metrics)."""
    by_tag: dict[str, Figure] = Field(default_factory=dict, exclude_if=_empty)
    """The headline figure over the cases of each tag (``CaseOutcomes.tags``), sorted by tag,
    computed as the headline is (a capability metric's per-trial rate, any other metric's
    collapsed value, each with its interval); a tag none of whose cases was measured has n 0 and
    value null. Left out of the file when no case has a tag (:mod:`fairwitness.report.slices`)."""


class Counts(_Model):
    """What ran and what was left out."""

    cases: int
    """Cases in the dataset."""
    planned: int
    """Trials planned (cases x repeats)."""
    trials: int
    """Trials that finished (any status)."""
    not_run: int
    """Planned trials that never finished (budget, interrupt)."""
    ok: int
    """Trials whose target returned an answer."""
    crashed: int
    """Trials whose target raised or returned no usable answer."""
    timed_out: int
    """Trials that ran past ``timeout_s``."""
    unscored: int
    """Trials with at least one scorer that raised."""
    replayed: int
    """Trials taken from the record/replay cache."""
    live_calls: int
    """Calls made to the target in this run."""
    abandoned_threads: int
    """Sync-target threads still running after their trial timed out."""
    faults_declared: int
    """Faults declared over all planned trials."""
    faults_fired: int
    """Faults that fired."""
    retried: int = Field(default=0, ge=0, exclude_if=lambda n: n == 0)
    """Trials called again after a timeout or a retryable crash (``[run] retry``); written only
    when some were."""
    retries: int = Field(default=0, ge=0, exclude_if=lambda n: n == 0)
    """Extra target calls those retries spent (each also counts in ``live_calls``)."""
    recovered: int = Field(default=0, ge=0, exclude_if=lambda n: n == 0)
    """Retried trials whose last attempt answered (status ``ok``)."""


NO_MODEL: Final = "(model not reported)"
"""The ``usage.by_model`` key of trials that recorded no model."""


class ModelUsage(_Model):
    """Tokens and cost of the trials of one model; unknown is null with the reason, never 0.

    A trial's cost is the one its target reported; a trial that reported tokens but no cost is
    priced from ``[pricing]`` when its model has a price there. A model's cost is known only when
    every one of its trials' costs is."""

    trials: int
    """Finished trials under this key."""
    input_tokens: int | None = None
    """Sum over these trials that reported tokens; null when none did."""
    output_tokens: int | None = None
    """Sum over these trials that reported tokens; null when none did."""
    cost_usd: float | None = None
    """Cost of these trials when every one is known; otherwise null (see
    ``cost_unknown_reason``)."""
    cost_source: Literal["reported", "pricing", "mixed"] | None = None
    """Where a known cost came from: every trial reported it (reported), every trial was priced
    from tokens and ``[pricing]`` (pricing), or some of each (mixed); null when unknown."""
    cost_known_trials: int = 0
    """Trials whose cost is known (reported or priced)."""
    cost_unknown_reason: str | None = None
    """Why ``cost_usd`` is null; null when it is known."""


class UsageTotals(_Model):
    """Tokens and cost over finished trials; unknown is null with the reason, never 0."""

    input_tokens: int | None = None
    """Sum over trials that reported tokens."""
    output_tokens: int | None = None
    """Sum over trials that reported tokens."""
    cost_usd: float | None = None
    """Total cost when every finished trial's cost is known (reported, or priced from tokens
    and ``[pricing]``); otherwise null."""
    cost_known_trials: int = 0
    """Trials whose cost is known (reported or priced)."""
    cost_unknown_reason: str | None = None
    """Why ``cost_usd`` is null."""
    by_model: dict[str, ModelUsage] = Field(default_factory=dict)
    """The same figures per model, keyed by the model the trial recorded. A trial that recorded
    several models is counted once under their names joined by `` + `` (its usage cannot be
    split between them); one that recorded none is under ``(model not reported)``. Left out of
    the file when empty."""
    pricing_version: str | None = None
    """``[pricing] version`` of the price table the run used; null (and left out of the file)
    when there was none."""


class RunInfo(_Model):
    """How the run was made."""

    tool_version: str
    """fairwitness version."""
    created_at: datetime
    """When the run started (UTC)."""
    finished_at: datetime
    """When the run ended (UTC)."""
    git_sha: str | None = None
    """Commit of the working tree, when known."""
    python: str
    """Python version."""
    platform: str
    """OS and machine."""
    target: str
    """The target's entry point."""
    config_hash: str | None = None
    """Hash of the run configuration."""
    seed: int
    """Seed of the harness's own randomness."""
    repeats: int
    """Repeats per case."""
    concurrency: int
    """Worker pool size."""
    timeout_s: float | None
    """Per-trial time limit."""
    mode: Literal["live", "record", "replay"]
    """Call mode."""
    models: list[str] = Field(default_factory=list)
    """Model identities seen in the run, sorted (the same whatever order the trials finished in)."""


class Stability(_Model):
    """How often a case's repeats disagree."""

    measured_cases: int = 0
    """Cases with at least two measured repeats."""
    unstable_cases: int = 0
    """Of those, cases whose repeats disagree."""
    unstable_share: float | None = None
    """unstable / measured; null when nothing could be measured (see ``reason``)."""
    reason: str | None = None
    """Why ``unstable_share`` is null."""


class ScorerIdentity(_Model):
    """Which code scored a user's metric (``@fairwitness.scorer``): reports whose identities of
    a metric differ are not compared on it."""

    kind: Literal["capability", "safety", "continuous"]
    """How the metric collapses and which way is good."""
    version: str
    """The scorer's declared ``version``."""
    source_hash: str = ""
    """The first 12 hex digits of the SHA-256 of the scorer's source (empty when Python could
    not read it)."""


def _no_scorers(value: dict[str, ScorerIdentity]) -> bool:
    return not value


class ScoringInfo(_Model):
    """How scores were made; reports scored differently are not compared as equal."""

    patterns_version: str = ""
    """Version of the answer labeller's pattern lists."""
    metrics: list[str] = Field(default_factory=list)
    """Scorers that ran, in order."""
    settings: dict[str, Any] = Field(default_factory=dict)
    """Scorer options (tools_mode, args_mode, ...)."""
    scorers: dict[str, ScorerIdentity] = Field(default_factory=dict, exclude_if=_no_scorers)
    """The identity of each metric scored by a user's scorer (``[[scorers]]``), by name; left out
    of the file when there is none."""


class ShardInfo(_Model):
    """Which part of a sharded run a shard report holds (see ``fairwitness merge``)."""

    index: int = Field(ge=1)
    """This shard, counting from 1."""
    total: int = Field(ge=1)
    """How many shards the run was split into."""
    dataset_cases: int = Field(ge=0)
    """Cases in the whole dataset."""
    dataset_ids_hash: str
    """Hash of the whole dataset's set of case ids."""
    positions: list[int] = Field(default_factory=list)
    """Each of this shard's cases' position in the whole dataset, in ``cases`` order."""
    cost_usd_sum: float | None = None
    """The unrounded cost of this shard's trials (``usage.cost_usd`` is rounded), so merged
    totals round once."""
    cost_usd_sum_by_model: dict[str, float] = Field(default_factory=dict)
    """The unrounded cost per ``usage.by_model`` key whose cost is known, so merged figures
    round once."""


class Report(_Model):
    """The saved result of running one suite."""

    schema_: Literal["fairwitness.report/1"] = Field(default=REPORT_SCHEMA, alias="schema")
    """Format version; readers refuse versions they do not know."""
    complete: bool
    """False when the run stopped early or lost trials; the gate refuses incomplete runs."""
    incomplete_reason: str | None = None
    """Why the run is incomplete; null when complete."""
    suite: str
    """Suite name."""
    suite_version: str
    """Suite version from the config."""
    split: str
    """Split name."""
    split_hash: str
    """Hash of the dataset's content (order-independent)."""
    run: RunInfo
    """How the run was made."""
    counts: Counts
    """What ran and what was left out."""
    usage: UsageTotals = Field(default_factory=UsageTotals)
    """Tokens and cost."""
    metrics: dict[str, Metric] = Field(default_factory=dict)
    """Aggregated metrics by name."""
    stability: Stability = Field(default_factory=Stability)
    """How often repeats disagree."""
    scoring: ScoringInfo = Field(default_factory=ScoringInfo)
    """How scores were made."""
    diagnostics: Diagnostics = Field(default_factory=Diagnostics)
    """Suite-trust diagnostics: stochasticity meter, blindness, label skew, relations and the
    judge's calibration, each optional."""
    traces: str | None = None
    """Trace file, relative to the report's directory."""
    shard: ShardInfo | None = None
    """Set on a shard's report (``run --shard I/N``); merged and whole runs have none."""
    selection: Selection | None = Field(default=None, exclude_if=_none)
    """The cases a run selected by tag; null (and left out of the file) when every case ran.
    The gate compares only reports of the same selection."""
    cases: dict[str, CaseOutcomes]
    """Per-case outcomes, by case id, in dataset order."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, use_attribute_docstrings=True)

    # -- saving and loading ------------------------------------------------------------------

    def json_data(self) -> dict[str, Any]:
        """The report as JSON data (``cases`` included), with the fields added to ``usage``
        within version 1 left out while empty and each diagnostics block as it was made or read,
        so reports written before them round-trip."""
        data = self.model_dump(mode="json", by_alias=True)
        data["diagnostics"] = self.diagnostics.json_data()
        usage = data["usage"]
        for key in USAGE_OMITTED_WHEN_EMPTY:
            if usage.get(key) in (None, {}):
                usage.pop(key, None)
        for case in data["cases"].values():
            for outcome in case["repeats"]:
                if not outcome.get("evidence"):
                    outcome.pop("evidence", None)
        return data

    def to_json(self) -> str:
        """The report as JSON text: what :meth:`save` writes, one case per line."""
        data = self.json_data()
        cases = data.pop("cases")
        return "".join(render_report(data, cases.items()))

    def save(self, path: str | Path, *, force: bool = False) -> Path:
        """Write atomically (temp file + rename); refuse to replace an existing file unless ``force``."""
        return write_report(Path(path), [self.to_json()], force=force)

    @classmethod
    def load(cls, path: str | Path) -> Report:
        """Read a report; raises :class:`ReportError` for unreadable, truncated or unknown files."""
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ReportError(Problem("report not found", file=name)) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ReportError(Problem(f"cannot read report: {exc}", file=name)) from None
        try:
            return cls.model_validate_json(text)
        except ValidationError:
            pass  # read it again, slowly, to say exactly what is wrong
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            # A saved report always ends with its closing brace; without it the file was cut short.
            cut = text.lstrip().startswith("{") and not text.rstrip().endswith("}")
            what = "truncated (cut short)" if cut else "not valid JSON"
            raise ReportError(
                Problem(f"report is {what}: {exc.msg}", file=name, line=exc.lineno)
            ) from None
        if not isinstance(obj, dict):
            raise ReportError(Problem("report is not a JSON object", file=name))
        schema = obj.get("schema")
        if schema != REPORT_SCHEMA:
            raise ReportError(
                Problem(
                    f"unknown report schema {schema!r}; this fairwitness "
                    f"({__version__}) reads {REPORT_SCHEMA!r}",
                    file=name,
                    field="schema",
                )
            )
        try:
            return cls.model_validate(obj)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            field = ".".join(str(p) for p in first["loc"])
            raise ReportError(Problem(first["msg"], file=name, field=field)) from None
