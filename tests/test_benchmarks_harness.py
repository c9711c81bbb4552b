"""benchmarks/run as a script: the power module's rows, the results file and the markdown page it
writes, and that a partial run leaves docs/benchmarks.md alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from markdown_check import parser

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "benchmarks" / "run"
PAGE = ROOT / "docs" / "benchmarks.md"
HEADER = "| figure | value | target | ratio | pass | command to reproduce |"

pytestmark = pytest.mark.integration


def run(*args: str) -> subprocess.CompletedProcess[str]:
    # This interpreter, not the script's `env python3`: it is the one fairwitness is installed in.
    return subprocess.run(
        [sys.executable, str(RUN), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def page_state() -> bytes | None:
    return PAGE.read_bytes() if PAGE.exists() else None


def test_quick_power_run_writes_the_page_where_told(tmp_path: Path) -> None:
    page, rows_file = tmp_path / "page" / "benchmarks.md", tmp_path / "rows.json"
    before = page_state()
    proc = run("--quick", "--only", "power", "--json", str(rows_file), "--markdown", str(page))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert page_state() == before, "an --only run must not touch docs/benchmarks.md"

    results = json.loads(rows_file.read_text(encoding="utf-8"))
    assert results["quick"] is True
    assert results["modules"] == ["power"]
    assert results["failed_modules"] == []
    rows = results["rows"]
    figures = [row["figure"] for row in rows]
    for words in (
        "type-I error of the one-sided McNemar mid-p gate",
        "type-I error of the one-sided McNemar exact gate",
        "true drop of 3.0 pts",
        "true drop of 5.0 pts",
        "the drop `detectable_drop()` states",
        "misses the",
        "check: largest |simulated - exact|",
        "check: the latent model drawn case by case",
    ):
        assert any(words in figure for figure in figures), words
    for n in (60, 100, 210, 500):
        assert sum(f"n = {n}:" in figure or f"n = {n}," in figure for figure in figures) >= 9
    for row in rows:
        assert row["module"] == "power"
        assert row["command"] == "benchmarks/run --only power --quick"
        assert row["passed"] is None if row["target"] is None else isinstance(row["passed"], bool)
    # the simulation agrees with the exact sums even at quick size, and the latent model with
    # its closed form: the checks are met
    assert all(row["passed"] for row in rows if row["figure"].startswith("check:"))

    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks\n")
    assert "`benchmarks/run`" in text
    assert "## Machine" in text
    assert "CPUs" in text
    assert "_quick mode: reduced sizes" in text
    assert "_partial run" in text
    assert HEADER in text
    assert HEADER in proc.stdout
    assert sys.executable not in text  # the page describes the machine, not this checkout

    # the page is the printed table, and a GFM parser sees one table row per result row
    assert text.split(HEADER)[1].split("\n\n")[0] == proc.stdout.split(HEADER)[1].split("\n\n")[0]
    tokens = parser().parse(text)
    assert sum(token.type == "tr_open" for token in tokens) == len(rows) + 1
    for figure in figures:
        assert figure.replace("|", "\\|") in text


def test_partial_run_without_markdown_writes_no_page(tmp_path: Path) -> None:
    before = page_state()
    proc = run("--quick", "--only", "power", "--json", str(tmp_path / "rows.json"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert page_state() == before
    assert "page written" not in proc.stderr


def test_a_figure_not_measured_is_null_in_the_json_and_says_so_in_the_table() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from _report import table

        namespace: dict[str, object] = {"__name__": "benchmarks_run", "__file__": str(RUN)}
        exec(compile(RUN.read_text(encoding="utf-8"), str(RUN), "exec"), namespace)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    check_row = namespace["check_row"]
    raw = {"figure": "reference wall", "value": float("nan"), "unit": "s", "target": 3.0}
    row = check_row("reference", {**raw, "passed": None, "command": "benchmarks/run"})  # type: ignore[operator]
    assert row["value"] is None and row["ratio"] is None
    assert json.loads(json.dumps(row, allow_nan=False))["value"] is None
    assert "| reference wall | not measured | 3 s | — | info |" in table([row])
