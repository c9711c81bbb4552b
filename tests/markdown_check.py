"""Parse rendered markdown with a real CommonMark/GFM parser and list what it would show."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

ZWSP = "\u200b"
ALLOWED_HTML = {
    "<details><summary>Reproducibility</summary>",
    "<details><summary>Gated metrics that did not move</summary>",
    "</details>",
}
ARTIFACTS = re.compile(
    r"https?://[A-Za-z0-9.:-]+/[A-Za-z0-9-]+/[A-Za-z0-9._-]+/actions/runs/[0-9]+#artifacts"
)
"""The one kind of link a rendering may hold: a workflow run's artifacts (see
``fairwitness.render.artifact_link``)."""
FORBIDDEN = {
    "link_open",
    "image",
    "html_inline",
    "code_inline",
    "fence",
    "code_block",
    "em_open",
    "strong_open",
    "s_open",
}
MENTION = re.compile(r"(?<![\w`])@[A-Za-z0-9]")
ISSUE_REF = re.compile(r"#[0-9]")
BARE_LINK = re.compile(r"(?i)(://|\bwww\.)")


def parser() -> MarkdownIt:
    md = MarkdownIt("gfm-like")
    md.linkify.set({"fuzzy_link": False})  # GitHub links scheme:// and www. only, not bare names
    return md


def _walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)


@dataclass
class Parsed:
    tokens: list[Token]
    problems: list[str] = field(default_factory=list)
    tables: list[list[int]] = field(default_factory=list)
    """Per table, the cell count of each row."""
    text: str = ""


def check(markdown: str, *, allow_strong: bool = True, links: str | None = None) -> Parsed:
    """Parse ``markdown``; record forbidden constructs, each table's row widths and the text.
    ``links`` is the one URL a link may point to (an artifacts page, see :data:`ARTIFACTS`);
    without it no link is allowed."""
    tokens = parser().parse(markdown)
    parsed = Parsed(tokens)
    texts: list[str] = []
    row: int | None = None
    for token in _walk(tokens):
        kind = token.type
        if kind == "link_open" and links is not None and ARTIFACTS.fullmatch(links):
            if token.attrGet("href") != links:
                parsed.problems.append(f"link to {token.attrGet('href')!r}")
        elif kind == "html_block" and token.content.strip() not in ALLOWED_HTML:
            parsed.problems.append(f"html block: {token.content!r}")
        elif kind in FORBIDDEN and not (allow_strong and kind == "strong_open"):
            parsed.problems.append(f"{kind}: {token.content or token.markup!r}")
        elif kind == "table_open":
            parsed.tables.append([])
        elif kind == "tr_open":
            row = 0
        elif kind in ("th_open", "td_open") and row is not None:
            row += 1
        elif kind == "tr_close" and row is not None:
            parsed.tables[-1].append(row)
            row = None
        elif kind == "text":
            texts.append(token.content)
    parsed.text = "\n".join(texts)
    shown = parsed.text.replace(ZWSP, "")
    for pattern, what in ((MENTION, "mention"), (ISSUE_REF, "issue reference")):
        for match in pattern.finditer(parsed.text):
            parsed.problems.append(
                f"{what}: {shown[max(match.start() - 10, 0) : match.end() + 10]!r}"
            )
    if BARE_LINK.search(parsed.text):
        parsed.problems.append("bare link text")
    return parsed
