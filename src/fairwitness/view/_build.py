"""Build the viewer's page from reports, traces and cases (re-exported by the package)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from fairwitness.dataset import Case
from fairwitness.gate import Decision
from fairwitness.report import Report
from fairwitness.report.history import History
from fairwitness.trace.model import Trace
from fairwitness.trace.sink import read_traces
from fairwitness.view._data import build_data
from fairwitness.view._page import page


def traces_path(report: Report, report_path: str | Path) -> Path | None:
    """The trace file ``report`` names, relative to its folder; None when it names none."""
    if not report.traces:
        return None
    return Path(report_path).parent / report.traces


def load_traces(path: str | Path, wanted: set[int] | None = None) -> dict[int, Trace]:
    """The traces of ``path`` by line (only the ``wanted`` lines, when given); raises
    :class:`~fairwitness.errors.ReportError` naming the first bad line."""
    return {line: trace for line, trace in read_traces(path) if wanted is None or line in wanted}


def iter_traces(path: str | Path, wanted: set[int] | None = None) -> Iterator[tuple[int, Trace]]:
    """``(line, trace)`` of ``path`` as they are read (only the ``wanted`` lines, when given), for
    :func:`build_page` to turn each into what the page shows and drop: a large suite's traces are
    never all held at once. Raises :class:`~fairwitness.errors.ReportError` naming the first bad
    line, before the page is written."""
    for line, trace in read_traces(path):
        if wanted is None or line in wanted:
            yield line, trace


def trace_lines(report: Report) -> set[int]:
    """The trace lines ``report``'s repeats refer to."""
    return {
        outcome.trace_line
        for case in report.cases.values()
        for outcome in case.repeats
        if outcome.trace_line is not None
    }


def build_page(
    candidate: Report,
    baseline: Report | None = None,
    decision: Decision | None = None,
    *,
    traces: Mapping[int, Trace] | Iterable[tuple[int, Trace]] | None = None,
    baseline_traces: Mapping[int, Trace] | Iterable[tuple[int, Trace]] | None = None,
    cases: Mapping[str, Case] | None = None,
    names: tuple[str | None, str | None] = (None, None),
    history: History | None = None,
) -> str:
    """The viewer's HTML for ``candidate`` (against ``baseline`` and its ``decision``).

    ``traces`` and ``baseline_traces`` are each report's traces by line (:func:`load_traces`, or
    :func:`iter_traces` to read them as they are used);
    without them a case shows its outcomes and scores only. ``cases`` (by id) adds inputs and
    expectations; ``names`` are the reports' file names as shown; ``history`` adds the trend of
    each gated metric over the default branch's earlier runs."""
    data = build_data(
        candidate,
        baseline,
        decision,
        traces=traces,
        baseline_traces=baseline_traces,
        cases=cases,
        names=names,
        history=history,
    )
    return page(data)
