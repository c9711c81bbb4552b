"""The command line's wiring: every subcommand routed to its command function, and every flag of
a settings section checked by that section's model, naming the flag."""

from __future__ import annotations

import argparse
import importlib
import inspect
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from fairwitness.cli import ROUTES, main
from fairwitness.commands import _parser
from fairwitness.commands._parser import (
    CONFIG_ONLY,
    GATE_FLAGS,
    RENDER_FLAGS,
    RUN_FLAGS,
    build_parser,
)
from fairwitness.config import GateSettings, RenderConfig, RunConfig

# subcommand -> (a minimal command line, the module in fairwitness.commands, its function)
CALLS: dict[str, tuple[list[str], str, str]] = {
    "init": (["init", "here"], "init", "init"),
    "run": (["run"], "run", "run"),
    "diagnose": (["diagnose", "--agent", "m:f", "--inputs", "p.txt"], "diagnose", "run_diagnose"),
    "demo": (["demo"], "demo", "demo"),
    "merge": (["merge", "a.json", "--out", "m.json"], "merge", "merge"),
    "import": (
        ["import", "t.jsonl", "--format", "jsonl", "--out", "o"],
        "import_",
        "import_traces",
    ),
    "validate": (["validate", "cases.jsonl"], "validate", "validate"),
    "gate": (["gate", "b.json", "c.json"], "gate", "gate"),
    "compare": (["compare", "b.json", "c.json"], "render", "compare"),
    "render": (["render", "r.json"], "render", "render"),
    "view": (["view", "r.json", "--out", "r.html"], "view", "view"),
    "judge": (["judge", "calibrate"], "judge", "calibrate_from_config"),
    "readme": (["readme", "README.md", "--reports", "*.json", "--check"], "readme", "readme"),
}

SECTIONS: dict[str, tuple[type[Any], _parser._Flags]] = {
    "run": (RunConfig, RUN_FLAGS),
    "gate": (GateSettings, GATE_FLAGS),
    "render": (RenderConfig, RENDER_FLAGS),
}


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_subcommand_of_the_parser_is_routed_and_listed_here() -> None:
    listed = set(subcommands(build_parser()))
    assert listed == set(ROUTES) == set(CALLS)


@pytest.mark.parametrize("command", sorted(CALLS))
def test_each_subcommand_reaches_its_command_function(
    command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    argv, module, name = CALLS[command]
    monkeypatch.chdir(tmp_path)
    target = importlib.import_module(f"fairwitness.commands.{module}")
    signature = inspect.signature(getattr(target, name))
    calls: list[inspect.BoundArguments] = []

    def called(*args: Any, **kwargs: Any) -> int:
        calls.append(signature.bind(*args, **kwargs))  # the real function would accept them
        return 3

    monkeypatch.setattr(target, name, called)
    assert main(argv) == 3  # the command's exit code is the CLI's
    assert len(calls) == 1


def test_judge_has_one_subcommand_and_needs_it(capsys: pytest.CaptureFixture[str]) -> None:
    judge = subcommands(build_parser())["judge"]
    assert set(subcommands(judge)) == {"calibrate"}
    assert main(["judge"]) == 4
    assert capsys.readouterr().err == "fairwitness judge: a subcommand is required (calibrate)\n"


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_every_field_has_a_flag_or_is_config_only(section: str) -> None:
    model, flags = SECTIONS[section]
    assert not set(flags) & set(CONFIG_ONLY[section])
    assert set(flags) | set(CONFIG_ONLY[section]) == set(model.model_fields)


def kinds(annotation: Any) -> set[Any]:
    """The types a field takes, ``None`` aside."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return {a for arg in typing.get_args(annotation) for a in kinds(arg)} - {type(None)}
    return {annotation}


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_each_flag_converts_to_its_fields_type_and_offers_its_choices(section: str) -> None:
    model, flags = SECTIONS[section]
    converters = {_parser._int: int, _parser._number: float}
    for field, (flag, options) in flags.items():
        (kind,) = kinds(model.model_fields[field].annotation)
        if "choices" in options:
            assert typing.get_origin(kind) is typing.Literal, flag
            assert options["choices"] == list(typing.get_args(kind)), flag
        elif options.get("action") == "store_true":
            assert kind is bool, flag
        elif options.get("action") == "append":
            assert typing.get_origin(kind) in (list, dict), flag
        elif "type" in options:
            assert converters[options["type"]] is kind, flag
        else:
            assert kind is str, flag


def test_every_flag_name_is_declared_once() -> None:
    names = [flag for _, flags in SECTIONS.values() for flag, _ in flags.values()]
    assert len(names) == len(set(names))
    parsers = subcommands(build_parser())
    for command, tables in {
        "run": [RUN_FLAGS],
        "gate": [GATE_FLAGS, RENDER_FLAGS],
        "compare": [GATE_FLAGS, RENDER_FLAGS],
        "render": [GATE_FLAGS, RENDER_FLAGS],
    }.items():
        offered = {o for action in parsers[command]._actions for o in action.option_strings}
        assert {flag for table in tables for flag, _ in table.values()} <= offered, command


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["gate", "b.json", "c.json", "--alpha", "0.7"], "--alpha: Input should be less than 0.5"),
        (["compare", "b.json", "c.json", "--must-detect", "1"], "--must-detect: Input should be"),
        (["render", "r.json", "--metric", " "], "--metric: Value error, metric names must not"),
        (["run", "--retry", "11"], "--retry: Input should be less than or equal to 10 (got 11)"),
        (["run", "--concurrency", "0"], "--concurrency: Input should be greater than or equal"),
    ],
)
def test_a_value_the_model_refuses_names_the_flag_before_anything_is_read(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no config, no reports: the flag is refused first
    assert main(argv) == 4
    err = capsys.readouterr().err
    assert err.startswith(f"fairwitness: error: {message}") and err.count("\n") == 1, err


def test_a_value_the_model_refuses_in_the_config_names_its_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "fairwitness.toml"
    config.write_text(
        'target = "a:b"\n[[suites]]\nname = "s"\npath = "c.jsonl"\n[gate]\nalpha = 0.7\n',
        encoding="utf-8",
    )
    assert main(["gate", "b.json", "c.json"]) == 4
    assert capsys.readouterr().err == (
        f"fairwitness: error: {config}:6: field 'gate.alpha': Input should be less than 0.5\n"
    )
