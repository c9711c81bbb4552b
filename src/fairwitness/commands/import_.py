"""``fairwitness import SOURCE --format otlp|jsonl|promptfoo``: score traces from any agent.

Traces made outside the fairwitness runner (OpenTelemetry GenAI spans, trace JSONL written in
another language, a promptfoo results file) are paired with the dataset's cases, scored by the
same scorers, and written as a trace file and a report exactly like ``fairwitness run`` writes
them, so ``gate``, ``render`` and ``readme`` treat both alike.

Everything is checked before anything is written: a malformed record, a trial that cannot be
paired with a case, a case id the dataset does not hold or the same trial twice is refused with
the file, record and reason (exit 4). Records that are not agent trials (spans of other traces)
are skipped and counted by reason. Dataset cases with no imported trial make the report
incomplete (exit 4), never a silent pass.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal, TextIO

from pydantic import ValidationError

from fairwitness.config import load_config
from fairwitness.dataset import Case, Dataset
from fairwitness.errors import (
    EXIT_INVALID,
    EXIT_OK,
    DatasetError,
    OutputExistsError,
    Problem,
    ReportError,
    UsageError,
)
from fairwitness.render import metric_lines
from fairwitness.report import Report, save_run_report
from fairwitness.runner import RunResult
from fairwitness.runner._results import _summary
from fairwitness.scoring import ScoreBoard, TrialScores
from fairwitness.scoring.apply import unscored_lines
from fairwitness.scoring.configured import configured_board
from fairwitness.trace.importers import (
    DEFAULT_ANSWER_ATTRIBUTES,
    ImportResult,
    SpanMapping,
    import_otlp_file,
    read_jsonl,
    read_promptfoo,
)
from fairwitness.trace.model import Trace
from fairwitness.trace.sink import JsonlTraceSink

Format = Literal["otlp", "jsonl", "promptfoo"]
FORMATS: tuple[Format, ...] = ("otlp", "jsonl", "promptfoo")


@dataclass(frozen=True)
class Paired:
    """Imported traces ready to write: each paired with its case, in source order."""

    suite: str
    dataset: Dataset
    traces: list[Trace]
    repeats: int


def read_source(
    source: str,
    *,
    format: Format,
    pair_attribute: str = "fairwitness.case_id",
    suite: str | None = None,
    answer_attributes: Sequence[str] | None = None,
) -> ImportResult:
    """Read ``source`` in ``format``; raises :class:`ReportError` on the first malformed record."""
    if format == "otlp":
        mapping = SpanMapping(
            pair_attribute=pair_attribute,
            answer_attributes=tuple(answer_attributes or DEFAULT_ANSWER_ATTRIBUTES),
            suite=suite or "imported",
        )
        return import_otlp_file(source, mapping=mapping)
    if format == "jsonl":
        return read_jsonl(source)
    if format == "promptfoo":
        return read_promptfoo(source, suite=suite or "promptfoo", pair_attribute=pair_attribute)
    raise UsageError(f"--format: expected one of {', '.join(FORMATS)}, got {format!r}")


def _derived_dataset(result: ImportResult) -> Dataset:
    """Cases the source defines (promptfoo), else one expectation-free case per imported id."""
    if result.cases:
        try:
            cases = [Case.model_validate(record) for record in result.cases]
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            raise ReportError(
                Problem(first["msg"], file=result.source, field="case " + str(first["loc"]))
            ) from None
    else:
        first_input: dict[str, Trace] = {}
        for item in result.records:
            first_input.setdefault(item.trace.case_id, item.trace)
        cases = [Case(id=cid, input=trace.input) for cid, trace in first_input.items()]
    return Dataset(cases, locations={c.id: (result.source, 0) for c in cases} or None)


def pair(
    result: ImportResult,
    dataset: Dataset | None,
    *,
    pair_attribute: str = "fairwitness.case_id",
    suite: str | None = None,
) -> Paired:
    """Pair every imported trace with a case; refuse unknown ids, duplicates and mixed suites."""
    if not result.records:
        skipped = f" ({result.summary()})" if result.skipped else ""
        raise ReportError(Problem(f"no agent trials found{skipped}", file=result.source))
    cases = dataset if dataset is not None else _derived_dataset(result)
    by_id = {case.id: case for case in cases}
    suites: dict[str, int] = {}
    seen: dict[tuple[str, int, str], int] = {}
    traces: list[Trace] = []
    for item in result.records:
        trace = item.trace
        case = by_id.get(trace.case_id)
        if case is None:
            close = ", ".join(sorted(by_id)[:5])
            raise ReportError(
                item.problem(
                    f"case id '{trace.case_id}' ({pair_attribute}) is not in the dataset "
                    f"(it holds {len(by_id)} case(s): {close}{', ...' if len(by_id) > 5 else ''})"
                )
            )
        key = (trace.case_id, trace.repeat, trace.variant)
        if key in seen:
            raise ReportError(
                item.problem(
                    f"case '{trace.case_id}' repeat {trace.repeat} variant '{trace.variant}' "
                    f"was already imported from record {seen[key]}"
                )
            )
        seen[key] = item.record
        suites.setdefault(trace.suite, item.record)
        update: dict[str, object] = {}
        if suite is not None and trace.suite != suite:
            update["suite"] = suite
        if trace.input == "":
            update["input"] = case.input
        traces.append(trace.model_copy(update=update) if update else trace)
    if suite is None and len(suites) > 1:
        names = ", ".join(f"'{name}' (from record {record})" for name, record in suites.items())
        raise ReportError(
            Problem(
                f"traces of several suites: {names}; import one suite at a time or pass a suite",
                file=result.source,
                field="suite",
            )
        )
    repeats = 1 + max(t.repeat for t in traces)
    return Paired(suite or traces[0].suite, cases, traces, repeats)


def _outputs(out: str, suite: str, force: bool) -> tuple[Path, Path]:
    folder = Path(out)
    report_path = folder / f"{suite}.report.json"
    traces_path = folder / f"{suite}.traces.jsonl"
    if not force:
        for path in (report_path, traces_path):
            if path.exists():
                raise OutputExistsError(
                    Problem("output already exists; pass --force to replace it", file=str(path))
                )
    return report_path, traces_path


def _scores(board: ScoreBoard, paired: Paired) -> list[TrialScores]:
    """Every imported trace's scores, in order (async scorers awaited)."""
    by_id = {case.id: case for case in paired.dataset}

    async def awaited() -> list[TrialScores]:
        return [await board.ascore(t, by_id[t.case_id]) for t in paired.traces]

    with board:
        if board.awaits:
            return asyncio.run(awaited())
        return [board(trace, by_id[trace.case_id]) for trace in paired.traces]


