"""Settings of an action run, read once from the environment.

GitHub Actions describes the run in ``GITHUB_*`` and ``RUNNER_*`` variables; the action's inputs
arrive as ``FW_*`` variables (mapped in ``action.yml``). Each setting names its variable once, on
its field, and :meth:`Settings.variables` lists them (a test checks them against ``action.yml``).
An input left empty takes its default, so an unset input and an empty one mean the same. Every
value is checked here, once: a bad value raises :class:`~fairwitness.errors.ActionContextError`
naming the variable.

The token is wrapped in :class:`Secret`, which never shows its value in ``repr`` or ``str``;
:meth:`Settings.mask_commands` gives the ``::add-mask::`` lines that hide it from the job log.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from fairwitness.errors import (
    EXIT_INCONCLUSIVE,
    EXIT_MUST_PASS,
    EXIT_REGRESSION,
    ActionContextError,
)

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_SERVER_URL = "https://github.com"

CommentMode = Literal["sticky", "changes", "failures", "new", "off"]
COMMENT_MODES: tuple[CommentMode, ...] = ("sticky", "changes", "failures", "new", "off")

FAIL_ON_NAMES: dict[str, frozenset[int]] = {
    "regression": frozenset({EXIT_REGRESSION}),
    "must-pass": frozenset({EXIT_MUST_PASS}),
    "must_pass": frozenset({EXIT_MUST_PASS}),
    "inconclusive": frozenset({EXIT_INCONCLUSIVE}),
    "any": frozenset({EXIT_REGRESSION, EXIT_MUST_PASS, EXIT_INCONCLUSIVE}),
}
"""Names accepted by the ``fail-on`` input and the exit codes each one makes fail the job."""

_REPOSITORY = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")


class Secret:
    """A secret string that shows ``'***'`` wherever it would be printed; :meth:`reveal` gives it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret itself, for the one place that must send it (an ``Authorization`` header)."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("Secret", self._value))

    def __bool__(self) -> bool:
        return bool(self._value)


@dataclass(frozen=True)
class Shard:
    """One shard of a suite split over a job matrix: ``index`` counts from 1 up to ``total``."""

    index: int
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


