"""Import a target (or any object) from a ``module:attribute`` entry point.

``module`` is a dotted module name found on ``sys.path`` (the folders given first), or a path to a
``.py`` file.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Literal

from fairwitness.errors import Problem, TargetLoadError
from fairwitness.targets.base import Target, from_callable


def _import_file(path: Path, where: str | None, field: str) -> ModuleType:
    if not path.is_file():
        raise TargetLoadError(Problem(f"no such file: {path}", file=where, field=field))
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    name = f"_fairwitness_user_{path.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetLoadError(Problem(f"cannot import {path}", file=where, field=field))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise TargetLoadError(
            Problem(f"importing {path} raised {type(exc).__name__}: {exc}", file=where, field=field)
        ) from exc
    return module


def _forget_shadowed(module_name: str, search_path: list[str]) -> None:
    """Drop a cached module of the same top-level name imported from elsewhere, when the search
    path holds its own (two projects may both have an ``agent.py``)."""
    top = module_name.partition(".")[0]
    cached = sys.modules.get(top)
    if cached is None or not search_path:
        return
    origin = getattr(cached, "__file__", None)
    for folder in search_path:
        base = Path(folder)
        if not ((base / f"{top}.py").is_file() or (base / top / "__init__.py").is_file()):
            continue
        if origin is not None and Path(origin).resolve().is_relative_to(base.resolve()):
            return
        for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
            del sys.modules[name]
        return


def _import_module(
    module_name: str, search_path: list[str], where: str | None, field: str
) -> ModuleType:
    _forget_shadowed(module_name, search_path)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            searched = ", ".join(search_path) or "sys.path"
            raise TargetLoadError(
                Problem(
                    f"cannot import {field} module '{module_name}' (searched {searched})",
                    file=where,
                    field=field,
                )
            ) from None
        raise TargetLoadError(
            Problem(
                f"importing {field} module '{module_name}' failed: {exc}", file=where, field=field
            )
        ) from exc
    except Exception as exc:
        raise TargetLoadError(
            Problem(
                f"importing {field} module '{module_name}' raised {type(exc).__name__}: {exc}",
                file=where,
                field=field,
            )
        ) from exc


def load_object(
    ref: str,
    *,
    search_path: Iterable[Path] = (),
    where: str | None = None,
    field: str = "target",
) -> object:
    """The object named by ``module:attribute`` (``module`` may be a path to a ``.py`` file)."""
    module_name, _, attr = ref.rpartition(":")
    if not module_name or not attr:
        raise TargetLoadError(
            Problem(f"{field} must look like module:function, got {ref!r}", file=where, field=field)
        )
    folders = [str(p) for p in search_path]
    for folder in reversed(folders):
        if folder in sys.path:
            sys.path.remove(folder)
        sys.path.insert(0, folder)
    if module_name.endswith(".py") or "/" in module_name or "\\" in module_name:
        module = _import_file(Path(module_name), where, field)
    else:
        module = _import_module(module_name, folders, where, field)
    obj: object = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise TargetLoadError(
                Problem(
                    f"module '{module_name}' has no attribute '{attr}'", file=where, field=field
                )
            ) from None
    return obj


def load_target(
    ref: str,
    *,
    search_path: Iterable[Path] = (),
    takes: Literal["auto", "case", "text"] = "auto",
    where: str | None = None,
) -> Target:
    """Import ``module:function`` with ``search_path`` first on ``sys.path``; raise one clear line."""
    obj = load_object(ref, search_path=search_path, where=where, field="target")
    if not callable(obj):
        raise TargetLoadError(
            Problem(
                f"'{ref}' is a {type(obj).__name__}, not a callable", file=where, field="target"
            )
        )
    target = from_callable(obj, takes=takes)
    return Target(fn=target.fn, takes=target.takes, is_async=target.is_async, name=ref)
