"""The comment's shape: gated metrics that did not move folded away, what differed on each
flipped case, and the one kind of link it may hold, to the run's artifacts, only inside a run."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_render_escape import hostile_text

from builders import CLAIM, FAIL, PASS, build, edit, plan_of
from fairwitness.gate import decide
from fairwitness.render import artifact_link, render_comment, render_summary
from fairwitness.report import Report
from markdown_check import check

BASE = build(plan_of(40, lambda i: [PASS, PASS]), claims=True)
DROP = build(plan_of(40, lambda i: [FAIL, FAIL] if i < 12 else [PASS, PASS]), claims=True)
RUN = ("https://github.example", "octo-org/octo-repo", 9876543210)
URL = "https://github.example/octo-org/octo-repo/actions/runs/9876543210#artifacts"
LINK = artifact_link(*RUN, page="s.report.html")


def _paired(comment: str) -> tuple[str, str]:
    """The paired table shown, and the folded one."""
    paired = comment.split("#### Paired results", 1)[1]
    shown, _, rest = paired.partition("<details><summary>Gated metrics that did not move")
    folded = rest.split("</details>", 1)[0]
    return shown, folded


def test_metrics_that_did_not_move_are_folded_and_the_moved_ones_shown() -> None:
    decision = decide(BASE, DROP)
    shown, folded = _paired(render_comment(DROP, BASE, decision))
    assert "| route |" in shown and "| route |" not in folded
    assert "| forbidden\\_claims |" in folded and "| forbidden\\_claims |" not in shown
    # the summary keeps the full table
    summary = render_summary(DROP, BASE, decision)
    assert "did not move" not in summary and "| forbidden\\_claims |" in summary


def test_nothing_moved_says_so_and_folds_every_metric() -> None:
    comment = render_comment(BASE, BASE, decide(BASE, BASE))
    shown, folded = _paired(comment)
    assert "No gated metric moved and none decided the verdict" in shown
    assert "| route |" in folded
    assert check(comment).problems == []


def test_a_flipped_row_says_what_differed() -> None:
    comment = render_comment(DROP, BASE, decide(BASE, DROP))
    row = next(line for line in comment.splitlines() if line.startswith("| c0 | route |"))
    assert "good in 2/2 \u2192 0/2 repeats; verdict yes \u00d72 \u2192 no \u00d72" in row
    # a case whose route held says so
    cand = build(plan_of(40, lambda i: [CLAIM, CLAIM] if i < 12 else [PASS, PASS]), claims=True)
    comment = render_comment(cand, BASE, decide(BASE, cand))
    row = next(line for line in comment.splitlines() if line.startswith("| c0 |"))
    assert "forbidden\\_claims" in row and "verdict yes \u00d72 on both sides" in row


def test_without_a_run_there_is_no_link_and_the_same_text() -> None:
    decision = decide(BASE, DROP)
    bare = render_comment(DROP, BASE, decision)
    linked = render_comment(DROP, BASE, decision, artifact=LINK)
    assert "](" not in bare and "#artifacts" not in bare
    assert check(bare).problems == []
    row = next(line for line in linked.splitlines() if line.startswith("| c0 | route |"))
    assert row.endswith(f"| [s.report.html#case=c0]({URL}) |")
    bare_row = next(line for line in bare.splitlines() if line.startswith("| c0 | route |"))
    assert row.startswith(bare_row)
    assert f"[s.report.html in artifact fairwitness-report]({URL})" in linked
    for text in (linked, render_summary(DROP, BASE, decision, artifact=LINK)):
        parsed = check(text, links=URL)
        assert parsed.problems == []
        assert all(len(set(widths)) == 1 for widths in parsed.tables)


@pytest.mark.parametrize(
    ("server", "repository", "run_id"),
    [
        ("https://github.example", "octo-org/octo-repo) [x](https://evil.example", 1),
        ("https://github.example", "octo-org/octo repo", 1),
        ("https://github.example", "octo-org/..", 1),
        ("https://github.example", "octo/repo#x", 1),
        ("https://github.example", "octo-org/octo-repo", "1)[x](https://evil.example"),
        ("https://github.example", "octo-org/octo-repo", "0"),
        ("https://github.example", "octo-org/octo-repo", -3),
        ("https://github.example/a b", "octo-org/octo-repo", 1),
        ("javascript:alert(1)//", "octo-org/octo-repo", 1),
        ("https://github.example)", "octo-org/octo-repo", 1),
        (None, "octo-org/octo-repo", 1),
        ("https://github.example", None, 1),
        ("https://github.example", "octo-org/octo-repo", None),
    ],
)
def test_a_malformed_part_gives_no_link(server: Any, repository: Any, run_id: Any) -> None:
    assert artifact_link(server, repository, run_id) is None


def test_a_malformed_artifact_or_page_name_gives_no_link() -> None:
    assert artifact_link(*RUN, name="x](https://evil.example)") is None
    assert artifact_link(*RUN, page="a b.html") is None
    found = artifact_link("https://github.example/", "octo-org/octo-repo", "12")
    assert found is not None
    assert found.url == "https://github.example/octo-org/octo-repo/actions/runs/12#artifacts"


def _hostile_case(report: Report, case_id: str, verdict: str) -> Report:
    def change(data: dict[str, Any]) -> None:
        cases = data["cases"]
        cases[case_id] = cases.pop("c0")
        for outcome in cases[case_id]["repeats"]:
            outcome["verdict"] = verdict
            outcome["evidence"] = {"route": f"absence_claim: {verdict}"}

    return edit(report, change)


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_text, hostile_text)
def test_hostile_ids_and_verdicts_keep_the_links_the_only_links(case_id: str, text: str) -> None:
    case_id = case_id.strip() or "x"
    base = _hostile_case(BASE, case_id, "yes")
    cand = _hostile_case(DROP, case_id, text)
    decision = decide(base, cand)
    for rendered in (
        render_comment(cand, base, decision, artifact=LINK),
        render_summary(cand, base, decision, artifact=LINK),
    ):
        parsed = check(rendered, links=URL)
        assert parsed.problems == []
        for widths in parsed.tables:
            assert len(set(widths)) == 1, widths
