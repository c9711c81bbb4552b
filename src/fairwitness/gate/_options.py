"""The gate's settings as a user gives them: command-line values first, then the project
config's ``[gate]`` and ``[render]`` sections, then the defaults; a bad value is a usage error
naming the flag the user wrote. The CLI, the demo and the action all build them here."""

from __future__ import annotations

import math
from typing import Any

from pydantic import ValidationError

from fairwitness.config import project_config
from fairwitness.errors import UsageError
from fairwitness.gate._settings import GateSettings

_FLAGS = {
    "alpha": "--alpha",
    "test": "--test",
    "gated": "--metric",
    "floors": "--floor",
    "max_unstable_rate": "--max-unstable-rate",
    "must_detect": "--must-detect",
    "max_unpaired": "--max-unpaired",
}
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


def _settings(values: dict[str, Any]) -> GateSettings:
    try:
        return GateSettings.model_validate(values)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        key = str(first["loc"][0]) if first["loc"] else ""
        flag = _FLAGS.get(key, key)
        raise UsageError(f"{flag}: {first['msg']} (got {values.get(key)!r})") from None


def gate_settings(
    *,
    config: str | None = None,
    alpha: float | None = None,
    test: str | None = None,
    metrics: list[str] | None = None,
    floors: list[str] | None = None,
    max_unstable_rate: float | None = None,
    must_detect: float | None = None,
    max_unpaired: int | None = None,
    fail_on_vacuous: bool | None = None,
    allow_model_change: bool | None = None,
    templates: str | None = None,
) -> tuple[GateSettings, str | None]:
    """The gate's settings and the templates folder: command-line values first, then the
    config's ``[gate]`` and ``[render]`` sections, then the defaults. A bad value is a usage
    error naming its flag."""
    loaded = project_config(config)
    values: dict[str, Any] = {}
    folder = templates
    if loaded is not None:
        section = loaded.config.gate
        values = section.model_dump(exclude_unset=True)
        if "metrics" in values:
            values["gated"] = values.pop("metrics")
        if folder is None and loaded.config.render.templates is not None:
            folder = str(loaded.resolve(loaded.config.render.templates))
    flags: dict[str, Any] = {
        "alpha": alpha,
        "test": test,
        "gated": metrics,
        "max_unstable_rate": max_unstable_rate,
        "must_detect": must_detect,
        "max_unpaired": max_unpaired,
        "fail_on_vacuous": fail_on_vacuous,
        "allow_model_change": allow_model_change,
    }
    values.update({key: value for key, value in flags.items() if value is not None})
    values["floors"] = {**values.get("floors", {}), **parse_floors(floors)}
    return _settings(values), folder
