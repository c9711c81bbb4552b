"""The example's own check, listed under ``[[scorers]]`` in fairwitness.toml: a metric only this
domain knows, reported and gated like the built-in ones."""

from __future__ import annotations

import re
from typing import Any

import fairwitness

ROLES = ("backend engineer", "data scientist", "designer", "product manager", "nurse")
LISTED = re.compile(r"([A-Za-z][A-Za-z ]*?) \(J-\d{3}\)")


@fairwitness.scorer(name="lists_only_the_role", kind="capability", version="1")
def lists_only_the_role(case: Any, trace: Any) -> bool | None:
    """When the user asks for a role, every opening the answer lists is of that role."""
    asked = case.text.lower()
    role = next((r for r in ROLES if r in asked or r + "s" in asked), None)
    titles = LISTED.findall(trace.answer or "")
    if role is None or not titles:
        return None  # no role asked, or no openings listed: not applicable, never a pass
    return all(role in title.lower() for title in titles)
