"""Strings from agents and datasets render on GitHub as exactly themselves: checked with a real
CommonMark/GFM parser on hostile strings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from fairwitness.render import md, plain, xml_text
from fairwitness.render._escape import ZWSP
from markdown_check import check

HOSTILE = [
    "@octocat",
    "@org/team",
    "cc @here",
    "#12",
    "fixes #3",
    "<!--",
    "-->",
    "<img src=x onerror=alert(1)>",
    "<script>",
    "</details>",
    "```",
    "~~~",
    "    code",
    "|",
    "||",
    "\\|",
    "\n",
    "\r\n",
    "\t",
    "[a](https://evil.example)",
    "![i](https://evil.example/x.png)",
    "[x]: https://evil.example",
    "[^1]",
    "**",
    "__",
    "*",
    "_",
    "`",
    "\\",
    "&amp;",
    "&#64;",
    "&lt;",
    "www.evil.example",
    "WWW.evil.example",
    "https://evil.example",
    "ftp://x",
    "mail@example.com",
    "\u202e",
    "\u2066",
    "\x00",
    "\x1b[31m",
    "\u2028",
    "# ",
    "- ",
    "+ ",
    "* ",
    "1. ",
    "2) ",
    "> ",
    "===",
    "---",
    "$x$",
    "$$",
    ":+1:",
    "~~gone~~",
    " ",
    "a",
    "é",
    "\U0001f600",
]
hostile_text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=8)), max_size=12).map(
    "".join
)


def _shown(text: str) -> str:
    return plain(text, None)


@given(hostile_text)
def test_a_paragraph_shows_exactly_the_text_and_nothing_else(text: str) -> None:
    parsed = check(md(text, None), allow_strong=False)
    assert parsed.problems == []
    assert parsed.text.replace(ZWSP, "") == _shown(text)
    assert [t.type for t in parsed.tokens if t.level == 0] in (
        [],
        ["paragraph_open", "paragraph_close"],
    )


@given(hostile_text, hostile_text)
def test_table_cells_stay_cells(left: str, right: str) -> None:
    table = f"| a | b |\n|---|---|\n| {md(left)} | {md(right)} |\n| {md(right)} | x |\n"
    parsed = check(table, allow_strong=False)
    assert parsed.problems == []
    assert parsed.tables == [[2, 2, 2]]


@given(hostile_text)
def test_a_list_item_stays_one_item(text: str) -> None:
    parsed = check(f"- {md(text)}\n- end\n", allow_strong=False)
    assert parsed.problems == []
    items = [t for t in parsed.tokens if t.type == "list_item_open"]
    assert len(items) == 2
    assert not [t for t in parsed.tokens if t.type in ("heading_open", "hr", "blockquote_open")]


def test_mentions_references_and_links_are_broken_but_read_the_same() -> None:
    escaped = md("ping @octocat about #12 at https://x.example or www.x.example")
    assert ZWSP + "@" + ZWSP + "octocat" in escaped
    assert "#" + ZWSP + "12" in escaped
    assert ":" + ZWSP + "//" in escaped
    assert "www" + ZWSP + "." in escaped
    assert (
        escaped.replace(ZWSP, "") == "ping @octocat about #12 at https://x.example or www.x.example"
    )


def test_long_values_are_cut_before_escaping() -> None:
    escaped = md("*" * 500, 20)
    assert escaped == "\\*" * 19 + "\u2026"
    assert plain("x" * 50, 10) == "x" * 9 + "\u2026"


def test_no_control_or_direction_characters_survive() -> None:
    assert plain("a\x00b\u202ec\x1b[0m\r\nd") == "abc[0m d"
    assert md("\u2066x\u2069") == "x"


@given(st.text())
def test_xml_text_is_always_parseable(text: str) -> None:
    element = ET.Element("t", message=xml_text(text))
    element.text = xml_text(text)
    ET.fromstring(ET.tostring(element, encoding="unicode"))
