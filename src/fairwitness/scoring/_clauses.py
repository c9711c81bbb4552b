"""Where an absence phrase sits in its clause: the frame before it, the rest after it, and
whether its predicate is what the lookup showed."""

from __future__ import annotations

import re

from fairwitness.scoring._compiled import rx

Span = tuple[int, int]

_LOCAL_WINDOW = 80  # characters before or after an absence phrase searched for a frame


def frame(sentence: str, start: int) -> str:
    """The part of the clause before ``start`` that a negating frame could reach from."""
    before = sentence[max(0, start - _LOCAL_WINDOW) : start]
    breaks = list(rx().clause_break.finditer(before))
    return before[breaks[-1].end() :] if breaks else before


def rest(sentence: str, end: int) -> str:
    """The part of the clause after ``end`` that a denying frame could reach back from."""
    after = sentence[end : end + _LOCAL_WINDOW]
    stop = rx().clause_break.search(after)
    return after[: stop.start()] if stop else after


_NEAR_WORD = re.compile(r"[^\s.,;:!?()\"«»।\u2014\u2013-]+")
_EXISTENTIAL = re.compile(
    r"(?:there (?:is|are|were|was)|hay|había|il n'y a|es gibt|gibt es|não há|nao ha|não tem|"
    r"nao tem|tem|há)\b"
)


def shown(sentence: str, start: int, end: int, failing: list[Span], base: int) -> bool:
    """``no se pudo cargar ningún evento``, ``aucun horaire ne s'est affiché``, ``कोई लिस्टिंग
    नहीं दिखी``: the absence phrase's predicate is what the lookup showed (a display verb in the
    phrase, or one of the three words before it or after it in its clause), so it reports
    the lookup's output like "no results", when a failure mentioned elsewhere can explain it. An
    existential ("there are no buses showing") still claims."""
    phrase = sentence[start:end]
    if _EXISTENTIAL.match(phrase):
        return False
    patterns = rx()
    before = frame(sentence, start).rsplit(",", 1)[-1]
    after = rest(sentence, end).split(",", 1)[0]
    near = list(_NEAR_WORD.finditer(phrase))
    first, last = start, end
    for word in list(_NEAR_WORD.finditer(before))[-3:]:
        near.append(word)
        first = min(first, start - len(before) + word.start())
    for word in list(_NEAR_WORD.finditer(after))[:3]:
        near.append(word)
        last = max(last, end + word.end())
    shown = [word for word in near if patterns.display.fullmatch(word.group(0))]
    if not shown and not patterns.display_phrase.search(sentence, first, last):
        return False
    # a failure elsewhere explains it; the phrase itself ("kuch bhi load nahi") does not
    return any(
        (b <= base + start or a >= base + end) and not (a <= base + first and base + last <= b)
        for a, b in failing
    )
