"""A fresh virtual environment with fairwitness installed from a built wheel, as a user (or the
action's Dockerfile) installs it: no source checkout on the path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv holding the wheel built from this checkout."""
    work = tmp_path_factory.mktemp("installed")
    wheels = work / "wheels"
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(wheels),
            str(ROOT),
        ],
        check=True,
        env=env,
        capture_output=True,
    )
    (wheel,) = wheels.glob("fairwitness-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-cache-dir",
            str(wheel),
        ],
        check=True,
        env=env,
        capture_output=True,
    )
    return venv / "bin"
