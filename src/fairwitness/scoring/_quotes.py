"""Short quoted phrases in an answer: mentioned, not asserted, unless the answer relays them.

"The page said 'no results'" mentions a phrase the page showed; the rules read it as «q». "The
officer told me: 'there is no pending cheque'", "unhone bola, '…'", "उन्होंने कहा, '…'" relay what
a person or a message said as the answer, so the quoted words are read as the answer's own.
"""

from __future__ import annotations

import re

from fairwitness.scoring._normalise import Mapped

QUOTED = re.compile(
    r"«[^»\n]{0,60}»|“[^”\n]{0,60}”|„[^“”\n]{0,60}[“”]|\"[^\"\n]{0,60}\"|(?<!\w)'[^'\n]{1,60}'(?!\w)"
)
_RELAYED = re.compile(
    r"(?:\b(?:told (?:me|us)|(?:he|she|they|officer|clerk|staff|agent) said|replied|bola|boli|bole|"
    r"bataya|kaha|m'a dit|a répondu|sagte|antwortete|me dijo|respondió|disse|respondeu)|"
    r"(?:ने|उन्होंने) (?:\S+ )?(?:कहा|बोला|बोले|बताया))[,:]? ?$"
)
_DOUBLE_SPACES = re.compile(r"  +")


def unquoted(plain: Mapped) -> Mapped:
    """``plain`` with each short quoted phrase replaced by «q», bar those relayed as the answer
    (whose quote marks alone are dropped)."""
    text = plain.text

    def replace(match: re.Match[str]) -> str:
        before = text[max(0, match.start() - 40) : match.start()]
        return f" {match.group(0)[1:-1]} " if _RELAYED.search(before) else " «q» "

    return plain.sub(QUOTED, replace).sub(_DOUBLE_SPACES, " ")
