"""The labeller's pattern lists (:mod:`fairwitness.scoring.patterns`), compiled once, on first use,
with accents folded as the answers are."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from fairwitness.scoring import patterns as P
from fairwitness.scoring._normalise import fold_pattern


def _compile(items: list[str]) -> re.Pattern[str]:
    return re.compile(fold_pattern("|".join(f"(?:{item})" for item in items)))


def _one(pattern: str) -> re.Pattern[str]:
    return re.compile(fold_pattern(pattern))


@dataclass(frozen=True)
class Patterns:
    strong: list[re.Pattern[str]]
    strong_in_english: list[re.Pattern[str]]
    """``strong`` and the patterns read only in English and Hinglish answers."""
    weak: list[re.Pattern[str]]
    failure: re.Pattern[str]
    local: re.Pattern[str]
    negated_say: re.Pattern[str]
    negated_after: re.Pattern[str]
    glob: re.Pattern[str]
    other: re.Pattern[str]
    cause: re.Pattern[str]
    adversative: re.Pattern[str]
    clause_break: re.Pattern[str]
    display: re.Pattern[str]
    display_phrase: re.Pattern[str]
    recovery: re.Pattern[str]
    dismissal: re.Pattern[str]
    results: re.Pattern[str]
    retried: re.Pattern[str]
    verdict: re.Pattern[str]


@lru_cache(maxsize=1)
def rx() -> Patterns:
    """The pattern lists, compiled on first use (reading reports never needs them)."""
    strong = [_one(p) for p in P.STRONG]
    return Patterns(
        strong=strong,
        strong_in_english=strong + [_one(p) for p in P.ENGLISH_ONLY_STRONG],
        weak=[_one(p) for p in P.WEAK],
        failure=_compile(P.FAILURE),
        local=_compile(P.LOCAL),
        negated_say=_compile(P.NEGATED_SAY),
        negated_after=_compile(P.NEGATED_AFTER),
        glob=_compile(P.GLOBAL),
        other=_compile(P.OTHER),
        cause=_one(P.CAUSE),
        adversative=_one(P.ADVERSATIVE),
        clause_break=_one(P.CLAUSE_BREAK),
        display=re.compile(fold_pattern(P.DISPLAY_VERBS)),
        display_phrase=re.compile(fold_pattern(P.DISPLAY_PHRASES)),
        recovery=_compile(list(P.RECOVERY)),
        dismissal=_one(P.DISMISSAL),
        results=_one(P.RESULT_WORDS),
        retried=_compile(list(P.RETRY_SUCCEEDED)),
        verdict=_compile(list(P.VERDICT)),
    )
