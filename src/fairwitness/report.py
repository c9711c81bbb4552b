"""The report: one versioned JSON file per suite run, the single source of every printed number.

A report holds the run's metadata, per-case per-repeat outcomes, counts of everything that was
excluded, and slots for metrics and diagnostics. It is written atomically, never silently
overwritten, and refused on load when truncated or of an unknown schema version.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fairwitness._atomic import write_atomic
from fairwitness._version import __version__
from fairwitness.dataset import Dataset
from fairwitness.errors import OutputExistsError, Problem, ReportError
from fairwitness.runner import RunResult, TrialResult
from fairwitness.trace.model import TrialStatus

REPORT_SCHEMA: Final = "fairwitness.report/1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Outcome(_Model):
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
    """Score per metric; null means not applicable to this case."""
    unscored: dict[str, str] = Field(default_factory=dict)
    """Metrics whose scorer raised, with the exception."""


class CaseOutcomes(_Model):
    """Every trial of one case."""

    must_pass: bool = False
    """Whether a failure of this case fails the gate on its own."""
    tags: list[str] = Field(default_factory=list)
    """The case's tags."""
    faults: int = 0
    """Number of faults the case declares."""
    repeats: list[Outcome] = Field(default_factory=list)
    """Outcomes in repeat order."""


class Metric(_Model):
    """One aggregated metric. ``value`` is null when nothing was measured ("not measured")."""

    value: float | None
    """The metric's value, or null when ``n`` is 0."""
    k: float
    """Numerator (successes or hits; a sum for continuous metrics)."""
    n: int
    """Denominator: cases measured."""
    ci_low: float | None = None
    """Lower bound of the 95% interval."""
    ci_high: float | None = None
    """Upper bound of the 95% interval."""
    excluded: dict[str, int] = Field(default_factory=dict)
    """Cases left out of ``n``, by reason (not applicable, unscored, crashed...)."""


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


