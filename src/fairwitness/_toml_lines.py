"""Where a key is in TOML text, so a problem with its value can name its line."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from fairwitness.errors import Problem


def line_of(text: str, key: str, section: str | None) -> int | None:
    """The 1-based line of ``key = ...`` in table ``section`` (a header ending with it; any
    table when ``None``), else of a table or key of that name anywhere; ``None`` if absent."""
    lines = text.splitlines()
    in_section = section is None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            header = re.sub(r"[\"']", "", stripped.strip("[]").strip())
            in_section = section is None or header.endswith(section)
            continue
        if in_section and re.match(rf"^\s*['\"]?{re.escape(key)}['\"]?\s*=", line):
            return number
    for number, line in enumerate(lines, start=1):
        if re.match(rf"^\s*\[+\s*[\w.]*{re.escape(key)}\s*\]+", line) or re.match(
            rf"^\s*['\"]?{re.escape(key)}['\"]?\s*=", line
        ):
            return number
    return None


def table_line(text: str, table: str, index: int, key: str) -> int | None:
    """The line of ``key`` in the ``index``-th (0-based) ``[[table]]`` of an array of tables
    (``table`` may end a longer name, as in ``[[tool.fairwitness.scorers]]``): the key's line,
    else the table's header, else :func:`line_of` of ``table`` (an inline array)."""
    header = re.compile(rf"^\s*\[\[\s*(?:[\w.]+\.)?{re.escape(table)}\s*\]\]")
    key_line = re.compile(rf"^\s*['\"]?{re.escape(key)}['\"]?\s*=")
    seen = -1
    found: int | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if header.match(line):
            seen += 1
            if seen == index:
                found = number
            elif seen > index:
                break
            continue
        if stripped.startswith("[") and seen >= index:
            break
        if seen == index and key_line.match(line):
            return number
    return found if found is not None else line_of(text, table, None)


def located(
    error: Any, text: str, file: str, prefix: str, models: Mapping[str, type[BaseModel]]
) -> Problem:
    """One pydantic error of a config read from ``text`` as a :class:`Problem` at its key's
    line; an unknown key gets a "did you mean" from the keys of its section's model in
    ``models`` (by dotted section name, ``""`` for the top level)."""
    loc = list(error["loc"])
    dotted = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in loc).replace(
        ".[", "["
    )
    key = str(loc[-1]) if loc else ""
    section_parts = [str(p) for p in loc[:-1] if not isinstance(p, int)]
    section = ".".join(section_parts) or None
    line = line_of(text, key, section) if key else None
    field = f"{prefix}{dotted}" if dotted else None
    if error["type"] == "extra_forbidden":
        nested = ".".join(section_parts[:2])
        model = models.get(nested) or models.get(
            section_parts[0] if section_parts else "", models[""]
        )
        keys = [info.alias or name for name, info in model.model_fields.items()]
        close = difflib.get_close_matches(key, keys, n=1, cutoff=0.6)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        return Problem(f"unknown key{hint}", file=file, line=line, field=field)
    if error["type"] == "missing":
        return Problem("required key is missing", file=file, line=None, field=field)
    return Problem(error["msg"], file=file, line=line, field=field)


__all__ = ["line_of", "located", "table_line"]
