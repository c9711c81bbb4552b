"""The container engine the tier drives: podman (with runc and the stand-in base image of
:mod:`standin`) on the CI machine, or Docker on a developer's (``FW_CONTAINER_ENGINE=docker``)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from standin import LIMITS, PODMAN

ENGINES = ("podman", "docker")


class BuildFailed(Exception):
    """The image did not build; the message names the Dockerfile and ends with the engine's
    own last lines."""


@dataclass(frozen=True)
class Engine:
    name: str
    command: tuple[str, ...]
    build_flags: tuple[str, ...]
    run_flags: tuple[str, ...]

    @property
    def standin(self) -> bool:
        """podman here cannot pull: the Dockerfile's base is the stand-in built from Debian."""
        return self.name == "podman"


@dataclass(frozen=True)
class Found:
    engine: Engine | None
    reason: str
    """Why there is no engine (one line), or which one was found."""
    explicit: bool
    """``FW_CONTAINER_ENGINE`` named the engine: not finding it is a failure, not a skip."""


def _works(command: tuple[str, ...]) -> str | None:
    """``None`` when ``COMMAND info`` answers, else the reason in one line."""
    if shutil.which(command[0]) is None:
        return "not installed"
    try:
        done = subprocess.run(
            [*command, "info"], capture_output=True, text=True, timeout=60, check=False
        )
    except subprocess.TimeoutExpired:
        return "`info` did not answer in 60 s"
    if done.returncode == 0:
        return None
    lines = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()
    return f"`{command[0]} info` failed: {lines[-1]}"


def podman() -> Engine:
    runc = shutil.which("runc") is not None
    return Engine(
        "podman",
        PODMAN if runc else ("podman",),
        ("--network", "host", *LIMITS, "--pull=never"),
        ("--rm", "--network", "host", *LIMITS),
    )


def docker() -> Engine:
    return Engine("docker", ("docker",), ("--network", "host"), ("--rm", "--network", "host"))


def find(environ: Mapping[str, str]) -> Found:
    """``FW_CONTAINER_ENGINE`` when set, else podman, else Docker, whichever can run."""
    wanted = environ.get("FW_CONTAINER_ENGINE", "").strip()
    if wanted and wanted not in ENGINES:
        return Found(None, f"FW_CONTAINER_ENGINE={wanted!r}: expected podman or docker", True)
    reasons = []
    for name in [wanted] if wanted else ENGINES:
        engine = podman() if name == "podman" else docker()
        why = _works(engine.command)
        if why is None:
            return Found(engine, f"{' '.join(engine.command)}", bool(wanted))
        reasons.append(f"{name}: {why}")
    return Found(
        None, "no container engine can run here (" + "; ".join(reasons) + ")", bool(wanted)
    )


def build(engine: Engine, context: Path, tag: str, dockerfile: Path | None = None) -> None:
    """Build ``context`` (its ``Dockerfile`` unless given) as the runner does (``docker build -t
    TAG -f DOCKERFILE CONTEXT``); raise :class:`BuildFailed` when it does not build."""
    dockerfile = dockerfile or context / "Dockerfile"
    before = image_id(engine, tag)
    done = subprocess.run(
        [
            *engine.command,
            "build",
            *engine.build_flags,
            "-t",
            tag,
            "-f",
            str(dockerfile),
            str(context),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        raise BuildFailed(
            f"{engine.name} build of {dockerfile} failed (exit {done.returncode}); "
            f"its last lines:\n{tail}"
        )
    if before is not None and before != image_id(engine, tag):
        # the image this tag named before: its own layers would pile up with every change
        subprocess.run([*engine.command, "rmi", before], capture_output=True, check=False)


def image_id(engine: Engine, tag: str) -> str | None:
    done = subprocess.run(
        [*engine.command, "image", "inspect", "--format", "{{.Id}}", tag],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else None
