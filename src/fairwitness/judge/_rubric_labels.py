"""A rubric's label file: answers a human judged against the rubric, for calibrating its judge.

JSONL, one labelled answer per line::

    {"id": "search-001", "answer": "Open jobs in Pune: Acme, Initech.",
     "tool_outcomes": ["search_jobs: ok"], "human": "pass"}

Fields: ``id`` (required: the id of a case of the configured suites, whose input is the question
unless ``question`` gives one), ``answer`` (required), ``human`` (required: ``pass`` or ``fail``),
``question``, ``language``, ``note`` (optional strings), ``tool_outcomes`` (optional list of
strings). Each id appears once. Every bad line is reported with the file, line and field as a
:class:`~fairwitness.errors.DatasetError` (exit 4), before the judge is asked anything: an unknown
field, a wrong type, a verdict other than pass or fail, an id that names no case.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from fairwitness.dataset import read_json_lines
from fairwitness.errors import DatasetError, Problem
from fairwitness.judge._labels import json_type, unknown_fields
from fairwitness.judge._rubric import VERDICTS, RubricRequest

_STRINGS = ("id", "answer", "human", "question", "language", "note")
_FIELDS = (*_STRINGS, "tool_outcomes")
_REQUIRED = ("id", "answer", "human")


@dataclass(frozen=True)
class RubricLabel:
    """One line of a rubric's label file."""

    id: str
    """The case the answer was given to."""
    human: str
    """``pass`` or ``fail``, as the human judged it."""
    question: str
    """What the user asked: the line's ``question``, else the case's input."""
    answer: str
    """The agent's answer the human judged."""
    tool_outcomes: tuple[str, ...]
    """What the tools did, one line per call."""
    language: str | None
    """The answer's language, for per-language agreement."""
    line: int
    """The line in the label file."""

    def request(self, rubric: str) -> RubricRequest:
        """What the judge is shown for this answer under ``rubric``."""
        return RubricRequest(rubric, self.question, self.answer, self.tool_outcomes)


def _problems(
    obj: dict[str, object], name: str, line: int, cases: Mapping[str, str]
) -> list[Problem]:
    problems: list[Problem] = []

    def problem(field: str, message: str) -> None:
        problems.append(Problem(message, file=name, line=line, field=field))

    for key, message in unknown_fields(obj, _FIELDS):
        problem(key, message)
    for key in _REQUIRED:
        if key not in obj:
            problem(key, "required field is missing")
    for key in _STRINGS:
        value = obj.get(key)
        if key in obj and not isinstance(value, str):
            problem(key, f"must be a string, got {json_type(value)}")
    outcomes = obj.get("tool_outcomes")
    if "tool_outcomes" in obj and not (
        isinstance(outcomes, list) and all(isinstance(item, str) for item in outcomes)
    ):
        problem("tool_outcomes", f"must be a list of strings, got {json_type(outcomes)}")
    human = obj.get("human")
    if isinstance(human, str) and human not in VERDICTS:
        problem("human", f"'{human}' is not a verdict: use {' or '.join(VERDICTS)}")
    case_id = obj.get("id")
    if isinstance(case_id, str) and case_id not in cases:
        close = difflib.get_close_matches(case_id, list(cases), n=1, cutoff=0.6)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        problem("id", f"'{case_id}' names no case of the configured suites{hint}")
    return problems


def read_rubric_labels(path: str | Path, cases: Mapping[str, str]) -> list[RubricLabel]:
    """Every labelled answer of the file, in file order; ``cases`` maps each case id of the
    configured suites to its input. Raises :class:`DatasetError` listing every problem."""
    source = Path(path)
    name = str(source)
    labels: list[RubricLabel] = []
    problems: list[Problem] = []
    first: dict[str, int] = {}
    for line, item in read_json_lines(source):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        if not isinstance(item, dict):
            problems.append(
                Problem(f"expected a label object, got {json_type(item)}", file=name, line=line)
            )
            continue
        found = _problems(item, name, line, cases)
        if found:
            problems.extend(found)
            continue
        case_id = str(item["id"])
        if case_id in first:
            problems.append(
                Problem(
                    f"duplicate id '{case_id}' (first seen at line {first[case_id]})",
                    file=name,
                    line=line,
                    field="id",
                )
            )
            continue
        first[case_id] = line
        question = item.get("question")
        outcomes = item.get("tool_outcomes")
        language = item.get("language")
        labels.append(
            RubricLabel(
                id=case_id,
                human=str(item["human"]),
                question=question if isinstance(question, str) else cases[case_id],
                answer=str(item["answer"]),
                tool_outcomes=tuple(outcomes) if isinstance(outcomes, list) else (),
                language=language if isinstance(language, str) else None,
                line=line,
            )
        )
    if problems:
        raise DatasetError(problems[0], problems=problems)
    if not labels:
        raise DatasetError(Problem("no label records found", file=name))
    return labels


__all__ = ["RubricLabel", "read_rubric_labels"]