class UsageTotals(_Model):
    """Tokens and cost over finished trials; unknown is null with the reason, never 0."""

    input_tokens: int | None = None
    """Sum over trials that reported tokens."""
    output_tokens: int | None = None
    """Sum over trials that reported tokens."""
    cost_usd: float | None = None
    """Total cost when every finished trial reported one; otherwise null."""
    cost_known_trials: int = 0
    """Trials that reported a cost."""
    cost_unknown_reason: str | None = None
    """Why ``cost_usd`` is null."""


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
    """Model identities seen, first-seen order."""


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
    diagnostics: dict[str, Any] = Field(default_factory=dict)
    """Suite-trust diagnostics (stochasticity meter, blindness, relations) by name."""
    traces: str | None = None
    """Trace file, relative to the report's directory."""
    cases: dict[str, CaseOutcomes]
    """Per-case outcomes, by case id, in dataset order."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, use_attribute_docstrings=True)

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def from_run(cls, result: RunResult, dataset: Dataset, **meta: Any) -> Report:
        """Build a whole report in memory from a run (see :func:`save_run_report` for large runs).

        ``meta`` holds :func:`report_header`'s keyword arguments.
        """
        header = report_header(result, dataset, **meta)
        cases = {
            case_id: CaseOutcomes.model_validate(record)
            for case_id, record in case_records(result, dataset)
        }
        return header.model_copy(update={"cases": cases})

    # -- saving and loading ------------------------------------------------------------------

    def to_json(self) -> str:
        """The report as JSON text: what :meth:`save` writes, one case per line."""
        data = self.model_dump(mode="json", by_alias=True)
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


def report_header(
    result: RunResult,
    dataset: Dataset,
    *,
    suite_version: str = "1",
    split: str = "test",
    target: str,
    seed: int,
    repeats: int,
    concurrency: int,
    timeout_s: float | None,
    mode: Literal["live", "record", "replay"],
    config_hash: str | None = None,
    git_sha: str | None = None,
    traces: str | None = None,
) -> Report:
    """Everything in a report except the per-case outcomes (``cases`` is left empty)."""
    totals = {"ok": 0, "crashed": 0, "timed_out": 0, "cancelled": 0}
    replayed = fired = 0
    in_tok = out_tok = 0
    any_tokens = False
    cost = 0.0
    cost_known = 0
    for t in result.trials:
        totals[t.status] += 1
        replayed += t.replayed
        fired += t.faults_fired
        if t.input_tokens is not None or t.output_tokens is not None:
            any_tokens = True
            in_tok += t.input_tokens or 0
            out_tok += t.output_tokens or 0
        if t.cost_usd is not None:
            cost += t.cost_usd
            cost_known += 1
    finished = len(result.trials)
    cost_reason = None
    if not finished:
        cost_reason = "no trial finished"
    elif cost_known < finished:
        cost_reason = f"cost not reported for {finished - cost_known} of {finished} trials"
    usage = UsageTotals(
        input_tokens=in_tok if any_tokens else None,
        output_tokens=out_tok if any_tokens else None,
        cost_usd=round(cost, 6) if cost_reason is None else None,
        cost_known_trials=cost_known,
        cost_unknown_reason=cost_reason,
    )
    return Report(
        complete=result.complete,
        incomplete_reason=result.incomplete_reason,
        suite=result.suite,
        suite_version=suite_version,
        split=split,
        split_hash=dataset.split_hash(),
        run=RunInfo(
            tool_version=__version__,
            created_at=result.started_at,
            finished_at=result.finished_at,
            git_sha=git_sha,
            python=platform.python_version(),
            platform=f"{platform.system()}-{platform.machine()}",
            target=target,
            config_hash=config_hash,
            seed=seed,
            repeats=repeats,
            concurrency=concurrency,
            timeout_s=timeout_s,
            mode=mode,
            models=result.models,
        ),
        counts=Counts(
            cases=len(dataset),
            planned=result.planned,
            trials=finished,
            not_run=result.planned - finished,
            ok=totals["ok"],
            crashed=totals["crashed"],
            timed_out=totals["timed_out"],
            unscored=0,
            replayed=replayed,
            live_calls=result.live_calls,
            abandoned_threads=result.abandoned_threads,
            faults_declared=result.faults_declared,
            faults_fired=fired,
        ),
        usage=usage,
        traces=traces,
        cases={},
    )


def _outcome_record(t: TrialResult) -> dict[str, Any]:
    # Same keys, order and JSON types as Outcome.model_dump(mode="json") (checked by a test).
    return {
        "repeat": t.repeat,
        "variant": t.variant,
        "status": t.status,
        "verdict": t.verdict,
        "latency_ms": t.latency_ms,
        "tool_calls": t.tool_calls,
        "faults_fired": t.faults_fired,
        "error": t.error,
        "replayed": t.replayed,
        "trace_line": t.trace_line,
        "scores": {},
        "unscored": {},
    }


def case_records(result: RunResult, dataset: Dataset) -> Iterator[tuple[str, dict[str, Any]]]:
    """Per-case outcome records in dataset order, repeats in order, built one case at a time."""
    by_case: dict[str, list[TrialResult]] = {}
    for t in result.trials:
        by_case.setdefault(t.case_id, []).append(t)
    for case in dataset:
        trials = sorted(
            by_case.get(case.id, ()), key=lambda t: (t.variant != "base", t.variant, t.repeat)
        )
        yield (
            case.id,
            {
                "must_pass": case.must_pass,
                "tags": list(case.tags),
                "faults": len(case.faults),
                "repeats": [_outcome_record(t) for t in trials],
            },
        )


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def render_report(
    header: dict[str, Any], cases: Iterable[tuple[str, dict[str, Any]]]
) -> Iterator[str]:
    """The canonical report text, in chunks: one header field per line, then one case per line.

    Both the streaming writer and :meth:`Report.to_json` go through here, so a report written
    during a run and the same report loaded and saved again are byte-identical.
    """
    yield "{\n"
    for key, value in header.items():
        if key != "cases":
            yield f" {_dumps(key)}: {_dumps(value)},\n"
    yield ' "cases": {'
    first = True
    for case_id, record in cases:
        yield ("\n  " if first else ",\n  ") + f"{_dumps(case_id)}: {_dumps(record)}"
        first = False
    yield "\n }\n}\n" if not first else "}\n}\n"


def write_report(path: Path, chunks: Iterable[str], *, force: bool = False) -> Path:
    """Write report text atomically; refuse to replace an existing file unless ``force``."""
    if path.exists() and not force:
        raise OutputExistsError(
            Problem("report already exists; pass --force to replace it", file=str(path))
        )
    return write_atomic(path, chunks)


def save_run_report(
    result: RunResult, dataset: Dataset, path: Path, *, force: bool = False, **meta: Any
) -> Report:
    """Stream a run's report to ``path`` without building per-case objects; returns the header.

    Writes exactly the bytes ``Report.from_run(result, dataset, **meta).save(path)`` would.
    """
    header = report_header(result, dataset, **meta)
    data = header.model_dump(mode="json", by_alias=True)
    write_report(path, render_report(data, case_records(result, dataset)), force=force)
    return header


def git_sha(directory: str | Path) -> str | None:
    """The commit of ``directory``'s working tree, or ``None`` outside git."""
    sha = os.environ.get("GITHUB_SHA")
    if sha:
        return sha
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=directory,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None
