"""action.yml and the settings agree: every input reaches a variable the action reads, and every
``FW_*`` variable the action reads can be set by an input."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import yaml

from fairwitness.github import Settings

ACTION = Path(__file__).resolve().parents[3] / "action.yml"


def action() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return loaded


def mapped() -> dict[str, str]:
    """``FW_*`` variable -> the input it is set from, as ``runs.env`` maps them."""
    env: dict[str, str] = action()["runs"]["env"]
    found = {}
    for name, value in env.items():
        assert value.startswith("${{ inputs.") and value.endswith(" }}"), (name, value)
        found[name] = value.removeprefix("${{ inputs.").removesuffix(" }}")
    return found


def test_every_variable_the_action_reads_is_set_by_an_input_and_no_other() -> None:
    read = {name for name in Settings.variables() if name.startswith("FW_")}
    assert set(mapped()) == read


def test_every_input_is_mapped_once_to_its_own_variable() -> None:
    inputs = action()["inputs"]
    pairs = mapped()
    assert sorted(pairs.values()) == sorted(inputs)
    for variable, name in pairs.items():
        assert variable == "FW_" + name.upper().replace("-", "_")


def test_every_input_is_described_and_its_default_is_the_settings_default() -> None:
    defaults = {f.name: f.default for f in dataclasses.fields(Settings)}
    fields_of = Settings.variables()
    for variable, name in mapped().items():
        spec = action()["inputs"][name]
        assert spec["description"].strip() and spec["required"] is False, name
        default = defaults[fields_of[variable]]
        if isinstance(default, str):
            assert spec["default"] == default, name
        parsed = Settings.from_environ({variable: str(spec["default"])})
        if "${{" not in str(spec["default"]) and variable != "FW_BASELINE":
            assert getattr(parsed, fields_of[variable]) == getattr(Settings(), fields_of[variable])
