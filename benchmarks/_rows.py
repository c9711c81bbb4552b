"""The row every benchmark module returns to ``benchmarks/run``."""

from __future__ import annotations

from typing import Any


def row(
    figure: str,
    value: float,
    unit: str,
    target: float | None,
    passed: bool | None,
    command: str,
    *,
    digits: int = 6,
) -> dict[str, Any]:
    """One figure: ``ratio`` is value / target (lower is better); ``passed`` None is informational."""
    return {
        "figure": figure,
        "value": round(value, digits),
        "unit": unit,
        "target": target,
        "ratio": None if not target else round(value / target, 4),
        "passed": passed,
        "command": command,
    }
