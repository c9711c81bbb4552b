"""The action's image run as GitHub's runner runs a Docker action (actions/runner,
``ContainerActionHandler``): the workspace at ``/github/workspace`` (also the working directory),
the runner's ``_temp/_github_home``, ``_temp/_github_workflow`` and ``_temp/_runner_file_commands``
at ``/github/home``, ``/github/workflow`` and ``/github/file_commands``, and every variable the
step gets (``INPUT_*`` for each input of ``action.yml``, its ``runs.env`` evaluated with them,
``GITHUB_*``, ``RUNNER_*``, ``HOME``, ``CI``) with host paths under those folders translated to
container paths. ``RUNNER_TEMP`` itself is not mounted: it stays a host path, and what the
container writes there is lost, as on GitHub. The Actions runtime service (``ACTIONS_RUNTIME_*``)
is left out: nothing here answers for it.

Two things differ from a GitHub runner: the network is the host's (the fake GitHub API listens
on loopback), and the world's bare ``origin`` repository (github.com's side of the checkout's
remote) is mounted read-only at its own path, so ``git fetch`` inside the container reaches it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from container_engine import Engine

from e2e.action_world import ROOT, Result, World, read_outputs
from github_fake import TOKEN

WORKSPACE = "/github/workspace"
ACTION: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


@dataclass
class Step(Result):
    runner_temp: Path
    """``RUNNER_TEMP`` on the host: the runner's three mounted folders and nothing else."""


def action_env(inputs: Mapping[str, str]) -> dict[str, str]:
    """``INPUT_*`` for every input of ``action.yml`` (``inputs`` or its default) and its
    ``runs.env``, each ``${{ inputs.NAME }}`` evaluated as the runner does."""
    declared: dict[str, Any] = ACTION["inputs"]
    unknown = sorted(set(inputs) - set(declared))
    if unknown:
        raise ValueError(f"not inputs of action.yml: {', '.join(unknown)}")
    values = {
        name: inputs.get(name, str(spec.get("default", ""))) for name, spec in declared.items()
    }
    env = {"INPUT_" + name.replace(" ", "_").upper(): value for name, value in values.items()}
    for key, expression in ACTION["runs"]["env"].items():
        match = re.fullmatch(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", expression)
        if match is None:
            raise ValueError(f"runs.env.{key}: only ${{{{ inputs.NAME }}}} is evaluated here")
        env[key] = values[match.group(1)]
    return env


def translate(value: str, mounts: Mapping[Path, str]) -> str:
    """A host path under a mounted folder as the container sees it; anything else unchanged."""
    for host, inside in mounts.items():
        if value == str(host) or value.startswith(f"{host}/"):
            return inside + value[len(str(host)) :]
    return value


def run_action(
    world: World,
    engine: Engine,
    image: str,
    event_name: str,
    event_path: Path,
    *,
    token: str = TOKEN,
    run_id: int = 4242,
    timeout: float = 300,
    **inputs: str,
) -> Step:
    """One step ``uses: ./`` with ``inputs`` (names as in ``action.yml``, ``_`` for ``-``;
    ``working-directory: evals`` unless given) in ``world``."""
    temp = world.tmp / "runner" / "_temp"
    home, workflow, commands = (
        temp / name for name in ("_github_home", "_github_workflow", "_runner_file_commands")
    )
    for folder in (home, workflow, commands):
        folder.mkdir(parents=True, exist_ok=True)
    event = workflow / "event.json"
    shutil.copyfile(event_path, event)
    step = uuid.uuid4()
    files = {
        name: commands / f"{name.lower()}_{step}"
        for name in ("SET_OUTPUT", "STEP_SUMMARY", "SET_ENV", "ADD_PATH", "SAVE_STATE")
    }
    for path in files.values():
        path.write_text("", encoding="utf-8")
    mounts = {
        home: "/github/home",
        workflow: "/github/workflow",
        commands: "/github/file_commands",
        world.workspace: WORKSPACE,
    }
    pull = event_name.startswith("pull_request")
    ref = f"refs/pull/{world.number}/merge" if pull else "refs/heads/main"
    env = {
        "HOME": str(home),
        "GITHUB_ACTIONS": "true",
        "CI": "true",
        "GITHUB_JOB": "eval",
        "GITHUB_REF": ref,
        "GITHUB_REF_NAME": f"{world.number}/merge" if pull else "main",
        "GITHUB_REF_TYPE": "branch",
        "GITHUB_SHA": world.head_sha or world.main_sha,
        "GITHUB_REPOSITORY": world.repo,
        "GITHUB_REPOSITORY_OWNER": world.repo.split("/")[0],
        "GITHUB_RUN_ID": str(run_id),
        "GITHUB_RUN_NUMBER": "1",
        "GITHUB_RUN_ATTEMPT": "1",
        "GITHUB_ACTOR": "octocat",
        "GITHUB_TRIGGERING_ACTOR": "octocat",
        "GITHUB_WORKFLOW": "fairwitness",
        "GITHUB_HEAD_REF": "feature" if pull else "",
        "GITHUB_BASE_REF": "main" if pull else "",
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_SERVER_URL": world.fake.url,
        "GITHUB_API_URL": world.fake.api_url,
        "GITHUB_WORKSPACE": str(world.workspace),
        "GITHUB_ACTION": "__self",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_ACTION_REPOSITORY": "",
        "GITHUB_ACTION_REF": "",
        "GITHUB_PATH": str(files["ADD_PATH"]),
        "GITHUB_ENV": str(files["SET_ENV"]),
        "GITHUB_STEP_SUMMARY": str(files["STEP_SUMMARY"]),
        "GITHUB_STATE": str(files["SAVE_STATE"]),
        "GITHUB_OUTPUT": str(files["SET_OUTPUT"]),
        "RUNNER_OS": "Linux",
        "RUNNER_ARCH": "X64",
        "RUNNER_NAME": "GitHub Actions 1",
        "RUNNER_ENVIRONMENT": "github-hosted",
        "RUNNER_TOOL_CACHE": str(world.tmp / "runner" / "_tool"),
        "RUNNER_TEMP": str(temp),
        "RUNNER_WORKSPACE": str(world.workspace.parent),
    }
    given = {"working-directory": "evals", "github-token": token}
    given.update({name.replace("_", "-"): value for name, value in inputs.items()})
    env.update(action_env(given))
    container_env = {key: translate(value, mounts) for key, value in env.items()}
    bad = [key for key, value in container_env.items() if "\n" in value]
    if bad:
        raise ValueError(f"a value with a line break cannot go in an env file: {bad}")
    env_file = world.tmp / "runner" / f"env-{step}"
    env_file.touch(mode=0o600)
    env_file.write_text("".join(f"{k}={v}\n" for k, v in container_env.items()), encoding="utf-8")
    volumes = [f"{host}:{inside}" for host, inside in mounts.items()]
    volumes.append(f"{world.origin}:{world.origin}:ro")
    name = f"fairwitness-step-{step.hex[:12]}"
    args = [
        *engine.command,
        "run",
        *engine.run_flags,
        "--name",
        name,
        "--workdir",
        WORKSPACE,
        "--env-file",
        str(env_file),
        *(arg for volume in volumes for arg in ("-v", volume)),
        image,
    ]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        subprocess.run([*engine.command, "kill", name], capture_output=True, check=False)
        raise
    finally:
        env_file.unlink(missing_ok=True)
    return Step(
        done.returncode,
        done.stdout,
        done.stderr,
        read_outputs(files["SET_OUTPUT"]),
        files["STEP_SUMMARY"].read_text(encoding="utf-8"),
        temp,
    )
