"""A real browser for the viewer's tests: Debian's chromium driven by Playwright.

Without chromium or Playwright the tests skip with one line, unless ``FW_REQUIRE_BROWSER`` is
set (``.ci/run`` sets it), where they fail instead: CI cannot skip them silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from view_scenarios import make_pair

CHROMIUM = Path("/usr/bin/chromium")


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.is_file():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's chromium, after skipping (or, under ``FW_REQUIRE_BROWSER``, failing) when it or
    Playwright is missing."""
    missing = _missing()
    if missing:
        if os.environ.get("FW_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests cannot run: {missing} (FW_REQUIRE_BROWSER is set)")
        pytest.skip(f"browser tests skipped: {missing}")
    return CHROMIUM


@pytest.fixture(scope="module")
def browser(chromium: Path) -> Iterator[Any]:
    """One headless chromium per test module: Playwright's sync API holds an event loop while it
    runs, which later tests' ``asyncio.run`` must not find."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield launched
        launched.close()


class Watched:
    """A page whose requests, dialogs and console errors are recorded."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.document = ""
        page.route("**/*", self._refuse)
        page.on("dialog", self._dialog)
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _refuse(self, route: Any) -> None:
        url = route.request.url.split("#", 1)[0]
        if url == self.document and route.request.is_navigation_request():
            route.continue_()  # the report itself, opened from file://
            return
        self.requests.append(route.request.url)
        route.abort()

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(self, path: Path, fragment: str = "") -> Any:
        """Open ``path`` from ``file://`` and wait until the page has rendered its data."""
        self.document = path.resolve().as_uri()
        self.page.goto(self.document + fragment)
        self.page.wait_for_selector("body[data-ready]")
        assert self.page.get_attribute("body", "data-ready") == "true"
        return self.page


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    """A fresh page that fails the test on any request, dialog or console error."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = Watched(context.new_page())
    yield page
    context.close()
    assert page.requests == [], f"the page made requests: {page.requests}"
    assert page.dialogs == [], f"the page opened dialogs: {page.dialogs}"
    assert page.errors == [], f"the console shows errors: {page.errors}"


@pytest.fixture(scope="session")
def plain_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A baseline and a candidate report of 40 plain cases, with traces."""
    return make_pair(tmp_path_factory.mktemp("plain"), 40)


@pytest.fixture(scope="session")
def hostile_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The same suite with hostile ids, inputs, answers, tool arguments and tags."""
    return make_pair(tmp_path_factory.mktemp("hostile"), 24, hostile=True)
