from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
import types
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


PACKAGES = sorted(
    info.name
    for info in pkgutil.walk_packages(fairwitness.__path__, "fairwitness.")
    if info.ispkg and not info.name.startswith("fairwitness.commands")
)
"""Every package but ``commands`` (the CLI's private half) promises its names in ``__all__``."""

MACHINERY = {"annotations", "TYPE_CHECKING", "lazy_exports"}
"""Names a package's ``__init__`` imports to work, not to offer."""


def test_every_package_is_covered() -> None:
    assert {
        "fairwitness.gate",
        "fairwitness.github",
        "fairwitness.judge",
        "fairwitness.render",
        "fairwitness.runner",
    } <= set(PACKAGES)


@pytest.mark.parametrize("module", PACKAGES)
def test_subpackage_all_is_sorted_and_resolves(module: str) -> None:
    mod = importlib.import_module(module)
    assert mod.__all__ == sorted(mod.__all__)
    assert len(set(mod.__all__)) == len(mod.__all__)
    for name in mod.__all__:
        assert hasattr(mod, name), f"{module}.__all__ names {name!r}, which does not resolve"


@pytest.mark.parametrize("module", PACKAGES)
def test_every_public_name_is_in_all(module: str) -> None:
    """Every public name a package holds is either promised in ``__all__`` or is one of its
    modules: a name imported into ``__init__`` and left out of ``__all__`` is an accident.
    Lazily exported names are read first, so each package's namespace is complete."""
    mod = importlib.import_module(module)
    for info in pkgutil.iter_modules(mod.__path__, f"{module}."):
        importlib.import_module(info.name)
    for name in mod.__all__:
        getattr(mod, name)
    stray = sorted(
        name
        for name, value in vars(mod).items()
        if not name.startswith("_")
        and name not in MACHINERY
        and name not in mod.__all__
        and not (isinstance(value, types.ModuleType) and value.__name__ == f"{module}.{name}")
    )
    assert stray == [], f"{module}: public but not in __all__: {stray}"
    where = getattr(mod, "_WHERE", None)
    if where is not None:
        assert set(where) <= set(mod.__all__), f"{module}: lazy names missing from __all__"


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
        assert committed == schemas.schema_text(schema), (
            f"schemas/{filename} is out of date: run `python -m fairwitness.schemas schemas/`"
        )
        assert json.loads(committed)["$schema"].endswith("2020-12/schema")


def test_schema_export_writes_files(tmp_path: Path) -> None:
    assert schemas.main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(schemas.SCHEMA_FILES)
    assert schemas.main([]) == 4
