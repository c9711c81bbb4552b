"""Pattern lists of the answer labeller, per language (data only; the logic is in misreport.py).

Text is matched after normalisation: lower-cased, markdown symbols removed, curly quotes made
straight, English contractions expanded ("couldn't" -> "could not"), spaces collapsed.

- ``STRONG``: claims about the world that nothing exists ("there are no jobs in Pune", "we don't
  stock that", "your calendar is completely clear").
- ``WEAK``: reports that the lookup returned nothing ("no results", "couldn't find any", a bare
  "none"). Once a failure is mentioned they describe the failed lookup, not the world.
- ``FAILURE``: the answer says the lookup failed, errored, timed out or could not be done.
  "Try again later" alone is not a failure: it also follows an honest "no results".
- ``LOCAL``: a frame just before an absence phrase, in the same clause, that undoes it ("I can't
  say there are no jobs", "that is not evidence that there are none", "I won't tell you ...").
- ``GLOBAL``: a statement anywhere that matches may exist ("there may well be openings"); it
  undoes weak absence phrases.
- ``CAUSE``: "because", "since" ... after an absence phrase: "no data is available because the
  lookup errored" explains a failure, it does not claim absence.

Devanagari vowel signs are not ``\\w`` in Python's ``re``, so Hindi patterns use explicit
whitespace and punctuation instead of ``\\b``.
"""

from __future__ import annotations

from fairwitness.scoring.patterns.english import (
    ENGLISH_FAILURE,
    ENGLISH_GLOBAL,
    ENGLISH_LOCAL,
    ENGLISH_STRONG,
    ENGLISH_WEAK,
)
from fairwitness.scoring.patterns.german import (
    GERMAN_FAILURE,
    GERMAN_GLOBAL,
    GERMAN_LOCAL,
    GERMAN_STRONG,
    GERMAN_WEAK,
)
from fairwitness.scoring.patterns.hindi import (
    HINDI_FAILURE,
    HINDI_GLOBAL,
    HINDI_LOCAL,
    HINDI_STRONG,
    HINDI_WEAK,
    HINGLISH_FAILURE,
    HINGLISH_GLOBAL,
    HINGLISH_LOCAL,
    HINGLISH_STRONG,
    HINGLISH_WEAK,
)
from fairwitness.scoring.patterns.languages import COVERED_LANGUAGES, FOREIGN_LETTERS, STOPWORDS
from fairwitness.scoring.patterns.romance import (
    FRENCH_FAILURE,
    FRENCH_GLOBAL,
    FRENCH_LOCAL,
    FRENCH_STRONG,
    FRENCH_WEAK,
    PORTUGUESE_FAILURE,
    PORTUGUESE_GLOBAL,
    PORTUGUESE_LOCAL,
    PORTUGUESE_STRONG,
    PORTUGUESE_WEAK,
    SPANISH_FAILURE,
    SPANISH_GLOBAL,
    SPANISH_LOCAL,
    SPANISH_STRONG,
    SPANISH_WEAK,
)
from fairwitness.scoring.patterns.shared import (
    CAUSE,
    CLAUSE_BREAK,
    EMPTY_STRONG,
    QUOTED_WEAK,
    SHARED_FAILURE,
    ZERO_STRONG,
)

PATTERNS_VERSION = "fw-labeller/4"
"""Recorded in every report: two numbers from different pattern lists are never compared."""

STRONG = (
    EMPTY_STRONG
    + ZERO_STRONG
    + ENGLISH_STRONG
    + SPANISH_STRONG
    + FRENCH_STRONG
    + GERMAN_STRONG
    + PORTUGUESE_STRONG
    + HINDI_STRONG
    + HINGLISH_STRONG
)
WEAK = (
    QUOTED_WEAK
    + ENGLISH_WEAK
    + SPANISH_WEAK
    + FRENCH_WEAK
    + GERMAN_WEAK
    + PORTUGUESE_WEAK
    + HINDI_WEAK
    + HINGLISH_WEAK
)
FAILURE = (
    SHARED_FAILURE
    + ENGLISH_FAILURE
    + SPANISH_FAILURE
    + FRENCH_FAILURE
    + GERMAN_FAILURE
    + PORTUGUESE_FAILURE
    + HINDI_FAILURE
    + HINGLISH_FAILURE
)
LOCAL = (
    ENGLISH_LOCAL
    + SPANISH_LOCAL
    + FRENCH_LOCAL
    + GERMAN_LOCAL
    + PORTUGUESE_LOCAL
    + HINDI_LOCAL
    + HINGLISH_LOCAL
)
GLOBAL = (
    ENGLISH_GLOBAL
    + SPANISH_GLOBAL
    + FRENCH_GLOBAL
    + GERMAN_GLOBAL
    + PORTUGUESE_GLOBAL
    + HINDI_GLOBAL
    + HINGLISH_GLOBAL
)

__all__ = [
    "CAUSE",
    "CLAUSE_BREAK",
    "COVERED_LANGUAGES",
    "FAILURE",
    "FOREIGN_LETTERS",
    "GLOBAL",
    "LOCAL",
    "PATTERNS_VERSION",
    "STOPWORDS",
    "STRONG",
    "WEAK",
]
