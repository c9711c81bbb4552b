"""Atomic file writes: a temp file in the same folder, fsync, then a rename over the target."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def write_atomic(path: Path, content: str | Iterable[str]) -> Path:
    """Write ``content`` (text, or text chunks streamed one by one) to ``path`` atomically.

    Readers see either the old file or the whole new one, never a part; on any error, including
    Ctrl-C, the temp file is removed and ``path`` is untouched.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    chunks = [content] if isinstance(content, str) else content
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
