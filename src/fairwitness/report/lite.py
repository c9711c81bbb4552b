"""Read a large report for deciding and showing, in a fraction of the time and memory.

:func:`load_for_decision` reads a report the way fairwitness writes it (one case per line) with
pydantic-core's JSON parser, checks every case's structure (a bad line is refused naming the
file, line and field), and keeps per case only what the gate and the renderers read: must-pass,
tags, the collapsed scores and exclusions, the unstable flag, each repeat's latency, and per repeat
its number, variant, status, verdict, error and scores. Identical score maps, and repeats that
read alike, are shared. The header is validated by the full model. A file laid out any other way
(a hand-edited one) is read by :meth:`Report.load` instead, so nothing is refused that the full
reader accepts.

Most lines of a large report differ from an earlier line only in the case id and in two numbers
per repeat, its ``latency_ms`` and its ``trace_line``: they have the same *shape*
(:mod:`fairwitness.report._shapes`). A line whose shape is proven takes everything but its id and
its latencies from the earlier line of that shape, which was validated in full; every other line
is validated in full.

The result is a :class:`Report` whose ``cases`` hold :class:`CaseView` objects: read them, never
save them (saving needs the full outcomes: use ``Report.load``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, cast

import pydantic_core
from pydantic import TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict

from fairwitness._gc import collector_paused
from fairwitness.errors import Problem, ReportError
from fairwitness.report._shapes import PLAIN_ID, Shapes, latencies_of
from fairwitness.report.model import REPORT_SCHEMA, CaseOutcomes, Report

_NO_EVIDENCE: dict[str, str] = {}


class OutcomeView:
    """One repeat, as the gate and the renderers read it (shared by repeats that read alike;
    latencies stay with the case)."""

    __slots__ = ("error", "evidence", "repeat", "scores", "status", "variant", "verdict")

    def __init__(
        self,
        repeat: int,
        variant: str,
        status: str,
        verdict: str | None,
        error: str | None,
        scores: dict[str, float | None],
        evidence: dict[str, str] | None = None,
    ) -> None:
        self.evidence: dict[str, str] = evidence or _NO_EVIDENCE
        """What decided a misreport's label (see ``TrialOutcome.evidence``)."""
        self.repeat = repeat
        self.variant = variant
        self.status = status
        self.verdict = verdict
        self.error = error
        self.scores = scores


class CaseView:
    """One case, as the gate and the renderers read it."""

    __slots__ = (
        "_latencies",
        "excluded",
        "faults",
        "must_pass",
        "repeats",
        "scores",
        "tags",
        "unstable",
    )

    def __init__(
        self,
        must_pass: bool,
        tags: list[str],
        faults: int,
        repeats: list[OutcomeView],
        latencies: tuple[float, ...] | list[bytes | None],
        scores: dict[str, float | None],
        excluded: dict[str, str],
        unstable: bool,
    ) -> None:
        self.must_pass = must_pass
        self.tags = tags
        self.faults = faults
        self.repeats = repeats
        self._latencies = latencies
        self.scores = scores
        self.excluded = excluded
        self.unstable = unstable

    @property
    def latencies(self) -> tuple[float, ...]:
        """Each repeat's ``latency_ms``, in ``repeats`` order."""
        found = self._latencies
        if isinstance(found, list):  # as a line's slots: read on first use (see ._shapes)
            found = self._latencies = latencies_of(found)
        return found


class _OutcomeFields(TypedDict):
    repeat: int
    variant: NotRequired[str]
    status: Literal["ok", "crashed", "timed_out", "cancelled"]
    verdict: str | None
    latency_ms: float
    error: str | None
    scores: dict[str, float | None]
    evidence: NotRequired[dict[str, str]]


class _CaseFields(TypedDict):
    must_pass: bool
    tags: list[str]
    faults: int
    repeats: list[_OutcomeFields]
    scores: dict[str, float | None]
    excluded: dict[str, str]
    unstable: bool


_LINE = TypeAdapter(dict[str, _CaseFields])
"""One case line; other fields are checked by their types where present and otherwise left
aside (they are not read by the gate or the renderers)."""
_CASE = TypeAdapter(_CaseFields)
"""One case line's value (after a plain case id)."""

Shared = dict[tuple[tuple[str, float | None], ...], dict[str, float | None]]


def _shared(scores: dict[str, float | None], shared: Shared) -> dict[str, float | None]:
    key = tuple(scores.items())
    found = shared.get(key)
    if found is None:
        shared[key] = found = scores
    return found


def _case(
    fields: _CaseFields, shared: Shared, outcomes: dict[tuple[Any, ...], OutcomeView]
) -> CaseView:
    repeats = []
    latencies = []
    for o in fields["repeats"]:
        raw = o["scores"]
        evidence = o.get("evidence") or _NO_EVIDENCE
        score_key = tuple(raw.items())
        scores = shared.get(score_key)
        if scores is None:
            shared[score_key] = scores = raw
        key = (
            o["repeat"],
            o.get("variant", "base"),
            o["status"],
            o["verdict"],
            o["error"],
            score_key,
            tuple(evidence.items()),
        )
        view = outcomes.get(key)
        if view is None:
            view = outcomes[key] = OutcomeView(
                key[0], key[1], key[2], key[3], key[4], scores, evidence
            )
        repeats.append(view)
        latencies.append(o["latency_ms"])
    return CaseView(
        fields["must_pass"],
        fields["tags"],
        fields["faults"],
        repeats,
        tuple(latencies),
        _shared(fields["scores"], shared),
        fields["excluded"],
        fields["unstable"],
    )


