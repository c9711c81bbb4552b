"""The HTML report the action leaves beside each suite's report, for the workflow to upload.

The page (:mod:`fairwitness.view`) is written as ``NAME.report.html`` next to ``NAME.report.json``
(any other report name gets ``.html`` added), from the full report, the traces file it names when
that file is there, and the baseline with its own traces when the baseline was found as a file.
The comment and the job summary link to the run's artifacts and name the artifact it is uploaded
as (:func:`run_artifact`); a comment cannot link into a file inside an artifact.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from fairwitness._atomic import write_atomic
from fairwitness._gc import collector_paused
from fairwitness.errors import FairwitnessError
from fairwitness.gate import Decision
from fairwitness.github.baseline import Baseline
from fairwitness.github.settings import Settings
from fairwitness.render import ArtifactLink, artifact_link
from fairwitness.report import Report
from fairwitness.report.history import History
from fairwitness.trace.model import Trace
from fairwitness.view import build_page, iter_traces, trace_lines, traces_path

if TYPE_CHECKING:
    from fairwitness.github.action import Action


def page_path(report_path: Path) -> Path:
    """Where the HTML report of ``report_path`` goes: beside it, named after it."""
    name = report_path.name
    stem = name[: -len(".json")] if name.endswith(".json") else name
    return report_path.with_name(stem + ".html")


def _traces(report: Report, path: Path) -> Iterator[tuple[int, Trace]] | None:
    found = traces_path(report, path)
    if found is None or not found.is_file():
        return None
    return iter_traces(found, trace_lines(report))


def write_page(
    report_path: Path,
    baseline: Baseline,
    decision: Decision | None,
    history: History | None = None,
) -> Path:
    """Write the page for the report at ``report_path`` (against ``baseline``, with the gate's
    ``decision`` and the default branch's ``history``) beside it; returns where. Raises what
    reading the files raises."""
    with collector_paused():  # whole reports and their traces: large, and free of cycles
        return _write_page(report_path, baseline, decision, history)


def _write_page(
    report_path: Path, baseline: Baseline, decision: Decision | None, history: History | None
) -> Path:
    candidate = Report.load(report_path)
    base: Report | None = None
    base_traces: Iterator[tuple[int, Trace]] | None = None
    if baseline.report is not None and baseline.path is not None and baseline.path.is_file():
        base = Report.load(baseline.path)
        base_traces = _traces(base, baseline.path)
    html = build_page(
        candidate,
        base,
        decision if base is not None else None,
        traces=_traces(candidate, report_path),
        baseline_traces=base_traces,
        names=(report_path.name, None if base is None else "baseline"),
        history=history,
    )
    return write_atomic(page_path(report_path), html)


def run_artifact(settings: Settings, page: Path) -> ArtifactLink | None:
    """The link to this run's artifacts, where the workflow uploads ``page`` as
    ``settings.html_artifact``; ``None`` outside a workflow run."""
    return artifact_link(
        settings.server_url,
        settings.repository,
        settings.run_id,
        name=settings.html_artifact,
        page=page.name,
    )


def leave_page(
    action: Action,
    path: Path,
    found: Baseline,
    decision: Decision | None,
    history: History | None = None,
) -> ArtifactLink | None:
    """Write the HTML report beside ``path`` for ``action``; the link to this run's artifacts
    that the workflow uploads it to, or ``None`` outside a run or when the page could not be
    written (a warning then, never a different exit code)."""
    try:
        html = write_page(path, found, decision, history)
    except (FairwitnessError, OSError) as exc:
        action.annotations.warning(f"the HTML report was not written: {exc}")
        return None
    action.written.append(html)
    action.say(
        f"HTML report: {action.rel(html)} (the workflow uploads it as {action.s.html_artifact})"
    )
    return run_artifact(action.s, html)
