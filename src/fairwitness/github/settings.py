"""Settings of an action run, read once from the environment.

GitHub Actions describes the run in ``GITHUB_*`` and ``RUNNER_*`` variables; the action's inputs
arrive as ``FW_*`` variables (mapped in ``action.yml``). An input left empty takes its default, so
an unset input and an empty one mean the same. Every value is checked here, once: a bad value
raises :class:`~fairwitness.errors.ActionContextError` naming the variable.

The token is wrapped in :class:`Secret`, which never shows its value in ``repr`` or ``str``;
:meth:`Settings.mask_commands` gives the ``::add-mask::`` lines that hide it from the job log.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from fairwitness.errors import (
    EXIT_INCONCLUSIVE,
    EXIT_MUST_PASS,
    EXIT_REGRESSION,
    ActionContextError,
)

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_SERVER_URL = "https://github.com"

CommentMode = Literal["sticky", "new", "off"]
COMMENT_MODES: tuple[CommentMode, ...] = ("sticky", "new", "off")

FAIL_ON_NAMES: dict[str, frozenset[int]] = {
    "regression": frozenset({EXIT_REGRESSION}),
    "must-pass": frozenset({EXIT_MUST_PASS}),
    "must_pass": frozenset({EXIT_MUST_PASS}),
    "inconclusive": frozenset({EXIT_INCONCLUSIVE}),
    "any": frozenset({EXIT_REGRESSION, EXIT_MUST_PASS, EXIT_INCONCLUSIVE}),
}
"""Names accepted by ``FW_FAIL_ON`` and the exit codes each one makes fail the job."""

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


@dataclass(frozen=True)
class Settings:
    """Everything an action run reads from its environment, checked once."""

    event_name: str | None = None
    """``GITHUB_EVENT_NAME``: ``pull_request``, ``push``, ``workflow_run``, ..."""
    event_path: Path | None = None
    """``GITHUB_EVENT_PATH``: the webhook payload that triggered the run."""
    repository: str | None = None
    """``GITHUB_REPOSITORY``: ``owner/name``."""
    api_url: str = DEFAULT_API_URL
    """``GITHUB_API_URL`` without a trailing slash (``https://HOST/api/v3`` on GitHub Enterprise
    Server)."""
    server_url: str = DEFAULT_SERVER_URL
    """``GITHUB_SERVER_URL`` without a trailing slash."""
    sha: str | None = None
    """``GITHUB_SHA``."""
    ref: str | None = None
    """``GITHUB_REF``."""
    base_ref: str | None = None
    """``GITHUB_BASE_REF`` (pull requests only)."""
    head_ref: str | None = None
    """``GITHUB_HEAD_REF`` (pull requests only)."""
    workspace: Path | None = None
    """``GITHUB_WORKSPACE``."""
    output_path: Path | None = None
    """``GITHUB_OUTPUT``: the file step outputs are appended to."""
    step_summary_path: Path | None = None
    """``GITHUB_STEP_SUMMARY``: the file the job summary is appended to."""
    run_id: int | None = None
    """``GITHUB_RUN_ID``."""
    runner_temp: Path | None = None
    """``RUNNER_TEMP``."""
    config: str | None = None
    """``FW_CONFIG``: the config file; ``None`` looks in the working directory."""
    suite: str | None = None
    """``FW_SUITE``: run only this suite; ``None`` runs every suite."""
    report: str | None = None
    """``FW_REPORT``: an existing report to gate instead of running the suite."""
    baseline: str | None = None
    """``FW_BASELINE``: where the baseline report comes from."""
    baseline_artifact: str = "fairwitness-baseline"
    """``FW_BASELINE_ARTIFACT``: the artifact name the base branch's reports are uploaded under."""
    comment_artifact: str = "fairwitness-comment"
    """``FW_COMMENT_ARTIFACT``: the artifact a fork's pull request leaves its comment in, for the
    ``workflow_run`` relay."""
    merge_artifacts: str | None = None
    """``FW_MERGE_ARTIFACTS``: merge the shard reports of this run's artifacts whose names
    start with this, then gate the merged report."""
    readme: str = "README.md"
    """``FW_README``: the markdown file ``update-readme`` regenerates."""
    install: str | None = None
    """``FW_INSTALL``: what to install before running."""
    token: Secret | None = field(default=None, repr=False)
    """``FW_GITHUB_TOKEN`` (or ``GITHUB_TOKEN`` when that input is empty)."""
    comment: CommentMode = "sticky"
    """``FW_COMMENT``: ``sticky`` updates one comment, ``new`` posts one per run, ``off`` none."""
    comment_key: str = "default"
    """``FW_COMMENT_KEY``: tells apart the sticky comments of several jobs on one pull request."""
    update_readme: bool = False
    """``FW_UPDATE_README``."""
    shard: Shard | None = None
    """``FW_SHARD``: ``I/N``, this job's shard; ``None`` runs everything."""
    working_directory: str = "."
    """``FW_WORKING_DIRECTORY``."""
    fail_on: frozenset[int] = FAIL_ON_NAMES["any"]
    """``FW_FAIL_ON``: the verdict exit codes (1-3) that fail the job. Exit code 4 (invalid) always
    fails it."""
    require_baseline: bool = False
    """``FW_REQUIRE_BASELINE``: a missing baseline makes the run invalid instead of baseline-less."""
    allow_pr_head_code: bool = False
    """``FW_ALLOW_PR_HEAD_CODE``: run a pull request's own code in a privileged
    (``pull_request_target``/``workflow_run``) context."""

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """Read and check every setting from ``environ`` (usually ``os.environ``)."""
        env = _Env(environ)
        token = env.text("FW_GITHUB_TOKEN") or env.text("GITHUB_TOKEN")
        return cls(
            event_name=env.text("GITHUB_EVENT_NAME"),
            event_path=env.path("GITHUB_EVENT_PATH"),
            repository=env.repository("GITHUB_REPOSITORY"),
            api_url=env.url("GITHUB_API_URL", DEFAULT_API_URL),
            server_url=env.url("GITHUB_SERVER_URL", DEFAULT_SERVER_URL),
            sha=env.text("GITHUB_SHA"),
            ref=env.text("GITHUB_REF"),
            base_ref=env.text("GITHUB_BASE_REF"),
            head_ref=env.text("GITHUB_HEAD_REF"),
            workspace=env.path("GITHUB_WORKSPACE"),
            output_path=env.path("GITHUB_OUTPUT"),
            step_summary_path=env.path("GITHUB_STEP_SUMMARY"),
            run_id=env.positive_int("GITHUB_RUN_ID"),
            runner_temp=env.path("RUNNER_TEMP"),
            config=env.text("FW_CONFIG"),
            suite=env.text("FW_SUITE"),
            report=env.text("FW_REPORT"),
            baseline=env.text("FW_BASELINE"),
            baseline_artifact=env.text("FW_BASELINE_ARTIFACT") or "fairwitness-baseline",
            comment_artifact=env.text("FW_COMMENT_ARTIFACT") or "fairwitness-comment",
            readme=env.text("FW_README") or "README.md",
            merge_artifacts=env.text("FW_MERGE_ARTIFACTS"),
            install=env.text("FW_INSTALL"),
            token=Secret(token) if token else None,
            comment=env.comment_mode("FW_COMMENT"),
            comment_key=env.text("FW_COMMENT_KEY") or "default",
            update_readme=env.boolean("FW_UPDATE_README", default=False),
            shard=env.shard("FW_SHARD"),
            working_directory=env.text("FW_WORKING_DIRECTORY") or ".",
            fail_on=env.fail_on("FW_FAIL_ON"),
            require_baseline=env.boolean("FW_REQUIRE_BASELINE", default=False),
            allow_pr_head_code=env.boolean("FW_ALLOW_PR_HEAD_CODE", default=False),
        )

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