def write_import(
    paired: Paired,
    *,
    out: str,
    force: bool = False,
    source: str,
    format: Format,
    board: ScoreBoard | None = None,
    scores: Sequence[TrialScores] | None = None,
) -> tuple[Report, Path, Path]:
    """Score the paired traces with ``board`` (the built-in scorers by default; ``scores``, when
    given, are its scores of them, in order), then write ``OUT/SUITE.traces.jsonl`` and
    ``OUT/SUITE.report.json``.

    The report is built by the same code as a run's; trials the dataset plans (cases x repeats)
    but the source did not hold are counted as not run, and make the report incomplete."""
    report_path, traces_path = _outputs(out, paired.suite, force)
    board = board if board is not None else ScoreBoard()
    now = datetime.now(timezone.utc)
    trials = []
    models: list[str] = []
    if scores is None:
        scores = _scores(board, paired)
    for line, (trace, row) in enumerate(zip(paired.traces, scores, strict=True), start=1):
        trials.append(_summary(trace, line, row))
        models.extend(m for m in trace.models if m not in models)
    variants = sum(1 for t in paired.traces if t.variant != "base")
    planned = len(paired.dataset) * paired.repeats + variants
    missing = planned - len(trials)
    reason = None
    if missing:
        have = {t.case_id for t in paired.traces}
        absent = [case.id for case in paired.dataset if case.id not in have]
        named = f" (cases without any: {', '.join(absent[:5])}{', ...' if len(absent) > 5 else ''})"
        reason = f"{missing} of {planned} planned trials were not in the imported source" + (
            named if absent else ""
        )
    result = RunResult(
        suite=paired.suite,
        planned=planned,
        trials=trials,
        complete=not missing,
        incomplete_reason=reason,
        live_calls=0,
        abandoned_threads=0,
        models=models,
        started_at=now,
        finished_at=now,
        faults_declared=sum(len(t.faults_declared) for t in paired.traces),
    )
    sink = JsonlTraceSink(traces_path)
    try:
        for trace in paired.traces:
            sink.write(trace)
        report = save_run_report(
            result,
            paired.dataset,
            report_path,
            force=True,
            board=board,
            target=f"import:{format}:{Path(source).name}",
            seed=0,
            repeats=paired.repeats,
            concurrency=1,
            timeout_s=None,
            mode="live",
            traces=traces_path.name,
        )
    except BaseException:
        sink.discard()
        raise
    sink.commit()
    return report, report_path, traces_path


