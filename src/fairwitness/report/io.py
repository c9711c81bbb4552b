"""Report text: one canonical rendering, written atomically."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pydantic_core

from fairwitness._atomic import write_atomic
from fairwitness.errors import OutputExistsError, Problem


def _dumps(value: Any) -> str:
    # One serializer for every report write, so a report loaded and saved again is byte-identical.
    return pydantic_core.to_json(value).decode("utf-8")


def render_report(
    header: dict[str, Any], cases: Iterable[tuple[str, dict[str, Any]]]
) -> Iterator[str]:
    """The canonical report text, in chunks: one header field per line, then one case per line.

    Both the streaming writer and :meth:`Report.to_json` go through here, so a report written
    during a run and the same report loaded and saved again are byte-identical.
    """
    yield "{\n"
    for key, value in header.items():
        if key != "cases":
            yield f" {_dumps(key)}: {_dumps(value)},\n"
    yield ' "cases": {'
    first = True
    for case_id, record in cases:
        yield ("\n  " if first else ",\n  ") + f"{_dumps(case_id)}: {_dumps(record)}"
        first = False
    yield "\n }\n}\n" if not first else "}\n}\n"


def write_report(path: Path, chunks: Iterable[str], *, force: bool = False) -> Path:
    """Write report text atomically; refuse to replace an existing file unless ``force``."""
    if path.exists() and not force:
        raise OutputExistsError(
            Problem("report already exists; pass --force to replace it", file=str(path))
        )
    return write_atomic(path, chunks)


def git_sha(directory: str | Path) -> str | None:
    """The commit of ``directory``'s working tree, or ``None`` outside git."""
    sha = os.environ.get("GITHUB_SHA")
    if sha:
        return sha
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=directory,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None
