"""README number blocks: published figures regenerated from committed reports.

A block is delimited by two marker lines::

    <!-- fairwitness:begin SUITE -->
    ...generated...
    <!-- fairwitness:end SUITE -->

``SUITE`` names a report's suite (one table row per measured metric); ``SUITE:METRIC`` names a
single metric, shown even when nothing was measured. Only the lines between the markers are
generated; every other byte of the file is kept as it is (lines are split on ``\\n`` only, so
``\\r\\n`` endings survive). Markers inside fenced code blocks are documentation, not blocks.

Figures follow the project's reporting rules: k/n only below n = 10, a percentage and 95% interval
from n = 10 up, labelled "(indicative)" below n = 50, and "not measured" (never 0) when n = 0. A
judge-derived metric whose judge is not calibrated (the report's ``diagnostics.judge``) shows
"withheld (judge not calibrated)" instead of any figure.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timezone
from pathlib import Path
from typing import Final
from urllib.parse import quote

from fairwitness._atomic import write_atomic
from fairwitness._format import INDICATIVE_N, SMALL_N, count, percent
from fairwitness.errors import Problem, ReadmeError
from fairwitness.judge import WITHHELD, withheld_metrics
from fairwitness.report import Metric, Report

_MARKER = re.compile(
    r"[ \t]*<!--[ \t]*fairwitness:(?P<kind>begin|end)[ \t]+(?P<name>\S+?)[ \t]*-->[ \t]*"
)
_MARKER_LIKE = re.compile(r"[ \t]*<!--[ \t]*fairwitness:")
_FENCE = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})")
_NAME = re.compile(r"[^\s:]+(?::[^\s:]+)?")
_DASH: Final = "\u2014"


@dataclass(frozen=True)
class Block:
    """One marked block of a README."""

    name: str
    """``SUITE`` or ``SUITE:METRIC``, as written in the markers."""
    begin: int
    """0-based index of the begin marker's line."""
    end: int
    """0-based index of the end marker's line."""
    newline: str
    """Line ending of the begin marker's line, used for the generated lines."""

    @property
    def suite(self) -> str:
        return self.name.partition(":")[0]

    @property
    def metric(self) -> str | None:
        _, colon, metric = self.name.partition(":")
        return metric if colon else None

    @property
    def line(self) -> int:
        """1-based line of the begin marker."""
        return self.begin + 1


@dataclass(frozen=True)
class Document:
    """A README split into lines (each keeping its ending) and its blocks."""

    name: str
    """The file as named on the command line, for messages."""
    lines: list[str]
    blocks: list[Block]

    @property
    def text(self) -> str:
        return "".join(self.lines)


@dataclass(frozen=True)
class LoadedReport:
    """A report and the file it was read from."""

    path: Path
    report: Report


