"""The gate's settings as a user gives them: command-line values first, then the project
config's ``[gate]`` and ``[render]`` sections, then the defaults; a bad value is a usage error
naming the flag the user wrote. The CLI, the demo and the action all build them here."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from fairwitness.config import project_config, settings_from
from fairwitness.errors import UsageError
from fairwitness.gate._settings import GateSettings

_FLOOR_SYNTAX = "NAME=VALUE, e.g. route=0.95 or misreport_as_empty_max=0.02"


def parse_floors(items: list[str] | None) -> dict[str, float]:
    """``NAME=VALUE`` strings to a dict; bad syntax, a non-number or a repeat is a usage error."""
    floors: dict[str, float] = {}
    for item in items or []:
        name, sep, text = item.partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not name or not text:
            raise UsageError(f"--floor: expected {_FLOOR_SYNTAX}; got {item!r}")
        try:
            value = float(text)
        except ValueError:
            raise UsageError(f"--floor {name}: expected a number, got {text!r}") from None
        if not math.isfinite(value):
            raise UsageError(f"--floor {name}: expected a finite number, got {text!r}")
        if name in floors:
            raise UsageError(f"--floor {name}: given more than once")
        floors[name] = value
    return floors


def gate_settings(
    config: str | None = None,
    *,
    given: Mapping[str, Any] | None = None,
    floors: list[str] | None = None,
    templates: str | None = None,
    flags: Mapping[str, str] | None = None,
) -> tuple[GateSettings, str | None]:
    """The gate's settings and the templates folder: ``given`` values (by
    :class:`GateSettings` field; ``None`` is not given) first, then the config's ``[gate]`` and
    ``[render]`` sections (``config`` names the file, else the one in the current folder), then
    the defaults. ``floors`` (``NAME=VALUE`` strings, as ``--floor`` takes them) add to the
    config's floors and replace those of the same name. A bad value is a usage error naming its
    flag in ``flags`` (field -> flag)."""
    loaded = project_config(config)
    values: dict[str, Any] = {}
    folder = templates
    if loaded is not None:
        section = loaded.config.gate
        values = {name: getattr(section, name) for name in section.model_fields_set}
        if folder is None and loaded.config.render.templates is not None:
            folder = str(loaded.resolve(loaded.config.render.templates))
    chosen = {key: value for key, value in (given or {}).items() if value is not None}
    merged = {**values.get("floors", {}), **chosen.pop("floors", {}), **parse_floors(floors)}
    values.update(chosen)
    values["floors"] = merged
    return settings_from(GateSettings, values, flags or {}), folder
