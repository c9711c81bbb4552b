"""``fairwitness gate BASE CAND``: may the candidate report replace the baseline? Exit 0-4."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from fairwitness._atomic import write_atomic
from fairwitness._gc import collector_paused
from fairwitness.gate import decide, gate_settings
from fairwitness.judge import withheld_metrics
from fairwitness.render import Renderer, gate_text, render_comment, render_junit, render_summary
from fairwitness.report.history import HISTORY_RUNS, History, load_history
from fairwitness.report.lite import load_for_decision


def gate(
    baseline: str,
    candidate: str,
    *,
    as_json: bool = False,
    markdown: str | None = None,
    summary: str | None = None,
    junit: str | None = None,
    stdout: TextIO | None = None,
    history: str | None = None,
    history_runs: int = HISTORY_RUNS,
    **flags: Any,
) -> int:
    """Compare the report ``candidate`` with ``baseline``; print the decision (template
    ``gate.txt.j2``, or the JSON decision), return its exit code. ``flags`` are
    :func:`fairwitness.gate.gate_settings`'s; its templates folder (``--templates`` or
    ``[render] templates``) applies to the printed text as to the files. ``markdown``,
    ``summary`` and ``junit`` name files for the PR comment, the full job summary and JUnit XML;
    they are written (atomically) whatever the decision, so a comment can say why the reports
    could not be compared. ``history`` is a folder of the default branch's earlier reports: the
    comment and the summary show each gated metric's trend over the last ``history_runs`` of
    them; a bad report there is refused before anything is written."""
    # Two large reports are hundreds of thousands of objects without a cycle among them: with the
    # cycle collector running, each collection while they are compared and shown scans them all.
    with collector_paused():
        return _gate(
            baseline,
            candidate,
            as_json,
            (markdown, summary, junit),
            stdout,
            (history, history_runs),
            flags,
        )


def _gate(
    baseline: str,
    candidate: str,
    as_json: bool,
    files: tuple[str | None, str | None, str | None],
    stdout: TextIO | None,
    history_from: tuple[str | None, int],
    flags: dict[str, Any],
) -> int:
    stdout = stdout or sys.stdout
    markdown, summary, junit = files
    settings, templates = gate_settings(**flags)
    renderer = Renderer(templates)
    base = load_for_decision(baseline)
    cand = load_for_decision(candidate)
    folder, runs = history_from
    history: History | None = None
    if folder is not None:
        history = load_history(folder, cand, candidate_path=candidate, limit=runs)
    decision = decide(base, cand, settings, baseline_name=baseline, candidate_name=candidate)
    outputs: list[tuple[str, str]] = []
    if markdown:
        text = render_comment(cand, base, decision, renderer=renderer, history=history)
        outputs.append((markdown, text))
    if summary:
        text = render_summary(cand, base, decision, renderer=renderer, history=history)
        outputs.append((summary, text))
    if junit:
        outputs.append((junit, render_junit(cand, base, decision)))
    for path, text in outputs:
        write_atomic(Path(path), text)  # a half-written comment is never left behind
    if as_json:
        stdout.write(json.dumps(decision.json_data(), indent=2, ensure_ascii=False) + "\n")
    else:
        withheld = withheld_metrics(cand.diagnostics)
        stdout.write(gate_text(decision, renderer=renderer, history=history, withheld=withheld))
    return decision.exit_code
