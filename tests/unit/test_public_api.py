from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import fairwitness
from fairwitness import schemas

ROOT = Path(__file__).resolve().parents[2]

PROMISED = {
    "tool",
    "Ok",
    "Empty",
    "Err",
    "Observation",
    "from_callable",
    "current",
    "Case",
    "Dataset",
    "Runner",
    "Report",
}


def test_all_is_sorted_and_complete() -> None:
    assert fairwitness.__all__ == sorted(fairwitness.__all__)
    assert set(fairwitness.__all__) >= PROMISED
    for name in fairwitness.__all__:
        assert getattr(fairwitness, name) is not None


@pytest.mark.parametrize(
    "module",
    [
        "fairwitness.tools",
        "fairwitness.trace",
        "fairwitness.targets",
        "fairwitness.scoring",
        "fairwitness.judge",
        "fairwitness.diagnostics",
        "fairwitness.report",
        "fairwitness.stats",
    ],
)
def test_subpackage_all_is_sorted_and_resolves(module: str) -> None:
    mod = importlib.import_module(module)
    assert mod.__all__ == sorted(mod.__all__)
    for name in mod.__all__:
        assert hasattr(mod, name)


def test_unknown_attribute_raises() -> None:
    with pytest.raises(AttributeError):
        fairwitness.does_not_exist  # noqa: B018


def test_import_is_lazy() -> None:
    # `import fairwitness` must not drag in pydantic: the CLI's --version and agents stay fast.
    code = "import sys, fairwitness; print('pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_committed_schemas_match_the_models() -> None:
    for filename, schema in schemas.schemas().items():
        committed = (ROOT / "schemas" / filename).read_text(encoding="utf-8")
        assert committed == schemas.render(schema), (
            f"schemas/{filename} is out of date: run `python -m fairwitness.schemas schemas/`"
        )
        assert json.loads(committed)["$schema"].endswith("2020-12/schema")


def test_schema_export_writes_files(tmp_path: Path) -> None:
    assert schemas.main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(schemas.SCHEMA_FILES)
    assert schemas.main([]) == 4
