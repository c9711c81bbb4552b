"""The rendered examples under docs/examples/ are what the code renders today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from fairwitness.render import COMMENT_LIMIT
from markdown_check import check

pytestmark = pytest.mark.integration

DOCS = Path(__file__).resolve().parents[2] / "docs" / "examples"
RUN_ARTIFACTS = "https://github.com/OWNER/REPO/actions/runs/1234567890#artifacts"
"""The run the medium and large examples are rendered for (``RUN`` in regenerate.py)."""


def test_committed_examples_match_a_fresh_rendering(tmp_path: Path, clean_modules: None) -> None:
    spec = importlib.util.spec_from_file_location("regenerate_examples", DOCS / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.render_all(tmp_path)
    assert len(written) == 10
    stale = [
        p.name
        for p in written
        if p.read_text(encoding="utf-8") != (DOCS / p.name).read_text(encoding="utf-8")
    ]
    assert stale == [], f"regenerate with: python docs/examples/regenerate.py ({stale})"
    for path in written:
        if path.suffix == ".md":
            text = path.read_text(encoding="utf-8")
            assert check(text, links=RUN_ARTIFACTS).problems == []
            if ".comment." in path.name:
                assert len(text) < COMMENT_LIMIT
    large = (tmp_path / "large.comment.md").read_text(encoding="utf-8")
    assert "#### Cases that flipped (showing 25 of 540)" in large
    assert f"[large.report.html#case=large-00003]({RUN_ARTIFACTS})" in large
    assert "| route | 7/8 | 5/8 |" in (tmp_path / "small.comment.md").read_text(encoding="utf-8")
