"""The trend line of each gated metric in the comment and the job summary: a sparkline scaled
between the values shown, "not measured" never drawn as a block, the last values by the
reporting rules, inside the markdown checks and the comment's limit."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from builders import FAIL, PASS, build, edit, plan_of
from fairwitness.gate import decide
from fairwitness.render import (
    COMMENT_LIMIT,
    md,
    point_text,
    render_comment,
    render_summary,
    sparkline,
)
from fairwitness.render._trend import BLOCKS, GAP, MIDDLE, trend_rows
from fairwitness.report import Report
from fairwitness.report.history import History, HistoryRun, TrendPoint, load_history
from markdown_check import check

T0 = datetime(2024, 5, 1, tzinfo=timezone.utc)


def test_the_sparkline_spans_the_lowest_to_the_highest_value_shown() -> None:
    assert sparkline([0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2]) == BLOCKS
    assert sparkline([0.90, 0.95, 0.91]) == BLOCKS[0] + BLOCKS[-1] + BLOCKS[1]
    assert sparkline([10.0, 0.0]) == BLOCKS[-1] + BLOCKS[0]


def test_a_flat_series_and_a_single_point_are_middle_blocks() -> None:
    assert sparkline([0.8, 0.8, 0.8]) == MIDDLE * 3
    assert sparkline([0.3]) == MIDDLE
    assert sparkline([]) == ""


def test_none_and_nan_are_gaps_outside_the_scale() -> None:
    assert sparkline([0.0, None, 7.0, math.nan, 3.0]) == (
        BLOCKS[0] + GAP + BLOCKS[-1] + GAP + BLOCKS[3]
    )
    assert sparkline([None, None]) == GAP * 2
    assert all(block not in sparkline([None, math.nan]) for block in BLOCKS)


def test_values_follow_the_reporting_rules() -> None:
    assert point_text(TrendPoint(0.9134, k=10.96, n=12)) == "91.3%"
    assert point_text(TrendPoint(7 / 9, k=7, n=9)) == "7/9"
    assert point_text(TrendPoint(1250.0, k=0, n=30, continuous=True)) == "1.25e+03"
    assert point_text(TrendPoint(None, n=0, reason="not measured")) == "not measured"
    assert point_text(None) == "not measured"


def _run(name: str, value: float | None, *, candidate: bool = False, at: int = 0) -> HistoryRun:
    point = TrendPoint(value, k=(value or 0) * 20, n=20 if value is not None else 0)
    return HistoryRun(name, T0 + timedelta(days=at), None, candidate, {"route": point})


def test_a_row_shows_the_last_three_earlier_values_then_the_candidate() -> None:
    values = [0.91, 0.92, None, 0.93, 0.94]
    runs = [_run(f"r{i}", v, at=i) for i, v in enumerate(values)]
    history = History("somewhere", [*runs, _run("cand", 0.90, candidate=True, at=9)])
    (row,) = trend_rows(history, ["route"], md)
    assert row.spark == BLOCKS[2] + BLOCKS[4] + GAP + BLOCKS[5] + BLOCKS[7] + BLOCKS[0]
    assert row.earlier == "not measured 93.0% 94.0%"
    assert row.candidate == "90.0%"
    assert row.runs == 6 and row.missing == 1
    assert row.line == f"route {row.spark} not measured 93.0% 94.0% \u2192 90.0%"
    alone = History("nowhere", [_run("cand", 0.5, candidate=True)])
    (single,) = trend_rows(alone, ["route"], md)
    assert single.spark == MIDDLE and single.earlier == "\u2014"
    assert single.line == f"route {MIDDLE} \u2192 50.0%"


def _stamp(report: Report, at: int) -> Report:
    def change(data: dict[str, Any]) -> None:
        data["run"]["created_at"] = (T0 + timedelta(hours=at)).isoformat()

    return edit(report, change)


@pytest.fixture(scope="module")
def pair_and_history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, ...]:
    folder = tmp_path_factory.mktemp("history")
    earlier = []
    for at, fails in enumerate((0, 1, 1, 2)):
        report = _stamp(build(plan_of(12, lambda i, f=fails: [FAIL if i < f else PASS] * 2)), at)
        report.save(folder / f"run{at}" / "s.report.json")
        earlier.append(report)
    base = build(plan_of(12, lambda i: [PASS] * 2))
    cand = build(plan_of(12, lambda i: [FAIL if i < 4 else PASS] * 2))
    return base, cand, decide(base, cand), load_history(folder, cand), earlier


def test_the_comment_and_summary_show_a_trend_row_per_gated_metric(
    pair_and_history: tuple[Any, ...],
) -> None:
    base, cand, decision, history, earlier = pair_and_history
    gated = [m.name for m in decision.metrics if m.gated]
    assert gated == ["route"]
    for text in (
        render_comment(cand, base, decision, history=history),
        render_summary(cand, base, decision, history=history),
    ):
        assert "Trend on the default branch" in text
        rows = [line for line in text.splitlines() if line.startswith("| route |")]
        trend = [row for row in rows if any(b in row for b in BLOCKS)]
        assert len(trend) == 1
        cells = [c.strip() for c in trend[0].strip("|").split("|")]
        values = [r.metrics["route"].value for r in earlier] + [cand.metrics["route"].value]
        assert cells[1] == sparkline(values)
        shown = [point_text(TrendPoint(v, k=v * 12, n=12)) for v in values]
        assert cells[2] == " ".join(shown[1:4]) and cells[3] == shown[-1]
        assert "4 earlier run(s) from the reports in" in text
        parsed = check(text)
        assert parsed.problems == []
        assert all(len(set(t)) == 1 for t in parsed.tables)  # every row as wide as its header
    plain = render_comment(cand, base, decision)
    assert "Trend" not in plain


def test_the_trend_keeps_the_comment_inside_its_limit(pair_and_history: tuple[Any, ...]) -> None:
    base, cand, decision, history, _ = pair_and_history
    text = render_comment(cand, base, decision, history=history, limit=2_000)
    assert len(text) <= 2_000
    assert len(render_comment(cand, base, decision, history=history)) <= COMMENT_LIMIT


def test_hostile_notes_and_names_stay_inert(tmp_path: Path) -> None:
    hostile = "<img src=x onerror=alert(1)> [x](https://evil.example) @everyone #12 | col |"
    cand = build(plan_of(12, lambda i: [PASS] * 2), suite=hostile)
    history = load_history(tmp_path, cand)
    text = render_comment(cand, None, None, history=history)
    assert "Trend on the default branch" in text
    assert check(text).problems == []
    assert "<img" not in text
