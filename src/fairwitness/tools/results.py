"""Typed tool results: ``Ok``, ``Empty`` and ``Err``, a tagged union on ``status``.

A tool that failed must never look like a tool that found nothing. The type keeps the three apart in
code, and :meth:`to_model` keeps them apart in the text the model reads: an error says in words that
the lookup failed and that the model cannot know whether matching data exists.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fairwitness.trace.model import ErrKind

RETRYABLE_KINDS: frozenset[str] = frozenset({"timeout", "rate_limit", "upstream"})

EMPTY_NOTE = "The lookup succeeded and matched no records."
TRUNCATED_NOTE = "Only part of the result is shown; more data exists than is listed here."
ERR_NOTE = (
    "This tool call failed, so nothing is known about whether matching data exists. "
    "Do not tell the user that there are no results or that nothing exists; "
    "tell them the lookup failed and, if it helps, that they can try again."
)


def to_jsonable(value: Any) -> Any:
    """A JSON-safe rendering of a tool value or argument (models, dataclasses, sets, bytes)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_jsonable(v) for v in value), key=repr)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_jsonable(dataclasses.asdict(value))
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return repr(value)


def _positional(
    names: tuple[str, ...], args: tuple[Any, ...], data: dict[str, Any]
) -> dict[str, Any]:
    """Map positional constructor arguments onto field names (validation passes keywords only)."""
    if len(args) > len(names):
        raise TypeError(f"takes at most {len(names)} positional arguments, got {len(args)}")
    for name, value in zip(names, args, strict=False):
        if name in data:
            raise TypeError(f"got multiple values for argument '{name}'")
        data[name] = value
    return data


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(", ", ": "))


class Ok(BaseModel):
    """The tool succeeded and returned ``value`` (which may be 0, False or "": values, not emptiness)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    status: Literal["ok"] = "ok"
    """Discriminator."""
    value: Any
    """What the tool returned."""
    truncated: bool = False
    """True when ``value`` was cut short and more data exists."""

    if TYPE_CHECKING:

        def __init__(self, value: Any, /, truncated: bool = False) -> None: ...

    else:

        def __init__(self, *args: Any, **data: Any) -> None:
            super().__init__(**_positional(("value", "truncated"), args, data))

    def to_model(self) -> str:
        """The JSON string to put in the tool message."""
        payload: dict[str, Any] = {
            "status": "ok",
            "data": to_jsonable(self.value),
            "truncated": self.truncated,
        }
        if self.truncated:
            payload["note"] = TRUNCATED_NOTE
        return _dumps(payload)


class Empty(BaseModel):
    """The tool succeeded and there is genuinely nothing to return."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Literal["empty"] = "empty"
    """Discriminator."""
    note: str = EMPTY_NOTE
    """What the emptiness means, in words the model can relay."""

    if TYPE_CHECKING:

        def __init__(self, note: str = EMPTY_NOTE, /) -> None: ...

    else:

        def __init__(self, *args: Any, **data: Any) -> None:
            super().__init__(**_positional(("note",), args, data))

    def to_model(self) -> str:
        """The JSON string to put in the tool message."""
        return _dumps({"status": "empty", "note": self.note})


class Err(BaseModel):
    """The tool failed. Whether data exists is unknown, and the text the model reads says so."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Literal["error"] = "error"
    """Discriminator."""
    kind: ErrKind
    """Why it failed."""
    message: str = ""
    """The underlying error message (for logs and traces)."""
    retryable: bool = False
    """Whether trying again may succeed."""
    fault_injected: bool = False
    """True when the failure was injected on purpose by a declared fault."""

    if TYPE_CHECKING:

        def __init__(
            self,
            kind: ErrKind,
            message: str = "",
            /,
            retryable: bool | None = None,
            fault_injected: bool = False,
        ) -> None: ...

    else:

        def __init__(self, *args: Any, **data: Any) -> None:
            data = _positional(("kind", "message", "retryable", "fault_injected"), args, data)
            if data.get("retryable") is None:
                data["retryable"] = data.get("kind") in RETRYABLE_KINDS
            super().__init__(**data)

    def to_model(self) -> str:
        """The JSON string to put in the tool message; always carries the do-not-claim-absence note."""
        return _dumps(
            {
                "status": "error",
                "kind": self.kind,
                "retryable": self.retryable,
                "message": self.message,
                "note": ERR_NOTE,
            }
        )


ToolResult = Annotated[Ok | Empty | Err, Field(discriminator="status")]
"""Any typed tool result, discriminated on ``status``."""
