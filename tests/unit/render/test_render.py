"""Rendering reports and decisions: the reporting rules, the comment's order and size limit,
escaping of hostile report strings (checked with a real GFM parser), JUnit, and templates."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_render_escape import hostile_text

from builders import CRASH, FAIL, PASS, build, edit, plan_of
from fairwitness.errors import ConfigError
from fairwitness.gate import GateSettings, decide
from fairwitness.render import (
    COMMENT_LIMIT,
    Renderer,
    render_comment,
    render_json,
    render_junit,
    render_summary,
    render_terminal,
)
from fairwitness.report import Report
from markdown_check import check

BASE40 = build(plan_of(40, lambda i: [PASS, PASS]))
DROP40 = build(plan_of(40, lambda i: [FAIL, FAIL] if i < 12 else [PASS, PASS]))


def _lines_with(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


# -- the reporting rules --------------------------------------------------------------------------


def test_below_ten_cases_a_rate_is_k_of_n_without_a_percentage() -> None:
    small = build(plan_of(7, lambda i: [PASS]))
    text = render_comment(small)
    (row,) = _lines_with(text, "| route |")
    assert "| 7/7 |" in row
    assert "%" not in row


def test_below_fifty_a_percentage_is_indicative_and_has_its_interval() -> None:
    (row,) = _lines_with(render_comment(build(plan_of(40, lambda i: [PASS]))), "| route |")
    assert "40/40 = 100.0% [91.2%, 100.0%] (indicative)" in row


def test_a_per_trial_rate_is_a_percentage_of_cases_with_the_trials_behind_it() -> None:
    metrics, reliability = _lines_with(render_comment(BASE40), "| route |")
    # two repeats that always agree: the evidence is the 40 cases, so Wilson over 40
    assert "| 100.0% [91.2%, 100.0%] per trial (indicative) |" in metrics
    assert reliability.startswith("| route | 100.0% [91.2%, 100.0%], 80/80 trials (indicative) |")
    assert "| 40/40 = 100.0% [91.2%, 100.0%] (indicative) |" in reliability  # majority
    small = render_comment(build(plan_of(7, lambda i: [PASS, FAIL, PASS])))
    row = _lines_with(small, "| route |")[0]
    assert "| 14/21 trials |" in row and "%" not in row


def test_zero_prints_as_zero_percent_and_nothing_measured_as_not_measured() -> None:
    report = build(plan_of(60, lambda i: [PASS]), claims=True)
    text = render_comment(report)
    (row,) = _lines_with(text, "| forbidden\\_claims |")
    assert "60/60 = 100.0%" in row
    none = edit(
        report,
        lambda d: d["metrics"]["route"].update(
            value=None, k=0, n=0, ci_low=None, ci_high=None, excluded={"no_answer": 60}
        ),
    )
    (row,) = _lines_with(render_comment(none), "| route |")
    assert "not measured" in row and "0.0%" not in row


def test_an_exact_zero_rate_is_written_zero_point_zero() -> None:
    (row,) = _lines_with(render_comment(build(plan_of(60, lambda i: [FAIL]))), "| route |")
    assert "0/60 = 0.0% [0.0%, 6.0%]" in row


# -- the comment -----------------------------------------------------------------------------------


def test_the_comment_leads_with_the_verdict_and_its_reason() -> None:
    decision = decide(BASE40, DROP40)
    text = render_comment(DROP40, BASE40, decision)
    first, _, second, *_ = text.splitlines()
    assert first.startswith("### ") and "regression (exit 1)" in first
    assert second.startswith(
        "**'route' regressed: per-trial rate 1.000 -&gt; 0.700 over 40 paired cases (12 went "
        "from good to bad, 0 from bad to good); one-sided sign-flip test p = 0.000122"
    )
    order = [
        text.index(h)
        for h in (
            "#### Can this suite be trusted?",
            "#### Paired results",
            "#### Cases that flipped (12)",
            "<details><summary>Reproducibility",
        )
    ]
    assert order == sorted(order)
    row = _lines_with(text, "| route |")[0]
    assert "| 12 / 0 |" in row and "-30.0 pp" in row and "(sign-flip)" in row
    assert check(text).problems == []


MUST = build(plan_of(40, lambda i: [PASS, PASS]), must_pass=["c3"])


@pytest.mark.parametrize(
    ("baseline", "candidate", "code", "verdict"),
    [
        (BASE40, BASE40, 0, "pass"),
        (BASE40, DROP40, 1, "regression"),
        (
            MUST,
            build(
                plan_of(40, lambda i: [FAIL, FAIL] if i == 3 else [PASS, PASS]), must_pass=["c3"]
            ),
            2,
            "must-pass failed",
        ),
        (BASE40, BASE40, 3, "inconclusive"),
        (BASE40, build(plan_of(40, lambda i: [PASS, PASS]), suite="other"), 4, "invalid"),
    ],
)
def test_every_exit_code_renders_its_verdict(
    baseline: Report, candidate: Report, code: int, verdict: str
) -> None:
    # a run of 40 cases cannot detect a 1-point drop, and the inconclusive case asks it to
    settings = GateSettings(must_detect=0.01) if code == 3 else GateSettings()
    decision = decide(baseline, candidate, settings)
    assert decision.exit_code == code
    text = render_comment(candidate, baseline, decision)
    assert f": {verdict} (exit {code})" in text.splitlines()[0]
    assert render_terminal(candidate, baseline, decision).startswith(
        f"fairwitness \u00b7 {candidate.suite}: {verdict.upper()} (exit {code})"
    )
    assert check(text).problems == []


def test_without_a_baseline_the_candidate_is_shown_and_nothing_is_gated() -> None:
    text = render_comment(BASE40)
    assert "no baseline to compare with" in text
    assert "Paired results" not in text
    assert "exit" not in text.splitlines()[0]


def test_flipped_cases_are_capped_with_a_count_of_the_rest() -> None:
    base = build(plan_of(200, lambda i: [PASS]))
    cand = build(plan_of(200, lambda i: [FAIL] if i < 60 else [PASS]))
    decision = decide(base, cand)
    text = render_comment(cand, base, decision)
    assert "#### Cases that flipped (showing 25 of 60)" in text
    assert "\u2026and 35 more: see the job summary of this run." in text
    summary = render_summary(cand, base, decision)
    assert "### Cases that flipped (60)" in summary
    assert len(re.findall(r"^\| c\d+ \| route \| good", summary, re.M)) == 60


def test_every_exclusion_is_shown() -> None:
    plan = plan_of(30, lambda i: [CRASH, CRASH] if i == 0 else [PASS, PASS])
    base = build(plan_of(30, lambda i: [PASS, PASS]) | {"gone": [PASS, PASS]})
    cand = build(plan | {"new": [PASS, PASS]})
    decision = decide(base, cand, GateSettings(max_unpaired=1))
    text = render_comment(cand, base, decision)
    left = text[text.index("#### Left out") :]
    assert "1 trial(s) crashed" not in left  # two repeats crashed
    assert "2 trial(s) crashed, 0 timed out" in left
    assert "1 baseline case(s) missing from the candidate: gone" in left
    assert "1 new case(s) not in the baseline (not compared): new" in left
    excluded = edit(cand, lambda d: d["metrics"]["route"]["excluded"].update(unreadable=3))
    assert "- route: 3 unreadable left out of n" in render_comment(excluded, base, decision)
    assert "called again" not in left  # no retries: no line about them
    retried = edit(cand, lambda d: d["counts"].update(retried=4, retries=6, recovered=3))
    left = render_comment(retried, base, decision)
    assert (
        "4 trial(s) were called again after a timeout or a transient error "
        "(6 retries; 3 answered on a retry)"
    ) in left[left.index("#### Left out") :]


def test_a_huge_suite_still_fits_and_shortening_is_deterministic() -> None:
    base = build(plan_of(3000, lambda i: [PASS]))
    cand = build(plan_of(3000, lambda i: [FAIL] if i % 3 == 0 else [PASS]))
    decision = decide(base, cand)
    text = render_comment(cand, base, decision)
    assert len(text) < COMMENT_LIMIT
    tight = render_comment(cand, base, decision, limit=3000)
    assert len(tight) <= 3000
    assert tight == render_comment(cand, base, decision, limit=3000)
    assert "Shortened to fit GitHub's comment limit" in tight
    assert "the job summary of this run" in tight
    assert check(tight).problems == []
    tiny = render_comment(cand, base, decision, limit=1500)
    assert len(tiny) <= 1500 and tiny.rstrip().endswith("the job summary of this run.")
    assert tiny.count("<details>") == tiny.count("</details>")


HOSTILE_FIELDS = st.fixed_dictionaries(
    {"case": hostile_text, "verdict": hostile_text, "error": hostile_text, "suite": hostile_text}
)


def _poison(report: Report, bad: dict[str, str], case_id: str) -> Report:
    def change(data: dict[str, Any]) -> None:
        data["suite"] = bad["suite"] or "s"
        cases = data["cases"]
        record = cases.pop("c0")
        for outcome in record["repeats"]:
            outcome["verdict"] = bad["verdict"]
            outcome["error"] = bad["error"]
        record["tags"] = [bad["verdict"]]
        cases[case_id] = record

    return edit(report, change)


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE_FIELDS)
def test_hostile_report_strings_never_break_the_comment(bad: dict[str, str]) -> None:
    case_id = bad["case"] or "x"
    base = _poison(BASE40, bad, case_id)
    cand = _poison(DROP40, bad, case_id)
    decision = decide(base, cand)
    for text in (render_comment(cand, base, decision), render_summary(cand, base, decision)):
        parsed = check(text)
        assert parsed.problems == []
        for widths in parsed.tables:
            assert len(set(widths)) == 1, widths
        assert text.count("<details>") == text.count("</details>")
    ET.fromstring(render_junit(cand, base, decision).split("\n", 1)[1])
    json.loads(render_json(cand, base, decision))
    terminal = render_terminal(cand, base, decision)
    assert "\x1b" not in terminal and "\r" not in terminal


# -- JUnit and JSON --------------------------------------------------------------------------------


def test_junit_has_one_testcase_per_case_and_one_for_the_gate() -> None:
    plan = plan_of(
        12, lambda i: [CRASH, CRASH] if i == 0 else ([FAIL, FAIL] if i < 4 else [PASS, PASS])
    )
    cand = build(plan)
    base = build(plan_of(12, lambda i: [PASS, PASS]))
    decision = decide(base, cand)
    root = ET.fromstring(render_junit(cand, base, decision).split("\n", 1)[1])
    (suite,) = root
    cases = suite.findall("testcase")
    assert len(cases) == 13 and suite.get("tests") == "13"
    assert suite.get("errors") == "1"
    assert suite.get("failures") == str(3 + (decision.exit_code != 0))
    failed = {c.get("name") for c in cases if c.find("failure") is not None}
    assert {"c1", "c2", "c3"} <= failed
    assert cases[0].find("error") is not None
    gate_case = cases[-1]
    assert gate_case.get("name") == "fairwitness.gate"


def test_junit_carries_per_trial_rates_and_pass_k_and_the_share_behind_a_failure() -> None:
    plan = plan_of(12, lambda i: [PASS, FAIL, FAIL] if i < 3 else [PASS] * 3)
    cand = build(plan)
    root = ET.fromstring(render_junit(cand).split("\n", 1)[1])
    (suite,) = root
    found = {p.get("name"): p.get("value") for p in suite.find("properties") or []}
    route = cand.metrics["route"]
    assert found["route"] == f"{route.value:.6g}" == found["route.per_trial"]
    assert found["route.collapsed"] == "0.75"
    assert found["route.pass^3"] == "0.75" and found["route.pass@3"] == "1"
    assert found["route.pass^2"] == f"{(9 + 3 * 0.0) / 12:.6g}"
    failure = suite.find("testcase[@name='c0']/failure")
    assert failure is not None
    assert failure.get("message") == "failed: route (1/3 repeats scored 1)"


def test_the_terminal_shows_reliability_over_repeats() -> None:
    cand = build(plan_of(12, lambda i: [PASS, FAIL, FAIL] if i < 3 else [PASS] * 3))
    text = render_terminal(cand)
    lines = text.splitlines()
    start = lines.index(
        "reliability over repeats (pass^k: all k tries pass; pass@k: at least one does)"
    )
    row = lines[start + 1]
    assert row.startswith("route ") and "pass^2 75.0%" in row and "pass^3 75.0%" in row
    assert "per trial 83.3%" in row and "30/36 trials" in row and "pass@3 100.0%" in row


def test_json_carries_the_decision() -> None:
    decision = decide(BASE40, DROP40)
    data = json.loads(render_json(DROP40, BASE40, decision))
    assert data["decision"]["exit_code"] == 1
    route = next(m for m in data["decision"]["metrics"] if m["name"] == "route")
    assert route["regressed_ids"] == [f"c{i}" for i in range(12)]


# -- templates --------------------------------------------------------------------------------------


def test_a_project_template_replaces_the_builtin_one(tmp_path: Path) -> None:
    (tmp_path / "comment.md.j2").write_text(
        "custom {{ view.verdict }} {{ view.suite }} {{ view.metrics | length }}\n", encoding="utf-8"
    )
    decision = decide(BASE40, DROP40)
    text = render_comment(DROP40, BASE40, decision, renderer=Renderer(tmp_path))
    assert text == "custom regression s 1\n"
    # the other templates still come from the package
    assert render_summary(DROP40, BASE40, decision, renderer=Renderer(tmp_path)).startswith("## ")


def test_a_broken_template_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "comment.md.j2").write_text("ok\n{% if %}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        render_comment(BASE40, renderer=Renderer(tmp_path))
    assert err.value.exit_code == 4
    assert "comment.md.j2" in str(err.value) and ":2" in str(err.value)


def test_templates_run_in_a_sandbox(tmp_path: Path) -> None:
    (tmp_path / "comment.md.j2").write_text(
        "{{ view.__class__.__init__.__globals__ }}\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="template error"):
        render_comment(BASE40, renderer=Renderer(tmp_path))


def test_a_missing_template_folder_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="template directory not found"):
        Renderer(tmp_path / "nope")
