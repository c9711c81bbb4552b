"""Targets: the user's agent as something the runner can call.

A target is ``async def target(case) -> str | dict | Observation`` or the same as a plain function
(the runner runs plain functions in a worker thread). :func:`from_callable` also accepts functions
of the input text: a first parameter annotated ``str``, or named like text (one of
:data:`TEXT_PARAMETERS`: ``text``, ``prompt``, ``query``, ``question``, ``message``,
``input_text``), receives the input text; a parameter annotated ``Case``, or named ``case``, or
anything else, receives the :class:`~fairwitness.Case`. What a target returns is normalised to an
:class:`Observation`; ``None`` or any other type is a target error, never a verdict.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from fairwitness.dataset import Case


class InvalidReturn(TypeError):
    """A target returned something that is not an answer."""


def json_state(value: Any, source: str = "state") -> dict[str, Any]:
    """``value`` as a plain JSON object (a copy made through JSON), or :class:`InvalidReturn`
    naming ``source`` when it is not a mapping with str keys of JSON values (finite numbers)."""
    if not isinstance(value, Mapping):
        raise InvalidReturn(f"{source} must be a JSON object (a dict), got {type(value).__name__}")
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidReturn(f"{source} is not JSON-serialisable: {exc}") from None
    copied: dict[str, Any] = json.loads(text)
    if set(copied) != set(value):  # json.dumps turns int, float, bool and None keys into str
        bad = next(key for key in value if not isinstance(key, str))
        raise InvalidReturn(f"{source} has a key that is not a str: {bad!r}")
    return copied


@dataclass(frozen=True)
class Observation:
    """What a target observably did: the answer text, the verdict, the tools it reports, the state
    of the world it left (a JSON object, see :func:`json_state`), raw data."""

    text: str
    verdict: str | None = None
    tools: tuple[str, ...] | None = None
    raw: Any = field(default=None, compare=False)
    state: dict[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"Observation.text must be str, got {type(self.text).__name__}")
        if self.verdict is not None and not isinstance(self.verdict, str):
            raise TypeError(f"Observation.verdict must be str or None, got {self.verdict!r}")
        if self.tools is not None:
            object.__setattr__(self, "tools", tuple(str(t) for t in self.tools))
        if self.state is not None:
            object.__setattr__(self, "state", json_state(self.state, "Observation.state"))


def to_observation(value: Any) -> Observation:
    """Normalise a target's return value; raises :class:`InvalidReturn` for anything unusable.

    A dict gives ``text`` (or ``answer``), ``verdict`` (or ``route``), ``tools`` and ``state``."""
    if isinstance(value, Observation):
        return value
    if isinstance(value, str):
        return Observation(text=value)
    if value is None:
        raise InvalidReturn("target returned None instead of an answer")
    if isinstance(value, Mapping):
        text = value.get("text", value.get("answer"))
        if not isinstance(text, str):
            raise InvalidReturn(
                "target returned a dict without a str 'text' (or 'answer') key: "
                f"keys are {sorted(map(str, value))}"
            )
        verdict = value.get("verdict", value.get("route"))
        if verdict is not None and not isinstance(verdict, str):
            raise InvalidReturn(f"target returned a non-str verdict: {verdict!r}")
        tools = value.get("tools")
        if tools is not None and not isinstance(tools, (list, tuple)):
            raise InvalidReturn(f"target returned 'tools' that is not a list: {tools!r}")
        state = value.get("state")
        return Observation(
            text=text,
            verdict=verdict,
            tools=tuple(str(t) for t in tools) if tools is not None else None,
            raw=value,
            state=None if state is None else json_state(state, "the target's 'state'"),
        )
    raise InvalidReturn(
        f"target returned {type(value).__name__}; expected str, dict with 'text', or Observation"
    )


@dataclass(frozen=True)
class Target:
    """A user callable, with how to call it."""

    fn: Callable[[Any], Any]
    takes: Literal["case", "text"]
    is_async: bool
    name: str

    def argument(self, case: Case) -> Any:
        """What the callable receives for ``case``."""
        return case.text if self.takes == "text" else case


TEXT_PARAMETERS = ("text", "prompt", "query", "question", "message", "input_text")
"""Names of a first parameter that receives the input text (when it is not annotated ``Case``)."""


def _annotation_name(annotation: Any) -> str | None:
    if annotation is inspect.Parameter.empty:
        return None
    if isinstance(annotation, str):  # from __future__ import annotations, or a quoted hint
        return annotation.strip().strip("'\"").rpartition(".")[2]
    return getattr(annotation, "__name__", None)


def _takes_text(fn: Callable[..., Any]) -> bool:
    """Whether ``fn``'s first positional parameter asks for the input text rather than the case:
    its annotation decides (``str`` or ``Case``), else its name (:data:`TEXT_PARAMETERS`)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    params = [
        p
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if not params:
        return False
    annotation = _annotation_name(params[0].annotation)
    if annotation == "str":
        return True
    if annotation == "Case":
        return False
    return params[0].name in TEXT_PARAMETERS


def explain_failure(target: Target, exc: BaseException) -> str:
    """The message to record for ``exc`` raised by ``target``: its own text, plus how to declare
    the argument when the error shows the target expected the other one (text vs case)."""
    message = str(exc)
    if not isinstance(exc, AttributeError):
        return message
    if target.takes == "case" and "'Case' object" in message:
        return (
            f"{message} (the target was given a fairwitness Case; to get the input text, "
            "annotate its first parameter `str`, name it one of "
            f'{", ".join(TEXT_PARAMETERS)}, or set target_takes = "text")'
        )
    if target.takes == "text" and "'str' object" in message:
        return (
            f"{message} (the target was given the input text; to get the fairwitness Case, "
            'annotate its first parameter `Case`, name it `case`, or set target_takes = "case")'
        )
    return message


def from_callable(
    fn: Target | Callable[[Any], Any] | Callable[[Any], Awaitable[Any]],
    *,
    takes: Literal["case", "text", "auto"] = "auto",
) -> Target:
    """Make a target from ``fn(case)`` or ``fn(text: str)``, sync or async.

    With ``takes="auto"`` a first parameter annotated ``str``, or not annotated ``Case`` and named
    one of :data:`TEXT_PARAMETERS`, receives the input text; anything else receives the
    :class:`~fairwitness.Case`.
    """
    if isinstance(fn, Target):
        return fn
    if not callable(fn):
        raise TypeError(f"a target must be callable, got {type(fn).__name__}")
    mode: Literal["case", "text"]
    if takes == "auto":
        mode = "text" if _takes_text(fn) else "case"
    elif takes in ("case", "text"):
        mode = takes
    else:
        raise ValueError(f"takes must be 'case', 'text' or 'auto', got {takes!r}")
    call = getattr(fn, "__call__", None)  # noqa: B004 - callable objects with async __call__
    is_async = inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(call)
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    module = getattr(fn, "__module__", None)
    return Target(fn=fn, takes=mode, is_async=is_async, name=f"{module}:{name}" if module else name)