class _Env:
    """Typed reads of environment variables; every failure names the variable."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ

    def _fail(self, name: str, message: str) -> ActionContextError:
        return ActionContextError(f"environment variable {name}: {message}")

    def text(self, name: str) -> str | None:
        value = self._environ.get(name, "").strip()
        return value or None

    def path(self, name: str) -> Path | None:
        value = self.text(name)
        return None if value is None else Path(value)

    def url(self, name: str, default: str) -> str:
        value = self.text(name)
        if value is None:
            return default
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

    def boolean(self, name: str, *, default: bool) -> bool:
        value = self.text(name)
        if value is None:
            return default
        lowered = value.lower()
        if lowered not in ("true", "false"):
            raise self._fail(name, f"expected 'true' or 'false', got {value!r}")
        return lowered == "true"

    def comment_mode(self, name: str) -> CommentMode:
        value = (self.text(name) or "sticky").lower()
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

    def fail_on(self, name: str) -> frozenset[int]:
        value = self.text(name)
        if value is None:
            return FAIL_ON_NAMES["any"]
        codes: set[int] = set()
        for word in re.split(r"[\s,]+", value.strip().lower()):
            if word not in FAIL_ON_NAMES:
                known = ", ".join(n for n in FAIL_ON_NAMES if n != "must_pass")
                raise self._fail(name, f"unknown verdict {word!r} (known: {known})")
            codes |= FAIL_ON_NAMES[word]
        return frozenset(codes)
