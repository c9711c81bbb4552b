"""Repository-level checks: lint, types, the action's Dockerfile, action.yml, pre-commit hooks and
workflows, and that CI runs the README's test command."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    """The executable installed next to this interpreter (the dev extra), else the one on PATH."""
    if (BIN / name).exists():
        return str(BIN / name)
    found = shutil.which(name)
    if found is None:
        pytest.fail(
            f"{name} not found next to {sys.executable} or on PATH: pip install -e '.[dev]'"
        )
    return found


def run_tool(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [tool(args[0]), *args[1:]], cwd=cwd, capture_output=True, text=True, check=False
    )


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


def test_dockerfile_passes_hadolint() -> None:
    proc = run_tool("hadolint", "--no-color", "--config", ".hadolint.yaml", "Dockerfile")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_action_yml_matches_the_github_actions_schema() -> None:
    proc = run_tool("check-jsonschema", "--builtin-schema", "vendor.github-actions", "action.yml")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_pre_commit_hooks_manifest_is_valid() -> None:
    # pre-commit's own manifest validator: the one that loads the file when a project uses a hook
    proc = run_tool("pre-commit", "validate-manifest", ".pre-commit-hooks.yaml")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_documented_workflows_pass_actionlint() -> None:
    folder = ROOT / "docs" / "workflows"
    if not folder.is_dir():
        pytest.skip("no docs/workflows/ folder")
    files = sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")])
    assert files, f"{folder} holds no workflow (*.yml, *.yaml)"
    proc = run_tool("actionlint", *(str(f) for f in files))
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("directory", [".", "evals"])
def test_starter_workflow_passes_actionlint(tmp_path: Path, directory: str) -> None:
    from fairwitness.commands.init import init

    (tmp_path / ".git").mkdir()
    assert init(str(tmp_path / directory), stdout=io.StringIO()) == 0
    workflow = tmp_path / ".github" / "workflows" / "fairwitness.yml"
    text = workflow.read_text(encoding="utf-8")
    assert "{directory}" not in text
    assert f"working-directory: {directory}\n" in text
    proc = run_tool("actionlint", str(workflow.relative_to(tmp_path)), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_architecture_page_names_every_package() -> None:
    """docs/architecture.md is the newcomer's map: every package and top-level module of
    fairwitness has a row, so a new one cannot be added without saying what it owns."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = [line for line in page.splitlines() if line.startswith("| `")]
    named = {name for line in table for name in re.findall(r"`([\w.]+?)/?`", line.split("|")[1])}
    src = ROOT / "src" / "fairwitness"
    units = {
        p.name.removesuffix(".py")
        for p in src.iterdir()
        if not p.name.startswith("_") and (p.suffix == ".py" or (p / "__init__.py").exists())
    }
    missing = sorted(units - {name.removesuffix(".py") for name in named})
    assert missing == [], f"docs/architecture.md has no row for {missing}"