class _Env:
    """Typed reads of environment variables; every failure names the variable."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ

    def _fail(self, name: str, message: str) -> ActionContextError:
        return ActionContextError(f"environment variable {name}: {message}")

    def text(self, name: str) -> str | None:
        value = self._environ.get(name, "").strip()
        return value or None

    def secret(self, name: str) -> Secret | None:
        value = self.text(name)
        return None if value is None else Secret(value)

    def path(self, name: str) -> Path | None:
        value = self.text(name)
        return None if value is None else Path(value)

    def url(self, name: str) -> str | None:
        value = self.text(name)
        if value is None:
            return None
        if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
            raise self._fail(name, f"expected an http(s) URL, got {value!r}")
        return value.rstrip("/")

    def repository(self, name: str) -> str | None:
        value = self.text(name)
        if value is not None and not _REPOSITORY.fullmatch(value):
            raise self._fail(name, f"expected owner/name, got {value!r}")
        return value

    def positive_int(self, name: str) -> int | None:
        value = self.text(name)
        if value is None:
            return None
        if not value.isdigit() or int(value) <= 0:
            raise self._fail(name, f"expected a positive integer, got {value!r}")
        return int(value)

    def count(self, name: str) -> int | None:
        value = self.text(name)
        if value is None:
            return None
        if not value.isdigit():
            raise self._fail(name, f"expected 0 or a positive integer, got {value!r}")
        return int(value)

    def boolean(self, name: str) -> bool | None:
        value = self.text(name)
        if value is None:
            return None
        lowered = value.lower()
        if lowered not in ("true", "false"):
            raise self._fail(name, f"expected 'true' or 'false', got {value!r}")
        return lowered == "true"

    def comment_mode(self, name: str) -> CommentMode | None:
        text = self.text(name)
        if text is None:
            return None
        value = text.lower()
        for mode in COMMENT_MODES:
            if value == mode:
                return mode
        raise self._fail(name, f"expected one of {', '.join(COMMENT_MODES)}, got {value!r}")

    def shard(self, name: str) -> Shard | None:
        value = self.text(name)
        if value is None:
            return None
        found = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", value)
        if found is None:
            raise self._fail(name, f"expected I/N (for example 1/4), got {value!r}")
        index, total = int(found.group(1)), int(found.group(2))
        if not 1 <= index <= total:
            raise self._fail(name, f"shard index must be between 1 and {total}, got {value!r}")
        return Shard(index, total)

    def fail_on(self, name: str) -> frozenset[int] | None:
        value = self.text(name)
        if value is None:
            return None
        codes: set[int] = set()
        for word in re.split(r"[\s,]+", value.strip().lower()):
            if word not in FAIL_ON_NAMES:
                known = ", ".join(n for n in FAIL_ON_NAMES if n != "must_pass")
                raise self._fail(name, f"unknown verdict {word!r} (known: {known})")
            codes |= FAIL_ON_NAMES[word]
        return frozenset(codes)


_Reader = Callable[[_Env, str], Any]


def _read(read: _Reader, *names: str) -> dict[str, Any]:
    """A setting's field metadata: it is read by ``read`` from the first of ``names`` that is set
    (an empty value is unset), else it keeps its default. The one place each variable is named."""
    return {"read": read, "variables": names}


@dataclass(frozen=True)
class Settings:
    """Everything an action run reads from its environment, checked once. Each field names the
    variable it is read from; the action's inputs arrive as ``FW_*`` variables."""

    event_name: str | None = field(default=None, metadata=_read(_Env.text, "GITHUB_EVENT_NAME"))
    """``pull_request``, ``push``, ``workflow_run``, ..."""
    event_path: Path | None = field(default=None, metadata=_read(_Env.path, "GITHUB_EVENT_PATH"))
    """The webhook payload that triggered the run."""
    repository: str | None = field(
        default=None, metadata=_read(_Env.repository, "GITHUB_REPOSITORY")
    )
    """``owner/name``."""
    api_url: str = field(default=DEFAULT_API_URL, metadata=_read(_Env.url, "GITHUB_API_URL"))
    """The REST API, without a trailing slash (``https://HOST/api/v3`` on GitHub Enterprise
    Server)."""
    server_url: str = field(
        default=DEFAULT_SERVER_URL, metadata=_read(_Env.url, "GITHUB_SERVER_URL")
    )
    """The web server, without a trailing slash."""
    sha: str | None = field(default=None, metadata=_read(_Env.text, "GITHUB_SHA"))
    """The commit the run is on."""
    ref: str | None = field(default=None, metadata=_read(_Env.text, "GITHUB_REF"))
    """The ref the run is on."""
    base_ref: str | None = field(default=None, metadata=_read(_Env.text, "GITHUB_BASE_REF"))
    """The pull request's base branch (pull requests only)."""
    head_ref: str | None = field(default=None, metadata=_read(_Env.text, "GITHUB_HEAD_REF"))
    """The pull request's head branch (pull requests only)."""
    workspace: Path | None = field(default=None, metadata=_read(_Env.path, "GITHUB_WORKSPACE"))
    """The checkout."""
    output_path: Path | None = field(default=None, metadata=_read(_Env.path, "GITHUB_OUTPUT"))
    """The file step outputs are appended to."""
    step_summary_path: Path | None = field(
        default=None, metadata=_read(_Env.path, "GITHUB_STEP_SUMMARY")
    )
    """The file the job summary is appended to."""
    run_id: int | None = field(default=None, metadata=_read(_Env.positive_int, "GITHUB_RUN_ID"))
    """The workflow run's id."""
    runner_temp: Path | None = field(default=None, metadata=_read(_Env.path, "RUNNER_TEMP"))
    """The runner's temporary folder."""
    config: str | None = field(default=None, metadata=_read(_Env.text, "FW_CONFIG"))
    """The config file; ``None`` looks in the working directory."""
    suite: str | None = field(default=None, metadata=_read(_Env.text, "FW_SUITE"))
    """Run only this suite; ``None`` runs every suite."""
    report: str | None = field(default=None, metadata=_read(_Env.text, "FW_REPORT"))
    """An existing report to gate instead of running the suite."""
    baseline: str | None = field(default=None, metadata=_read(_Env.text, "FW_BASELINE"))
    """Where the baseline report comes from."""
    baseline_artifact: str = field(
        default="fairwitness-baseline", metadata=_read(_Env.text, "FW_BASELINE_ARTIFACT")
    )
    """The artifact name the base branch's reports are uploaded under."""
    history: int = field(default=0, metadata=_read(_Env.count, "FW_HISTORY"))
    """On a pull request, show each gated metric's trend over the report artifacts
    (``baseline_artifact``) of the base branch's last N successful push runs; 0 shows none."""
    html_artifact: str = field(
        default="fairwitness-report", metadata=_read(_Env.text, "FW_HTML_ARTIFACT")
    )
    """The artifact the workflow uploads the HTML report under, which the comment and the job
    summary name (one per leg of a matrix: artifact names are unique within a run)."""
    comment_artifact: str = field(
        default="fairwitness-comment", metadata=_read(_Env.text, "FW_COMMENT_ARTIFACT")
    )
    """The artifact a fork's pull request leaves its comment in, which the ``workflow_run`` relay
    downloads."""
    merge_artifacts: str | None = field(
        default=None, metadata=_read(_Env.text, "FW_MERGE_ARTIFACTS")
    )
    """Merge the shard reports of this run's artifacts whose names start with this, then gate
    the merged report."""
    readme: str = field(default="README.md", metadata=_read(_Env.text, "FW_README"))
    """The markdown file ``update-readme`` regenerates."""
    install: str | None = field(default=None, metadata=_read(_Env.text, "FW_INSTALL"))
    """What to install before running."""
    token: Secret | None = field(
        default=None, repr=False, metadata=_read(_Env.secret, "FW_GITHUB_TOKEN", "GITHUB_TOKEN")
    )
    """The token input, or ``GITHUB_TOKEN`` when that input is empty."""
    comment: CommentMode = field(default="sticky", metadata=_read(_Env.comment_mode, "FW_COMMENT"))
    """``sticky`` updates one comment; ``changes`` the same, but only when the verdict or a gated
    metric changed since the comment it replaces; ``failures`` comments only while the gate
    fails (and turns an earlier comment into a "passes now" note); ``new`` posts one per run;
    ``off`` none."""
    comment_key: str = field(default="default", metadata=_read(_Env.text, "FW_COMMENT_KEY"))
    """Tells apart the sticky comments of several jobs on one pull request."""
    update_readme: bool = field(default=False, metadata=_read(_Env.boolean, "FW_UPDATE_README"))
    """Regenerate the README's number blocks from the new report on a push."""
    shard: Shard | None = field(default=None, metadata=_read(_Env.shard, "FW_SHARD"))
    """``I/N``, this job's shard; ``None`` runs everything."""
    working_directory: str = field(default=".", metadata=_read(_Env.text, "FW_WORKING_DIRECTORY"))
    """The folder, relative to the workspace, that holds the config."""
    fail_on: frozenset[int] = field(
        default=FAIL_ON_NAMES["any"], metadata=_read(_Env.fail_on, "FW_FAIL_ON")
    )
    """The verdict exit codes (1-3) that fail the job. Exit code 4 (invalid) always fails it."""
    require_baseline: bool = field(
        default=False, metadata=_read(_Env.boolean, "FW_REQUIRE_BASELINE")
    )
    """A missing baseline makes the run invalid instead of baseline-less."""
    allow_pr_head_code: bool = field(
        default=False, metadata=_read(_Env.boolean, "FW_ALLOW_PR_HEAD_CODE")
    )
    """Run a pull request's own code in a privileged (``pull_request_target``/``workflow_run``)
    context."""

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """Read and check every setting from ``environ`` (usually ``os.environ``)."""
        env = _Env(environ)
        values: dict[str, Any] = {}
        for setting in fields(cls):
            for name in setting.metadata["variables"]:
                value = setting.metadata["read"](env, name)
                if value is not None:
                    values[setting.name] = value
                    break
        return cls(**values)

    @classmethod
    def variables(cls) -> dict[str, str]:
        """Every variable a setting is read from -> the setting."""
        return {
            name: setting.name for setting in fields(cls) for name in setting.metadata["variables"]
        }

    def mask_commands(self) -> tuple[str, ...]:
        """``::add-mask::`` workflow commands hiding every secret from the job log (print them
        to stdout before anything else). A multi-line secret is masked line by line."""
        if self.token is None:
            return ()
        lines = [line for line in self.token.reveal().splitlines() if line.strip()]
        return tuple(f"::add-mask::{line}" for line in lines)

    def fails(self, exit_code: int) -> bool:
        """Whether a run ending with ``exit_code`` fails the job under ``fail_on``."""
        if exit_code in (EXIT_REGRESSION, EXIT_MUST_PASS, EXIT_INCONCLUSIVE):
            return exit_code in self.fail_on
        return exit_code != 0

    @property
    def run_url(self) -> str | None:
        """The web page of this workflow run, when the repository and run id are known."""
        if self.repository is None or self.run_id is None:
            return None
        return f"{self.server_url}/{self.repository}/actions/runs/{self.run_id}"
