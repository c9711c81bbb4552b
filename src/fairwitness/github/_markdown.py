"""Cutting markdown short without leaving a code block open."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^ {0,3}(```|~~~)")
FENCE_CLOSE = "\n```"
"""What :func:`close_fence` may append; leave room for it when cutting to a limit."""


def close_fence(text: str) -> str:
    """``text`` with a code block it leaves open closed."""
    fences = sum(1 for line in text.splitlines() if _FENCE.match(line))
    return text + FENCE_CLOSE if fences % 2 else text
