"""The installed console script in a subprocess: signals, hung targets, the bundled example."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fairwitness import Report
from fairwitness.trace.sink import read_traces

ROOT = Path(__file__).resolve().parents[2]


def fairwitness_cmd() -> list[str]:
    script = Path(sys.executable).parent / "fairwitness"
    return [str(script)] if script.exists() else [sys.executable, "-m", "fairwitness"]


def make_project(
    root: Path, agent: str, cases: int, *, timeout_s: float = 30, repeats: int = 1
) -> Path:
    (root / "slow_agent.py").write_text(agent, encoding="utf-8")
    (root / "cases.jsonl").write_text(
        "".join(json.dumps({"id": f"c{i:03d}", "input": f"q{i}"}) + "\n" for i in range(cases)),
        encoding="utf-8",
    )
    config = root / "fairwitness.toml"
    config.write_text(
        f'target = "slow_agent:target"\n[run]\nrepeats = {repeats}\nconcurrency = 2\n'
        f'timeout_s = {timeout_s}\n[[suites]]\nname = "s"\npath = "cases.jsonl"\n',
        encoding="utf-8",
    )
    return config


SLOW_ASYNC = """\
import asyncio

async def target(text: str) -> str:
    await asyncio.sleep(0.05)
    return "answer " + text
"""


def wait_for_progress(
    path: Path, lines: int, proc: subprocess.Popen[str], limit: float = 30
) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists() and path.read_text(encoding="utf-8").count("\n") >= lines:
            return
        if proc.poll() is not None:
            pytest.fail(
                f"process ended early: {proc.returncode} {proc.stderr.read() if proc.stderr else ''}"
            )
        time.sleep(0.02)
    pytest.fail("no progress")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_mid_run_writes_a_partial_report_marked_incomplete(
    tmp_path: Path, signum: signal.Signals
) -> None:
    config = make_project(tmp_path, SLOW_ASYNC, cases=400)
    proc = subprocess.Popen(
        [*fairwitness_cmd(), "run", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    partial = tmp_path / "fairwitness-out" / "s.traces.jsonl.partial"
    wait_for_progress(partial, 10, proc)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 4, err
    report_path = tmp_path / "fairwitness-out" / "s.report.json"
    assert out.strip() == str(report_path)
    assert (
        f"run incomplete (interrupted by {signum.name}); partial report written to {report_path}"
        in err
    )
    assert "Traceback" not in err
    report = Report.load(report_path)
    assert not report.complete
    assert report.incomplete_reason == f"interrupted by {signum.name}"
    assert 10 <= report.counts.trials < 400
    assert report.counts.not_run == 400 - report.counts.trials
    traces = list(read_traces(tmp_path / "fairwitness-out" / "s.traces.jsonl"))
    assert len(traces) == report.counts.trials
    assert sorted(p.name for p in (tmp_path / "fairwitness-out").iterdir()) == [
        "s.report.json",
        "s.traces.jsonl",
    ]


def test_a_sync_target_that_hangs_is_timed_out_and_the_process_still_exits(tmp_path: Path) -> None:
    agent = """\
import threading

def target(text: str) -> str:
    if text == "q1":
        threading.Event().wait()  # never returns
    return "answer " + text
"""
    config = make_project(tmp_path, agent, cases=4, timeout_s=1, repeats=1)
    started = time.monotonic()
    proc = subprocess.run(
        [*fairwitness_cmd(), "run", str(config)], capture_output=True, text=True, timeout=60
    )
    elapsed = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr
    assert elapsed < 30  # the abandoned daemon thread does not keep the process alive
    report = Report.load(tmp_path / "fairwitness-out" / "s.report.json")
    assert report.complete
    assert (report.counts.ok, report.counts.timed_out, report.counts.abandoned_threads) == (3, 1, 1)
    hung = report.cases["c001"].repeats[0]
    assert hung.status == "timed_out"
    assert hung.error == "Timeout: no answer within 1s"


def test_every_trial_hanging_is_an_invalid_run(tmp_path: Path) -> None:
    agent = "import time\n\ndef target(text: str) -> str:\n    time.sleep(3600)\n    return 'x'\n"
    config = make_project(tmp_path, agent, cases=2, timeout_s=1)
    proc = subprocess.run(
        [*fairwitness_cmd(), "run", str(config)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 4
    assert "no trial produced an answer: all 2 crashed or timed out" in proc.stderr


def test_the_bundled_example_runs_from_the_console_script(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            *fairwitness_cmd(),
            "run",
            str(ROOT / "examples/jobsearch/fairwitness.toml"),
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "jobsearch.report.json")
    report = Report.load(tmp_path / "jobsearch.report.json")
    assert report.complete
    assert report.counts.cases == 63
    assert report.counts.trials == 189
    # two cases declare faults that never fire (a tool the agent does not call, a second call
    # that never happens): declared 57, fired 51, and the gap is shown, not hidden
    assert (report.counts.faults_declared, report.counts.faults_fired) == (57, 51)
    misreport = report.metrics["misreport_as_empty"]
    assert misreport.excluded["fault_not_fired"] == 2
    assert misreport.n == 14
    assert misreport.k == 4  # the rate-limited searches the agent reports as "no openings"
    assert misreport.ci_low is not None
    assert misreport.ci_high is not None
    assert misreport.ci_low < misreport.value < misreport.ci_high  # type: ignore[operator]
    assert report.scoring.patterns_version.startswith("fw-labeller/")
    # the summary printed is read from the saved report; no percentage below n = 10
    assert "misreport_as_empty   4/14 = 28.6%" in proc.stderr
    assert "(excluded: 2 fault not fired)" in proc.stderr
    assert "facts                3/3\n" in proc.stderr
    # one disjoint pair per case at 3 repeats: 63 pairs, too few to call 2 flips either way
    assert re.search(r"meter +undecided: \d+/63 repeat pairs changed verdict", proc.stderr)
    assert "blindness            not blind:" in proc.stderr
    # the ambiguous questions are routed at random (seeded): some repeats disagree
    verdicts = {
        o.verdict for c in ("ambiguous-001", "ambiguous-002") for o in report.cases[c].repeats
    }
    assert verdicts <= {"search", "salary"}
    # the same seed reproduces the same verdicts
    again = subprocess.run(
        [
            *fairwitness_cmd(),
            "run",
            str(ROOT / "examples/jobsearch/fairwitness.toml"),
            "--out",
            str(tmp_path),
            "--force",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0
    second = Report.load(tmp_path / "jobsearch.report.json")
    assert {k: [o.verdict for o in v.repeats] for k, v in second.cases.items()} == {
        k: [o.verdict for o in v.repeats] for k, v in report.cases.items()
    }


def test_python_dash_m_and_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "fairwitness", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout.strip()) == (0, "fairwitness 0.1.0")
    proc = subprocess.run(
        [sys.executable, "-m", "fairwitness", "run", "--repeats", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 4
    assert proc.stderr.strip() == (
        "fairwitness: error: --repeats: Input should be greater than or equal to 1 (got 0)"
    )


@pytest.mark.skipif(
    shutil.which("actionlint") is None
    and not (Path(sys.executable).parent / "actionlint").exists(),
    reason="actionlint is part of the dev extra",
)
def test_the_workflow_written_by_init_passes_actionlint(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    proc = subprocess.run(
        [*fairwitness_cmd(), "init", str(tmp_path / "evals")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    actionlint = shutil.which("actionlint") or str(Path(sys.executable).parent / "actionlint")
    lint = subprocess.run(
        [actionlint, "-no-color", ".github/workflows/fairwitness.yml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
