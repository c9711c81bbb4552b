#!/usr/bin/env python3
"""The container tier's recipe for a CI machine with no Docker daemon and no image registry:
podman (with runc) builds and runs the action's image, and a stand-in for the Dockerfile's base
image, ``python:3.12-slim-bookworm``, is built here from Debian packages.

Run as a script (``.ci/run`` does, before the project's venv exists, so this file uses the
standard library only) it installs podman, runc and mmdebstrap with apt when it is root and they
are missing, then builds the stand-in. It never fails: when something cannot be done it says so
in one line, and the container tier either skips (no engine can run) or fails (an engine runs
but the stand-in or a scenario does not).

The stand-in, built once and kept between runs, keyed by this recipe:

1. ``mmdebstrap --variant=apt --include=python3,python3-venv,python3-pip,git,ca-certificates
   bookworm`` from the host's own apt sources, into a tarball kept in :func:`cache_dir`;
2. ``podman import`` of that tarball;
3. a small Containerfile on it: ``python`` and ``pip`` linked into ``/usr/local/bin``,
   ``PIP_BREAK_SYSTEM_PACKAGES=1``, the host's CA bundle with ``PIP_CERT`` pointing at it, and
   the package index settings the host's pip uses (read here, at build time, never written into
   the repository), tagged with the fully qualified name the Dockerfile's unmodified
   ``FROM python:3.12-slim-bookworm`` resolves to, so a ``--pull=never`` build finds it.

Its Python is Debian bookworm's 3.11, not 3.12: the tier says so in its summary.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

RECIPE = 1
"""Bump when a step below changes in a way its inputs do not show."""
SUITE = "bookworm"
INCLUDE = ("python3", "python3-venv", "python3-pip", "git", "ca-certificates")
BASE = "docker.io/library/python:3.12-slim-bookworm"
"""What ``FROM python:3.12-slim-bookworm`` resolves to (Docker Hub's ``library/`` namespace)."""
LABEL = "fairwitness.standin"
PACKAGES = ("podman", "runc", "mmdebstrap")
PODMAN = ("podman", "--runtime", "runc")
"""crun fails on this machine's cgroups; runc works."""
LIMITS = ("--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024")
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
IMAGE_CA = "/usr/local/share/fairwitness/host-ca-certificates.crt"
PIP_KEYS = ("index-url", "extra-index-url", "trusted-host", "default-timeout", "retries")
"""The host's pip settings the stand-in carries (as ``PIP_*``), when they point off this host."""


class StandInError(Exception):
    """A step of the recipe failed; the message says which and why."""


@dataclass(frozen=True)
class StandIn:
    key: str
    python: str
    """The stand-in's ``python --version``, as it answered."""
    built: bool
    """Built (or imported) in this call, rather than found ready."""

    def note(self) -> str:
        return (
            f"the base image is a stand-in for python:3.12-slim-bookworm (mmdebstrap, Debian "
            f"{SUITE}, recipe {self.key[:12]}): its Python is Debian's {self.python}, not 3.12"
        )


def cache_dir() -> Path:
    """Where the root filesystem tarball is kept, outside the repository."""
    return Path(os.environ.get("FW_CONTAINER_CACHE") or "/var/cache/fairwitness-container")


def install_packages() -> str:
    """Install podman, runc and mmdebstrap with apt when root and missing; one line saying what
    happened."""
    missing = [name for name in PACKAGES if shutil.which(name) is None]
    if not missing:
        return "podman, runc and mmdebstrap are installed"
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return (
            f"{', '.join(missing)} not installed, and apt-get cannot install them here (not root)"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for args in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
    ):
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            why = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
            return f"`{' '.join(args[:2])}` failed (exit {done.returncode}): {why}"
    return f"installed {', '.join(missing)} with apt-get"


def apt_sources() -> list[Path]:
    """The host's apt source files for the suite, one-line or deb822 (what its own apt uses)."""
    etc = Path("/etc/apt")
    files = [etc / "sources.list", *sorted((etc / "sources.list.d").glob("*"))]
    return [
        path
        for path in files
        if path.is_file()
        and path.suffix in (".list", ".sources")
        and re.search(rf"^[^#]*\b{SUITE}\b", path.read_text(encoding="utf-8"), re.M)
    ]


def host_pip_settings(python: str = sys.executable) -> dict[str, str]:
    """``PIP_*`` variables for the settings of :data:`PIP_KEYS` the host's pip uses (``pip config
    list``, then this process's environment), leaving out what points at this host's own disk."""
    found: dict[str, str] = {}
    done = subprocess.run(
        [python, "-m", "pip", "config", "list"], capture_output=True, text=True, check=False
    )
    ranks = {":env:": 3, "site": 2, "user": 1, "global": 0}
    best: dict[str, int] = {}
    for line in done.stdout.splitlines() if done.returncode == 0 else []:
        match = re.fullmatch(r"([^.]*)\.([\w-]+)='(.*)'", line.strip())
        if match and match.group(2) in PIP_KEYS:
            scope, key, value = match.groups()
            if ranks.get(scope, 0) >= best.get(key, -1):
                best[key], found[key] = ranks.get(scope, 0), value
    for key in PIP_KEYS:
        value = os.environ.get("PIP_" + key.upper().replace("-", "_"))
        if value is not None:
            found[key] = value
    settings: dict[str, str] = {}
    for key, value in found.items():
        kept = [v for v in value.split() if not v.startswith(("file:", "/", "."))]
        if kept:
            settings["PIP_" + key.upper().replace("-", "_")] = " ".join(kept)
    return settings


def host_ca_bundle() -> Path:
    """The CA bundle the host's pip trusts (``PIP_CERT`` when set, else Debian's bundle)."""
    configured = os.environ.get("PIP_CERT")
    return Path(configured) if configured and Path(configured).is_file() else HOST_CA


def digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode("utf-8")).hexdigest()


