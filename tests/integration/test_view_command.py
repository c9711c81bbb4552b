"""``fairwitness view`` refuses a bad trace file in one line and writes nothing; the traces are
read as the page is built, never all held at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fairwitness.cli import main

pytestmark = pytest.mark.integration

BASELINE = Path(__file__).resolve().parents[2] / "examples" / "jobsearch" / "baseline"


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "base"
    shutil.copytree(BASELINE, folder)
    return folder / "jobsearch.report.json"


def test_a_good_report_and_its_traces_make_a_page(tmp_path: Path) -> None:
    report = _copy(tmp_path)
    out = tmp_path / "page.html"
    assert main(["view", str(report), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").lower().startswith("<!doctype html>")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda lines: [*lines[:9], "{not json\n", *lines[10:]], ":10: invalid JSON"),
        (lambda lines: [*lines[:-1], lines[-1].rstrip("\n")], "last line is cut short"),
    ],
)
def test_a_bad_trace_line_is_refused_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: object, message: str
) -> None:
    report = _copy(tmp_path)
    traces = report.with_name("jobsearch.traces.jsonl")
    lines = traces.read_text(encoding="utf-8").splitlines(keepends=True)
    traces.write_text("".join(damage(lines)), encoding="utf-8")  # type: ignore[operator]
    out = tmp_path / "page.html"
    assert main(["view", str(report), "--out", str(out)]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(traces) in err[0] and message in err[0], err
    assert not out.exists() and list(tmp_path.glob("page.html*")) == []


def test_a_missing_traces_file_given_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _copy(tmp_path)
    out = tmp_path / "page.html"
    code = main(["view", str(report), "--traces", str(tmp_path / "nope.jsonl"), "--out", str(out)])
    assert code == 4
    assert "nope.jsonl" in capsys.readouterr().err and not out.exists()
