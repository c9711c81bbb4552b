"""A flipped case shows the phrase that made its answer a misreport, escaped and cut."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from test_render_escape import hostile_text

from builders import FAIL, PASS, build, edit, plan_of
from fairwitness.gate import decide
from fairwitness.render import render_comment, render_summary, render_terminal
from fairwitness.report import Report
from markdown_check import check

BASE = build(plan_of(40, lambda i: [PASS, PASS]))
DROP = build(plan_of(40, lambda i: [FAIL, FAIL] if i < 12 else [PASS, PASS]))


def _with_evidence(report: Report, phrase: str) -> Report:
    def change(data: dict[str, Any]) -> None:
        for outcome in data["cases"]["c0"]["repeats"]:
            outcome["evidence"] = {"route": f"absence_claim: {phrase}"}

    return edit(report, change)


def test_the_deciding_phrase_is_shown_on_the_flipped_row() -> None:
    cand = _with_evidence(DROP, "there are no jobs in Pune")
    decision = decide(BASE, cand)
    comment = render_comment(cand, BASE, decision)
    row = next(line for line in comment.splitlines() if line.startswith("| c0 |"))
    assert row.endswith("; said: \u201cthere are no jobs in Pune\u201d |")
    assert 'said "there are no jobs in Pune"' in render_terminal(cand, BASE, decision)
    # a row without evidence is unchanged
    other = next(line for line in comment.splitlines() if line.startswith("| c1 |"))
    assert "said" not in other


def test_a_hostile_phrase_cannot_add_links_images_or_html() -> None:
    phrase = "[click](https://evil.example) ![x](https://evil.example/i.png) <b>no</b> " + "z" * 200
    cand = _with_evidence(DROP, phrase)
    decision = decide(BASE, cand)
    for text in (render_comment(cand, BASE, decision), render_summary(cand, BASE, decision)):
        parsed = check(text)
        assert parsed.problems == []
        row = next(line for line in text.splitlines() if line.startswith("| c0 |"))
        assert "z" * 90 not in row and "\u2026" in row


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_text)
def test_any_phrase_keeps_the_comment_well_formed(phrase: str) -> None:
    cand = _with_evidence(DROP, phrase)
    text = render_comment(cand, BASE, decide(BASE, cand))
    parsed = check(text)
    assert parsed.problems == []
    for widths in parsed.tables:
        assert len(set(widths)) == 1, widths


def test_reports_without_evidence_save_as_before() -> None:
    assert '"evidence"' not in BASE.to_json()
    cand = _with_evidence(DROP, "nothing on your calendar")
    assert Report.model_validate_json(cand.to_json()) == cand


def test_a_flipped_row_says_what_the_trace_did_instead_of_the_expectation() -> None:
    def change(data: dict[str, Any]) -> None:
        for outcome in data["cases"]["c0"]["repeats"]:
            outcome["evidence"] = {"route": 'observed: search_jobs city "Pune", expected "Berlin"'}

    cand = edit(DROP, change)
    decision = decide(BASE, cand)
    comment = render_comment(cand, BASE, decision)
    row = next(line for line in comment.splitlines() if line.startswith("| c0 |"))
    # escaped as any agent text is (markdown's underscore included)
    assert row.endswith('; now: search\\_jobs city "Pune", expected "Berlin" |'), row
    assert "said" not in row  # an observation is not something the agent said
    assert check(comment).problems == []


def test_the_scorers_and_the_renderer_agree_on_the_observation_word() -> None:
    from fairwitness.render._flips import OBSERVED as RENDERED
    from fairwitness.scoring.scorers import OBSERVED

    assert RENDERED == OBSERVED
