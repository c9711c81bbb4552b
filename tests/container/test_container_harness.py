"""The container tier's own harness: a Dockerfile that does not build fails the tier with the
engine's reason, and the step's environment is the runner's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from container_engine import BuildFailed, Engine, build
from docker_action import action_env, translate

pytestmark = pytest.mark.container

ROOT = Path(__file__).resolve().parents[2]
COPY = "COPY . /tmp/fairwitness-src"


def test_a_broken_dockerfile_fails_the_build_with_the_engine_s_reason(
    engine: Engine, action_image: str, tmp_path: Path
) -> None:
    """The real Dockerfile with its ``COPY`` pointed at a folder the context lacks; the steps
    before it are the real image's, so they come from the engine's cache."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert text.count(COPY) == 1, "the Dockerfile's COPY changed: update this test"
    context = tmp_path / "context"
    context.mkdir()
    for name in ("Dockerfile", ".dockerignore", "entrypoint.py"):
        shutil.copy(ROOT / name, context / name)
    (context / "Dockerfile").write_text(
        text.replace(COPY, "COPY ./no-such-folder /tmp/fairwitness-src"), encoding="utf-8"
    )
    with pytest.raises(BuildFailed) as failed:
        build(engine, context, "localhost/fairwitness-action:broken")
    message = str(failed.value)
    first = message.splitlines()[0]
    assert first.startswith(f"{engine.name} build of {context / 'Dockerfile'} failed (exit ")
    assert "no-such-folder" in message
    assert "no such file or directory" in message.lower() or "not found" in message.lower()


def test_inputs_and_runs_env_are_evaluated_from_action_yml() -> None:
    env = action_env({"working-directory": "evals", "github-token": "t"})
    assert env["INPUT_WORKING-DIRECTORY"] == env["FW_WORKING_DIRECTORY"] == "evals"
    assert env["INPUT_BASELINE"] == env["FW_BASELINE"] == "auto"  # the input's default
    assert env["FW_GITHUB_TOKEN"] == "t"
    with pytest.raises(ValueError, match=r"not inputs of action\.yml: working_directory"):
        action_env({"working_directory": "evals"})


def test_host_paths_under_a_mount_become_container_paths(tmp_path: Path) -> None:
    temp = tmp_path / "_temp"
    mounts = {temp / "_github_workflow": "/github/workflow", tmp_path / "w": "/github/workspace"}
    assert translate(f"{temp}/_github_workflow/event.json", mounts) == "/github/workflow/event.json"
    assert translate(str(tmp_path / "w"), mounts) == "/github/workspace"
    assert translate(str(temp), mounts) == str(temp)  # RUNNER_TEMP itself is not mounted
    assert translate(f"{tmp_path}/w2", mounts) == f"{tmp_path}/w2"
