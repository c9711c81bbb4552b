"""Read a large report for deciding and showing, in a fraction of the time and memory.

:func:`load_for_decision` reads a report the way fairwitness writes it (one case per line) with
pydantic-core's JSON parser, checks every case's structure (a bad line is refused naming the
file, line and field), and keeps per case only what the gate and the renderers read: must-pass,
tags, the collapsed scores and exclusions, the unstable flag, each repeat's latency, and per repeat
its number, variant, status, verdict, error and scores. Identical score maps, and repeats that
read alike, are shared. The header is
validated by the full model. A file laid out any other way (a hand-edited one) is read by
:meth:`Report.load` instead, so nothing is refused that the full reader accepts.

The result is a :class:`Report` whose ``cases`` hold :class:`CaseView` objects: read them, never
save them (saving needs the full outcomes: use ``Report.load``).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, cast

import pydantic_core
from pydantic import TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict

from fairwitness.errors import Problem, ReportError
from fairwitness.report.model import REPORT_SCHEMA, CaseOutcomes, Report


class OutcomeView:
    """One repeat, as the gate and the renderers read it (shared by repeats that read alike;
    latencies stay with the case)."""

    __slots__ = ("error", "repeat", "scores", "status", "variant", "verdict")

    def __init__(
        self,
        repeat: int,
        variant: str,
        status: str,
        verdict: str | None,
        error: str | None,
        scores: dict[str, float | None],
    ) -> None:
        self.repeat = repeat
        self.variant = variant
        self.status = status
        self.verdict = verdict
        self.error = error
        self.scores = scores


class CaseView:
    """One case, as the gate and the renderers read it."""

    __slots__ = (
        "excluded",
        "faults",
        "latencies",
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
        latencies: tuple[float, ...],
        scores: dict[str, float | None],
        excluded: dict[str, str],
        unstable: bool,
    ) -> None:
        self.must_pass = must_pass
        self.tags = tags
        self.faults = faults
        self.repeats = repeats
        self.latencies = latencies
        """Each repeat's ``latency_ms``, in ``repeats`` order."""
        self.scores = scores
        self.excluded = excluded
        self.unstable = unstable


class _OutcomeFields(TypedDict):
    repeat: int
    variant: NotRequired[str]
    status: Literal["ok", "crashed", "timed_out", "cancelled"]
    verdict: str | None
    latency_ms: float
    error: str | None
    scores: dict[str, float | None]


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
        )
        view = outcomes.get(key)
        if view is None:
            view = outcomes[key] = OutcomeView(key[0], key[1], key[2], key[3], key[4], scores)
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


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a report is read.

    Reading makes millions of dicts, lists and views and no reference cycle; each collection the
    allocations trigger scans the growing heap for cycles that are not there (a quarter of the
    reading time of a 100,000-case report). Reference counting still frees everything at once.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _field(loc: tuple[int | str, ...]) -> str:
    text = "cases"
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


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
    cases: dict[str, CaseView] = {}
    shared: Shared = {}
    outcomes: dict[tuple[Any, ...], OutcomeView] = {}
    closed = False
    with handle, _collector_paused():
        if handle.readline() != b"{\n":
            return Report.load(path)
        in_cases = False
        for line_no, raw in enumerate(handle, start=2):
            if not in_cases:
                if raw.startswith(b' "cases": {'):
                    in_cases = True
                    closed = raw.rstrip().endswith(b"}")
                    continue
                if not (raw.startswith(b' "') and raw.endswith(b",\n")):
                    return Report.load(path)
                try:
                    header.update(pydantic_core.from_json(b"{" + raw[:-2] + b"}"))
                except ValueError:
                    return Report.load(path)
                continue
            if raw.startswith(b'  "'):
                body = raw.rstrip(b"\n")
                if body.endswith(b","):
                    body = body[:-1]
                try:
                    item = _LINE.validate_json(b"{" + body + b"}")
                except ValidationError as exc:
                    first = exc.errors(include_url=False)[0]
                    if first["type"].startswith("json"):
                        return Report.load(path)  # a cut or broken line: the full reader says so
                    raise ReportError(
                        Problem(first["msg"], file=name, line=line_no, field=_field(first["loc"]))
                    ) from None
                ((case_id, fields),) = item.items()
                cases[case_id] = _case(fields, shared, outcomes)
            elif raw.strip() in (b"}", b"}}"):
                closed = True
            elif raw.strip():
                return Report.load(path)
    if not in_cases or not closed:
        return Report.load(path)  # truncated or unusual: the full reader explains
    if header.get("schema") != REPORT_SCHEMA:
        return Report.load(path)
    try:
        model = Report.model_validate({**header, "cases": {}})
    except ValidationError:
        return Report.load(path)
    return model.model_copy(update={"cases": cast("dict[str, CaseOutcomes]", cases)})
