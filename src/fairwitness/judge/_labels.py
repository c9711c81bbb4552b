"""Calibration label files: JSONL, one item per line, loaded with line numbers.

An item the judge has already labelled::

    {"id": "cal-en-001", "human": "misreport", "judge": "misreport", "language": "en"}

An item for the judge to label (when a judge is given to the loader)::

    {"id": "cal-en-002", "question": "Any jobs in Pune?", "answer": "None right now.",
     "tool_outcomes": ["search_jobs: error (timeout)"], "human": "misreport", "language": "en"}

Fields: ``id``, ``human`` (required strings); ``judge``, ``language``, ``metric``, ``question``,
``answer``, ``note`` (optional strings); ``tool_outcomes`` (optional list of strings). A record
with a ``judge`` label keeps it even when a judge is given. Labels are compared as exact strings.
All records of one file must name the same ``metric`` (or none).

Lines are split on ``\\n`` only; blank lines are ignored; a UTF-8 byte-order mark is skipped. Every
bad line is reported with the file, line and field, as a :class:`DatasetError` (exit 4), before
anything else happens.
"""

from __future__ import annotations

import asyncio
import dataclasses
import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fairwitness.dataset import read_json_lines
from fairwitness.errors import DatasetError, Problem
from fairwitness.judge._calibration import CalibrationRecord
from fairwitness.judge._prompt import JUDGE_LABELS, JudgeModel, JudgeRequest, run_judge

_STRINGS = ("id", "human", "judge", "language", "metric", "question", "answer", "note")
_FIELDS = (*_STRINGS, "tool_outcomes")
_NON_EMPTY = ("id", "human", "judge", "language", "metric")


@dataclass(frozen=True)
class LabelRecord:
    """One line of a label file: a calibration item, labelled by the judge or still to be."""

    id: str
    human: str
    judge: str | None
    language: str | None
    metric: str | None
    request: JudgeRequest | None
    """What to show the judge, when the line gives a question and an answer."""
    file: str
    line: int

    def record(self, judge: str | None = None) -> CalibrationRecord:
        """The calibration record, with the judge's label from the line or ``judge``."""
        label = self.judge if self.judge is not None else judge
        if label is None:
            raise ValueError(f"{self.file}:{self.line}: no judge label for '{self.id}'")
        return CalibrationRecord(self.id, self.human, label, self.language, self.metric)


