"""The HTML report in a real browser: what it shows equals the report, and nothing runs."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from builders import PASS, build, edit, plan_of
from fairwitness.cli import main
from fairwitness.gate import decide
from fairwitness.report import Report
from fairwitness.trace.sink import read_traces
from view_scenarios import HOSTILE, case_id

pytestmark = pytest.mark.integration


def _page(pair: tuple[Path, Path, Path], tmp_path: Path) -> Path:
    base, cand, cases = pair
    out = tmp_path / "report.html"
    code = main(
        ["view", str(cand), "--baseline", str(base), "--cases", str(cases), "--out", str(out)]
    )
    assert code == 0
    return out


def _shown(page: Any) -> int:
    return int(page.get_attribute("#shown", "data-shown"))


def test_the_counts_shown_are_the_reports(watched: Any, plain_pair: Any, tmp_path: Path) -> None:
    page = watched.open(_page(plain_pair, tmp_path))
    base, cand = Report.load(plain_pair[0]), Report.load(plain_pair[1])
    decision = decide(
        base, cand, baseline_name=str(plain_pair[0]), candidate_name=str(plain_pair[1])
    )
    for side, report in (("base", base), ("cand", cand)):
        for name, value in report.counts.model_dump().items():
            cell = page.query_selector(f'[data-count="{side}.{name}"]')
            if cell is not None:
                assert cell.text_content() == str(value), (side, name)
    assert page.text_content("#verdict") == f"{decision.verdict} (exit {decision.exit_code})"
    reasons = [li.text_content() for li in page.query_selector_all("#reasons li")]
    assert reasons == list(decision.reasons)
    assert [
        r.get_attribute("data-metric") for r in page.query_selector_all("#metrics tbody tr")
    ] == list(cand.metrics)
    assert _shown(page) == len(cand.cases)
    regressed = {i for m in decision.metrics for i in m.regressed_ids}
    assert regressed  # the candidate breaks every seventh case's route
    page.click('[data-outcome="regressed"]')
    assert _shown(page) == len(regressed)
    page.select_option('[data-filter="metric"]', label="route")
    route = next(m for m in decision.metrics if m.name == "route")
    assert _shown(page) == len(route.regressed_ids)
    page.click('[data-outcome="must-pass"]')
    assert _shown(page) == sum(c.must_pass for c in cand.cases.values())
    page.click('[data-outcome="all"]')
    page.select_option('[data-filter="metric"]', label="every metric")
    page.select_option('[data-filter="tag"]', label="salary")
    assert _shown(page) == sum("salary" in c.tags for c in cand.cases.values())
    page.fill('[data-filter="q"]', "question 1")
    expected = [
        i
        for i, c in cand.cases.items()
        if "salary" in c.tags and f"question {int(i[5:])}".startswith("question 1")
    ]
    assert _shown(page) == len(expected) > 0  # "question 1" is in the inputs of 1, 10-19
    # the list is virtualised: far fewer rows in the page than cases
    page.fill('[data-filter="q"]', "")
    page.select_option('[data-filter="tag"]', label="every tag")
    rows = page.query_selector_all(".list .row:not([hidden])")
    assert 0 < len(rows) < len(cand.cases)


def test_a_flipped_case_opens_to_its_trace(watched: Any, plain_pair: Any, tmp_path: Path) -> None:
    page = watched.open(_page(plain_pair, tmp_path))
    cand = Report.load(plain_pair[1])
    traces = dict(read_traces(plain_pair[1].parent / "viewer.traces.jsonl"))
    page.click('[data-outcome="regressed"]')
    first = page.query_selector(".list .row:not([hidden])")
    wanted = first.get_attribute("data-case")
    first.click()
    page.wait_for_selector(f'#case-view[data-case="{wanted}"]')
    assert page.evaluate("location.hash") == "#case=" + quote(wanted, safe="")
    flipped = page.query_selector('#case-view tr[data-metric="route"]')
    assert flipped.query_selector_all("td")[3].text_content() == "regressed"
    boxes = page.query_selector_all("#case-view .trial.cand")
    outcomes = cand.cases[wanted].repeats
    assert len(boxes) == len(outcomes)
    for box, outcome in zip(boxes, outcomes, strict=True):
        trace = traces[outcome.trace_line]
        assert box.query_selector(".answer").text_content() == trace.answer
        calls = [
            li.query_selector(".tool").text_content() for li in box.query_selector_all(".calls li")
        ]
        assert calls == [c.name for c in trace.tool_calls]
        assert f"verdict {trace.verdict}" in box.query_selector(".facts").text_content()
    faulted = next(i for i, c in cand.cases.items() if c.faults)
    page.evaluate(f"location.hash = {json.dumps('case=' + faulted)}")
    page.wait_for_selector(f'#case-view[data-case="{faulted}"]')
    text = page.text_content("#case-view .trial.cand")
    assert "Err rate_limit" in text and "fault injected" in text and "1 fired" in text


def test_deep_links_open_a_case(watched: Any, plain_pair: Any, tmp_path: Path) -> None:
    html = _page(plain_pair, tmp_path)
    page = watched.open(html, "#case=case-00017")
    assert page.get_attribute("#case-view", "data-case") == "case-00017"
    assert page.text_content("#case-view .input") == "question 17 #17"
    assert "route" in page.text_content("#case-view .expect")
    assert page.query_selector('.list .row.open[data-case="case-00017"]') is not None
    page.evaluate("location.hash = 'case=nope'")
    page.wait_for_function("!document.querySelector('#case-view').hasAttribute('data-case')")
    assert "no case with the id" in page.text_content("#case-view")


def test_hostile_strings_stay_text(watched: Any, hostile_pair: Any, tmp_path: Path) -> None:
    html = _page(hostile_pair, tmp_path)
    source = html.read_text(encoding="utf-8")
    for text in HOSTILE:
        assert text not in source
    page = watched.open(html)
    for i in range(1, 12, 2):
        wanted = case_id(i, True)
        page.evaluate(f"location.hash = {json.dumps('case=' + quote(wanted, safe=''))}")
        page.wait_for_selector("#case-view[data-case]")
        assert page.get_attribute("#case-view", "data-case") == wanted
        view = page.text_content("#case-view")
        assert HOSTILE[i % len(HOSTILE)] in view  # shown, as text
        answers = [a.text_content() for a in page.query_selector_all("#case-view .answer")]
        assert all(HOSTILE[i % len(HOSTILE)] in a for a in answers)  # each answer echoes it
    page.fill('[data-filter="q"]', "<script>")
    assert _shown(page) > 0
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("document.querySelectorAll('script').length") == 2
    assert page.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0
    assert page.evaluate("document.querySelectorAll('[onerror], [onload]').length") == 0
    assert page.evaluate(
        "[...document.querySelectorAll('svg')].every(s => s.closest('#metrics, #trend'))"
    )


def test_a_report_alone_shows_without_a_baseline(
    watched: Any, plain_pair: Any, tmp_path: Path
) -> None:
    out = tmp_path / "alone.html"
    assert main(["view", str(plain_pair[1]), "--out", str(out)]) == 0
    page = watched.open(out, "#case=case-00003")
    assert "nothing was compared" in page.text_content("#decision")
    assert page.is_disabled('[data-outcome="regressed"]')
    assert page.text_content("#case-view .input") == "question 3 #3"  # from the trace
    assert "no baseline repeat" in page.text_content("#case-view")


def _history(report: Path, folder: Path, shifts: tuple[int, ...]) -> list[Report]:
    """Copies of ``report`` as earlier default-branch runs, ``shifts`` hours before it, each with
    one more case's route broken, saved under ``folder``."""
    made = []
    for n, hours in enumerate(shifts):
        data = json.loads(Report.load(report).to_json())
        data["run"]["created_at"] = (
            datetime.fromisoformat(data["run"]["created_at"]) - timedelta(hours=hours)
        ).isoformat()
        data["run"]["git_sha"] = f"{n:07d}" + "f" * 33
        route = data["metrics"]["route"]
        route["value"] = round(route["value"] - 0.01 * n, 4)
        earlier = Report.model_validate(data)
        earlier.save(folder / f"run-{n}" / report.name)
        made.append(earlier)
    return made


