"""``fairwitness run``: run the configured suites and write one report and trace file per suite."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from fairwitness.render import suite_lines
from fairwitness.suites import SuiteRun, run_suites


def run(
    config: str | None = None,
    *,
    suite: str | None = None,
    out: str | None = None,
    force: bool = False,
    target: str | None = None,
    shard: str | None = None,
    tags: Sequence[str] = (),
    exclude_tags: Sequence[str] = (),
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    **overrides: Any,
) -> int:
    """Run every configured suite (or ``suite``, see :func:`fairwitness.suites.run_suites`);
    print each report's path on ``stdout`` and its figures on ``stderr``; return the exit code.
    ``tags`` and ``exclude_tags`` select the cases that run by tag.
    Other keywords are ``[run]`` fields that replace the config's."""
    out_stream = stdout or sys.stdout
    err_stream = stderr or sys.stderr

    def show(ran: SuiteRun) -> None:
        for line in suite_lines(ran.suite, ran.report, ran.repeats, ran.report_path):
            err_stream.write(line + "\n")
        for warning in ran.warnings:
            err_stream.write(f"fairwitness: warning: {warning}\n")
        out_stream.write(f"{ran.report_path}\n")
        out_stream.flush()

    done = run_suites(
        config,
        suite=suite,
        out=out,
        force=force,
        target=target,
        shard=shard,
        tags=tags,
        exclude_tags=exclude_tags,
        progress=err_stream,
        on_report=show,
        **overrides,
    )
    return done.exit_code