def rootfs(sources: Sequence[Path]) -> Path:
    """The mmdebstrap tarball for this recipe and these sources, built when not already cached."""
    key = digest(RECIPE, SUITE, INCLUDE, [p.read_text(encoding="utf-8") for p in sources])
    tar = cache_dir() / f"rootfs-{key[:16]}.tar"
    if tar.exists():
        return tar
    if shutil.which("mmdebstrap") is None:
        raise StandInError("mmdebstrap is not installed (apt-get install mmdebstrap)")
    if not sources:
        raise StandInError(f"no apt source for {SUITE} in /etc/apt (the stand-in needs one)")
    tar.parent.mkdir(parents=True, exist_ok=True)
    for old in tar.parent.glob("rootfs-*.tar"):
        old.unlink()
    partial = tar.with_suffix(".partial")
    # dpkg syncs every file it unpacks: on a RAM disk that costs nothing (about 35 s instead of 2
    # minutes here); the tarball is all that is kept
    shm = Path("/dev/shm")
    scratch = shm if shm.is_dir() and shutil.disk_usage(shm).free > 2 << 30 else None
    env = {**os.environ, **({"TMPDIR": str(scratch)} if scratch else {})}
    args = [
        "mmdebstrap",
        "--quiet",
        "--variant=apt",
        f"--include={','.join(INCLUDE)}",
        "--format=tar",
        SUITE,
        str(partial),
        *map(str, sources),
    ]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        tail = "\n".join((done.stderr + done.stdout).strip().splitlines()[-15:])
        raise StandInError(f"mmdebstrap failed (exit {done.returncode}):\n{tail}")
    partial.rename(tar)
    return tar


def containerfile(rootfs_image: str, pip: dict[str, str]) -> str:
    def quoted(value: str) -> str:
        return '"' + re.sub(r'(["\\$])', r"\\\1", value) + '"'

    env = {
        "LANG": "C.UTF-8",
        "PATH": "/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
        "PIP_BREAK_SYSTEM_PACKAGES": "1",
        "PIP_CERT": IMAGE_CA,
        **pip,
    }
    lines = [
        f"FROM {rootfs_image}",
        f"COPY host-ca-certificates.crt {IMAGE_CA}",
        "RUN ln -s /usr/bin/python3 /usr/local/bin/python && ln -s /usr/bin/pip3 /usr/local/bin/pip",
        "ENV " + " \\\n    ".join(f"{k}={quoted(v)}" for k, v in env.items()),
    ]
    return "\n".join(lines) + "\n"


def engine_run(
    command: Sequence[str], *args: str, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def ensure(command: Sequence[str] = PODMAN, python: str = sys.executable) -> StandIn:
    """The stand-in tagged :data:`BASE` in the engine's storage, built when its key (this recipe,
    the apt sources, the host's pip settings and CA bundle) is not the one it carries."""
    sources = apt_sources()
    pip = host_pip_settings(python)
    ca = host_ca_bundle()
    if not ca.is_file():
        raise StandInError(f"no CA bundle at {ca} to give pip inside the build")
    rootfs_key = digest(RECIPE, SUITE, INCLUDE, [p.read_text(encoding="utf-8") for p in sources])
    rootfs_image = f"localhost/fairwitness-standin-rootfs:{rootfs_key[:16]}"
    text = containerfile(rootfs_image, pip)
    key = digest(rootfs_key, text, hashlib.sha256(ca.read_bytes()).hexdigest())
    have = engine_run(
        command, "image", "inspect", "--format", f'{{{{ index .Labels "{LABEL}" }}}}', BASE
    )
    built = have.returncode != 0 or have.stdout.strip() != key
    if built:
        if engine_run(command, "image", "exists", rootfs_image).returncode != 0:
            tar = rootfs(sources)
            done = engine_run(command, "import", str(tar), rootfs_image)
            if done.returncode != 0:
                raise StandInError(f"podman import of {tar} failed: {done.stderr.strip()}")
        with tempfile.TemporaryDirectory(prefix="fairwitness-standin-") as tmp:
            (Path(tmp) / "Containerfile").write_text(text, encoding="utf-8")
            shutil.copyfile(ca, Path(tmp) / "host-ca-certificates.crt")
            done = engine_run(
                command,
                "build",
                "--network",
                "host",
                *LIMITS,
                "--pull=never",
                "--label",
                f"{LABEL}={key}",
                "-t",
                BASE,
                tmp,
            )
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise StandInError(f"building the stand-in failed (exit {done.returncode}):\n{tail}")
    version = engine_run(
        command, "run", "--rm", "--network", "host", *LIMITS, BASE, "python", "--version"
    )
    if version.returncode != 0:
        raise StandInError(f"the stand-in's python does not run: {version.stderr.strip()}")
    return StandIn(key, version.stdout.strip().removeprefix("Python "), built)


def main() -> int:
    print(f"container tier: {install_packages()}", flush=True)
    if shutil.which("podman") is None or shutil.which("runc") is None:
        print("container tier: no podman with runc here; the stand-in is not built", flush=True)
        return 0
    if os.geteuid() != 0:
        print("container tier: not root; the stand-in is built by the tier itself, if it can")
        return 0
    try:
        standin = ensure()
    except (StandInError, OSError, subprocess.SubprocessError) as exc:
        print(f"container tier: the stand-in could not be built: {exc}", flush=True)
        return 0
    print(f"container tier: {'built' if standin.built else 'reused'}: {standin.note()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