def test_the_trend_charts_each_gated_metric_over_the_history(
    watched: Any, plain_pair: Any, tmp_path: Path
) -> None:
    base, cand, _ = plain_pair
    folder = tmp_path / "history"
    earlier = _history(base, folder, (30, 10, 20))
    out = tmp_path / "trend.html"
    code = main(
        ["view", str(cand), "--baseline", str(base), "--history", str(folder), "--out", str(out)]
    )
    assert code == 0
    page = watched.open(out)
    candidate = Report.load(cand)
    decision = decide(Report.load(base), candidate)
    gated = [m.name for m in decision.metrics if m.gated]
    charts = page.query_selector_all("#trend svg.trend")
    assert [c.get_attribute("data-metric") for c in charts] == gated
    ordered = sorted(earlier, key=lambda r: r.run.created_at)
    for chart, name in zip(charts, gated, strict=True):
        points = chart.query_selector_all(".tp")
        assert len(points) == len(earlier) + 1
        shown = [float(p.get_attribute("data-value")) for p in points]
        assert shown == [r.metrics[name].value for r in ordered] + [candidate.metrics[name].value]
        labels = [p.query_selector(".val").text_content() for p in points]
        assert all(labels)
        assert "cand" in points[-1].get_attribute("class")
        assert points[-1].query_selector("rect") is not None  # the candidate is a square
        assert all(p.query_selector("rect") is None for p in points[:-1])
    assert "3 earlier run(s)" in page.text_content("#trend")