def json_type(value: object) -> str:
    """The JSON name of a parsed JSON value's type, for a located error."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def unknown_fields(obj: dict[str, object], known: Sequence[str]) -> list[tuple[str, str]]:
    """``(key, message)`` for each key of ``obj`` not in ``known``, with the closest known one."""
    found = []
    for key in obj:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            found.append(
                (key, "unknown field" + (f" (did you mean '{close[0]}'?)" if close else ""))
            )
    return found


def _check_object(
    obj: dict[str, object], name: str, line: int, judge_available: bool
) -> list[Problem]:
    problems: list[Problem] = []

    def problem(field: str, message: str) -> None:
        problems.append(Problem(message, file=name, line=line, field=field))

    for key, message in unknown_fields(obj, _FIELDS):
        problem(key, message)
    for key in _STRINGS:
        value = obj.get(key)
        if value is None:
            if key in obj and key in ("id", "human"):
                problem(key, "must be a string, got null")
            continue
        if not isinstance(value, str):
            problem(key, f"must be a string, got {json_type(value)}")
        elif key in _NON_EMPTY and (not value or value != value.strip()):
            problem(key, "must be non-empty, without surrounding whitespace")
    outcomes = obj.get("tool_outcomes")
    if outcomes is not None and not (
        isinstance(outcomes, list) and all(isinstance(item, str) for item in outcomes)
    ):
        problem("tool_outcomes", f"must be a list of strings, got {json_type(outcomes)}")
    for key in ("id", "human"):
        if key not in obj:
            problem(key, "required field is missing")
    if obj.get("judge") is None and "human" in obj:
        if not judge_available:
            problem("judge", "required field is missing (no judge was given to label the item)")
        else:
            for key in ("question", "answer"):
                if obj.get(key) is None:
                    problem(key, "required to run the judge on an item without a 'judge' label")
            human = obj.get("human")
            if isinstance(human, str) and human and human not in JUDGE_LABELS:
                problem(
                    "human",
                    f"'{human}' is not a label the judge can give ({', '.join(JUDGE_LABELS)})",
                )
    return problems


def _record(obj: dict[str, object], name: str, line: int) -> LabelRecord:
    def text(key: str) -> str | None:
        value = obj.get(key)
        return value if isinstance(value, str) else None

    question, answer = text("question"), text("answer")
    outcomes = obj.get("tool_outcomes")
    lines = tuple(str(item) for item in outcomes) if isinstance(outcomes, list) else ()
    request = None
    if question is not None and answer is not None:
        request = JudgeRequest(question, answer, lines)
    return LabelRecord(
        id=str(obj["id"]),
        human=str(obj["human"]),
        judge=text("judge"),
        language=text("language"),
        metric=text("metric"),
        request=request,
        file=name,
        line=line,
    )


def _metric(metric: str | None) -> str:
    return "no metric" if metric is None else f"'{metric}'"


def read_labels(path: str | Path, *, judge_available: bool = False) -> list[LabelRecord]:
    """Every record of a label file, in file order; :class:`DatasetError` lists every problem.

    Without ``judge_available`` every record needs a ``judge`` label; with it, a record without one
    needs ``question`` and ``answer``, and a ``human`` label the judge could give.
    """
    source = Path(path)
    name = str(source)
    records: list[LabelRecord] = []
    problems: list[Problem] = []
    first_line: dict[str, int] = {}
    metric_at: tuple[str | None, int] | None = None
    for line, item in read_json_lines(source):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        if not isinstance(item, dict):
            kind = json_type(item)
            problems.append(Problem(f"expected a label object, got {kind}", file=name, line=line))
            continue
        found = _check_object(item, name, line, judge_available)
        if found:
            problems.extend(found)
            continue
        record = _record(item, name, line)
        if record.id in first_line:
            problems.append(
                Problem(
                    f"duplicate id '{record.id}' (first seen at line {first_line[record.id]})",
                    file=name,
                    line=line,
                    field="id",
                )
            )
            continue
        first_line[record.id] = line
        if metric_at is None:
            metric_at = (record.metric, line)
        elif record.metric != metric_at[0]:
            problems.append(
                Problem(
                    f"{_metric(record.metric)} here, but {_metric(metric_at[0])} at line "
                    f"{metric_at[1]}: one label file calibrates one metric",
                    file=name,
                    line=line,
                    field="metric",
                )
            )
            continue
        records.append(record)
    if problems:
        raise DatasetError(problems[0], problems=problems)
    if not records:
        raise DatasetError(Problem("no label records found", file=name))
    return records


async def judge_records(
    records: Sequence[LabelRecord], judge: JudgeModel, *, concurrency: int = 4
) -> list[CalibrationRecord]:
    """Calibration records in input order, asking ``judge`` about those without a judge label."""
    pending = [r for r in records if r.judge is None]
    requests: list[JudgeRequest] = []
    for record in pending:
        if record.request is None:
            raise ValueError(
                f"{record.file}:{record.line}: '{record.id}' has no question and answer to judge"
            )
        requests.append(record.request)
    labels = await run_judge(judge, requests, concurrency)
    given = {record.id: label for record, label in zip(pending, labels, strict=True)}
    return [record.record(given.get(record.id)) for record in records]


def load_labels(
    path: str | Path,
    *,
    judge: JudgeModel | None = None,
    concurrency: int = 4,
    relabel: bool = False,
) -> list[CalibrationRecord]:
    """Read a label file and, when ``judge`` is given, label the records that lack a judge label.

    With ``relabel`` the judge labels every record and the ``judge`` labels stored in the file are
    set aside: a calibration must measure the judge that scores, not whichever made the file. Every
    record then needs a question and an answer.

    Starts its own event loop when a judge runs; from async code, use :func:`read_labels` and
    :func:`judge_records` instead.
    """
    records = read_labels(path, judge_available=judge is not None)
    if judge is None:
        return [record.record() for record in records]
    if relabel:
        records = [dataclasses.replace(record, judge=None) for record in records]
    if all(record.judge is not None for record in records):
        return [record.record() for record in records]
    return asyncio.run(judge_records(records, judge, concurrency=concurrency))
