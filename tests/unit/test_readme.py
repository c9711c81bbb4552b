"""README number blocks: real reports from real runs, real files, the real command line."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path

import pytest

from builders import FAIL, PASS, build, plan_of
from fairwitness import Case, Dataset, Report, Runner, __version__, tool
from fairwitness.cli import main
from fairwitness.readme import metric_row, read_document, split_lines
from fairwitness.report import build_report
from fairwitness.scoring import ScoreBoard
from fairwitness.trace.sink import NullTraceSink

SHA = "0123456789abcdef0123456789abcdef01234567"


@tool(name="readme_test_search", empty_when=lambda rows: rows == [])
async def search(q: str) -> list[str]:
    return [q]


async def target(case: Case) -> dict[str, str]:
    result = await search(q=case.text)
    return {"text": result.to_model(), "verdict": "other" if "miss" in case.text else "search"}


def make_report(
    path: Path,
    *,
    suite: str = "s",
    cases: int = 4,
    misses: int = 0,
    git_sha: str | None = SHA,
    complete: bool = True,
) -> Path:
    """Run the real pipeline on a tiny dataset and save its report to ``path``."""
    data = Dataset(
        [
            Case(
                id=f"c{i}",
                input=f"{'miss' if i < misses else 'hit'} {i}",
                expect={"route": "search"},
            )
            for i in range(cases)
        ]
    )
    board = ScoreBoard()
    runner = Runner(target, suite=suite, repeats=1, concurrency=2, seed=1, scoring=board)
    result = asyncio.run(runner.run(data, NullTraceSink()))
    result.started_at = datetime(2026, 3, 4, 23, 30, tzinfo=timezone.utc)
    report = build_report(
        result,
        data,
        target="readme_test:target",
        seed=1,
        repeats=1,
        concurrency=2,
        timeout_s=None,
        mode="live",
        config_hash=None,
        git_sha=git_sha,
        traces=None,
        board=ScoreBoard(),
    )
    if not complete:
        report = report.model_copy(update={"complete": False, "incomplete_reason": "interrupted"})
    path.parent.mkdir(parents=True, exist_ok=True)
    report.save(path, force=True)
    return path


def block(name: str, body: str = "old\n", nl: str = "\n") -> str:
    text = f"<!-- fairwitness:begin {name} -->\n{body}<!-- fairwitness:end {name} -->\n"
    return text.replace("\n", nl)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder as the working directory, with one committed report for suite ``s``."""
    monkeypatch.chdir(tmp_path)
    make_report(tmp_path / "reports" / "s.report.json")
    return tmp_path


def readme(*args: str) -> int:
    return main(["readme", *args])


def table_rows(text: str) -> dict[str, str]:
    return {
        line.split("|")[1].strip(): line
        for line in text.splitlines()
        if line.startswith("| ") and not line.startswith("| metric ")
    }


# -- write, check, idempotence ---------------------------------------------------------------


