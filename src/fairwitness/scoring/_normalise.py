"""The labeller's text normalisation, keeping every character's place in the original answer.

The patterns read a normalised answer (lower-cased, markdown removed, quotes straightened,
contractions expanded), but a label is explained by pointing at the answer the user saw: every
normalised character keeps the offset of the original character it came from, so a span found
in the normalised text maps back to a span of the original one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Mapped:
    """A normalised text and, per character, the offset in the original text it came from."""

    text: str
    offsets: tuple[int, ...]
    end: int
    """Length of the original text (where a span reaching the end of ``text`` ends)."""

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that ``text[start:end]`` came from."""
        if start >= len(self.offsets):
            return self.end, self.end
        first = self.offsets[start]
        last = self.offsets[end - 1] + 1 if end > start else first
        return first, max(first, last)

    def sub(self, pattern: re.Pattern[str], repl: str | Callable[[re.Match[str]], str]) -> Mapped:
        """``pattern.sub(repl, text)``, each inserted character mapped to its match's start
        (spread over the match, so a replaced phrase keeps its length in the original)."""
        pieces: list[str] = []
        offsets: list[int] = []
        position = 0
        for match in pattern.finditer(self.text):
            start, stop = match.span()
            pieces.append(self.text[position:start])
            offsets.extend(self.offsets[position:start])
            new = repl(match) if callable(repl) else match.expand(repl)
            pieces.append(new)
            source = self.offsets[start:stop] or (self._at(start),)
            offsets.extend(source[min(i, len(source) - 1)] for i in range(len(new)))
            position = stop
        if not pieces:
            return self
        pieces.append(self.text[position:])
        offsets.extend(self.offsets[position:])
        return Mapped("".join(pieces), tuple(offsets), self.end)

    def _at(self, index: int) -> int:
        return self.offsets[index] if index < len(self.offsets) else self.end


def _clusters(text: str) -> Sequence[tuple[int, str]]:
    """A base character with its combining marks, and where it starts."""
    out: list[tuple[int, str]] = []
    for i, ch in enumerate(text):
        if out and unicodedata.combining(ch):
            start, cluster = out[-1]
            out[-1] = (start, cluster + ch)
        else:
            out.append((i, ch))
    return out


def mapped(text: str) -> Mapped:
    """``text`` in NFC and lower case (``lower``, not ``casefold``: German "ß" stays), mapped."""
    chars: list[str] = []
    offsets: list[int] = []
    for start, cluster in _clusters(text):
        piece = unicodedata.normalize("NFC", cluster).lower()
        chars.append(piece)
        offsets.extend([start] * len(piece))
    return Mapped("".join(chars), tuple(offsets), len(text))


def _fold_table() -> dict[str, str]:
    table: dict[str, str] = {"ß": "ss", "\u093c": "", "\u0901": "\u0902"}
    for code in range(0xC0, 0x250):
        ch = chr(code)
        base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
        if base != ch and base.isascii() and base.isalpha():
            table[ch] = base
    for code in range(0x0958, 0x0960):  # Devanagari letters with a nukta: क़ ख़ ग़ ज़ ड़ ढ़ फ़ य़
        ch = chr(code)
        table[ch] = unicodedata.normalize("NFD", ch)[0]
    return table


_FOLD = _fold_table()
_FOLDABLE = re.compile("[" + "".join(sorted(_FOLD)) + "]")
_FOLD_TRANSLATION = str.maketrans(_FOLD)


def fold(value: Mapped) -> Mapped:
    """Accents, umlauts and the Devanagari nukta dropped, "ß" written "ss" and chandrabindu
    written anusvara, each character keeping its place: "disponivel" reads as "disponível",
    Swiss "weiss" as "weiß", "जरूरत" as "ज़रूरत", "कहूं" as "कहूँ"."""
    return value.sub(_FOLDABLE, lambda match: _FOLD[match.group(0)])


def fold_pattern(pattern: str) -> str:
    """A pattern written with accents, folded the way :func:`fold` folds the text it reads."""
    return pattern.translate(_FOLD_TRANSLATION)


def strip_mapped(value: Mapped) -> Mapped:
    """Leading and trailing whitespace removed."""
    text = value.text
    start = len(text) - len(text.lstrip())
    stop = len(text.rstrip())
    if start == 0 and stop == len(text):
        return value
    return Mapped(text[start:stop], value.offsets[start:stop], value.end)
