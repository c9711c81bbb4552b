"""The container tier's engine and the action's image, built once per session from the
unmodified Dockerfile, as a runner builds it on a user's first ``uses:``."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import TypeVar

import container_engine
import pytest
import standin
from container_engine import Engine

ROOT = Path(__file__).resolve().parents[2]
IMAGE = "localhost/fairwitness-action:test"
NOTES = pytest.StashKey[list[str]]()
SKIP = "container tier skipped: "
T = TypeVar("T")


def _note(config: pytest.Config, line: str) -> None:
    config.stash.setdefault(NOTES, []).append(line)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in terminalreporter.config.stash.get(NOTES, []):
        terminalreporter.write_line(f"container tier: {line}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport() -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Every test the missing engine skips is reported here, so ``-ra`` folds them into one line."""
    report = yield
    reason = report.longrepr[2] if report.skipped and isinstance(report.longrepr, tuple) else ""
    if reason.startswith(f"Skipped: {SKIP}"):
        report.longrepr = (__file__, None, reason)
    return report


@pytest.fixture(scope="session")
def engine() -> Engine:
    found = container_engine.find(os.environ)
    if found.engine is None:
        if found.explicit:
            pytest.fail(f"container tier: {found.reason}", pytrace=False)
        pytest.skip(f"{SKIP}{found.reason}")
    return found.engine


def _or_fail(what: str, make: Callable[[], T]) -> T:
    """``make()``, or the test fails with its one message (no traceback: it is not the test's)."""
    try:
        return make()
    except (standin.StandInError, container_engine.BuildFailed) as exc:
        message = f"container tier: {what}{exc}"
    pytest.fail(message, pytrace=False)


@pytest.fixture(scope="session")
def action_image(engine: Engine, request: pytest.FixtureRequest) -> str:
    """The image of ``Dockerfile`` at the repository's root, its context the repository."""
    config = request.config
    if engine.standin:
        start = time.monotonic()
        base = _or_fail("the stand-in base image: ", lambda: standin.ensure(engine.command))
        how = "built" if base.built else "found ready"
        _note(config, f"{base.note()} ({how} in {time.monotonic() - start:.1f} s)")
    start = time.monotonic()
    _or_fail("", lambda: container_engine.build(engine, ROOT, IMAGE))
    _note(config, f"{engine.name}: the action's image built in {time.monotonic() - start:.1f} s")
    return IMAGE
