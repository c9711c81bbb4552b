"""Make text that came from an agent or a dataset safe to show.

:func:`md` turns any string into inline markdown that renders as exactly that text on GitHub:

- one line: line breaks, tabs and other whitespace become single spaces, so a value can never
  start a heading, a list, a quote, a code fence or a table row of its own;
- control characters and bidirectional overrides are dropped (they can make text display as
  something other than what it is);
- long values are cut to ``limit`` characters with an ellipsis, before escaping, so an escape is
  never cut in half;
- characters with a markdown meaning are backslash-escaped: anywhere in the line the ones for
  emphasis, code spans, links and images, tables, strikethrough, math and escapes; at its start
  the ones for headings, lists and underlines; ``&``, ``<`` and ``>`` become entities (no raw
  HTML, no comments that hide the rest of the page);
- what GitHub links on its own is broken with a zero-width space: ``@name`` (a mention that would
  notify someone), ``#123`` (an issue reference), ``www.`` and ``scheme://`` (bare links), and e-mail addresses.

:func:`plain` is the terminal's version: one line, no control characters, cut to ``limit``.
:func:`xml_text` keeps only characters XML 1.0 allows.
"""

from __future__ import annotations

import functools
import re
from typing import Final

ZWSP: Final = "\u200b"
ELLIPSIS: Final = "\u2026"

_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_DROP = re.compile(f"[\x00-\x08\x0b\x0e-\x1f\x7f-\x84\x86-\x9f{_BIDI}\ufeff]")
_SPACE = re.compile(r"[\s\x85\u2028\u2029]+")
_PUNCT = frozenset("\\`*_[]|~$")
"""Characters with a markdown meaning anywhere in a line (links and images need ``[``)."""
_LEAD_PUNCT = frozenset("#+-=.)")
"""Characters with a meaning only where a line starts (headings, lists, setext underlines)."""
_LEAD = re.compile(r"(?:[#+\-=]+|\d{1,9}[.)])(?=\s|$)")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_SPECIAL = re.compile(r"[\\`*_\[\]|~$&<>@#:wW]")
"""Every character :func:`md` may change or follow with something outside a line's start: text
without any (and without a special start) is already what it shows."""
_XML_BAD = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
"""Characters XML 1.0 forbids (compiled on first use: the character class takes a while)."""


def _one_line(text: str, limit: int | None) -> str:
    text = _SPACE.sub(" ", _DROP.sub("", text)).strip()
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)].rstrip() + ELLIPSIS
    return text


def plain(text: object, limit: int | None = 200) -> str:
    """One line for a terminal: no control characters, whitespace collapsed, cut to ``limit``."""
    return _one_line(str(text), limit)


def md(text: object, limit: int | None = 200) -> str:
    """Inline markdown that GitHub renders as exactly ``text`` (see the module's rules)."""
    source = _one_line(str(text), limit)
    lead = _LEAD.match(source)
    if lead is None and _SPECIAL.search(source) is None:
        return source
    out: list[str] = []
    lowered = source.lower()
    start = lead.end() if lead else 0
    for i, char in enumerate(source):
        if char in _ENTITIES:
            out.append(_ENTITIES[char])
            continue
        if char == "@":  # on both sides: no mention, no e-mail link
            out.append(ZWSP)
        if char in _PUNCT or (i < start and char in _LEAD_PUNCT):
            out.append("\\")
        out.append(char)
        if _breaks_link(source, lowered, i):
            out.append(ZWSP)
    return "".join(out)


def _breaks_link(source: str, lowered: str, i: int) -> bool:
    """Whether a zero-width space after ``source[i]`` keeps GitHub from linking what follows."""
    char = source[i]
    if char == "@":
        return True
    if char == "#":
        return source[i + 1 : i + 2].isdigit()
    if char == ":":
        return source.startswith("//", i + 1)
    if char in "wW":
        return (
            i >= 2 and lowered.startswith("www.", i - 2) and (i == 2 or not source[i - 3].isalnum())
        )
    return False


@functools.cache
def _xml_bad() -> re.Pattern[str]:
    return re.compile(_XML_BAD)


def xml_text(text: object, limit: int | None = None) -> str:
    """Text XML 1.0 can hold: characters it forbids are dropped; cut to ``limit``."""
    value = _xml_bad().sub("", str(text))
    if limit is not None and len(value) > limit:
        value = value[: max(limit - 1, 0)] + ELLIPSIS
    return value
