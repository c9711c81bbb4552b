"""Errors raised by fairwitness, each carrying the exit code the CLI returns for it.

Hierarchy::

    FairwitnessError              exit 4   root of everything fairwitness raises on purpose
    ├── UsageError                exit 4   bad command line (never argparse's 2: 2 means must-pass failed)
    ├── ConfigError               exit 4   fairwitness.toml / [tool.fairwitness] unreadable or invalid
    ├── DatasetError              exit 4   JSONL cases unreadable or invalid (carries every problem)
    ├── TargetLoadError           exit 4   the target entry point cannot be imported or called
    ├── FaultPlanError            exit 4   a declared fault names a tool that is not wrapped with @tool
    ├── ReportError               exit 4   a report or trace file is unreadable, truncated or of unknown version
    ├── OutputExistsError         exit 4   an output file exists and --force was not given
    ├── CacheMissError            exit 4   replay mode found no recorded trial for a case
    ├── ReadmeError               exit 4   README number blocks malformed, or without a usable report
    ├── ActionContextError        exit 4   a GitHub Actions variable, action input or event payload is invalid
    └── GitHubError               exit 4   a GitHub API call failed (carries status, message, docs link)

Every error renders as one line: ``where: field: message``, where ``where`` is ``file:line`` when the
line is known. Exit codes 1-3 are verdicts, not errors, and are returned by commands, never raised.
"""

from __future__ import annotations

from dataclasses import dataclass

EXIT_OK = 0
EXIT_REGRESSION = 1
EXIT_MUST_PASS = 2
EXIT_INCONCLUSIVE = 3
EXIT_INVALID = 4


@dataclass(frozen=True)
class Problem:
    """One located problem: the file, the 1-based line (if known), the field (if known), the message."""

    message: str
    file: str | None = None
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        parts: list[str] = []
        if self.file is not None:
            parts.append(self.file if self.line is None else f"{self.file}:{self.line}")
        if self.field:
            parts.append(f"field '{self.field}'")
        parts.append(self.message)
        return ": ".join(parts)


class FairwitnessError(Exception):
    """Root of every error fairwitness raises on purpose."""

    exit_code: int = EXIT_INVALID

    def __init__(self, message: str | Problem, *, problems: list[Problem] | None = None) -> None:
        self.problem = message if isinstance(message, Problem) else Problem(message)
        self.problems: list[Problem] = problems if problems else [self.problem]
        super().__init__(str(self.problem))


class UsageError(FairwitnessError):
    """The command line asked for something impossible."""


class ConfigError(FairwitnessError):
    """The configuration file is unreadable or invalid."""


class DatasetError(FairwitnessError):
    """A dataset file is unreadable or invalid; ``problems`` lists every bad line."""


class TargetLoadError(FairwitnessError):
    """The target entry point cannot be imported, or is not a usable callable."""


class FaultPlanError(FairwitnessError):
    """A case declares a fault that cannot fire (e.g. on a tool not wrapped with ``@tool``)."""


class ReportError(FairwitnessError):
    """A report or trace file is unreadable, truncated, or of an unknown schema version."""


class OutputExistsError(FairwitnessError):
    """An output file already exists and overwriting was not asked for."""


class CacheMissError(FairwitnessError):
    """Replay mode found no recorded trial for a case."""


class ReadmeError(FairwitnessError):
    """A README's number-block markers are malformed, or a block has no usable report."""


class ActionContextError(FairwitnessError):
    """A GitHub Actions environment variable, action input or event payload is missing or invalid."""


class GitHubError(FairwitnessError):
    """A GitHub API call failed.

    ``status`` is the HTTP status (``None`` when no response arrived), ``api_message`` and
    ``documentation_url`` come from GitHub's error body, and ``request`` names the call
    (``METHOD /path``). ``rate_limited`` is true when GitHub asked to wait longer than allowed.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        api_message: str | None = None,
        documentation_url: str | None = None,
        request: str | None = None,
        rate_limited: bool = False,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.api_message = api_message
        self.documentation_url = documentation_url
        self.request = request
        self.rate_limited = rate_limited
