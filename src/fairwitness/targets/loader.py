"""Import a target from a ``module:function`` entry point."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from fairwitness.errors import Problem, TargetLoadError
from fairwitness.targets.base import Target, from_callable


def load_target(
    ref: str,
    *,
    search_path: Iterable[Path] = (),
    takes: Literal["auto", "case", "text"] = "auto",
    where: str | None = None,
) -> Target:
    """Import ``module:function`` with ``search_path`` first on ``sys.path``; raise one clear line."""
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise TargetLoadError(
            Problem(
                f"target must look like module:function, got {ref!r}", file=where, field="target"
            )
        )
    for folder in reversed([str(p) for p in search_path]):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            searched = ", ".join(str(p) for p in search_path) or "sys.path"
            raise TargetLoadError(
                Problem(
                    f"cannot import target module '{module_name}' (searched {searched})",
                    file=where,
                    field="target",
                )
            ) from None
        raise TargetLoadError(
            Problem(
                f"importing target module '{module_name}' failed: {exc}", file=where, field="target"
            )
        ) from exc
    except Exception as exc:
        raise TargetLoadError(
            Problem(
                f"importing target module '{module_name}' raised {type(exc).__name__}: {exc}",
                file=where,
                field="target",
            )
        ) from exc
    obj: object = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise TargetLoadError(
                Problem(
                    f"module '{module_name}' has no attribute '{attr}'", file=where, field="target"
                )
            ) from None
    if not callable(obj):
        raise TargetLoadError(
            Problem(
                f"'{ref}' is a {type(obj).__name__}, not a callable", file=where, field="target"
            )
        )
    target = from_callable(obj, takes=takes)
    return Target(fn=target.fn, takes=target.takes, is_async=target.is_async, name=ref)
