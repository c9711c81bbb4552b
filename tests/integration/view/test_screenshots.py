"""The viewer's screenshots in docs/screenshots/ show the page the code builds today."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

DOCS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


def test_committed_screenshots_match_a_fresh_page(chromium: Path, tmp_path: Path) -> None:
    # a process of its own: the demo's run needs an event loop, Playwright holds this one
    done = subprocess.run(
        [sys.executable, str(DOCS / "regenerate.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    fresh = (tmp_path / "page.sha256").read_text(encoding="utf-8")
    assert fresh == (DOCS / "page.sha256").read_text(encoding="utf-8"), (
        "the page changed: regenerate with python docs/screenshots/regenerate.py"
    )
    for name in ("summary.png", "case.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (DOCS / name).is_file()
