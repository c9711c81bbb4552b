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


OMITTED_WHEN_NULL = frozenset({"shard"})
"""Header fields added within version 1 that are left out when empty, so that every report written
before them still round-trips byte for byte."""


def render_report(
    header: dict[str, Any], cases: Iterable[tuple[str, dict[str, Any]]]
) -> Iterator[str]:
    """The canonical report text, in chunks: one header field per line, then one case per line.

    Both the streaming writer and :meth:`Report.to_json` go through here, so a report written
    during a run and the same report loaded and saved again are byte-identical.
    """
    yield "{\n"
    for key, value in header.items():
        if key in OMITTED_WHEN_NULL and value is None:
            continue
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


class NotCanonical(Exception):
    """The file is not laid out the way fairwitness writes reports (one case per line)."""


class Truncated(NotCanonical):
    """The file ends before its closing braces: it was cut short."""


def read_canonical(path: Path) -> tuple[dict[str, Any], list[tuple[str, int, int]]]:
    """The header of a report written by :func:`render_report`, and where each case's line is.

    Returns ``(header, index)`` with ``index`` holding ``(case_id, offset, length)`` of each case
    line in file order; :func:`read_case` reads one back. Reading this way keeps only offsets in
    memory, however large the report. Raises :class:`NotCanonical` for any other layout (a
    hand-edited file): read it with ``Report.load`` instead.
    """
    import json

    header: dict[str, Any] = {}
    index: list[tuple[str, int, int]] = []
    with open(path, "rb") as handle:
        if handle.readline() != b"{\n":
            raise NotCanonical(str(path))
        offset = 2
        in_cases = False
        closed = False
        for raw in handle:
            length = len(raw)
            if not in_cases:
                if raw.startswith(b' "cases": {'):
                    in_cases = True
                    rest = raw[len(b' "cases": {') :].strip()
                    if rest not in (b"", b"}"):
                        raise NotCanonical(str(path))
                    closed = rest == b"}"
                elif raw.startswith(b' "') and raw.endswith(b",\n"):
                    try:
                        item = json.loads(b"{" + raw[:-2] + b"}")
                    except ValueError:
                        raise NotCanonical(str(path)) from None
                    header.update(item)
                else:
                    raise NotCanonical(str(path))
            elif raw.startswith(b'  "'):
                body = raw.rstrip(b"\n")
                body = body[:-1] if body.endswith(b",") else body
                try:
                    case_id, _ = json.JSONDecoder().raw_decode(body[2:].decode("utf-8"))
                except (ValueError, UnicodeDecodeError):
                    raise NotCanonical(str(path)) from None
                if not isinstance(case_id, str):
                    raise NotCanonical(str(path))
                index.append((case_id, offset + 2, len(body) - 2))
            elif raw.strip() == b"}":
                closed = True
            elif raw.strip():
                raise NotCanonical(str(path))
            if in_cases and raw.startswith(b'  "') and not raw.endswith(b"\n"):
                raise Truncated(str(path))
            offset += length
    if not in_cases or not closed:
        raise Truncated(str(path))
    return header, index


def read_case(handle: Any, offset: int, length: int) -> tuple[str, dict[str, Any]]:
    """One case line found by :func:`read_canonical`: its id and record."""
    import json

    handle.seek(offset)
    item = json.loads(b"{" + handle.read(length) + b"}")
    ((case_id, record),) = item.items()
    return case_id, record
