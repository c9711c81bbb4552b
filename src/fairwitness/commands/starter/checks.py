"""Your own checks: one function of the case and the trace each, listed under ``[[scorers]]`` in
fairwitness.toml. Each becomes a metric like the built-in ones (report, gate, comment)."""

from __future__ import annotations

import re
from typing import Any

import fairwitness


@fairwitness.scorer(name="names_the_order", kind="capability", version="1")
def names_the_order(case: Any, trace: Any) -> bool | None:
    """When the user names an order, the answer names it back, so they know which one it was."""
    named = re.findall(r"\bA-\d+\b", case.text, flags=re.IGNORECASE)
    if not named:
        return None  # not applicable: never counted as a pass
    answer = (trace.answer or "").upper()
    return all(order.upper() in answer for order in named)
