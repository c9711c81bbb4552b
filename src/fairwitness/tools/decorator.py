"""``@tool(...)``: wrap a sync or async function so it returns ``Ok | Empty | Err`` and never raises.

- Exceptions become ``Err`` with a classified ``kind``; only ``asyncio.CancelledError``,
  ``KeyboardInterrupt``, ``SystemExit`` and ``GeneratorExit`` propagate.
- ``empty_when=`` is the only way a value becomes ``Empty``: 0, False, "" and [] are values unless
  the predicate says otherwise.
- ``timeout_s`` bounds each attempt, ``retries`` retries retryable errors with exponential backoff,
  ``truncate_at`` caps the JSON size of an ``Ok`` value in bytes.
- Inside a trial every call is recorded into the trace, and declared faults are injected.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import json
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar, overload

from fairwitness.tools.faults import Injection, plan, truncate_value
from fairwitness.tools.results import Empty, Err, Ok, to_jsonable
from fairwitness.trace.context import TrialContext, active
from fairwitness.trace.model import ErrKind, ToolCall

P = ParamSpec("P")
R = TypeVar("R")
Result = Ok | Empty | Err

_PROPAGATE = (asyncio.CancelledError, KeyboardInterrupt, SystemExit, GeneratorExit)

_REGISTRY: dict[str, str] = {}
_REGISTRY_LOCK = threading.Lock()


def registered_tools() -> list[str]:
    """Names of every tool wrapped with ``@tool`` in this process, sorted."""
    with _REGISTRY_LOCK:
        return sorted(_REGISTRY)


@dataclass(frozen=True)
class ToolSpec:
    """How a tool was declared."""

    name: str
    empty_when: Callable[[Any], bool] | None
    timeout_s: float | None
    retries: int
    backoff_s: float
    truncate_at: int | None


# -- classification ------------------------------------------------------------------------------


def _status_of(exc: BaseException) -> int | None:
    for holder in (exc, getattr(exc, "response", None)):
        if holder is None:
            continue
        for attr in ("status_code", "status", "http_status", "code"):
            value = getattr(holder, attr, None)
            if isinstance(value, int) and not isinstance(value, bool) and 400 <= value <= 599:
                return value
    return None


_NAME_HINTS: tuple[tuple[str, ErrKind], ...] = (
    ("timeout", "timeout"),
    ("timedout", "timeout"),
    ("ratelimit", "rate_limit"),
    ("toomanyrequests", "rate_limit"),
    ("connect", "upstream"),
    ("unavailable", "upstream"),
    ("notfound", "not_found"),
    ("permission", "auth"),
    ("authentication", "auth"),
    ("unauthorized", "auth"),
    ("forbidden", "auth"),
)


def classify(exc: BaseException) -> ErrKind:
    """Map an exception to an ``Err`` kind (status codes first, then types, then class names)."""
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return "timeout"
    status = _status_of(exc)
    if status is not None:
        if status == 429:
            return "rate_limit"
        if status in (401, 403, 407):
            return "auth"
        if status in (404, 410):
            return "not_found"
        if status in (408, 504):
            return "timeout"
        if status >= 500:
            return "upstream"
        return "invalid_args"
    if isinstance(exc, ConnectionError):
        return "upstream"
    for cls in type(exc).__mro__:
        name = cls.__name__.lower().replace("_", "")
        for hint, kind in _NAME_HINTS:
            if hint in name:
                return kind
    return "unknown"


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# -- shaping results -----------------------------------------------------------------------------


def _size(value: Any) -> int:
    return len(json.dumps(to_jsonable(value), ensure_ascii=False).encode("utf-8"))


def _longest_prefix(value: str, limit: int) -> str:
    """The longest prefix of ``value`` whose JSON form (quotes and escapes included) fits."""
    low, high = 0, len(value)
    while low < high:
        mid = (low + high + 1) // 2
        if _size(value[:mid]) <= limit:
            low = mid
        else:
            high = mid - 1
    return value[:low]


def _cap(value: Any, limit: int) -> tuple[Any, bool]:
    """Cut ``value`` so its JSON form fits in ``limit`` bytes; returns (value, truncated).

    Strings keep their longest fitting prefix, lists and dicts their leading items that fit.
    Other values are rendered to JSON-safe data first; a scalar that cannot be cut is returned
    whole and not marked truncated (the model must never be told data is missing when it is not).
    """
    if _size(value) <= limit:
        return value, False
    if isinstance(value, str):
        return _longest_prefix(value, limit), True
    if isinstance(value, (list, tuple)):
        kept: list[Any] = []
        for item in value:
            if _size([*kept, item]) > limit:
                break
            kept.append(item)
        return kept, True
    if isinstance(value, dict):
        fitted: dict[str, Any] = {}
        for key, item in value.items():
            if _size({**fitted, str(key): item}) > limit:
                break
            fitted[str(key)] = item
        return fitted, True
    rendered = to_jsonable(value)
    if isinstance(rendered, (str, list, dict)) and rendered is not value:
        return _cap(rendered, limit)
    return value, False


def _shape(spec: ToolSpec, value: Any, injection: Injection) -> Result:
    if isinstance(value, (Ok, Empty, Err)):
        result: Result = value
    elif spec.empty_when is not None and spec.empty_when(value):
        return Empty()
    else:
        result = Ok(value)
    if isinstance(result, Ok):
        data, truncated = result.value, result.truncated
        if injection.truncate:
            data, truncated = truncate_value(data), True
        if spec.truncate_at is not None:
            data, capped = _cap(data, spec.truncate_at)
            truncated = truncated or capped
        if truncated != result.truncated or data is not result.value:
            result = Ok(data, truncated=truncated)
    return result


def _backoff(spec: ToolSpec, attempt: int) -> float:
    return float(min(spec.backoff_s * (2**attempt), 30.0))


def _record(
    ctx: TrialContext | None,
    seq: int,
    spec: ToolSpec,
    arguments: dict[str, Any],
    result: Result,
    started: float,
    attempts: int,
    injected: bool,
) -> None:
    if ctx is None:
        return
    ctx.record_tool_call(
        seq,
        ToolCall(
            name=spec.name,
            arguments=to_jsonable(arguments),
            status=result.status,
            kind=result.kind if isinstance(result, Err) else None,
            latency_ms=round((time.perf_counter() - started) * 1000, 3),
            attempts=attempts,
            fault_injected=injected,
            truncated=isinstance(result, Ok) and result.truncated,
        ),
    )


def _bind(signature: inspect.Signature, args: Any, kwargs: Any) -> dict[str, Any] | Err:
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as exc:
        return Err("invalid_args", str(exc))
    return dict(bound.arguments)


# -- sync and async wrappers ---------------------------------------------------------------------


class _AttemptTimedOut(Exception):
    """The tool's own ``timeout_s`` ran out (kept apart from a TimeoutError the tool raised)."""


