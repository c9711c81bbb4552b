"""Repository-level checks: lint, types, and that CI runs the README's test command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    return str(BIN / name) if (BIN / name).exists() else name


def test_ruff_lint_and_format_are_clean() -> None:
    lint = subprocess.run(
        [tool("ruff"), "check", "--no-cache", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = subprocess.run(
        [tool("ruff"), "format", "--no-cache", "--check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_mypy_strict_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def quickstart_blocks() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.findall(r"<!-- quickstart:(\w+) -->\n```bash\n(.+?)\n```", readme)
    return dict(found)


def test_readme_has_exactly_two_quickstart_commands() -> None:
    blocks = quickstart_blocks()
    assert sorted(blocks) == ["run", "test"]
    for command in blocks.values():
        assert "\n" not in command
        assert command.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install ")
    assert blocks["run"].endswith("&& fairwitness demo")
    assert blocks["test"].endswith("&& pytest")


def test_ci_runs_the_readme_test_command() -> None:
    script = ROOT / ".ci" / "run"
    extract = re.search(r"cmd=\$\((awk .+?README\.md)\)", script.read_text(encoding="utf-8"), re.S)
    assert extract is not None
    out = subprocess.run(
        ["bash", "-c", extract.group(1)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == quickstart_blocks()["test"]


def test_readme_number_blocks_match_the_committed_baseline() -> None:
    from fairwitness.cli import main

    assert (
        main(
            [
                "readme",
                str(ROOT / "README.md"),
                "--reports",
                str(ROOT / "examples" / "jobsearch" / "baseline" / "*.report.json"),
                "--check",
            ]
        )
        == 0
    )
