"""The trend's runs: the candidate's suite only, oldest first by when each run started, the
last N, the candidate last; what is left out is said; a bad report is refused naming its file
and field (exit 4)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from builders import FAIL, PASS, build, edit, plan_of
from fairwitness.cli import main
from fairwitness.errors import EXIT_INVALID, ReportError, UsageError
from fairwitness.report import Report
from fairwitness.report.history import load_history

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def _run(fails: int, *, at: int, sha: str | None = None, suite: str = "s") -> Report:
    """A report of 12 cases of which ``fails`` fail, made ``at`` hours after T0."""
    report = build(plan_of(12, lambda i: [FAIL if i < fails else PASS] * 2), suite=suite)

    def stamp(data: dict[str, Any]) -> None:
        data["run"]["created_at"] = (T0 + timedelta(hours=at)).isoformat()
        data["run"]["git_sha"] = sha

    return edit(report, stamp)


@pytest.fixture(scope="module")
def candidate() -> Report:
    return _run(3, at=100, sha="c" * 40)


def _value(report: Report) -> float:
    value = report.metrics["route"].value
    assert value is not None
    return value


def test_runs_are_ordered_by_when_they_started_and_the_candidate_is_last(
    tmp_path: Path, candidate: Report
) -> None:
    # file names in the opposite order of the runs' times, in nested folders
    made = {
        name: _run(fails, at=at) for name, fails, at in (("a", 0, 30), ("b", 1, 20), ("c", 2, 10))
    }
    for name, report in made.items():
        report.save(tmp_path / name / "deep" / "s.report.json")
    history = load_history(tmp_path, candidate)
    assert [run.name for run in history.runs[:-1]] == [
        "c/deep/s.report.json",
        "b/deep/s.report.json",
        "a/deep/s.report.json",
    ]
    last = history.runs[-1]
    assert last.candidate and not any(run.candidate for run in history.runs[:-1])
    series = history.series("route")
    assert [p.value for p in series if p is not None] == [
        _value(made["c"]),
        _value(made["b"]),
        _value(made["a"]),
        _value(candidate),
    ]
    first = series[0]
    assert first is not None and first.n == 12 and first.low is not None
    assert history.notes == []
    assert history.metrics_for(None) == history.default_metrics()
    assert "route" in history.default_metrics()


def _seeded(report: Report, seed: int) -> Report:
    def change(data: dict[str, Any]) -> None:
        data["run"]["seed"] = seed

    return edit(report, change)


def test_ties_are_broken_by_commit_then_file(tmp_path: Path, candidate: Report) -> None:
    _run(0, at=5, sha="bbbb").save(tmp_path / "1.report.json")
    _seeded(_run(1, at=5, sha="aaaa"), 1).save(tmp_path / "2.report.json")
    _seeded(_run(2, at=5, sha="aaaa"), 2).save(tmp_path / "0" / "x.report.json")
    history = load_history(tmp_path, candidate)
    assert [run.name for run in history.runs[:-1]] == [
        "0/x.report.json",
        "2.report.json",
        "1.report.json",
    ]
    assert history.notes == []


def test_the_same_run_found_twice_counts_once(tmp_path: Path, candidate: Report) -> None:
    run = _run(1, at=5, sha="aaaa")
    run.save(tmp_path / "a" / "s.report.json")
    run.save(tmp_path / "b" / "s.report.json")
    history = load_history(tmp_path, candidate)
    assert [r.name for r in history.runs[:-1]] == ["a/s.report.json"]
    assert history.notes == ["left out of the trend, the same run found twice: b/s.report.json"]


def test_only_the_last_n_are_kept(tmp_path: Path, candidate: Report) -> None:
    for at in range(5):
        _run(at % 3, at=at).save(tmp_path / f"r{at}.report.json")
    history = load_history(tmp_path, candidate, limit=2)
    assert [run.name for run in history.runs] == ["r3.report.json", "r4.report.json", "candidate"]
    assert history.older == 3 and history.earlier == 2
    assert "the last 2; 3 older left out" in history.summary()
    alone = load_history(tmp_path, candidate, limit=0)
    assert [run.candidate for run in alone.runs] == [True]


def test_other_suites_are_skipped_and_counted(tmp_path: Path, candidate: Report) -> None:
    _run(0, at=1).save(tmp_path / "s.report.json")
    _run(0, at=2, suite="other").save(tmp_path / "other.report.json")
    _run(0, at=3, suite="third").save(tmp_path / "third.report.json")
    history = load_history(tmp_path, candidate)
    assert history.earlier == 1 and history.other_suites == 2
    assert "2 report(s) of other suites skipped" in history.notes


def test_incomparable_and_incomplete_reports_are_skipped_with_a_note(
    tmp_path: Path, candidate: Report
) -> None:
    def labeller(data: dict[str, Any]) -> None:
        data["scoring"]["patterns_version"] = "fw-labeller/0"

    def cut(data: dict[str, Any]) -> None:
        data["complete"] = False
        data["incomplete_reason"] = "interrupted"

    edit(_run(0, at=1), labeller).save(tmp_path / "old-labeller.report.json")
    edit(_run(0, at=2), cut).save(tmp_path / "cut.report.json")
    _run(0, at=3).save(tmp_path / "fine.report.json")
    candidate.save(tmp_path / "cand.report.json")  # the candidate's own file: not a history run
    history = load_history(tmp_path, candidate, candidate_path=tmp_path / "cand.report.json")
    assert [run.name for run in history.runs[:-1]] == ["fine.report.json"]
    text = "\n".join(history.notes)
    assert "scored differently: labeller patterns 'fw-labeller/0'" in text
    assert "old-labeller.report.json" in text
    assert "incomplete runs: cut.report.json" in text
    assert "cand.report.json" not in text


def test_an_empty_folder_says_there_is_no_earlier_run(tmp_path: Path, candidate: Report) -> None:
    history = load_history(tmp_path, candidate)
    assert [run.candidate for run in history.runs] == [True]
    assert history.notes == [f"no earlier run of suite 's' in the reports in {tmp_path}"]


def test_a_bad_report_is_refused_naming_file_and_field(tmp_path: Path, candidate: Report) -> None:
    _run(0, at=1).save(tmp_path / "good.report.json")
    bad = tmp_path / "sub" / "bad.report.json"
    bad.parent.mkdir()
    bad.write_text(candidate.to_json().replace('"complete": true', '"complete": "maybe"'))
    with pytest.raises(ReportError) as caught:
        load_history(tmp_path, candidate)
    assert caught.value.problem.file == str(bad)
    assert caught.value.problem.field == "complete"
    lenient = load_history(tmp_path, candidate, strict=False)
    assert lenient.earlier == 1
    assert any("unreadable: sub/bad.report.json" in note for note in lenient.notes)
    with pytest.raises(UsageError):
        load_history(tmp_path / "missing", candidate)


def test_the_gate_exits_4_on_a_bad_history_report_in_one_line(
    tmp_path: Path, candidate: Report, capsys: pytest.CaptureFixture[str]
) -> None:
    base, cand = tmp_path / "base.report.json", tmp_path / "cand.report.json"
    _run(0, at=1).save(base)
    candidate.save(cand)
    history = tmp_path / "history"
    history.mkdir()
    (history / "x.report.json").write_text('{"schema": "fairwitness.report/1"}')
    markdown = tmp_path / "comment.md"
    code = main(
        ["gate", str(base), str(cand), "--history", str(history), "--markdown", str(markdown)]
    )
    assert code == EXIT_INVALID
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"fairwitness: error: {history / 'x.report.json'}: field '")
    assert not markdown.exists()  # refused before anything was written