def test_hostile_suite_and_metric_names_in_the_trend_stay_text(
    watched: Any, tmp_path: Path
) -> None:
    name = HOSTILE[0]

    def rename(data: dict[str, Any]) -> None:
        data["suite"] = HOSTILE[3]
        data["metrics"] = {name if k == "route" else k: v for k, v in data["metrics"].items()}
        data["scoring"]["metrics"] = [
            name if k == "route" else k for k in data["scoring"]["metrics"]
        ]
        for case in data["cases"].values():
            case["scores"] = {name if k == "route" else k: v for k, v in case["scores"].items()}
            for repeat in case["repeats"]:
                scores = repeat["scores"]
                repeat["scores"] = {name if k == "route" else k: v for k, v in scores.items()}

    def made() -> Report:
        return edit(build(plan_of(12, lambda i: [PASS] * 2)), rename)

    folder = tmp_path / "history"
    cand = tmp_path / "cand.report.json"
    with ThreadPoolExecutor(1) as pool:  # the pipeline's event loop, away from Playwright's
        for path in (folder / "0.report.json", folder / "1.report.json", cand):
            pool.submit(made).result().save(path)
    out = tmp_path / "hostile-trend.html"
    assert main(["view", str(cand), "--history", str(folder), "--out", str(out)]) == 0
    source = out.read_text(encoding="utf-8")
    assert name not in source and HOSTILE[3] not in source
    page = watched.open(out)
    captions = [c.text_content() for c in page.query_selector_all("#trend figcaption")]
    assert name in captions  # shown, as text
    points = page.query_selector_all("#trend svg.trend .tp")
    assert len(points) >= 3
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("document.querySelectorAll('script').length") == 2
    assert page.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0


def test_the_deciding_phrase_is_marked_in_the_answer(
    watched: Any, hostile_pair: Any, tmp_path: Path
) -> None:
    page = watched.open(_page(hostile_pair, tmp_path))
    cand = Report.load(hostile_pair[1])
    marked = 0
    for case_key, case in cand.cases.items():
        phrases = [
            o.evidence["misreport_as_empty"].partition(": ")[2]
            for o in case.repeats
            if "misreport_as_empty" in o.evidence
        ]
        if not phrases:
            continue
        page.evaluate(f"location.hash = {json.dumps('case=' + quote(case_key, safe=''))}")
        page.wait_for_function(
            "id => document.querySelector('#case-view').getAttribute('data-case') === id",
            arg=case_key,
        )
        boxes = page.query_selector_all("#case-view .trial.cand")
        for box, outcome in zip(boxes, case.repeats, strict=True):
            answer = box.query_selector(".answer")
            marks = [m.text_content() for m in answer.query_selector_all("mark.said")]
            found = outcome.evidence.get("misreport_as_empty")
            if found is None:
                assert marks == []
                continue
            phrase = found.partition(": ")[2]
            assert marks == [phrase], (case_key, marks, phrase)
            # the answer reads the same with the mark: a hostile answer is still text
            assert answer.query_selector_all("script, img, svg") == []
            marked += 1
        if marked >= 6:
            break
    assert marked >= 6  # rate-limited searches the candidate calls "no results"
    assert page.evaluate("typeof window.__pwned") == "undefined"
