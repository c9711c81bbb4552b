"""``fairwitness demo`` from an installed wheel, outside any checkout: the README's first
command."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from fairwitness import Report

pytestmark = pytest.mark.e2e


def _demo(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "fairwitness"), "demo", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_demo_runs_from_an_installed_wheel(installed: Path, tmp_path: Path) -> None:
    done = _demo(installed, tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "fairwitness-demo"
    assert sorted(p.name for p in out.iterdir()) == [
        ".fairwitness-demo",
        "baseline.report.json",
        "comment.md",
        "decision.json",
        "jobsearch.report.json",
        "jobsearch.traces.jsonl",
        "junit.xml",
        "report.html",
        "summary.md",
    ]
    comment = (out / "comment.md").read_text(encoding="utf-8")
    assert comment in done.stdout
    assert comment.startswith("### \u274c fairwitness \u00b7 jobsearch: must-pass failed (exit 2)")
    assert "search-018 (must pass)" in comment
    assert "'args' regressed: per-trial rate 1.000 -&gt; 0.588 over 34 paired cases (14 went" in (
        comment
    )
    assert "misreport\\_as\\_empty' is 0.5714" in comment
    assert "CI would get exit code 2 (must-pass failed)" in done.stdout
    decision = json.loads((out / "decision.json").read_text(encoding="utf-8"))
    assert decision["exit_code"] == 2
    page = (out / "report.html").read_text(encoding="utf-8")  # the viewer's assets shipped
    assert "default-src 'none'" in page and 'id="fw-data"' in page and "DecompressionStream" in page
    candidate = Report.load(out / "jobsearch.report.json")
    assert candidate.run.target == "agent:candidate" and candidate.complete
    # the printed reproduction command gives the same decision
    again = subprocess.run(
        [
            str(installed / "fairwitness"),
            "gate",
            "fairwitness-demo/baseline.report.json",
            "fairwitness-demo/jobsearch.report.json",
            "--floor",
            "misreport_as_empty_max=0.3",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 2


def test_strict_returns_the_gate_code_and_reruns_replace_the_demo_files(
    installed: Path, tmp_path: Path
) -> None:
    assert _demo(installed, tmp_path).returncode == 0
    assert _demo(installed, tmp_path, "--strict").returncode == 2


def test_the_demo_never_writes_into_a_folder_it_did_not_make(
    installed: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine", encoding="utf-8")
    done = _demo(installed, tmp_path, "--out", "notes")
    assert done.returncode == 4
    assert "was not made by `fairwitness demo`" in done.stderr
    assert sorted(p.name for p in mine.iterdir()) == ["keep.txt"]