@dataclass(frozen=True)
class BlockUpdate:
    """A block's regenerated content and whether it differs from what the file holds."""

    block: Block
    lines: list[str]
    changed: bool


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` only, each line keeping its ending; ``"".join`` gives ``text`` back."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _bare(line: str) -> str:
    return line.removesuffix("\n").removesuffix("\r")


def _closes(opened: re.Match[str] | None, fence: str, line: str) -> bool:
    """Whether ``line`` closes the code fence opened with ``fence``."""
    if opened is None:
        return False
    run = opened["fence"]
    return run[0] == fence[0] and len(run) >= len(fence) and not line[opened.end() :].strip()


def parse_blocks(lines: list[str], name: str) -> list[Block]:
    """Find the blocks; raises :class:`ReadmeError` naming the file and line of the first
    unbalanced, nested, mismatched, duplicated or malformed marker."""
    blocks: list[Block] = []
    seen: dict[str, int] = {}
    open_block: tuple[str, int] | None = None
    fence: str | None = None
    for index, raw in enumerate(lines):
        line = _bare(raw)
        lineno = index + 1
        if open_block is None:
            opened = _FENCE.match(line)
            if fence is not None:
                if _closes(opened, fence, line):
                    fence = None
                continue
            if opened:
                fence = opened["fence"]
                continue
        if not _MARKER_LIKE.match(line):
            continue
        marker = _MARKER.fullmatch(line)
        if marker is None or not _NAME.fullmatch(marker["name"]):
            raise ReadmeError(
                Problem(
                    "malformed fairwitness marker; expected '<!-- fairwitness:begin NAME -->' "
                    "or '<!-- fairwitness:end NAME -->' with NAME = SUITE or SUITE:METRIC, "
                    "alone on its line",
                    file=name,
                    line=lineno,
                )
            )
        kind, block_name = marker["kind"], marker["name"]
        if kind == "begin":
            if open_block is not None:
                raise ReadmeError(
                    Problem(
                        f"'begin {block_name}' is nested inside block '{open_block[0]}' opened "
                        f"at line {open_block[1] + 1}; blocks cannot nest",
                        file=name,
                        line=lineno,
                    )
                )
            if block_name in seen:
                raise ReadmeError(
                    Problem(
                        f"block '{block_name}' appears twice (first at line {seen[block_name]})",
                        file=name,
                        line=lineno,
                    )
                )
            seen[block_name] = lineno
            open_block = (block_name, index)
            continue
        if open_block is None:
            raise ReadmeError(
                Problem(f"'end {block_name}' without a matching begin", file=name, line=lineno)
            )
        if block_name != open_block[0]:
            raise ReadmeError(
                Problem(
                    f"'end {block_name}' does not match 'begin {open_block[0]}' at line "
                    f"{open_block[1] + 1}",
                    file=name,
                    line=lineno,
                )
            )
        begin_line = lines[open_block[1]]
        newline = "\r\n" if begin_line.endswith("\r\n") else "\n"
        blocks.append(Block(block_name, open_block[1], index, newline))
        open_block = None
    if open_block is not None:
        raise ReadmeError(
            Problem(
                f"block '{open_block[0]}' is never closed (no 'end {open_block[0]}')",
                file=name,
                line=open_block[1] + 1,
            )
        )
    return blocks


def read_document(path: str | Path) -> Document:
    """Read a README exactly as stored and find its blocks."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ReadmeError(Problem("file not found", file=name)) from None
    except OSError as exc:
        raise ReadmeError(Problem(f"cannot read: {exc.strerror or exc}", file=name)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadmeError(Problem(f"not UTF-8 text: {exc.reason}", file=name)) from None
    lines = split_lines(text)
    return Document(name, lines, parse_blocks(lines, name))


def load_reports(paths: Iterable[str | Path]) -> dict[str, LoadedReport]:
    """Load reports by suite; two reports for one suite are an error (which one is meant?)."""
    found: dict[str, LoadedReport] = {}
    for given in paths:
        path = Path(given)
        report = Report.load(path)
        if report.suite in found:
            raise ReadmeError(
                Problem(
                    f"two reports for suite '{report.suite}': {found[report.suite].path} and "
                    f"{path}; narrow --reports to one",
                    file=str(path),
                )
            )
        found[report.suite] = LoadedReport(path, report)
    return found


# -- rendering -------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def metric_row(
    name: str,
    value: float | None,
    k: float,
    n: int,
    low: float | None,
    high: float | None,
    *,
    mean: bool = False,
) -> str:
    """One table row: metric, value, n, 95% interval, by the reporting rules. ``mean``: the
    value is a mean over cases (a per-trial rate, pass^k), written as a percentage."""
    interval = _DASH
    if n == 0 or value is None:
        shown = "not measured"
    elif n < SMALL_N:
        shown = f"{count(round(k, 2))}/{n}"
    else:
        shown = f"{percent(value)}" if mean else f"{count(k)}/{n} = {percent(value)}"
        if n < INDICATIVE_N:
            shown += " (indicative)"
        if low is not None and high is not None:
            interval = f"{percent(low)} \u2013 {percent(high)}"
    return f"| {_cell(name)} | {shown} | {n} | {interval} |"


def _metric_rows(name: str, metric: Metric, *, with_pass_at: bool = False) -> list[str]:
    """A metric's row (its headline: a capability metric's per-trial rate), then, with several
    repeats, its pass^k at the most repeats (and its pass@k there, with ``with_pass_at``)."""
    # one trial per case: the per-trial rate is a plain count of cases
    per_trial = metric.headline == "per_trial" and metric.trials != metric.n
    if per_trial and metric.n < SMALL_N and metric.trials is not None:
        shown = f"{metric.successes}/{metric.trials} trials"
        rows = [f"| {_cell(name + ' (per trial)')} | {shown} | {metric.n} | {_DASH} |"]
    else:
        rows = [
            metric_row(
                f"{name} (per trial)" if per_trial else name,
                metric.value,
                metric.k,
                metric.n,
                metric.ci_low,
                metric.ci_high,
                mean=per_trial,
            )
        ]
    if len(metric.pass_k) >= 2:
        last = metric.pass_k[-1]
        figures = [("^", last.pass_hat, last.pass_hat_low, last.pass_hat_high)]
        if with_pass_at:
            figures.append(("@", last.pass_at, last.pass_at_low, last.pass_at_high))
        for sign, value, low, high in figures:
            k = 0.0 if value is None else value * last.cases
            label = f"{name} pass{sign}{last.k}"
            rows.append(metric_row(label, value, k, last.cases, low, high, mean=True))
    return rows


def withheld_row(name: str) -> str:
    """The row of a judge-derived metric whose judge is not calibrated: no figure at all."""
    return f"| {_cell(name)} | {WITHHELD} | {_DASH} | {_DASH} |"


def _link(report_path: Path, readme_dir: Path) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(report_path), os.path.abspath(readme_dir))
    except ValueError:  # another drive: no relative path exists
        rel = os.path.abspath(report_path)
    rel = Path(rel).as_posix()
    text = rel.replace("[", "\\[").replace("]", "\\]")
    return f"[{text}]({quote(rel, safe='/')})"


def render_block(block: Block, loaded: LoadedReport, readme_dir: Path) -> list[str]:
    """The block's content lines (without their endings): a table, then a provenance line."""
    report = loaded.report
    withheld = withheld_metrics(report.diagnostics)
    rows: list[str] = []
    if block.metric is not None:
        metric = report.metrics[block.metric]
        rows.extend(
            [withheld_row(block.metric)]
            if block.metric in withheld
            else _metric_rows(block.metric, metric, with_pass_at=True)
        )
        n = f"{metric.n} cases"
    else:
        for name, metric in report.metrics.items():
            if name in withheld and metric.n > 0:
                rows.append(withheld_row(name))
            elif metric.n > 0:
                rows.extend(_metric_rows(name, metric))
        n = f"{report.counts.cases} cases"
        if report.run.repeats > 1:
            n += f" \u00d7 {report.run.repeats} repeats"
    created = report.run.created_at
    if created.tzinfo is not None:
        created = created.astimezone(timezone.utc)
    sha = (report.run.git_sha or "").strip()[:12] or "unknown"
    footer = (
        f"n = {n}, measured {created.date().isoformat()}, git {sha}, "
        f"fairwitness {report.run.tool_version}, report: {_link(loaded.path, readme_dir)}"
    )
    if rows:
        table = ["| metric | value | n | 95% interval |", "|---|---|---:|---|", *rows]
    else:
        table = ["No metric was measured."]
    return ["", *table, "", footer, ""]


def _resolve(block: Block, doc: Document, reports: dict[str, LoadedReport]) -> LoadedReport:
    loaded = reports.get(block.suite)
    if loaded is None:
        known = ", ".join(sorted(reports)) or "none"
        raise ReadmeError(
            Problem(
                f"block '{block.name}': no report for suite '{block.suite}' "
                f"(reports found for: {known})",
                file=doc.name,
                line=block.line,
            )
        )
    report = loaded.report
    if not report.complete:
        raise ReadmeError(
            Problem(
                f"block '{block.name}': the report {loaded.path} is incomplete "
                f"({report.incomplete_reason or 'no reason given'}); publish figures only "
                "from a complete run",
                file=doc.name,
                line=block.line,
            )
        )
    if block.metric is not None and block.metric not in report.metrics:
        known = ", ".join(report.metrics) or "none"
        raise ReadmeError(
            Problem(
                f"block '{block.name}': the report {loaded.path} has no metric "
                f"'{block.metric}' (it has: {known})",
                file=doc.name,
                line=block.line,
            )
        )
    return loaded


def regenerate(doc: Document, reports: dict[str, LoadedReport]) -> tuple[str, list[BlockUpdate]]:
    """The README's new text and, per block, its new content; raises :class:`ReadmeError` before
    producing anything when any block cannot be generated."""
    readme_dir = Path(doc.name).parent
    updates: list[BlockUpdate] = []
    for block in doc.blocks:
        loaded = _resolve(block, doc, reports)
        lines = [line + block.newline for line in render_block(block, loaded, readme_dir)]
        updates.append(BlockUpdate(block, lines, lines != doc.lines[block.begin + 1 : block.end]))
    out: list[str] = []
    position = 0
    for update in updates:
        out.extend(doc.lines[position : update.block.begin + 1])
        out.extend(update.lines)
        position = update.block.end
    out.extend(doc.lines[position:])
    return "".join(out), updates


def write_blocks(path: str | Path, report_paths: Iterable[str | Path]) -> list[BlockUpdate]:
    """Rewrite the stale number blocks of the file at ``path`` from the reports, atomically, and
    return the blocks that changed; nothing is written when none did, or when any marker or
    report is unusable (the error says which)."""
    doc = read_document(path)
    text, updates = regenerate(doc, load_reports(report_paths))
    stale = [update for update in updates if update.changed]
    if stale:
        write_atomic(Path(path), text)
    return stale
