"""What a step hands back to its workflow: outputs, the job summary, and annotations.

* Outputs are appended to ``GITHUB_OUTPUT`` in the ``name<<DELIMITER`` form, with a random
  delimiter that does not occur in the value, so any value (multi-line, or one that looks like
  another output) arrives intact.
* The job summary is appended to ``GITHUB_STEP_SUMMARY``, which GitHub caps at 1 MiB per step:
  text that would pass the cap is cut at a line break, with a note saying so.
* Annotations are ``::error``/``::warning``/``::notice`` workflow commands, escaped as the runner
  expects; GitHub shows only a few per step, so :class:`Annotations` stops after ten.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from fairwitness.github._markdown import FENCE_CLOSE, close_fence

STEP_SUMMARY_LIMIT = 1_048_576
"""Bytes GitHub accepts in one step's summary."""
MAX_ANNOTATIONS = 10

Level = Literal["error", "warning", "notice"]

_OUTPUT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _random_delimiter() -> str:
    return f"fairwitness_{secrets.token_hex(16)}"


def set_outputs(
    path: Path,
    outputs: Mapping[str, str],
    *,
    delimiter: Callable[[], str] = _random_delimiter,
) -> None:
    """Append ``outputs`` to the ``GITHUB_OUTPUT`` file at ``path``, in one write.

    ``delimiter`` makes candidate delimiters; one found in the value or name is never used.
    """
    blocks: list[str] = []
    for name, value in outputs.items():
        if not _OUTPUT_NAME.fullmatch(name):
            raise ValueError(f"invalid output name {name!r}: use letters, digits, '_' and '-'")
        for _ in range(100):
            fence = delimiter()
            if fence and fence not in value and fence not in name and "\n" not in fence:
                break
        else:
            raise ValueError(f"no delimiter found that does not occur in output {name!r}")
        blocks.append(f"{name}<<{fence}\n{value}\n{fence}\n")
    with open(path, "a", encoding="utf-8", newline="") as handle:
        handle.write("".join(blocks))


def set_output(
    path: Path, name: str, value: str, *, delimiter: Callable[[], str] = _random_delimiter
) -> None:
    """Append one output to the ``GITHUB_OUTPUT`` file at ``path``."""
    set_outputs(path, {name: value}, delimiter=delimiter)


@dataclass(frozen=True)
class SummaryWrite:
    """What :func:`append_step_summary` appended."""

    written_bytes: int
    shortened: bool


def fit_summary(markdown: str, room: int, *, where: str | None = None) -> tuple[str, bool]:
    """``markdown`` if its UTF-8 encoding fits in ``room`` bytes; otherwise its start, cut at the
    last line break that leaves room for a note (naming ``where`` the full text is), and
    ``True``. Empty when not even the note fits."""
    data = markdown.encode("utf-8")
    if len(data) <= room:
        return markdown, False
    place = f" The full report is in {where}." if where else ""
    note = (
        "\n\n> [!NOTE]\n> This summary was shortened to fit GitHub's limit of "
        f"{STEP_SUMMARY_LIMIT:,} bytes per step.{place}\n"
    )
    space = room - len(note.encode("utf-8")) - len(FENCE_CLOSE)
    if space <= 0:
        return "", True
    cut = data.rfind(b"\n", 0, space + 1)
    kept = data[: cut if cut > 0 else space].decode("utf-8", errors="ignore").rstrip()
    return close_fence(kept) + note, True


def append_step_summary(
    path: Path, markdown: str, *, limit: int = STEP_SUMMARY_LIMIT, where: str | None = None
) -> SummaryWrite:
    """Append ``markdown`` to the ``GITHUB_STEP_SUMMARY`` file at ``path``, keeping the file
    within ``limit`` bytes (what is already there counts)."""
    existing = path.stat().st_size if path.exists() else 0
    text, shortened = fit_summary(markdown, max(0, limit - existing), where=where)
    data = text.encode("utf-8")
    if data:
        with open(path, "ab") as handle:
            handle.write(data)
    return SummaryWrite(written_bytes=len(data), shortened=shortened)


def escape_data(text: str) -> str:
    """Escape a workflow command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: Level,
    message: str,
    *,
    file: str | None = None,
    line: int | None = None,
    end_line: int | None = None,
    col: int | None = None,
    title: str | None = None,
) -> str:
    """One ``::LEVEL file=...,line=...,title=...::message`` workflow command line."""
    props = {"file": file, "line": line, "endLine": end_line, "col": col, "title": title}
    listed = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v is not None)
    return f"::{level}{' ' + listed if listed else ''}::{escape_data(message)}"


class Annotations:
    """Annotations written through ``write`` (for example ``print``), at most ``limit`` per
    run; ``dropped`` counts the ones held back."""

    def __init__(self, write: Callable[[str], object], *, limit: int = MAX_ANNOTATIONS) -> None:
        self._write = write
        self.limit = limit
        self.emitted = 0
        self.dropped = 0

    def emit(
        self,
        level: Level,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        title: str | None = None,
    ) -> bool:
        """Write one annotation; ``False`` when the limit was already reached."""
        if self.emitted >= self.limit:
            self.dropped += 1
            return False
        self._write(annotation(level, message, file=file, line=line, title=title))
        self.emitted += 1
        return True

    def error(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        title: str | None = None,
    ) -> bool:
        return self.emit("error", message, file=file, line=line, title=title)

    def warning(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        title: str | None = None,
    ) -> bool:
        return self.emit("warning", message, file=file, line=line, title=title)

    def notice(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        title: str | None = None,
    ) -> bool:
        return self.emit("notice", message, file=file, line=line, title=title)
