"""``fairwitness demo``: what a pull request's check would say, offline, in seconds.

Runs release 2 of the bundled job-search agent (the change a pull request would bring: a lost
``role`` filter and timeouts reported as "no openings") on the bundled suite, gates it against the
committed report of release 1, prints the PR comment, and writes everything under ``--out``
(default ``./fairwitness-demo``): both reports, the candidate's traces, the comment, the full
markdown, JUnit XML, the decision as JSON and the HTML report (``report.html``: open it in a
browser).

It exits 0 after showing the result; ``--strict`` returns the exit code CI would get instead.
"""

from __future__ import annotations

import io
import json
import shutil
import sys
import time
from importlib import resources
from pathlib import Path
from typing import TextIO

from fairwitness._atomic import write_atomic
from fairwitness.dataset import Dataset
from fairwitness.errors import EXIT_OK, OutputExistsError, Problem, UsageError
from fairwitness.gate import decide, gate_settings
from fairwitness.render import render_comment, render_junit, render_summary, suite_lines
from fairwitness.report import Report
from fairwitness.suites import SuiteRun, run_suites
from fairwitness.view import build_page, load_traces, trace_lines, traces_path

SUITE = "jobsearch"
CANDIDATE = "agent:candidate"
FLOORS = ["misreport_as_empty_max=0.3"]
"""The demo's gate settings: the defaults, plus a ceiling on absence claims after failures."""
MARKER = ".fairwitness-demo"


def example_dir() -> Path:
    """The bundled example: inside the installed package, or in a source checkout."""
    packaged = Path(str(resources.files("fairwitness"))) / "_examples" / SUITE
    if (packaged / "fairwitness.toml").is_file():
        return packaged
    checkout = Path(__file__).resolve().parents[3] / "examples" / SUITE
    if (checkout / "fairwitness.toml").is_file():
        return checkout
    raise UsageError("the bundled example is missing from this installation; reinstall fairwitness")


def _prepare(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputExistsError(Problem("exists and is not a folder", file=str(out)))
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise OutputExistsError(
            Problem(
                "folder exists and was not made by `fairwitness demo`; choose another --out",
                file=str(out),
            )
        )
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("made by fairwitness demo; safe to delete\n", encoding="utf-8")


def demo(
    out: str = "fairwitness-demo",
    *,
    strict: bool = False,
    stdout: TextIO | None = None,
) -> int:
    """Run the demo; return 0, or with ``strict`` the gate's exit code."""
    stdout = stdout or sys.stdout
    started = time.perf_counter()
    example = example_dir()
    folder = Path(out)
    _prepare(folder)
    baseline_path = folder / "baseline.report.json"
    shutil.copyfile(example / "baseline" / f"{SUITE}.report.json", baseline_path)
    stdout.write(
        "fairwitness demo: running release 2 of the bundled job-search agent "
        f"({CANDIDATE}) on {SUITE}, then gating it against release 1's committed report\n\n"
    )
    log = io.StringIO()

    def show(ran: SuiteRun) -> None:
        for line in suite_lines(ran.suite, ran.report, ran.repeats, ran.report_path):
            log.write(line + "\n")

    done = run_suites(
        str(example / "fairwitness.toml"),
        out=str(folder),
        force=True,
        target=CANDIDATE,
        progress=log,
        on_report=show,
    )
    if done.exit_code != EXIT_OK:
        sys.stderr.write(log.getvalue())
        return done.exit_code
    candidate_path = folder / f"{SUITE}.report.json"
    base = Report.load(baseline_path)
    cand = Report.load(candidate_path)
    settings, _ = gate_settings(config=str(example / "fairwitness.toml"), floors=FLOORS)
    decision = decide(base, cand, settings)
    comment = render_comment(cand, base, decision, full_location="summary.md")
    write_atomic(folder / "comment.md", comment)
    write_atomic(folder / "summary.md", render_summary(cand, base, decision))
    write_atomic(folder / "junit.xml", render_junit(cand, base, decision))
    write_atomic(
        folder / "decision.json", json.dumps(decision.json_data(), indent=2, ensure_ascii=False)
    )
    traces = traces_path(cand, candidate_path)
    base_traces = traces_path(base, baseline_path)
    page = build_page(
        cand,
        base,
        decision,
        traces=load_traces(traces, trace_lines(cand)) if traces is not None else None,
        baseline_traces=(
            load_traces(base_traces, trace_lines(base))
            if base_traces is not None and base_traces.is_file()
            else None
        ),
        cases={case.id: case for case in Dataset.load(example / "cases.jsonl")},
        names=("candidate", "baseline"),
    )
    write_atomic(folder / "report.html", page)
    rule = "-" * 78
    stdout.write(f"The pull request comment ({folder / 'comment.md'}):\n{rule}\n")
    stdout.write(comment)
    stdout.write(f"{rule}\n\n")
    elapsed = time.perf_counter() - started
    stdout.write(
        f"CI would get exit code {decision.exit_code} ({decision.verdict}); gate settings: "
        f"defaults plus --floor {' --floor '.join(FLOORS)}.\n"
        f"Written to {folder}/: baseline.report.json, {SUITE}.report.json, "
        f"{SUITE}.traces.jsonl, comment.md, summary.md, junit.xml, decision.json, report.html "
        f"({elapsed:.1f} s).\n"
        f"Reproduce the decision: fairwitness gate {baseline_path} {candidate_path} "
        f"--floor {' --floor '.join(FLOORS)}\n"
    )
    if not strict:
        stdout.write("(pass --strict to make this command exit with that code)\n")
        return EXIT_OK
    return decision.exit_code