def test_write_then_check_passes(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "README.md").write_text("# Title\n\n" + block("s") + "\nTail.\n", encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    out = capsys.readouterr().out
    assert "updated: README.md:3: block 's'" in out
    text = (repo / "README.md").read_text(encoding="utf-8")
    assert text.startswith("# Title\n\n<!-- fairwitness:begin s -->\n\n| metric | value | n |")
    assert text.endswith("<!-- fairwitness:end s -->\n\nTail.\n")
    rows = table_rows(text)
    assert sorted(rows) == ["false_alarm", "route"]  # only metrics with n > 0
    assert rows["route"] == "| route | 4/4 | 4 | \u2014 |"
    assert (
        f"n = 4 cases, measured 2026-03-04, git {SHA[:12]}, fairwitness {__version__}, "
        "report: [reports/s.report.json](reports/s.report.json)\n"
    ) in text
    assert readme("README.md", "--reports", "reports/*.json", "--check") == 0
    assert "ok: README.md: 1 block(s) current" in capsys.readouterr().out


def test_changed_report_makes_check_fail_with_a_diff(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "README.md").write_text(block("s"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    before = (repo / "README.md").read_bytes()
    make_report(repo / "reports" / "s.report.json", misses=1)
    capsys.readouterr()
    assert readme("README.md", "--reports", "reports/*.json", "--check") == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("--- README.md\n+++ README.md (from reports)\n@@ ")
    assert "\n-| route | 4/4 | 4 | \u2014 |\n+| route | 3/4 | 4 | \u2014 |\n" in captured.out
    assert "1 stale block(s): s (line 1)" in captured.err
    assert (repo / "README.md").read_bytes() == before  # --check never writes
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    assert readme("README.md", "--reports", "reports/*.json", "--check") == 0


def test_write_is_idempotent_and_output_deterministic(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "README.md").write_text(block("s") + block("s:route"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    first = (repo / "README.md").read_bytes()
    stamp = (repo / "README.md").stat().st_mtime_ns
    capsys.readouterr()
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    assert "2 block(s) already current; not rewritten" in capsys.readouterr().out
    assert (repo / "README.md").read_bytes() == first
    assert (repo / "README.md").stat().st_mtime_ns == stamp
    # The same report, run again from scratch, gives the same bytes.
    make_report(repo / "reports" / "s.report.json")
    assert readme("README.md", "--reports", "reports/*.json", "--check") == 0


# -- bytes outside the markers ---------------------------------------------------------------


@pytest.mark.parametrize("nl", ["\n", "\r\n"])
def test_bytes_outside_markers_are_unchanged(repo: Path, nl: str) -> None:
    head = f"\ufeff# T\u00eftle  {nl}\ttab\r in the middle{nl}{nl}"
    middle = f"{nl}  trailing spaces   {nl}\u00e9{nl}"
    tail = "no final newline \r"
    first, second = block("s", f"stale{nl}", nl), block("s:false_alarm", "", nl)
    (repo / "README.md").write_bytes((head + first + middle + second + tail).encode("utf-8"))
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    data = (repo / "README.md").read_bytes().decode("utf-8")
    assert data.startswith(head + f"<!-- fairwitness:begin s -->{nl}")
    assert data.endswith(f"<!-- fairwitness:end s:false_alarm -->{nl}" + tail)
    assert f"<!-- fairwitness:end s -->{nl}{middle}<!-- fairwitness:begin s:false_alarm -->" in data
    generated = data[len(head) : -len(tail)]
    if nl == "\r\n":
        assert "\n" not in generated.replace("\r\n", "")  # every generated line ends in CRLF
    else:
        assert "\r" not in generated
    assert "| false_alarm | 0/4 | 4 | \u2014 |" in data
    assert readme("README.md", "--reports", "reports/*.json", "--check") == 0


def test_split_lines_round_trips_and_splits_on_newline_only() -> None:
    text = "a\r\nb\rc\u2028d\n\ne"
    assert split_lines(text) == ["a\r\n", "b\rc\u2028d\n", "\n", "e"]
    assert "".join(split_lines(text)) == text
    assert split_lines("") == []


def test_markers_inside_fenced_code_are_documentation(repo: Path) -> None:
    docs = "```markdown\n" + block("nosuch") + "```\n"
    (repo / "README.md").write_text(docs + block("s"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    assert (repo / "README.md").read_text(encoding="utf-8").startswith(docs)


# -- refusals: nothing is written ------------------------------------------------------------

BAD_MARKERS = [
    pytest.param("x\n<!-- fairwitness:end s -->\n", 2, "without a matching begin", id="end-only"),
    pytest.param("<!-- fairwitness:begin s -->\nx\n", 1, "never closed", id="unclosed"),
    pytest.param(
        block("s") + "<!-- fairwitness:begin s:route -->\n" + block("s:false_alarm"),
        5,
        "nested inside block 's:route' opened at line 4",
        id="nested",
    ),
    pytest.param(
        "<!-- fairwitness:begin s -->\n\n<!-- fairwitness:end t -->\n",
        3,
        "'end t' does not match 'begin s' at line 1",
        id="mismatched",
    ),
    pytest.param(
        block("s") + "text\n" + block("s"),
        5,
        "block 's' appears twice (first at line 1)",
        id="duplicated",
    ),
    pytest.param(
        "ok\n<!-- fairwitness:begin -->\n", 2, "malformed fairwitness marker", id="no-name"
    ),
    pytest.param(
        "<!-- fairwitness:begin a:b:c -->\n", 1, "malformed fairwitness marker", id="bad-name"
    ),
    pytest.param(
        block("s") + "<!-- fairwitness:start s -->\n",
        4,
        "malformed fairwitness marker",
        id="unknown-kind",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD_MARKERS)
@pytest.mark.parametrize("mode", ["--write", "--check"])
def test_malformed_markers_name_the_line_and_write_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, message: str, mode: str
) -> None:
    (repo / "README.md").write_text(text, encoding="utf-8")
    before = sorted(p.name for p in repo.iterdir())
    assert readme("README.md", "--reports", "reports/*.json", mode) == 4
    err = capsys.readouterr().err
    assert f"fairwitness: error: README.md:{line}: " in err
    assert message in err
    assert (repo / "README.md").read_text(encoding="utf-8") == text
    assert sorted(p.name for p in repo.iterdir()) == before  # no temp file left behind


def test_a_block_without_a_report_is_refused(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = block("s") + "\n" + block("other")
    (repo / "README.md").write_text(text, encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 4
    err = capsys.readouterr().err
    assert "README.md:5: block 'other': no report for suite 'other' (reports found for: s)" in err
    assert (repo / "README.md").read_text(encoding="utf-8") == text  # block 's' not written either


def test_an_unknown_metric_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "README.md").write_text(block("s:nosuch"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--check") == 4
    assert "README.md:1: block 's:nosuch': the report" in capsys.readouterr().err


def test_an_incomplete_report_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_report(repo / "reports" / "s.report.json", complete=False)
    (repo / "README.md").write_text(block("s"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 4
    assert "is incomplete (interrupted)" in capsys.readouterr().err
    assert (repo / "README.md").read_text(encoding="utf-8") == block("s")


def test_two_reports_for_one_suite_are_refused(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_report(repo / "reports" / "old" / "s.report.json")
    (repo / "README.md").write_text(block("s"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/**/*.json", "--write") == 4
    assert "two reports for suite 's'" in capsys.readouterr().err
    assert (repo / "README.md").read_text(encoding="utf-8") == block("s")


@pytest.mark.parametrize(
    "args",
    [
        ["README.md", "--reports", "reports/*.json"],
        ["README.md", "--reports", "reports/*.json", "--check", "--write"],
        ["README.md", "--check"],
        ["README.md", "--reports", "nothing/*.json", "--check"],
    ],
)
def test_usage_errors_exit_4(repo: Path, args: list[str]) -> None:
    (repo / "README.md").write_text(block("s"), encoding="utf-8")
    assert readme(*args) == 4
    assert (repo / "README.md").read_text(encoding="utf-8") == block("s")


# -- the figures -----------------------------------------------------------------------------


def test_below_ten_cases_shows_k_over_n_only(repo: Path) -> None:
    make_report(repo / "reports" / "s.report.json", cases=9, misses=2)
    (repo / "README.md").write_text(block("s"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    rows = table_rows((repo / "README.md").read_text(encoding="utf-8"))
    assert rows["route"] == "| route | 7/9 | 9 | \u2014 |"
    assert "%" not in rows["route"] and "%" not in rows["false_alarm"]


def test_ten_to_fifty_cases_are_indicative_with_an_interval(repo: Path) -> None:
    make_report(repo / "reports" / "s.report.json", cases=12, misses=3)
    (repo / "README.md").write_text(block("s"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    text = (repo / "README.md").read_text(encoding="utf-8")
    report = Report.load(repo / "reports" / "s.report.json")
    route = report.metrics["route"]
    assert route.ci_low is not None and route.ci_high is not None
    low, high = f"{100 * route.ci_low:.1f}%", f"{100 * route.ci_high:.1f}%"
    rows = table_rows(text)
    assert rows["route"] == f"| route | 9/12 = 75.0% (indicative) | 12 | {low} \u2013 {high} |"
    assert rows["false_alarm"].startswith("| false_alarm | 0/12 = 0.0% (indicative) | 12 | 0.0% ")


def test_metric_row_rules() -> None:
    assert (
        metric_row("m", 0.5, 50, 100, 0.4, 0.6)
        == "| m | 50/100 = 50.0% | 100 | 40.0% \u2013 60.0% |"
    )
    assert metric_row("m", 0.0, 0, 50, 0.0, 0.07) == "| m | 0/50 = 0.0% | 50 | 0.0% \u2013 7.0% |"
    assert metric_row("m", 1.0, 49, 49, 0.9, 1.0).startswith("| m | 49/49 = 100.0% (indicative)")
    assert (
        metric_row("m", 0.25, 2.5, 10, None, None)
        == "| m | 2.5/10 = 25.0% (indicative) | 10 | \u2014 |"
    )
    assert metric_row("m", None, 0, 0, None, None) == "| m | not measured | 0 | \u2014 |"
    assert metric_row("a|b", 1.0, 1, 1, None, None) == "| a\\|b | 1/1 | 1 | \u2014 |"


def test_a_named_metric_with_nothing_measured_is_not_measured(repo: Path) -> None:
    (repo / "README.md").write_text(block("s:facts") + block("s:route"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/*.json", "--write") == 0
    text = (repo / "README.md").read_text(encoding="utf-8")
    rows = table_rows(text)
    assert rows == {
        "facts": "| facts | not measured | 0 | \u2014 |",
        "route": "| route | 4/4 | 4 | \u2014 |",
    }
    assert "n = 0 cases, measured" in text and "n = 4 cases, measured" in text


def test_unknown_sha_and_a_link_relative_to_the_readme_folder(repo: Path) -> None:
    make_report(repo / "out dir" / "s.report.json", git_sha=None)
    (repo / "docs").mkdir()
    (repo / "docs" / "guide.md").write_text(block("s"), encoding="utf-8")
    assert readme("docs/guide.md", "--reports", "out dir/*.json", "--write") == 0
    text = (repo / "docs" / "guide.md").read_text(encoding="utf-8")
    assert ", git unknown, " in text
    assert "report: [../out dir/s.report.json](../out%20dir/s.report.json)\n" in text


def test_parse_reports_blocks_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "R.md"
    path.write_bytes(("intro\r\n" + block("s", "", "\r\n") + block("s:route")).encode())
    doc = read_document(path)
    assert [(b.name, b.suite, b.metric, b.line, b.newline) for b in doc.blocks] == [
        ("s", "s", None, 2, "\r\n"),
        ("s:route", "s", "route", 4, "\n"),
    ]


def test_repeats_show_the_per_trial_rate_and_pass_k_and_one_metric_adds_pass_at_k(
    repo: Path,
) -> None:
    report = build(plan_of(20, lambda i: [PASS, FAIL, FAIL] if i < 4 else [PASS] * 3))
    report.save(repo / "reports" / "r.report.json")
    (repo / "README.md").write_text(block("s") + block("s:route"), encoding="utf-8")
    assert readme("README.md", "--reports", "reports/r.report.json", "--write") == 0
    text = (repo / "README.md").read_text(encoding="utf-8")
    whole, one = text.split("<!-- fairwitness:begin s:route -->")
    route = report.metrics["route"]
    (hat,) = [p for p in route.pass_k if p.k == 3]
    assert table_rows(whole)["route (per trial)"] == (
        f"| route (per trial) | 86.7% (indicative) | 20 | "
        f"{route.ci_low:.1%} \u2013 {route.ci_high:.1%} |"
    )
    assert table_rows(whole)["route pass^3"].startswith(
        "| route pass^3 | 80.0% (indicative) | 20 |"
    )
    assert "route pass@3" not in whole
    rows = table_rows(one)
    assert sorted(rows) == ["route (per trial)", "route pass@3", "route pass^3"]
    assert rows["route pass@3"].startswith("| route pass@3 | 100.0% (indicative) | 20 |")
    assert hat.pass_hat == 0.8
