"""``fairwitness render`` and ``fairwitness compare``: show reports without gating on them.

``render REPORT`` shows one report (with ``--baseline``, side by side with it); ``compare BASE
CAND`` shows the gate's whole comparison. Both print or write (``--out``) one format: ``terminal``
(default), ``comment`` (the PR comment markdown), ``summary`` (the full markdown), ``json`` or
``junit``. They exit 0 when something was shown and 4 when the input is bad or, for ``compare``,
when the reports cannot be compared; deciding is ``fairwitness gate``'s job.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Literal, TextIO

from fairwitness._atomic import write_atomic
from fairwitness.errors import EXIT_INVALID, EXIT_OK
from fairwitness.gate import Decision, decide, gate_settings
from fairwitness.render import (
    Renderer,
    render_comment,
    render_json,
    render_junit,
    render_summary,
    render_terminal,
)
from fairwitness.report import Report
from fairwitness.report.lite import load_for_decision

Format = Literal["terminal", "comment", "summary", "json", "junit"]
FORMATS: tuple[Format, ...] = ("terminal", "comment", "summary", "json", "junit")


def _show(
    fmt: Format,
    candidate: Report,
    baseline: Report | None,
    decision: Decision | None,
    renderer: Renderer,
) -> str:
    if fmt == "comment":
        return render_comment(candidate, baseline, decision, renderer=renderer)
    if fmt == "summary":
        return render_summary(candidate, baseline, decision, renderer=renderer)
    if fmt == "json":
        return render_json(candidate, baseline, decision)
    if fmt == "junit":
        return render_junit(candidate, baseline, decision)
    return render_terminal(candidate, baseline, decision, renderer=renderer)


def _emit(text: str, out: str | None, stdout: TextIO) -> None:
    if out:
        write_atomic(Path(out), text)
    else:
        stdout.write(text)


def render(
    report: str,
    *,
    baseline: str | None = None,
    fmt: Format = "terminal",
    out: str | None = None,
    stdout: TextIO | None = None,
    **flags: Any,
) -> int:
    """Show ``report`` (with ``baseline``: the comparison the gate would make). ``flags`` are
    :func:`~fairwitness.gate.gate_settings`'s."""
    settings, templates = gate_settings(**flags)
    renderer = Renderer(templates)
    candidate = load_for_decision(report)
    base = load_for_decision(baseline) if baseline else None
    decision = (
        decide(base, candidate, settings, baseline_name=baseline, candidate_name=report)
        if base is not None
        else None
    )
    _emit(_show(fmt, candidate, base, decision, renderer), out, stdout or sys.stdout)
    return EXIT_OK


def compare(
    baseline: str,
    candidate: str,
    *,
    fmt: Format = "terminal",
    out: str | None = None,
    stdout: TextIO | None = None,
    **flags: Any,
) -> int:
    """Show the comparison of ``candidate`` with ``baseline``; 4 when they are incomparable."""
    settings, templates = gate_settings(**flags)
    renderer = Renderer(templates)
    base = load_for_decision(baseline)
    cand = load_for_decision(candidate)
    decision = decide(base, cand, settings, baseline_name=baseline, candidate_name=candidate)
    _emit(_show(fmt, cand, base, decision, renderer), out, stdout or sys.stdout)
    return EXIT_INVALID if decision.exit_code == EXIT_INVALID else EXIT_OK
