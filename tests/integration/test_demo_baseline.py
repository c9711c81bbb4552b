"""The demo's committed baseline is what release 1 of the example agent measures today, and the
demo's in-process entry point behaves like the installed one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from fairwitness.commands.demo import demo, example_dir
from fairwitness.commands.run import run
from fairwitness.report import Report

pytestmark = pytest.mark.integration


def _outcomes(report: Report) -> dict[str, object]:
    return {
        case_id: (
            case.scores,
            case.excluded,
            case.unstable,
            [
                (o.repeat, o.status, o.verdict, o.scores, o.labels, o.faults_fired)
                for o in case.repeats
            ],
        )
        for case_id, case in report.cases.items()
    }


def test_the_committed_baseline_is_reproduced_by_release_1(tmp_path: Path) -> None:
    example = example_dir()
    code = run(
        str(example / "fairwitness.toml"),
        out=str(tmp_path),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert code == 0
    fresh = Report.load(tmp_path / "jobsearch.report.json")
    committed = Report.load(example / "baseline" / "jobsearch.report.json")
    assert _outcomes(fresh) == _outcomes(committed)
    assert fresh.metrics == committed.metrics
    assert fresh.split_hash == committed.split_hash
    assert fresh.scoring == committed.scoring


def test_demo_prints_the_comment_and_the_exit_code_ci_would_get(tmp_path: Path) -> None:
    out = io.StringIO()
    assert demo(str(tmp_path / "d"), stdout=out) == 0
    text = out.getvalue()
    comment = (tmp_path / "d" / "comment.md").read_text(encoding="utf-8")
    assert comment in text
    assert "CI would get exit code 2 (must-pass failed)" in text
    assert demo(str(tmp_path / "d"), strict=True, stdout=io.StringIO()) == 2
