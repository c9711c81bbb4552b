"""The reproducibility table's cost rows: the run's cost next to the baseline's, one row per
model, "unknown (reason)" never 0, and model names escaped."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from test_render_escape import hostile_text

from builders import PASS, build, edit, plan_of
from fairwitness.render import render_comment, render_summary, render_terminal
from fairwitness.render._repro import MODEL_ROWS, usd
from fairwitness.report import Report
from markdown_check import check

BASE = build(plan_of(12, lambda i: [PASS, PASS]))


def _with_usage(report: Report, usage: dict[str, Any]) -> Report:
    def change(data: dict[str, Any]) -> None:
        data["usage"] = usage

    return edit(report, change)


def _model(trials: int, cost: float | None, **more: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "trials": trials,
        "input_tokens": 100 * trials,
        "output_tokens": 10 * trials,
        "cost_usd": cost,
        "cost_source": None if cost is None else "reported",
        "cost_known_trials": trials if cost is not None else 0,
        "cost_unknown_reason": None if cost is not None else "no cost reported",
    }
    entry.update(more)
    return entry


def _cost_rows(text: str) -> dict[str, str]:
    return {
        line.split(" | ")[0].removeprefix("| "): line
        for line in text.splitlines()
        if line.startswith(("| cost", "| pricing"))
    }


def test_small_costs_never_print_as_zero() -> None:
    assert usd(0.000621) == "$0.0006"
    assert usd(1.5) == "$1.5000"
    assert usd(0.0000042) == "$0.0000042"
    assert usd(0.00009) == "$0.000090"
    assert usd(0.0) == "$0.0000"  # a reported zero is a value


def test_each_model_gets_a_row_with_tokens_and_the_baseline_beside_it() -> None:
    base = _with_usage(
        BASE,
        {
            "cost_usd": None,
            "cost_known_trials": 24,
            "cost_unknown_reason": "cost not reported for 4 of 28 trials",
            "by_model": {"gpt-4o": _model(24, 0.5), "old-model": _model(4, None)},
        },
    )
    cand = _with_usage(
        BASE,
        {
            "input_tokens": 2400,
            "output_tokens": 240,
            "cost_usd": 0.75,
            "cost_known_trials": 24,
            "by_model": {
                "gpt-4o": _model(24, 0.75, cost_source="pricing"),
            },
            "pricing_version": "2026-01",
        },
    )
    text = render_comment(cand, base)
    assert check(text).problems == []
    rows = _cost_rows(text)
    assert rows["cost"] == ("| cost | unknown (cost not reported for 4 of 28 trials) | \\$0.7500 |")
    assert rows["cost: gpt-4o"] == (
        "| cost: gpt-4o | \\$0.5000 reported; 2400 in / 240 out tokens; 24 trials "
        "| \\$0.7500 priced; 2400 in / 240 out tokens; 24 trials |"
    )
    assert rows["cost: old-model"] == (
        "| cost: old-model | unknown (no cost reported); 400 in / 40 out tokens; 4 trials "
        "| not used |"
    )
    assert rows["pricing"] == "| pricing | none | 2026-01 |"
    assert list(rows) == ["cost", "cost: gpt-4o", "cost: old-model", "pricing"]
    assert "cost: " in render_summary(cand, base)
    assert "cost: gpt" not in render_terminal(cand, base)


def test_a_report_from_before_per_model_usage_says_so() -> None:
    cand = _with_usage(
        BASE,
        {"cost_usd": 0.1, "cost_known_trials": 24, "by_model": {"m": _model(24, 0.1)}},
    )
    old = _with_usage(BASE, {"cost_usd": 0.1, "cost_known_trials": 24})
    rows = _cost_rows(render_comment(cand, old))
    assert rows["cost: m"].split(" | ")[1] == "not recorded per model"
    assert "pricing" not in rows  # neither report used a price table
    both_old = _cost_rows(render_comment(old, old))
    assert list(both_old) == ["cost"]


def test_unknown_tokens_and_mixed_sources_are_named() -> None:
    cand = _with_usage(
        BASE,
        {
            "cost_usd": None,
            "cost_unknown_reason": "cost neither reported nor priced for 1 of 24 trials",
            "by_model": {
                "a": _model(23, 0.2, cost_source="mixed"),
                "b": _model(
                    1,
                    None,
                    input_tokens=None,
                    output_tokens=None,
                    cost_unknown_reason="no cost reported and no price for model 'b' in [pricing]",
                ),
            },
        },
    )
    rows = _cost_rows(render_comment(cand))
    assert rows["cost: a"].endswith(
        "| \\$0.2000 reported and priced; 2300 in / 230 out tokens; 23 trials |"
    )
    assert rows["cost: b"].endswith(
        "| unknown (no cost reported and no price for model 'b' in \\[pricing\\]); "
        "tokens not reported; 1 trial |"
    )
    assert rows["cost: b"].split(" | ")[1] == "\u2014"  # no baseline


def test_many_models_are_capped_with_a_count_of_the_rest() -> None:
    models = {f"m{i:02}": _model(i + 1, 0.01) for i in range(MODEL_ROWS + 3)}
    cand = _with_usage(BASE, {"cost_usd": 0.1, "by_model": models})
    rows = _cost_rows(render_comment(cand))
    per_model = [label for label in rows if label.startswith("cost: m")]
    assert len(per_model) == MODEL_ROWS
    assert per_model[0] == f"cost: m{MODEL_ROWS + 2:02}"  # most trials first
    assert "cost: 3 more models" in rows


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_text)
def test_hostile_model_names_never_break_the_comment(name: str) -> None:
    report = build(plan_of(2, lambda i: [PASS]), model=name or "m")
    base = _with_usage(report, {"by_model": {"other": _model(2, 0.1)}})
    for text in (render_comment(report, base), render_summary(report, base)):
        parsed = check(text)
        assert parsed.problems == []
        for widths in parsed.tables:
            assert len(set(widths)) == 1, widths
