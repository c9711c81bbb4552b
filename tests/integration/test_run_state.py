"""Final-state checks end to end: a booking agent reports ``state``, cases give ``expect.state``,
and ``fairwitness run`` scores, records and refuses as documented."""

from __future__ import annotations

import json

import pytest

from fairwitness import Report
from fairwitness.cli import main
from fairwitness.trace.sink import read_traces

pytestmark = pytest.mark.integration

BOOKING_AGENT = """

def book(text: str) -> dict[str, object]:
    city, _, nights = text.partition(" for ")
    if city == "nowhere":
        return {"text": "Sorry, I could not book that."}
    if city == "broken":
        return {"text": "Booked.", "state": ["not", "an", "object"]}
    booking = {"city": city.title(), "nights": int(nights or 1), "total": 49.95 * int(nights or 1)}
    return {"text": f"Booked {city}.", "state": {"booking": booking, "rows_written": 1}}
"""


def _cases() -> list[dict[str, object]]:
    return [
        {"id": "pune", "input": "pune for 2", "expect": {"state": {"booking": {"city": "Pune"}}}},
        {
            "id": "goa",
            "input": "goa for 3",
            "expect": {"state": {"booking": {"city": "goa", "total": 149.8}}},
        },
        {"id": "none", "input": "nowhere", "expect": {"state": {"booking": {"city": "X"}}}},
        {"id": "plain", "input": "delhi for 1", "expect": {"route": "lookup"}},
    ]


def test_run_scores_the_reported_state_and_writes_it_to_the_traces(project, capsys) -> None:
    p = project(_cases(), extra_agent=BOOKING_AGENT, target="book")
    assert main(["run", str(p.config)]) == 0
    capsys.readouterr()
    report = Report.load(p.report)
    metric = report.metrics["state"]
    # pune matches; goa differs in case and by 0.05; the agent reported no state for "none"
    assert (metric.k, metric.n) == (1, 3)
    assert metric.excluded == {"not_applicable": 1}
    assert report.cases["pune"].scores["state"] == 1.0
    assert report.cases["goa"].scores["state"] == 0.0
    assert report.cases["none"].scores["state"] == 0.0
    assert "state" not in report.cases["plain"].scores
    traces = {t.case_id: t for _, t in read_traces(p.traces)}
    assert traces["pune"].state == {
        "booking": {"city": "Pune", "nights": 2, "total": 99.9},
        "rows_written": 1,
    }
    assert traces["none"].state is None
    lines = [json.loads(line) for line in p.traces.read_text(encoding="utf-8").splitlines()]
    assert all(("state" in line) == (line["case_id"] != "none") for line in lines)


def test_the_args_options_of_scoring_apply_to_the_state(project, capsys) -> None:
    p = project(
        _cases(),
        extra_agent=BOOKING_AGENT,
        target="book",
        config_extra="[scoring]\nargs_case_insensitive = true\nargs_numeric_tolerance = 0.1\n",
    )
    assert main(["run", str(p.config)]) == 0
    capsys.readouterr()
    report = Report.load(p.report)
    assert report.cases["goa"].scores["state"] == 1.0
    assert (report.metrics["state"].k, report.metrics["state"].n) == (2, 3)


def test_exact_mode_needs_the_whole_state(project, capsys) -> None:
    cases = [
        {"id": "pune", "input": "pune for 2", "expect": {"state": {"booking": {"city": "Pune"}}}},
        {
            "id": "whole",
            "input": "pune for 2",
            "expect": {
                "state": {
                    "booking": {"city": "Pune", "nights": 2, "total": 99.9},
                    "rows_written": 1,
                }
            },
        },
    ]
    p = project(
        cases,
        extra_agent=BOOKING_AGENT,
        target="book",
        config_extra='[scoring]\nargs_mode = "exact"',
    )
    assert main(["run", str(p.config)]) == 0
    capsys.readouterr()
    scores = {cid: case.scores["state"] for cid, case in Report.load(p.report).cases.items()}
    assert scores == {"pune": 0.0, "whole": 1.0}


def test_a_state_that_is_not_an_object_fails_the_trial_with_one_line(project, capsys) -> None:
    cases = [
        {"id": "broken", "input": "broken", "expect": {"state": {"booking": {}}}},
        {"id": "pune", "input": "pune for 2", "expect": {"state": {"booking": {"city": "Pune"}}}},
    ]
    p = project(cases, extra_agent=BOOKING_AGENT, target="book")
    assert main(["run", str(p.config)]) == 0
    capsys.readouterr()
    traces = [t for _, t in read_traces(p.traces) if t.case_id == "broken"]
    assert [t.status for t in traces] == ["crashed", "crashed"]
    assert traces[0].error is not None
    assert traces[0].error.type == "InvalidReturn"
    assert traces[0].error.message == (
        "the target's 'state' must be a JSON object (a dict), got list"
    )
    report = Report.load(p.report)
    assert report.cases["broken"].scores["state"] == 0.0
    assert report.cases["pune"].scores["state"] == 1.0


def test_expect_state_that_is_not_an_object_is_refused_before_running(project, capsys) -> None:
    cases = [*_cases(), {"id": "bad", "input": "x", "expect": {"state": 3}}]
    p = project(cases, extra_agent=BOOKING_AGENT, target="book")
    assert main(["run", str(p.config)]) == 4
    _, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert lines[0].endswith(
        "cases.jsonl:5: field 'expect.state': Value error, must be a JSON object (what the "
        "target's reported state should contain), got a number"
    )
    assert not p.report.exists()
