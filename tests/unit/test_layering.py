"""Imports point one way, down the stack in DESIGN.md, never back up and never in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "fairwitness"

# Lower numbers sit lower in the stack; a module may import only from its own rank or below.
RANK = {
    "_version": 0,
    "_atomic": 0,
    "_format": 0,
    "_gc": 0,
    "_jsonable": 0,
    "_lazy": 0,
    "_threads": 0,
    "_toml_lines": 0,
    "errors": 0,
    "stats": 0,
    "trace": 1,
    "tools": 2,
    "config": 2,
    "dataset": 2,
    "targets": 3,
    "scoring": 3,
    "judge": 4,
    "runner": 4,
    "diagnostics": 4,
    "report": 5,
    "gate": 6,
    "suites": 6,
    "render": 7,
    "readme": 7,
    "view": 7,
    "schemas": 8,
    "commands": 8,
    "github": 8,
    "cli": 9,
    "__main__": 9,
}


def unit_of(module: str) -> str:
    return module.split(".")[1]


def runtime_imports(path: Path) -> set[str]:
    """fairwitness modules imported at run time (``if TYPE_CHECKING:`` blocks excluded)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("fairwitness.")
        ):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("fairwitness."))
    return found


def test_every_module_has_a_rank() -> None:
    units = {p.relative_to(SRC).parts[0].removesuffix(".py") for p in SRC.iterdir()}
    units -= {"__init__", "py.typed", "__pycache__"}
    assert units <= set(RANK), sorted(units - set(RANK))


def test_imports_only_point_down() -> None:
    violations = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        if rel.parts == ("__init__.py",) or (
            rel.parts[0] == "commands" and rel.parts[1] == "starter"
        ):
            continue  # the package root re-exports lazily; starter files are user code
        own = rel.parts[0].removesuffix(".py")
        for module in runtime_imports(path):
            other = unit_of(module)
            if RANK[other] > RANK[own]:
                violations.append(
                    f"{rel} imports {module} ({own} {RANK[own]} -> {other} {RANK[other]})"
                )
    assert violations == []


def test_no_command_imports_another_and_only_the_cli_imports_commands() -> None:
    found = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "commands" and len(rel.parts) > 1 and rel.parts[1] == "starter":
            continue  # starter files are user code
        if rel.parts[0] in ("cli.py", "__main__.py") or rel.parts == ("__init__.py",):
            continue
        for module in runtime_imports(path):
            if module.startswith("fairwitness.commands"):
                found.append(f"{rel} imports {module}")
    assert found == [], "shared pieces belong in the package they serve:\n" + "\n".join(found)


def test_unit_tests_mirror_the_package() -> None:
    """``tests/unit/PACKAGE/`` holds the tests of ``fairwitness.PACKAGE``; files directly in
    ``tests/unit/`` test the package's top-level modules or the package as a whole."""
    unit = Path(__file__).resolve().parent
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    folders = {p.name for p in unit.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders <= packages, sorted(folders - packages)
    loose = sorted(p.name for p in unit.glob("test_*.py"))
    assert loose == [
        "test_config.py",
        "test_dataset.py",
        "test_gc.py",
        "test_layering.py",
        "test_public_api.py",
        "test_readme.py",
    ], loose


def _module_name(path: Path) -> str:
    parts = ("fairwitness", *path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_targets(path: Path, modules: set[str]) -> set[str]:
    """The fairwitness modules ``path`` imports at run time, a function's own imports included
    (``if TYPE_CHECKING:`` excluded): ``from fairwitness.a import b`` names module ``a.b`` when
    ``b`` is a module, else ``a``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module in modules:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative),
    and modules that import themselves."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph[node]:
                        found.append(sorted(component))
    return found


def test_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "d"}, "e": set()}
    assert _cycles(graph) == [["a", "b", "c"], ["d"]]


def test_no_import_cycles_between_modules() -> None:
    """No two modules import each other, directly or through others, even lazily inside a
    function: a cycle is a design that only works in one import order."""
    paths = {
        _module_name(p): p for p in SRC.rglob("*.py") if "starter" not in p.relative_to(SRC).parts
    }
    modules = set(paths)
    graph = {name: _import_targets(path, modules) for name, path in paths.items()}
    assert _cycles(graph) == []


MAX_LINES = 500
"""A module that grows past this is split by responsibility (DESIGN.md's style)."""


def test_modules_stay_small() -> None:
    long = {
        str(path.relative_to(SRC)): lines
        for path in SRC.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these by responsibility: {long}"
