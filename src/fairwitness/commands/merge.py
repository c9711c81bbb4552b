"""``fairwitness merge SHARD... --out REPORT``: join a sharded run's reports into one."""

from __future__ import annotations

import sys
from typing import TextIO

from fairwitness.errors import EXIT_INVALID, EXIT_OK
from fairwitness.report.merge import merge_reports


def merge(shards: list[str], *, out: str, force: bool = False, stdout: TextIO | None = None) -> int:
    """Merge ``shards`` (every shard of one run) into ``out``; print its path. Exit 0, or 4
    when the shards are not one whole run (raised) or the merged run is incomplete."""
    stdout = stdout or sys.stdout
    header = merge_reports(shards, out, force=force)
    stdout.write(f"{out}\n")
    if not header.complete:
        sys.stderr.write(f"fairwitness: merged run is incomplete: {header.incomplete_reason}\n")
        return EXIT_INVALID
    return EXIT_OK