def _validate_case(body: bytes) -> _CaseFields:
    """``body`` (one case line's value) checked by the light schema; raises ValidationError."""
    return _CASE.validate_json(body)


def _field(loc: tuple[int | str, ...]) -> str:
    text = "cases"
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


class _FullReader(Exception):
    """The file is not laid out the way fairwitness writes it: :meth:`Report.load` reads it."""


class _Cases:
    """The case lines of one report."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cases: dict[str, CaseView] = {}
        self.shared: Shared = {}
        self.outcomes: dict[tuple[Any, ...], OutcomeView] = {}
        self.shapes: Shapes[CaseView] = Shapes(_validate_case, _latencies_and_rest)

    def _refuse(self, exc: ValidationError, line_no: int, prefix: tuple[str, ...]) -> ReportError:
        first = exc.errors(include_url=False)[0]
        if first["type"].startswith("json"):
            raise _FullReader  # a cut or broken line: the full reader says so
        return ReportError(
            Problem(
                first["msg"], file=self.name, line=line_no, field=_field((*prefix, *first["loc"]))
            )
        )

    def read(self, lines: Iterator[tuple[int, bytes]]) -> bool:
        """Read the case lines (``  "ID": {...},``) up to the end of the file; whether the cases
        were closed (``}``). The loop runs once per case: what it calls is bound to names."""
        closed = False
        cases, shapes, proven = self.cases, self.shapes, self.shapes.proven
        plain_id, key_of = PLAIN_ID.match, shapes.key
        for line_no, raw in lines:
            if not raw.startswith(b'  "'):
                if raw.strip() in (b"}", b"}}"):
                    closed = True
                elif raw.strip():
                    raise _FullReader
                continue
            plain = plain_id(raw)
            if plain is None:
                self._read_whole(line_no, raw)
                continue
            try:
                case_id = plain.group(1).decode("utf-8")
            except UnicodeDecodeError:
                self._read_whole(line_no, raw)
                continue
            start = plain.end()
            end = -2 if raw.endswith(b",\n") else -1 if raw.endswith(b"\n") else len(raw)
            if shapes.looking:
                key, slots = key_of(raw, start, end)
                same = proven.get(key)
                if same is None:
                    same = shapes.miss(key)
                if same is not None:  # a line of a proven shape (see ._shapes)
                    cases[case_id] = CaseView(
                        same.must_pass,
                        same.tags,
                        same.faults,
                        same.repeats,
                        slots,
                        same.scores,
                        same.excluded,
                        same.unstable,
                    )
                    continue
            try:
                fields = _validate_case(raw[start:end])
            except ValidationError as exc:
                raise self._refuse(exc, line_no, (case_id,)) from None
            view = _case(fields, self.shared, self.outcomes)
            cases[case_id] = view
            shapes.remember(fields, view)
        return closed

    def _read_whole(self, line_no: int, raw: bytes) -> None:
        """A line whose case id is escaped: validated with its id, as JSON."""
        body = raw.rstrip(b"\n")
        if body.endswith(b","):
            body = body[:-1]
        try:
            item = _LINE.validate_json(b"{" + body + b"}")
        except ValidationError as exc:
            raise self._refuse(exc, line_no, ()) from None
        ((case_id, fields),) = item.items()
        self.cases[case_id] = _case(fields, self.shared, self.outcomes)


def _latencies_and_rest(fields: Any) -> tuple[tuple[float, ...], tuple[Any, ...]]:
    """A validated case's latencies, and everything else it holds (to compare two cases)."""
    case = cast("_CaseFields", fields)
    latencies = tuple(o["latency_ms"] for o in case["repeats"])
    repeats = [{k: v for k, v in o.items() if k != "latency_ms"} for o in case["repeats"]]
    rest = tuple(v for k, v in case.items() if k != "repeats")
    return latencies, (repeats, rest)


def load_for_decision(path: str | Path) -> Report:
    """The report at ``path`` with light per-case views (see the module); refuses what
    :meth:`Report.load` refuses."""
    name = str(path)
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except FileNotFoundError:
        raise ReportError(Problem("report not found", file=name)) from None
    except OSError as exc:
        raise ReportError(Problem(f"cannot read report: {exc}", file=name)) from None
    header: dict[str, Any] = {}
    reader = _Cases(name)
    closed = in_cases = False
    with handle, collector_paused():
        if handle.readline() != b"{\n":
            return Report.load(path)
        lines = enumerate(handle, start=2)
        try:
            for _, raw in lines:
                if raw.startswith(b' "cases": {'):
                    in_cases = True
                    closed = raw.rstrip().endswith(b"}")
                    closed = reader.read(lines) or closed
                    break
                if not (raw.startswith(b' "') and raw.endswith(b",\n")):
                    raise _FullReader
                try:
                    header.update(pydantic_core.from_json(b"{" + raw[:-2] + b"}"))
                except ValueError:
                    raise _FullReader from None
        except _FullReader:
            return Report.load(path)
    if not in_cases or not closed:
        return Report.load(path)  # truncated or unusual: the full reader explains
    if header.get("schema") != REPORT_SCHEMA:
        return Report.load(path)
    try:
        model = Report.model_validate({**header, "cases": {}})
    except ValidationError:
        return Report.load(path)
    return model.model_copy(update={"cases": cast("dict[str, CaseOutcomes]", reader.cases)})
