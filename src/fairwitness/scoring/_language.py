"""Which language an answer is in: one of the seven the labeller reads, or ``other``.

Devanagari text is Hindi unless it holds Marathi forms; other scripts, and letters only other
languages use, are ``other``; Latin text is scored by the stopwords of each language it holds (a
word several languages share counts for each in part, a single letter only for a covered
language), and a tie between covered languages goes to English, then to a fixed order."""

from __future__ import annotations

import re

from fairwitness.scoring import patterns as P


def _script_share(text: str) -> tuple[float, float, float]:
    """Shares of letters that are Latin, Devanagari, and any other script."""
    latin = devanagari = other = 0
    for ch in text:
        if not ch.isalpha():
            continue
        if "\u0900" <= ch <= "\u097f":
            devanagari += 1
        elif ch.isascii() or "\u00c0" <= ch <= "\u024f":
            latin += 1
        else:
            other += 1
    total = latin + devanagari + other or 1
    return latin / total, devanagari / total, other / total


_WORD = re.compile(r"[a-zà-ɏ']+")
_OWNERS: dict[str, tuple[str, ...]] = {}
for _lang, _stop in P.STOPWORDS.items():
    for _word in _stop:
        # "u", the "v" of "18V": a single letter says little of a language, so it counts only for
        # a covered one
        if len(_word) > 1 or _lang in P.COVERED_LANGUAGES:
            _OWNERS[_word] = (*_OWNERS.get(_word, ()), _lang)
# Marathi shares the Devanagari script with Hindi; these forms are Marathi, not Hindi.
_MARATHI = re.compile(r"(?:^|\s)(?:आहे|नाही|आहेत|नाहीत|मिळाल|आम्ही|तुम्ही|कृपया पुन्हा)")
_COVERED_IN_ORDER = tuple(sorted(P.COVERED_LANGUAGES))


def detect_language(normalised: str) -> str:
    """One of en, es, fr, de, pt, hinglish, hi (covered), or ``other``."""
    latin, devanagari, other = _script_share(normalised)
    # vowel signs are not letters, so code-mixed Hindi ("CI pipeline में कोई failed job नहीं") shows
    # less Devanagari than it holds
    if devanagari >= 0.15:
        return "hi" if not _MARATHI.search(normalised) else "other"
    if other > 0.3 or any(ch in P.FOREIGN_LETTERS for ch in normalised):
        return "other"
    words = _WORD.findall(normalised)
    if not words:
        return "en" if latin else "other"
    scores = dict.fromkeys(P.STOPWORDS, 0.0)
    for word in words:
        owners = _OWNERS.get(word)
        if owners:  # a word several languages use says less about which one this is
            for lang in owners:
                scores[lang] += 1 / len(owners)
    best = max(scores, key=lambda lang: (scores[lang], lang in P.COVERED_LANGUAGES))
    if scores[best] == 0:
        return "en"
    covered_best = max(scores[lang] for lang in P.COVERED_LANGUAGES)
    if best not in P.COVERED_LANGUAGES and scores[best] > covered_best:
        return "other"
    # a tie goes to English, then to the first in a fixed order (a set's order changes per run)
    return max(_COVERED_IN_ORDER, key=lambda lang: (scores[lang], lang == "en"))
