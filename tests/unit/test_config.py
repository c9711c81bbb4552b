from __future__ import annotations

from pathlib import Path

import pytest

from fairwitness.config import load_config
from fairwitness.errors import ConfigError

MINIMAL = """\
target = "agent:target"

[[suites]]
name = "s"
path = "cases.jsonl"
"""


def write(tmp_path: Path, text: str, name: str = "fairwitness.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_and_paths_resolve_against_the_config(tmp_path: Path) -> None:
    loaded = load_config(write(tmp_path, MINIMAL))
    assert loaded.config.run.repeats == 1
    assert loaded.config.run.mode == "live"
    assert loaded.resolve("cases.jsonl") == tmp_path.resolve() / "cases.jsonl"
    assert loaded.suite("s").split == "test"
    assert loaded.hash().startswith("sha256:")


def test_unknown_key_names_line_and_suggests(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL + "\n[run]\nrepeat = 3\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.exit_code == 4
    assert (
        str(caught.value) == f"{path}:8: field 'run.repeat': unknown key (did you mean 'repeats'?)"
    )


def test_unknown_top_level_key_and_suite_key(tmp_path: Path) -> None:
    path = write(tmp_path, 'targte = "x:y"\n' + MINIMAL + 'sutie_version = "2"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    lines = [str(p) for p in caught.value.problems]
    assert f"{path}:1: field 'targte': unknown key (did you mean 'target'?)" in lines
    assert (
        f"{path}:7: field 'suites[0].sutie_version': unknown key (did you mean 'suite_version'?)"
        in lines
    )


def test_unknown_key_without_a_close_match(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL + "\n[run]\nzzz = 1\n")
    with pytest.raises(ConfigError, match=r"field 'run.zzz': unknown key$"):
        load_config(path)


def test_invalid_values_and_missing_keys(tmp_path: Path) -> None:
    path = write(
        tmp_path, '[[suites]]\nname = "s"\npath = "c.jsonl"\n[run]\nrepeats = 0\nmode = "fast"\n'
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    lines = [str(p) for p in caught.value.problems]
    assert f"{path}: field 'target': required key is missing" in lines
    assert any(
        line.startswith(f"{path}:5: field 'run.repeats': Input should be greater") for line in lines
    )
    assert any(line.startswith(f"{path}:6: field 'run.mode'") for line in lines)


def test_bad_target_shape(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="field 'target'"):
        load_config(write(tmp_path, MINIMAL.replace("agent:target", "agent.target")))


def test_toml_syntax_error_has_a_line(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL + "\n[run\nrepeats = 2\n")
    with pytest.raises(ConfigError, match=rf"^{path}:7: invalid TOML"):
        load_config(path)


def test_duplicate_suite_names(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL + '\n[[suites]]\nname = "s"\npath = "other.jsonl"\n')
    with pytest.raises(ConfigError, match="duplicate suite names: s"):
        load_config(path)


def test_pyproject_tool_table_and_discovery(tmp_path: Path) -> None:
    text = (
        '[project]\nname = "x"\n\n[tool.fairwitness]\ntarget = "a:b"\n\n'
        '[[tool.fairwitness.suites]]\nname = "s"\npath = "c.jsonl"\n'
    )
    write(tmp_path, text, "pyproject.toml")
    loaded = load_config(cwd=tmp_path)
    assert loaded.source.name == "pyproject.toml"
    assert loaded.config.target == "a:b"


def test_pyproject_unknown_key_is_prefixed(tmp_path: Path) -> None:
    text = (
        '[tool.fairwitness]\ntarget = "a:b"\ntarget_take = "text"\n'
        '[[tool.fairwitness.suites]]\nname = "s"\npath = "c"\n'
    )
    path = write(tmp_path, text, "pyproject.toml")
    with pytest.raises(
        ConfigError,
        match=r"field 'tool.fairwitness.target_take': unknown key \(did you mean 'target_takes'\?\)",
    ):
        load_config(path)


def test_discovery_prefers_fairwitness_toml_and_explains_absence(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no fairwitness\.toml"):
        load_config(cwd=tmp_path)
    write(tmp_path, MINIMAL)
    assert load_config(cwd=tmp_path).source.name == "fairwitness.toml"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "nope.toml")


def test_unknown_suite_lists_known(tmp_path: Path) -> None:
    loaded = load_config(write(tmp_path, MINIMAL))
    with pytest.raises(ConfigError, match=r"no suite named 'x' \(known: s\)"):
        loaded.suite("x")


def test_the_gate_section_is_the_gates_own_model(tmp_path: Path) -> None:
    from fairwitness.gate import GateSettings

    loaded = load_config(write(tmp_path, MINIMAL + '\n[gate]\nmetrics = ["route"]\nalpha = 0.1\n'))
    assert isinstance(loaded.config.gate, GateSettings)
    assert loaded.config.gate == GateSettings(gated=["route"], alpha=0.1)
    assert loaded.config.gate.model_fields_set == {"gated", "alpha"}


def test_a_gate_value_the_gate_refuses_is_refused_at_its_key(tmp_path: Path) -> None:
    """The constraints the gate checks are the config's: located at the key the user wrote."""
    for body, line, key, words in [
        ("metrics = []", 8, "gate.metrics", "name at least one metric"),
        ("alpha = 0.7", 8, "gate.alpha", "Input should be less than 0.5"),
        ("must_detect = nan", 8, "gate.must_detect", "finite number"),
    ]:
        path = write(tmp_path, MINIMAL + f"\n[gate]\n{body}\n")
        with pytest.raises(ConfigError) as caught:
            load_config(path)
        text = str(caught.value)
        assert text.startswith(f"{path}:{line}: field '{key}': ") and words in text, text


def test_the_gate_key_is_metrics_never_the_field_name(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL + '\n[gate]\ngatd = ["route"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).endswith("field 'gate.gatd': unknown key")
    path = write(tmp_path, MINIMAL + '\n[gate]\nmetrcs = ["route"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).endswith("unknown key (did you mean 'metrics'?)")
    path = write(tmp_path, MINIMAL + '\n[gate]\ngated = ["route"]\n')
    with pytest.raises(ConfigError, match=r"field 'gate\.gated': unknown key"):
        load_config(path)


def test_the_config_hash_names_gate_keys_as_the_file_does(tmp_path: Path) -> None:
    """Reports record the config's hash: one model for ``[gate]`` must not change it."""
    loaded = load_config(write(tmp_path, MINIMAL))
    dumped = loaded.config.model_dump(mode="json")["gate"]
    assert "metrics" in dumped and "gated" not in dumped
    assert loaded.hash() == "sha256:06e2635a68ee9dec"