def import_traces(
    source: str,
    *,
    format: Format,
    dataset: str | None,
    out: str,
    pair_attribute: str = "fairwitness.case_id",
    force: bool = False,
    suite: str | None = None,
    answer_attributes: Sequence[str] | None = None,
    config: str | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Import ``source``, score it against ``dataset`` (or the cases the source itself defines),
    write the trace file and report into the folder ``out``; print the report's path. With
    ``config``, the traces are scored with its ``[scoring]`` options and ``[[scorers]]`` too.

    Returns 0, or 4 when dataset cases had no imported trial (the report says which). Malformed or
    unpairable input raises a :class:`~fairwitness.errors.FairwitnessError` (exit 4) before
    anything is written."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if format not in FORMATS:
        raise UsageError(f"--format: expected one of {', '.join(FORMATS)}, got {format!r}")
    board = configured_board(load_config(config) if config is not None else None)
    cases = Dataset.load(dataset, suite=suite) if dataset is not None else None
    imported = read_source(
        source,
        format=format,
        pair_attribute=pair_attribute,
        suite=suite,
        answer_attributes=answer_attributes,
    )
    if cases is None and format != "promptfoo" and imported.records:
        stderr.write(
            "fairwitness: import: no --dataset given; cases have no expectations, so no metric "
            "is measured\n"
        )
    try:
        paired = pair(imported, cases, pair_attribute=pair_attribute, suite=suite)
    except DatasetError as exc:
        raise ReportError(exc.problem) from None
    _outputs(out, paired.suite, force)  # refused before any scorer runs
    scores = _scores(board, paired)
    report, report_path, traces_path = write_import(
        paired, out=out, force=force, source=source, format=format, board=board, scores=scores
    )
    stdout.write(f"fairwitness: import {format}: {source}: {imported.summary()}\n")
    if imported.assertions:
        kinds = sorted({kind for kind, _ in imported.assertions})
        shown = ", ".join(
            f"{kind} {imported.assertions[(kind, True)]}/"
            f"{imported.assertions[(kind, True)] + imported.assertions[(kind, False)]} passed"
            for kind in kinds
        )
        stdout.write(f"  assertions: {shown}\n")
    for line in metric_lines(report):
        stdout.write(f"  {line}\n")
    for warning in unscored_lines(board, scores):
        stderr.write(f"fairwitness: warning: {warning}\n")
    stdout.write(f"{traces_path}\n{report_path}\n")
    if not report.complete:
        stderr.write(f"fairwitness: import: report incomplete ({report.incomplete_reason})\n")
        return EXIT_INVALID
    return EXIT_OK
