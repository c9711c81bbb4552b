"""``fairwitness readme FILE --reports GLOB (--check | --write)``: keep README figures current."""

from __future__ import annotations

import difflib
import glob
import sys
from pathlib import Path
from typing import TextIO

from fairwitness._atomic import write_atomic
from fairwitness.errors import EXIT_OK, UsageError
from fairwitness.readme import load_reports, read_document, regenerate, split_lines

EXIT_STALE = 1
"""``--check`` found a block whose figures differ from its report."""


def _report_paths(pattern: str) -> list[str]:
    paths = sorted(p for p in glob.glob(pattern, recursive=True) if Path(p).is_file())
    if not paths:
        raise UsageError(f"readme: --reports {pattern!r} matches no file")
    return paths


def _write_diff(out: TextIO, old: list[str], new: list[str], name: str) -> None:
    for line in difflib.unified_diff(old, new, fromfile=name, tofile=f"{name} (from reports)"):
        out.write(line)
        if not line.endswith("\n"):
            out.write("\n\\ No newline at end of file\n")


def readme(
    path: str,
    *,
    reports: str,
    check: bool = False,
    write: bool = False,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Regenerate the file's number blocks from the reports matched by ``reports``.

    ``check``: print a unified diff and return 1 when any block is stale, else 0. ``write``:
    replace the stale blocks in place (atomically) and name them. Nothing is written when any
    marker or report is unusable.
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if check == write:
        raise UsageError("readme: exactly one of --check or --write is required")
    doc = read_document(path)
    loaded = load_reports(_report_paths(reports))
    text, updates = regenerate(doc, loaded)
    stale = [u for u in updates if u.changed]
    if not updates:
        stdout.write(f"{path}: no fairwitness blocks\n")
        return EXIT_OK
    if check:
        if not stale:
            stdout.write(f"ok: {path}: {len(updates)} block(s) current\n")
            return EXIT_OK
        _write_diff(stdout, doc.lines, split_lines(text), path)
        names = ", ".join(f"{u.block.name} (line {u.block.line})" for u in stale)
        stderr.write(
            f"fairwitness: {path}: {len(stale)} stale block(s): {names}; "
            f"run: fairwitness readme {path} --reports '{reports}' --write\n"
        )
        return EXIT_STALE
    if not stale:
        stdout.write(f"ok: {path}: {len(updates)} block(s) already current; not rewritten\n")
        return EXIT_OK
    write_atomic(Path(path), text)
    for update in stale:
        stdout.write(f"updated: {path}:{update.block.line}: block '{update.block.name}'\n")
    return EXIT_OK
