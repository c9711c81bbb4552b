"""The saved form shared by every block of a report's ``diagnostics``.

A block is a frozen pydantic model that is written back the way it was read: the fields given when
it was made (or present in the file it was read from) are written, in declaration order, and keys
this version does not know are kept. Reading a block by key (``block["flips"]``) gives its saved
JSON value, for code written when the diagnostics were plain dicts.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["DiagnosticBlock", "NotMeasured"]


class DiagnosticBlock(BaseModel):
    """A block of a report's ``diagnostics``: typed fields, unknown keys kept, saved as read."""

    model_config = ConfigDict(frozen=True, extra="allow", use_attribute_docstrings=True)

    def json_data(self) -> dict[str, Any]:
        """The block as JSON data: the fields it was given or read with, unknown keys kept."""
        return self.model_dump(mode="json", exclude_unset=True)

    def __setattr__(self, name: str, value: Any) -> None:
        # the error frozen dataclasses raise, as the results did when they were dataclasses
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __getitem__(self, key: str) -> Any:
        return self.json_data()[key]

    def __contains__(self, key: object) -> bool:
        return key in self.json_data()

    def get(self, key: str, default: Any = None) -> Any:
        """The saved JSON value of ``key``, or ``default`` when the block has none."""
        return self.json_data().get(key, default)


class NotMeasured(DiagnosticBlock):
    """A diagnostic that was not measured, and why."""

    measured: Literal[False]
    """Always false: nothing was measured."""
    reason: str
    """Why it was not measured."""
