"""Step outputs, the job summary cap, and workflow-command escaping."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from fairwitness.github import (
    MAX_ANNOTATIONS,
    STEP_SUMMARY_LIMIT,
    Annotations,
    annotation,
    append_step_summary,
    escape_data,
    escape_property,
    fit_summary,
    set_output,
    set_outputs,
)


def read_outputs(path: Path) -> dict[str, str]:
    """Parse a GITHUB_OUTPUT file the way the runner does (``name<<DELIM`` blocks only)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found: dict[str, str] = {}
    i = 0
    while i < len(lines) and lines[i]:
        name, delimiter = lines[i].split("<<", 1)
        end = lines.index(delimiter, i + 1)
        found[name] = "\n".join(lines[i + 1 : end])
        i = end + 1
    return found


def test_outputs_use_the_multiline_syntax(tmp_path: Path) -> None:
    path = tmp_path / "output"
    values = {
        "exit-code": "1",
        "verdict": "regression",
        "markdown": "## Results\n\nname<<EOF\nEOF\n| a | b |\n",
        "empty": "",
    }
    set_outputs(path, values)
    set_output(path, "report_path", "out/s.report.json")
    text = path.read_text(encoding="utf-8")
    assert re.match(r"exit-code<<fairwitness_[0-9a-f]{32}\n1\nfairwitness_[0-9a-f]{32}\n", text)
    assert read_outputs(path) == {**values, "report_path": "out/s.report.json"}


def test_a_delimiter_found_in_the_value_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "output"
    candidates = iter(["DELIM", "DELIM2", "SAFE"])
    set_output(path, "x", "a\nDELIM\nb DELIM2", delimiter=lambda: next(candidates))
    assert path.read_text(encoding="utf-8") == "x<<SAFE\na\nDELIM\nb DELIM2\nSAFE\n"
    assert read_outputs(path) == {"x": "a\nDELIM\nb DELIM2"}


def test_the_random_delimiters_differ(tmp_path: Path) -> None:
    path = tmp_path / "output"
    set_outputs(path, {"a": "1", "b": "2"})
    delimiters = re.findall(r"^\w+<<(\S+)$", path.read_text(encoding="utf-8"), re.M)
    assert len(set(delimiters)) == 2


@pytest.mark.parametrize("name", ["", "1abc", "a b", "a\nb", "a<<b", "a=b"])
def test_a_bad_output_name_is_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / "output"
    with pytest.raises(ValueError, match="invalid output name"):
        set_output(path, name, "v")
    assert not path.exists()


def test_a_summary_under_the_cap_is_appended_verbatim(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_text("# earlier step\n", encoding="utf-8")
    result = append_step_summary(path, "## fairwitness\n\nAll good ✓\n")
    assert path.read_text(encoding="utf-8") == "# earlier step\n## fairwitness\n\nAll good ✓\n"
    assert result.shortened is False
    assert result.written_bytes == len("## fairwitness\n\nAll good ✓\n".encode())


def test_a_summary_over_the_cap_is_cut_at_a_line_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_bytes(b"x" * 1000 + b"\n")
    lines = [f"| case-{i:06d} | passed | é |" for i in range(60_000)]
    markdown = "\n".join(lines) + "\n"
    assert len(markdown.encode()) > STEP_SUMMARY_LIMIT
    result = append_step_summary(path, markdown, where="the `fairwitness-report` artifact")
    data = path.read_bytes()
    assert len(data) <= STEP_SUMMARY_LIMIT
    assert result.shortened is True
    assert result.written_bytes == len(data) - 1001
    text = data.decode("utf-8")
    body, _, note = text[1001:].partition("\n\n> [!NOTE]\n")
    assert body.split("\n") == lines[: len(body.split("\n"))]  # whole lines only
    assert "shortened to fit GitHub's limit of 1,048,576 bytes" in note
    assert "the `fairwitness-report` artifact" in note
    # Deterministic: the same input is cut the same way.
    again = tmp_path / "again.md"
    again.write_bytes(b"x" * 1000 + b"\n")
    append_step_summary(again, markdown, where="the `fairwitness-report` artifact")
    assert again.read_bytes() == data


def test_the_cut_never_splits_a_character() -> None:
    text, shortened = fit_summary("ééééé" * 100, 300)
    assert shortened is True
    assert len(text.encode("utf-8")) <= 300
    assert text.startswith("é")


def test_a_code_block_left_open_by_the_cut_is_closed() -> None:
    markdown = "intro\n```text\n" + "line\n" * 1000 + "```\n"
    text, shortened = fit_summary(markdown, 2000)
    assert shortened is True
    assert len(text.encode()) <= 2000
    kept = text.split("\n\n> [!NOTE]")[0]
    assert kept.endswith("\n```")
    assert sum(1 for line in kept.splitlines() if line.startswith("```")) == 2


def test_a_full_summary_file_takes_nothing_more(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_bytes(b"x" * 100)
    result = append_step_summary(path, "more\n" * 100, limit=120)
    assert result.written_bytes == 0
    assert result.shortened is True
    assert path.read_bytes() == b"x" * 100


def test_escaping_follows_the_runner() -> None:
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("src/a,b:c%\n") == "src/a%2Cb%3Ac%25%0A"


def test_annotation_lines() -> None:
    line = annotation(
        "error",
        "must-pass case failed:\nrefund-01 (50% of repeats)",
        file="cases/refunds.jsonl",
        line=12,
        title="fairwitness: must_pass, refund",
    )
    assert line == (
        "::error file=cases/refunds.jsonl,line=12,title=fairwitness%3A must_pass%2C refund"
        "::must-pass case failed:%0Arefund-01 (50%25 of repeats)"
    )
    assert annotation("warning", "no baseline") == "::warning::no baseline"
    assert annotation("notice", "x", end_line=3, col=2) == "::notice endLine=3,col=2::x"


def test_at_most_ten_annotations_per_run() -> None:
    written: list[str] = []
    notes = Annotations(written.append)
    results = [
        notes.error(f"e{i}") if i % 2 else notes.warning(f"w{i}", file="a.py", line=i)
        for i in range(13)
    ]
    assert results == [True] * MAX_ANNOTATIONS + [False] * 3
    assert len(written) == MAX_ANNOTATIONS == 10
    assert (notes.emitted, notes.dropped) == (10, 3)
    assert written[0] == "::warning file=a.py,line=0::w0"
    assert written[1] == "::error::e1"
    assert notes.notice("late") is False


def test_annotations_limit_is_configurable() -> None:
    written: list[str] = []
    notes = Annotations(written.append, limit=2)
    for i in itertools.count():
        if not notes.notice(str(i)):
            break
    assert written == ["::notice::0", "::notice::1"]
