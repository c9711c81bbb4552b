"""``fairwitness view``: write one self-contained HTML page for a report.

``view REPORT [--baseline BASE] [--traces T] [--cases FILE] --out report.html`` writes the page
(:mod:`fairwitness.view`): the decision against the baseline and its reasons, the metrics with
their intervals, the diagnostics, the paired table and every case, each opening to its repeats
beside the baseline's; with ``--history DIR``, each gated metric over the default branch's
earlier reports in ``DIR``. The traces default to the file each report names, when it exists; a
``--traces`` or ``--cases`` file that cannot be read is refused in one line (exit 4). It exits
0 when the page was written; deciding is ``fairwitness gate``'s job.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from fairwitness._atomic import write_atomic
from fairwitness.dataset import Dataset
from fairwitness.errors import EXIT_OK
from fairwitness.gate import decide, gate_settings
from fairwitness.report import Report
from fairwitness.report.history import HISTORY_RUNS, load_history
from fairwitness.trace.model import Trace
from fairwitness.view import build_page, iter_traces, trace_lines, traces_path


def _traces(report: Report, path: str, given: str | None) -> Iterator[tuple[int, Trace]] | None:
    found = Path(given) if given else traces_path(report, path)
    if found is None or (not given and not found.is_file()):
        return None
    return iter_traces(found, trace_lines(report))


def view(
    report: str,
    *,
    out: str,
    baseline: str | None = None,
    traces: str | None = None,
    cases: str | None = None,
    stdout: TextIO | None = None,
    history: str | None = None,
    history_runs: int = HISTORY_RUNS,
    **flags: Any,
) -> int:
    """Write the HTML page for ``report`` (against ``baseline``) to ``out``; with ``history``
    (a folder of the default branch's earlier reports) the page charts each gated metric over
    the last ``history_runs`` of them. ``flags`` are :func:`~fairwitness.gate.gate_settings`'s."""
    settings, _ = gate_settings(**flags)
    candidate = Report.load(report)
    base = Report.load(baseline) if baseline else None
    trend = (
        load_history(history, candidate, candidate_path=report, limit=history_runs)
        if history is not None
        else None
    )
    decision = (
        decide(base, candidate, settings, baseline_name=baseline, candidate_name=report)
        if base is not None
        else None
    )
    dataset = {case.id: case for case in Dataset.load(cases)} if cases else None
    html = build_page(
        candidate,
        base,
        decision,
        traces=_traces(candidate, report, traces),
        baseline_traces=_traces(base, baseline, None) if base is not None and baseline else None,
        cases=dataset,
        names=(report, baseline),
        history=trend,
    )
    target = write_atomic(Path(out), html)
    (stdout or sys.stdout).write(f"fairwitness view: wrote {target} ({len(html) / 1e6:.1f} MB)\n")
    return EXIT_OK
