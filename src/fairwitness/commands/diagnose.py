"""``fairwitness diagnose``: the meter, blindness and relations for any callable."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from fairwitness.diagnostics.diagnose import DiagnoseConfig, Layer, diagnose
from fairwitness.diagnostics.relations import BUILTIN_RELATIONS, Relation
from fairwitness.errors import DatasetError, Problem, TargetLoadError, UsageError
from fairwitness.render import diagnosis_text
from fairwitness.targets.loader import load_object, load_target


def read_inputs(path: str) -> dict[str, str]:
    """One probe per line, split on ``\\n`` only; whitespace is kept (it can be the point of a
    probe; a CRLF file loses its ``\\r``); empty lines are skipped; duplicates are refused."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise DatasetError(
            Problem(f"cannot read inputs: {exc.strerror or exc}", file=path)
        ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetError(Problem(f"not valid UTF-8 at byte {exc.start}", file=path)) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and all(line.endswith("\r") for line in lines):
        lines = [line[:-1] for line in lines]
    inputs: dict[str, str] = {}
    seen: dict[str, int] = {}
    problems: list[Problem] = []
    for number, line in enumerate(lines, start=1):
        if line == "":
            continue
        if line in seen:
            problems.append(
                Problem(f"duplicate input (first on line {seen[line]})", file=path, line=number)
            )
            continue
        seen[line] = number
        inputs[f"line-{number}"] = line
    if problems:
        raise DatasetError(problems[0], problems=problems)
    if not inputs:
        raise DatasetError(Problem("no inputs (one probe per line)", file=path))
    return inputs


def _relations(ref: str | None) -> tuple[Relation, ...]:
    """The built-in relations, or those ``MOD:FUNC`` names (a Relation, an iterable of them, or a
    callable returning either)."""
    if ref is None:
        return BUILTIN_RELATIONS
    obj = load_object(ref, search_path=[Path.cwd()], field="relations")
    if callable(obj) and not isinstance(obj, Relation):
        obj = obj()
    if isinstance(obj, Relation):
        return (obj,)
    if not isinstance(obj, Iterable):
        raise TargetLoadError(
            Problem(f"'{ref}' is not a Relation or an iterable of them", field="relations")
        )
    items = tuple(obj)
    good = tuple(item for item in items if isinstance(item, Relation))
    if not good or len(good) != len(items):
        wrong = next((type(i).__name__ for i in items if not isinstance(i, Relation)), "nothing")
        raise TargetLoadError(
            Problem(f"'{ref}' must give Relation objects, got {wrong}", field="relations")
        )
    return good


def run_diagnose(
    agent: str,
    inputs: str,
    *,
    k: int = 4,
    epsilon: float = 0.01,
    layer: Layer = "verdict",
    design: str = "sequential",
    relations: str | None = None,
    as_json: bool = False,
    stdout: TextIO | None = None,
) -> int:
    """Diagnose ``agent`` (``MOD:FUNC``) on the probes in ``inputs``; return the exit code."""
    stdout = stdout or sys.stdout
    if design not in ("sequential", "fixed"):
        raise UsageError(f"--design must be sequential or fixed, got {design!r}")
    config = DiagnoseConfig(  # checks k and epsilon before anything is read or imported
        design=design,  # type: ignore[arg-type]
        k=k,
        epsilon=epsilon,
        layer=layer,
        relations=_relations(relations),
    )
    probes = read_inputs(inputs)
    target = load_target(agent, search_path=[Path.cwd()], where=None)
    diagnosis = diagnose(target, probes, config)
    if as_json:
        stdout.write(json.dumps(diagnosis.json_data(), indent=2, ensure_ascii=False) + "\n")
    else:
        stdout.write(diagnosis_text(diagnosis))
    if diagnosis.error is not None:
        sys.stderr.write(f"fairwitness: error: {diagnosis.error}\n")
    return diagnosis.exit_code
