"""The row every benchmark module returns to ``benchmarks/run``, and the console script they time."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
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


def console_script() -> str:
    """The installed ``fairwitness`` script of this interpreter's environment (else on PATH)."""
    beside = Path(sys.executable).parent / "fairwitness"
    if beside.is_file():
        return str(beside)
    found = shutil.which("fairwitness")
    if found is None:
        raise RuntimeError(
            "no 'fairwitness' console script; install the package (pip install -e .)"
        )
    return found