async def _bounded(awaitable: Coroutine[Any, Any, Any], timeout_s: float) -> Any:
    """Await ``awaitable`` for at most ``timeout_s``; cancel it and raise on timeout.

    Unlike ``asyncio.wait_for``, a ``TimeoutError`` raised by the tool itself stays that
    exception, with its own message, instead of reading as our time limit.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout_s)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        await asyncio.wait({task})
        raise _AttemptTimedOut(f"no result within {timeout_s:g}s")
    return task.result()


def _call_sync_with_timeout(
    fn: Callable[..., Any], timeout_s: float, args: Any, kwargs: Any
) -> Any:
    """Run ``fn`` in a daemon thread and wait at most ``timeout_s``.

    A thread cannot be killed: on timeout it is abandoned and finishes (or not) on its own.
    """
    outcome: list[Any] = []
    failure: list[BaseException] = []
    context = contextvars.copy_context()

    def run() -> None:
        try:
            outcome.append(context.run(fn, *args, **kwargs))
        except BaseException as exc:
            failure.append(exc)

    worker = threading.Thread(target=run, name="fairwitness-tool", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        raise _AttemptTimedOut(f"no result within {timeout_s:g}s")
    if failure:
        raise failure[0]
    return outcome[0]


def _wrap_sync(fn: Callable[P, Any], spec: ToolSpec) -> Callable[P, Result]:
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Result:
        ctx = active()
        seq = ctx.start_tool_call() if ctx is not None else 0
        started = time.perf_counter()
        arguments = _bind(signature, args, kwargs)
        if isinstance(arguments, Err):
            _record(ctx, seq, spec, {}, arguments, started, 0, False)
            return arguments
        result: Result = Err("unknown", "not attempted")
        injected = False
        attempt = 0
        for attempt in range(spec.retries + 1):
            _, injection = plan(ctx, spec.name)
            if injection.delay_s:
                time.sleep(injection.delay_s)
            injected = injection.fired
            if injection.replace_with is not None:
                result = injection.replace_with
            else:
                try:
                    if spec.timeout_s is None:
                        value = fn(*args, **kwargs)
                    else:
                        value = _call_sync_with_timeout(fn, spec.timeout_s, args, kwargs)
                    result = _shape(spec, value, injection)
                except _AttemptTimedOut as exc:
                    result = Err("timeout", str(exc))
                except _PROPAGATE:
                    raise
                except BaseException as exc:
                    result = Err(classify(exc), _describe(exc))
                injected = injection.truncate and isinstance(result, Ok)
            if not (isinstance(result, Err) and result.retryable and attempt < spec.retries):
                break
            time.sleep(_backoff(spec, attempt))
        _record(ctx, seq, spec, arguments, result, started, attempt + 1, injected)
        return result

    return wrapper


def _wrap_async(
    fn: Callable[P, Coroutine[Any, Any, Any]], spec: ToolSpec
) -> Callable[P, Coroutine[Any, Any, Result]]:
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> Result:
        ctx = active()
        seq = ctx.start_tool_call() if ctx is not None else 0
        started = time.perf_counter()
        arguments = _bind(signature, args, kwargs)
        if isinstance(arguments, Err):
            _record(ctx, seq, spec, {}, arguments, started, 0, False)
            return arguments
        result: Result = Err("unknown", "not attempted")
        injected = False
        attempt = 0
        for attempt in range(spec.retries + 1):
            _, injection = plan(ctx, spec.name)
            if injection.delay_s:
                await asyncio.sleep(injection.delay_s)
            injected = injection.fired
            if injection.replace_with is not None:
                result = injection.replace_with
            else:
                try:
                    if spec.timeout_s is None:
                        value = await fn(*args, **kwargs)
                    else:
                        value = await _bounded(fn(*args, **kwargs), spec.timeout_s)
                    result = _shape(spec, value, injection)
                except _AttemptTimedOut as exc:
                    result = Err("timeout", str(exc))
                except _PROPAGATE:
                    raise
                except BaseException as exc:
                    result = Err(classify(exc), _describe(exc))
                injected = injection.truncate and isinstance(result, Ok)
            if not (isinstance(result, Err) and result.retryable and attempt < spec.retries):
                break
            await asyncio.sleep(_backoff(spec, attempt))
        _record(ctx, seq, spec, arguments, result, started, attempt + 1, injected)
        return result

    return wrapper


class _ToolDecorator:
    def __init__(self, spec_args: dict[str, Any]) -> None:
        self._spec_args = spec_args

    @overload
    def __call__(
        self, fn: Callable[P, Coroutine[Any, Any, Any]]
    ) -> Callable[P, Coroutine[Any, Any, Result]]: ...

    @overload
    def __call__(self, fn: Callable[P, Any]) -> Callable[P, Result]: ...

    def __call__(self, fn: Callable[P, Any]) -> Callable[P, Any]:
        name = self._spec_args["name"] or getattr(fn, "__name__", None)
        if not name:
            raise TypeError("@tool() needs name= for a callable without __name__")
        spec = ToolSpec(name=name, **{k: v for k, v in self._spec_args.items() if k != "name"})
        wrapped: Any = (
            _wrap_async(fn, spec) if inspect.iscoroutinefunction(fn) else _wrap_sync(fn, spec)
        )
        wrapped.__fairwitness_tool__ = spec
        with _REGISTRY_LOCK:
            _REGISTRY[name] = (
                f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', name)}"
            )
        return wrapped  # type: ignore[no-any-return]


def tool(
    *args: Any,
    name: str | None = None,
    empty_when: Callable[[Any], bool] | None = None,
    timeout_s: float | None = None,
    retries: int = 0,
    backoff_s: float = 0.25,
    truncate_at: int | None = None,
) -> _ToolDecorator:
    """Declare a tool. Always call it with parentheses: ``@tool()`` or ``@tool(empty_when=...)``.

    ``name`` defaults to the function's name and is what faults refer to. ``empty_when`` receives the
    returned value and says whether it means "nothing found". ``timeout_s`` bounds each attempt;
    ``retries`` retries retryable errors (timeout, rate_limit, upstream) after ``backoff_s * 2**n``
    seconds; ``truncate_at`` caps the JSON size of an ``Ok`` value in bytes.
    """
    if args:
        raise TypeError("use @tool() with parentheses (and keyword arguments only)")
    if timeout_s is not None and timeout_s <= 0:
        raise ValueError(f"timeout_s must be > 0, got {timeout_s!r}")
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries!r}")
    if backoff_s < 0:
        raise ValueError(f"backoff_s must be >= 0, got {backoff_s!r}")
    if truncate_at is not None and truncate_at < 1:
        raise ValueError(f"truncate_at must be >= 1 byte, got {truncate_at!r}")
    if empty_when is not None and not callable(empty_when):
        raise TypeError("empty_when must be a callable returning bool")
    return _ToolDecorator(
        {
            "name": name,
            "empty_when": empty_when,
            "timeout_s": timeout_s,
            "retries": retries,
            "backoff_s": backoff_s,
            "truncate_at": truncate_at,
        }
    )


__all__ = ["ToolSpec", "classify", "registered_tools", "tool"]
