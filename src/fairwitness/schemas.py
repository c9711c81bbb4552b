"""JSON Schemas of the saved formats, exported from the models.

``python -m fairwitness.schemas DIR`` writes ``case``, ``trace``, ``report`` and ``decision``
(``gate --json``) schemas into DIR;
the test suite fails when the committed files drift from the models.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

SCHEMA_FILES = {
    "case.schema.json": "case",
    "trace.schema.json": "trace",
    "report.schema.json": "report",
    "decision.schema.json": "decision",
}


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> JSON Schema, for every saved format."""
    from fairwitness.dataset import Case
    from fairwitness.gate import Decision
    from fairwitness.report import Report
    from fairwitness.trace.model import Trace

    models: dict[str, type[BaseModel]] = {
        "case": Case,
        "trace": Trace,
        "report": Report,
        "decision": Decision,
    }
    out: dict[str, dict[str, Any]] = {}
    for filename, key in SCHEMA_FILES.items():
        schema = models[key].model_json_schema(by_alias=True, mode="serialization")
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        out[filename] = schema
    return out


def schema_text(schema: dict[str, Any]) -> str:
    """The exact text written for a schema."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python -m fairwitness.schemas DIR\n")
        return 4
    directory = Path(args[0])
    directory.mkdir(parents=True, exist_ok=True)
    for filename, schema in schemas().items():
        (directory / filename).write_text(schema_text(schema), encoding="utf-8")
        sys.stdout.write(f"wrote {directory / filename}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
