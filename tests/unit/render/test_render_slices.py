""" "Where it got worse, by tag" in the comment, the job summary and the terminal: tags are
dataset text, so hostile ones (links, images, HTML, mentions, control characters, table breaks,
very long) render inert, on one line, cut short."""

from __future__ import annotations

import pytest

from builders import FAIL, PASS, build
from fairwitness.gate import decide
from fairwitness.render import render_comment, render_summary, render_terminal
from markdown_check import check

HOSTILE = [
    "x" * 5000,
    "red\x1b[31m\u202eline\nbreak | col |",
    '<img src=x onerror="alert(1)"> [click](https://evil.example/x) '
    "![pixel](http://evil.example/p.png) @everyone #12 <!-- hide",
    "[click](https://evil.example/y)",
    "quiet",
]
FAILS = (12, 9, 6, 3, 0)
"""Of the 12 cases of each tag, how many fail in the candidate: the first three drop most."""


@pytest.fixture(scope="module")
def reports() -> tuple[object, object, object]:
    tags = {f"c{i}": [HOSTILE[i % len(HOSTILE)]] for i in range(60)}
    base = build({f"c{i}": [PASS] for i in range(60)}, tags=tags)
    cand = build({f"c{i}": [FAIL if i // 5 < FAILS[i % 5] else PASS] for i in range(60)}, tags=tags)
    return base, cand, decide(base, cand)


def test_the_comment_and_summary_show_the_slices_labelled_unadjusted_and_inert(reports) -> None:
    base, cand, decision = reports
    assert decision.slices
    for text in (render_comment(cand, base, decision), render_summary(cand, base, decision)):
        assert "Where it got worse, by tag" in text
        assert "not adjusted for multiple comparisons" in text
        assert "at least 10 paired cases" in text
        parsed = check(text)
        assert parsed.problems == []
        for widths in parsed.tables:
            assert len(set(widths)) == 1  # no tag broke out of its cell
        assert "<img" not in text and "\x1b" not in text and "\u202e" not in text
        assert "x" * 60 not in text and "x" * 59 + "\u2026" in text
        section = text.split("by tag")[1].split("\n#")[0]
        assert section.count("| route |") == 3  # the top three tags only


def test_the_terminal_lists_the_slices_on_one_line_each_without_control_codes(reports) -> None:
    base, cand, decision = reports
    text = render_terminal(cand, base, decision)
    assert "where it got worse, by tag (p not adjusted for multiple comparisons" in text
    lines = [line for line in text.splitlines() if line.startswith("route [")]
    assert len(lines) == 3
    assert all("paired cases; p " in line and "not adjusted" in line for line in lines)
    assert "\x1b" not in text and "\u202e" not in text and "x" * 60 not in text


def test_no_slices_section_without_tags_or_without_a_drop() -> None:
    base = build({f"c{i}": [PASS] for i in range(20)}, tags={f"c{i}": ["t"] for i in range(20)})
    text = render_comment(base, base, decide(base, base))
    assert "by tag" not in text
    plain = build({f"c{i}": [PASS] for i in range(20)})
    worse = build({f"c{i}": [FAIL] for i in range(20)})
    assert "by tag" not in render_comment(worse, plain, decide(plain, worse))
