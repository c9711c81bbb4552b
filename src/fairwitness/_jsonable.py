"""One way to turn a result into JSON data, for every result class that is not a pydantic model.

A frozen dataclass becomes a dict of its fields in declaration order (a field marked
``metadata={"json": False}`` is left out), tuples and lists become lists, nested dataclasses and
models are converted the same way (a model through its own ``json_data()`` when it has one), and
numbers, strings, booleans and ``None`` are kept. No result class writes its dict by hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any


def fields_data(instance: Any) -> dict[str, Any]:
    """A dataclass instance's fields as JSON-ready data, in declaration order."""
    return {
        f.name: json_data(getattr(instance, f.name))
        for f in dataclasses.fields(instance)
        if f.metadata.get("json", True)
    }


def json_data(value: Any) -> Any:
    """``value`` as JSON-ready data (see the module docstring)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return fields_data(value)
    if isinstance(value, tuple | list):
        return [json_data(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): json_data(item) for key, item in value.items()}
    own = getattr(value, "json_data", None)
    if callable(own):
        return own()
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    return value


__all__ = ["fields_data", "json_data"]
