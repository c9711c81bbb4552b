"""The package's public names, and that it stays in its layer."""

from __future__ import annotations

import ast
from pathlib import Path

import fairwitness.github as github

PACKAGE = Path(github.__file__).parent
ALLOWED = {"fairwitness._version", "fairwitness._atomic", "fairwitness.errors"}


def test_all_is_sorted_and_resolves() -> None:
    assert github.__all__ == sorted(github.__all__)
    for name in github.__all__:
        assert getattr(github, name) is not None


ORCHESTRATION = {"action.py", "baseline.py", "history.py", "relay.py", "shards.py", "_page.py"}
"""The modules that run a whole action, write its HTML report or read the default branch's
reports as a trend (they use the rest of fairwitness); the others only talk to GitHub and need
nothing but errors, the version and atomic writes."""


def test_only_errors_version_and_atomic_are_imported_from_outside() -> None:
    outside: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name in ORCHESTRATION:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            outside.update(
                n
                for n in names
                if n.startswith("fairwitness") and not n.startswith("fairwitness.github")
            )
    assert outside <= ALLOWED, sorted(outside - ALLOWED)


def test_modules_stay_small() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE.glob("*.py")}
    assert max(sizes.values()) < 500, sizes
