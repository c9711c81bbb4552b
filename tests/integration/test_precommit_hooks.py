"""The hooks of ``.pre-commit-hooks.yaml`` run by the real pre-commit, in a throwaway git repository
that lists them in its ``.pre-commit-config.yaml`` with their default args, as a user would.

pre-commit installs the hooks into their own virtualenv by pip-installing this repository; that
happens once per module (one ``PRE_COMMIT_HOME``), then every run reuses it. The hooks are taken
from the working tree as it is on disk (tracked and untracked files, ignored ones left out), copied
into a one-commit repository, so they are tested before they are committed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builders import PASS, build

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
INSTALL_TIMEOUT_S = 600
"""A generous bound for the first run, which builds the hook environment (pip install)."""

README = """\
# A project

Figures below come from the committed report.

<!-- fairwitness:begin s -->
<!-- fairwitness:end s -->

The end.
"""


def _executable(name: str) -> str:
    if (BIN / name).exists():
        return str(BIN / name)
    found = shutil.which(name)
    if found is None:
        pytest.fail(
            f"{name} not found next to {sys.executable} or on PATH: pip install -e '.[dev]'"
        )
    return found


def _run(
    args: list[str], cwd: Path, env: dict[str, str], *, check: bool = False
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=check,
        timeout=INSTALL_TIMEOUT_S,
    )


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A hermetic git (no global or system config, a fixed identity) and one pre-commit home for
    the whole module, so the hook environment is built once."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    clean.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Test Author",
        GIT_AUTHOR_EMAIL="author@example.invalid",
        GIT_COMMITTER_NAME="Test Author",
        GIT_COMMITTER_EMAIL="author@example.invalid",
        PRE_COMMIT_HOME=str(tmp_path_factory.mktemp("pre-commit-home")),
        PRE_COMMIT_COLOR="never",
    )
    return clean


def _git(cwd: Path, env: dict[str, str], *args: str) -> str:
    return _run(["git", *args], cwd, env, check=True).stdout


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> tuple[Path, str]:
    """This repository's working tree as one commit: (path, sha) for a ``repo:``/``rev:`` pair."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the hooks are installed from a git repository")
    listing = _git(ROOT, env, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    dest = tmp_path_factory.mktemp("hooks-repo")
    for name in filter(None, listing.split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    assert (dest / ".pre-commit-hooks.yaml").is_file()
    _git(dest, env, "-c", "init.defaultBranch=main", "init", "-q")
    _git(dest, env, "add", "-A")
    _git(dest, env, "commit", "-q", "-m", "snapshot")
    return dest, _git(dest, env, "rev-parse", "HEAD").strip()


@pytest.fixture
def project(tmp_path: Path, env: dict[str, str], hooks_repo: tuple[Path, str]) -> Path:
    """A git repository that uses both hooks (default args) and has them installed for commits."""
    repo, rev = hooks_repo
    root = tmp_path / "project"
    root.mkdir()
    _git(root, env, "-c", "init.defaultBranch=main", "init", "-q")
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n"
        f"  - repo: {json.dumps(str(repo))}\n"
        f"    rev: {rev}\n"
        f"    hooks:\n"
        f"      - id: fairwitness-readme\n"
        f"      - id: fairwitness-validate\n",
        encoding="utf-8",
    )
    _run([_executable("pre-commit"), "install"], root, env, check=True)
    _git(root, env, "add", ".pre-commit-config.yaml")
    _git(root, env, "commit", "-q", "-m", "use the fairwitness hooks")
    return root


def _pre_commit(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return _run([_executable("pre-commit"), "run", *args], root, env)


def _commits(root: Path, env: dict[str, str]) -> int:
    return int(_git(root, env, "rev-list", "--count", "HEAD"))


def test_readme_hook_fails_a_commit_with_a_stale_block_until_the_rewrite_is_staged(
    project: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from fairwitness.cli import main

    (project / "reports").mkdir()
    build({f"c{i}": [PASS, PASS] for i in range(12)}).save(project / "reports" / "s.report.json")
    (project / "README.md").write_text(README, encoding="utf-8")
    _git(project, env, "add", "README.md", "reports/s.report.json")

    first = _run(["git", "commit", "-m", "add the report"], project, env)
    output = first.stdout + first.stderr
    assert first.returncode == 1, output
    assert "files were modified by this hook" in output
    assert "updated: README.md:5: block 's'" in output
    assert _commits(project, env) == 1
    rewritten = (project / "README.md").read_text(encoding="utf-8")
    head, _, rest = rewritten.partition("<!-- fairwitness:begin s -->\n")
    block, _, tail = rest.partition("<!-- fairwitness:end s -->\n")
    assert head == README.partition("<!-- fairwitness:begin s -->\n")[0]
    assert tail == "\nThe end.\n"
    assert "| route (per trial) | 100.0% (indicative) | 12 | 75.8% \u2013 100.0% |" in block
    assert "[reports/s.report.json](reports/s.report.json)" in block
    monkeypatch.chdir(project)
    assert main(["readme", "README.md", "--reports", "reports/*.report.json", "--check"]) == 0

    _git(project, env, "add", "README.md")
    second = _run(["git", "commit", "-m", "add the report"], project, env)
    assert second.returncode == 0, second.stdout + second.stderr
    assert _commits(project, env) == 2

    again = _pre_commit(project, env, "fairwitness-readme", "--all-files")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Passed" in again.stdout
    assert (project / "README.md").read_text(encoding="utf-8") == rewritten
    assert _git(project, env, "status", "--porcelain") == ""


def test_validate_hook_passes_a_good_dataset_and_skips_other_files(
    project: Path, env: dict[str, str]
) -> None:
    (project / "cases.jsonl").write_text(
        "".join(json.dumps({"id": f"c{i}", "input": f"q{i}"}) + "\n" for i in range(3)),
        encoding="utf-8",
    )
    (project / "notes.md").write_text("# notes\n", encoding="utf-8")

    good = _pre_commit(project, env, "fairwitness-validate", "--files", "cases.jsonl")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout

    other = _pre_commit(project, env, "fairwitness-validate", "--files", "notes.md")
    assert other.returncode == 0, other.stdout + other.stderr
    assert "no files to check" in other.stdout


def test_validate_hook_fails_a_malformed_dataset_naming_file_and_line(
    project: Path, env: dict[str, str]
) -> None:
    (project / "data").mkdir()
    (project / "data" / "bad.jsonl").write_text(
        '{"id": "c0", "input": "q0"}\n{"id": "c1", "input": \n{"id": "c2"}\n', encoding="utf-8"
    )

    proc = _pre_commit(project, env, "fairwitness-validate", "--files", "data/bad.jsonl")
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "- exit code: 4" in output
    assert "data/bad.jsonl:2: invalid JSON" in output
    assert "data/bad.jsonl:3: field 'input': required field is missing" in output
