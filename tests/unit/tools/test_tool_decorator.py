"""``@tool()``: typed results, error classification, timeouts, retries, truncation and recording."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import inspect
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest

from fairwitness.tools import Empty, Err, Ok, ToolSpec, classify, registered_tools, tool
from fairwitness.tools import decorator as decorator_module
from fairwitness.trace.context import TrialContext, active, bind, unbind
from fairwitness.trace.model import Fault, ToolCall

MODES = ["sync", "async"]


def uniq(stem: str = "tool") -> str:
    """A tool name no other test uses (the registry is process-wide)."""
    return f"{stem}_{uuid.uuid4().hex[:12]}"


@contextlib.contextmanager
def trial(faults: list[Fault] | None = None) -> Iterator[TrialContext]:
    ctx = TrialContext(suite="s", case_id="c", faults=list(faults or []))
    token = bind(ctx)
    try:
        yield ctx
    finally:
        unbind(token)


def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a wrapped tool, sync or async, and return its result."""
    if inspect.iscoroutinefunction(fn):
        return asyncio.run(fn(*args, **kwargs))
    return fn(*args, **kwargs)


def make_tool(
    mode: str, body: Callable[..., Any], **options: Any
) -> tuple[Callable[..., Any], list[tuple[Any, ...]]]:
    """Wrap ``body`` as a sync or async tool; the returned list collects the calls that ran it."""
    calls: list[tuple[Any, ...]] = []
    options.setdefault("name", uniq(mode))
    if mode == "sync":

        def sync_fn(*args: Any) -> Any:
            calls.append(args)
            return body(*args)

        return tool(**options)(sync_fn), calls

    async def async_fn(*args: Any) -> Any:
        calls.append(args)
        return body(*args)

    return tool(**options)(async_fn), calls


def raising(exc: BaseException) -> Callable[..., Any]:
    def body(*_: Any) -> Any:
        raise exc

    return body


def returning(value: Any) -> Callable[..., Any]:
    return lambda *_: value


def flaky(*outcomes: Any) -> Callable[..., Any]:
    """Raise (exceptions) or return (values) the outcomes in order; the last one repeats."""
    remaining = list(outcomes)

    def body(*_: Any) -> Any:
        outcome = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    return body


# -- exception classes used for classification -------------------------------------------------


class HTTPStatusError(Exception):
    def __init__(self, status_code: Any) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


class StatusAttrError(Exception):
    def __init__(self, status: Any) -> None:
        super().__init__(f"status {status}")
        self.status = status


class ResponseError(Exception):
    def __init__(self, status_code: Any) -> None:
        super().__init__("request failed")
        self.response = SimpleNamespace(status_code=status_code)


class HttpStatusAttrError(Exception):
    def __init__(self, value: int) -> None:
        super().__init__("x")
        self.http_status = value


class CodeAttrError(Exception):
    def __init__(self, value: int) -> None:
        super().__init__("x")
        self.code = value


def named(name: str, base: type[Exception] = Exception) -> Exception:
    return type(name, (base,), {})("boom")


STATUS_KINDS = [
    (429, "rate_limit"),
    (401, "auth"),
    (403, "auth"),
    (407, "auth"),
    (404, "not_found"),
    (410, "not_found"),
    (408, "timeout"),
    (504, "timeout"),
    (500, "upstream"),
    (502, "upstream"),
    (503, "upstream"),
    (400, "invalid_args"),
    (409, "invalid_args"),
    (422, "invalid_args"),
]

CLASSIFY_CASES: list[tuple[str, BaseException, str]] = [
    ("TimeoutError", TimeoutError("slow"), "timeout"),
    ("ConnectionError", ConnectionError("down"), "upstream"),
    ("ConnectionRefusedError", ConnectionRefusedError("refused"), "upstream"),
    ("ConnectionResetError", ConnectionResetError("reset"), "upstream"),
    ("ValueError", ValueError("bad"), "unknown"),
    ("RuntimeError", RuntimeError("bad"), "unknown"),
    ("KeyError", KeyError("k"), "unknown"),
    ("ReadTimeout", named("ReadTimeout"), "timeout"),
    ("RequestTimedOut", named("RequestTimedOut"), "timeout"),
    ("RateLimitError", named("RateLimitError"), "rate_limit"),
    ("Rate_Limit_Exceeded", named("Rate_Limit_Exceeded"), "rate_limit"),
    ("TooManyRequests", named("TooManyRequests"), "rate_limit"),
    ("APIConnectionError", named("APIConnectionError"), "upstream"),
    ("ServiceUnavailable", named("ServiceUnavailable"), "upstream"),
    ("NotFoundError", named("NotFoundError"), "not_found"),
    ("PermissionDenied", named("PermissionDenied"), "auth"),
    ("AuthenticationError", named("AuthenticationError"), "auth"),
    ("Unauthorized", named("Unauthorized"), "auth"),
    ("ForbiddenError", named("ForbiddenError"), "auth"),
    (
        "hint from a base class",
        type("MyClientError", (type("RateLimitError", (Exception,), {}),), {})("x"),
        "rate_limit",
    ),
    ("status 200 is not an error status", HTTPStatusError(200), "unknown"),
    ("status 302 is not an error status", HTTPStatusError(302), "unknown"),
    ("status 600 is out of range", HTTPStatusError(600), "unknown"),
    ("string status ignored", HTTPStatusError("429"), "unknown"),
    ("bool status ignored", HTTPStatusError(True), "unknown"),
    ("status before exception type", type("E", (ConnectionError,), {})("x"), "upstream"),
    ("http_status attribute", HttpStatusAttrError(429), "rate_limit"),
    ("code attribute", CodeAttrError(404), "not_found"),
]
for _status, _kind in STATUS_KINDS:
    CLASSIFY_CASES += [
        (f"status_code={_status}", HTTPStatusError(_status), _kind),
        (f"status={_status}", StatusAttrError(_status), _kind),
        (f"response.status_code={_status}", ResponseError(_status), _kind),
    ]


def _connection_error_with_status(status: int) -> ConnectionError:
    exc = ConnectionError("x")
    exc.status_code = status  # type: ignore[attr-defined]
    return exc


CLASSIFY_CASES.append(
    ("status code wins over ConnectionError", _connection_error_with_status(404), "not_found")
)


def with_modes(cases: list[tuple[str, BaseException, str]]) -> list[Any]:
    """(mode, exc, kind) params for both modes."""
    return [
        pytest.param(mode, exc, kind, id=f"{mode}-{label}")
        for mode in MODES
        for label, exc, kind in cases
    ]


# -- classification ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exc", "kind"),
    [pytest.param(exc, kind, id=label) for label, exc, kind in CLASSIFY_CASES],
)
def test_classify(exc: BaseException, kind: str) -> None:
    assert classify(exc) == kind


@pytest.mark.parametrize(
    ("mode", "exc", "kind"), with_modes([(label, exc, kind) for label, exc, kind in CLASSIFY_CASES])
)
def test_exceptions_become_classified_err(mode: str, exc: BaseException, kind: str) -> None:
    fn, calls = make_tool(mode, raising(exc))
    result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == kind
    assert result.retryable is (kind in {"timeout", "rate_limit", "upstream"})
    assert result.fault_injected is False
    assert len(calls) == 1


@pytest.mark.parametrize("mode", MODES)
def test_err_message_names_the_exception(mode: str) -> None:
    fn, _ = make_tool(mode, raising(ValueError("bad city")))
    assert run(fn).message == "ValueError: bad city"
    bare, _ = make_tool(mode, raising(ValueError()))
    assert run(bare).message == "ValueError"


@pytest.mark.parametrize("mode", MODES)
def test_other_base_exceptions_become_err(mode: str) -> None:
    class Custom(BaseException):
        pass

    fn, _ = make_tool(mode, raising(Custom("odd")))
    result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == "unknown"


def test_sync_tool_raising_timeout_error_is_timeout() -> None:
    fn, _ = make_tool("sync", raising(TimeoutError("upstream slow")))
    result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == "timeout"
    assert "upstream slow" in result.message


def test_async_tool_with_timeout_raising_timeout_error_is_timeout() -> None:
    fn, _ = make_tool("async", raising(TimeoutError("inner")), timeout_s=5)
    result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == "timeout"


def test_async_tool_without_timeout_raising_timeout_error_is_err() -> None:
    fn, _ = make_tool("async", raising(asyncio.TimeoutError("inner")))
    result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == "timeout"


# -- arguments -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((), {}),
        (("Pune",), {}),
        (("Pune", 3, 4), {}),
        (("Pune", 3), {"nope": 1}),
        (("Pune",), {"city": "Delhi", "limit": 3}),
    ],
    ids=["none", "missing", "too-many", "unknown-keyword", "duplicate"],
)
def test_wrong_arguments_give_invalid_args_without_calling(
    mode: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    calls: list[Any] = []
    if mode == "sync":

        @tool(name=uniq())
        def search(city: str, limit: int) -> list[str]:
            calls.append((city, limit))
            return [city] * limit

        result = search(*args, **kwargs)
    else:

        @tool(name=uniq())
        async def search_async(city: str, limit: int) -> list[str]:
            calls.append((city, limit))
            return [city] * limit

        result = asyncio.run(search_async(*args, **kwargs))
    assert isinstance(result, Err)
    assert result.kind == "invalid_args"
    assert result.retryable is False
    assert result.message
    assert calls == []


@pytest.mark.parametrize("mode", MODES)
def test_type_error_inside_the_body_is_not_invalid_args(mode: str) -> None:
    fn, calls = make_tool(mode, raising(TypeError("unsupported operand")))
    result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == "unknown"
    assert len(calls) == 1


def test_keyword_and_positional_arguments_reach_the_function() -> None:
    @tool(name=uniq())
    def search(city: str, *, limit: int = 2) -> list[str]:
        return [city] * limit

    assert search("Pune") == Ok(["Pune", "Pune"])
    assert search("Pune", limit=1) == Ok(["Pune"])


# -- propagation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("timeout_s", [None, 5.0], ids=["direct", "thread"])
@pytest.mark.parametrize(
    "exc_type", [asyncio.CancelledError, KeyboardInterrupt, SystemExit, GeneratorExit]
)
def test_sync_control_flow_exceptions_propagate(
    exc_type: type[BaseException], timeout_s: float | None
) -> None:
    fn, calls = make_tool("sync", raising(exc_type()), timeout_s=timeout_s)
    with pytest.raises(exc_type):
        fn()
    assert len(calls) == 1


@pytest.mark.parametrize("exc_type", [asyncio.CancelledError, KeyboardInterrupt, SystemExit])
def test_async_control_flow_exceptions_propagate(exc_type: type[BaseException]) -> None:
    fn, calls = make_tool("async", raising(exc_type()))

    async def main() -> None:
        with pytest.raises(exc_type):
            await fn()

    asyncio.run(main())
    assert len(calls) == 1


def test_async_cancelled_error_propagates_with_timeout() -> None:
    fn, _ = make_tool("async", raising(asyncio.CancelledError()), timeout_s=5)

    async def main() -> None:
        with pytest.raises(asyncio.CancelledError):
            await fn()

    asyncio.run(main())


@pytest.mark.parametrize("timeout_s", [None, 5.0])
def test_cancelling_the_caller_cancels_the_tool(timeout_s: float | None) -> None:
    @tool(name=uniq(), timeout_s=timeout_s)
    async def slow(gate: asyncio.Event) -> str:
        gate.set()
        await asyncio.sleep(30)
        return "never"

    async def main() -> None:
        gate = asyncio.Event()
        task = asyncio.create_task(slow(gate))
        await gate.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_cancellation_is_not_recorded_as_a_call() -> None:
    fn, _ = make_tool("async", raising(asyncio.CancelledError()))

    async def main() -> None:
        with pytest.raises(asyncio.CancelledError):
            await fn()

    with trial() as ctx:
        asyncio.run(main())
    assert ctx.tool_calls == []


# -- declaring -----------------------------------------------------------------------------------


def test_tool_without_parentheses_raises_type_error() -> None:
    def search() -> int:
        return 1

    with pytest.raises(TypeError, match="parentheses"):
        tool(search)


def test_tool_with_positional_name_raises_type_error() -> None:
    with pytest.raises(TypeError):
        tool("search")


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"timeout_s": 0}, ValueError),
        ({"timeout_s": -1.0}, ValueError),
        ({"retries": -1}, ValueError),
        ({"backoff_s": -0.1}, ValueError),
        ({"truncate_at": 0}, ValueError),
        ({"truncate_at": -5}, ValueError),
        ({"empty_when": "not callable"}, TypeError),
    ],
)
def test_invalid_decorator_arguments_raise(options: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        tool(**options)


def test_valid_edge_arguments_are_accepted() -> None:
    fn = tool(name=uniq(), timeout_s=0.5, retries=0, backoff_s=0, truncate_at=1)(returning(1))
    assert isinstance(fn.__fairwitness_tool__, ToolSpec)


def test_decorated_tool_is_registered_and_keeps_its_identity() -> None:
    name = uniq("search_jobs")

    @tool(name=name, retries=2, backoff_s=0, truncate_at=100)
    def search_jobs(city: str) -> list[str]:
        """Find jobs."""
        return [city]

    assert name in registered_tools()
    assert registered_tools() == sorted(registered_tools())
    assert search_jobs.__name__ == "search_jobs"
    assert search_jobs.__doc__ == "Find jobs."
    spec = search_jobs.__fairwitness_tool__  # type: ignore[attr-defined]
    assert spec == ToolSpec(
        name=name, empty_when=None, timeout_s=None, retries=2, backoff_s=0, truncate_at=100
    )


def test_name_defaults_to_the_function_name() -> None:
    fn_name = uniq("default_named")

    def fn() -> int:
        return 1

    fn.__name__ = fn_name
    wrapped = tool()(fn)
    assert wrapped.__fairwitness_tool__.name == fn_name  # type: ignore[attr-defined]
    assert fn_name in registered_tools()


def test_callable_without_name_needs_name() -> None:
    class NoName:
        def __call__(self) -> int:
            return 1

    with pytest.raises(TypeError, match="name="):
        tool()(NoName())


def test_async_tools_stay_coroutine_functions() -> None:
    fn, _ = make_tool("async", returning(1))
    assert inspect.iscoroutinefunction(fn)
    sync_fn, _ = make_tool("sync", returning(1))
    assert not inspect.iscoroutinefunction(sync_fn)


# -- values, Empty and empty_when ----------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("value", [[], 0, "", False, None, {}, 0.0])
def test_falsy_values_are_ok_without_empty_when(mode: str, value: Any) -> None:
    fn, _ = make_tool(mode, returning(value))
    result = run(fn)
    assert isinstance(result, Ok)
    assert result.value == value
    assert type(result.value) is type(value)
    assert result.truncated is False


@pytest.mark.parametrize("mode", MODES)
def test_empty_when_turns_matching_values_into_empty(mode: str) -> None:
    seen: list[Any] = []

    def is_empty(value: Any) -> bool:
        seen.append(value)
        return value == []

    fn, _ = make_tool(mode, flaky([], ["job"]), empty_when=is_empty)
    first = run(fn)
    assert isinstance(first, Empty)
    assert first == Empty()
    second = run(fn)
    assert second == Ok(["job"])
    assert seen == [[], ["job"]]


@pytest.mark.parametrize("mode", MODES)
def test_empty_when_sees_falsy_values_as_values_unless_told(mode: str) -> None:
    fn, _ = make_tool(mode, returning(0), empty_when=lambda v: v is None)
    assert run(fn) == Ok(0)
    none_fn, _ = make_tool(mode, returning(None), empty_when=lambda v: v is None)
    assert run(none_fn) == Empty()


@pytest.mark.parametrize("mode", MODES)
def test_empty_when_that_raises_gives_err(mode: str) -> None:
    def broken(_: Any) -> bool:
        raise ValueError("predicate broke")

    fn, calls = make_tool(mode, returning([1]), empty_when=broken)
    result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == "unknown"
    assert "predicate broke" in result.message
    assert len(calls) == 1


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "returned",
    [
        Ok([1, 2], truncated=True),
        Ok([]),
        Empty("no openings this week"),
        Err("auth", "bad key"),
        Err("not_found", "no such city"),
    ],
    ids=["ok-truncated", "ok-empty-list", "empty", "err-auth", "err-not-found"],
)
def test_returned_results_pass_through(mode: str, returned: Any) -> None:
    predicate_calls: list[Any] = []
    fn, calls = make_tool(
        mode, returning(returned), empty_when=lambda v: predicate_calls.append(v) or True
    )
    assert run(fn) == returned
    assert predicate_calls == []
    assert len(calls) == 1


# -- timeouts ------------------------------------------------------------------------------------


def test_async_timeout() -> None:
    @tool(name=uniq(), timeout_s=0.05)
    async def slow() -> str:
        await asyncio.sleep(5)
        return "late"

    started = time.perf_counter()
    result = asyncio.run(slow())
    elapsed = time.perf_counter() - started
    assert isinstance(result, Err)
    assert result.kind == "timeout"
    assert result.retryable is True
    assert elapsed < 3


def test_async_within_timeout_is_ok() -> None:
    @tool(name=uniq(), timeout_s=5)
    async def fast() -> str:
        await asyncio.sleep(0)
        return "done"

    assert asyncio.run(fast()) == Ok("done")


def test_sync_timeout_returns_promptly() -> None:
    @tool(name=uniq(), timeout_s=0.2)
    def slow() -> str:
        time.sleep(5)
        return "late"

    started = time.perf_counter()
    result = slow()
    elapsed = time.perf_counter() - started
    assert isinstance(result, Err)
    assert result.kind == "timeout"
    assert result.retryable is True
    assert elapsed < 3


def test_sync_within_timeout_returns_the_value_and_classifies_errors() -> None:
    ok_fn, _ = make_tool("sync", returning({"a": 1}), timeout_s=5)
    assert ok_fn() == Ok({"a": 1})
    err_fn, _ = make_tool("sync", raising(ConnectionError("reset")), timeout_s=5)
    result = err_fn()
    assert isinstance(result, Err)
    assert result.kind == "upstream"
    assert "reset" in result.message


def test_sync_timeout_runs_the_function_with_the_trial_context() -> None:
    inner_name = uniq("inner")

    @tool(name=inner_name)
    def inner() -> int:
        return 1

    @tool(name=uniq("outer"), timeout_s=5)
    def outer() -> Any:
        return (active() is not None, inner())

    with trial() as ctx:
        result = outer()
    assert isinstance(result, Ok)
    assert result.value[0] is True
    assert [c.name for c in ctx.tool_calls] == [outer.__fairwitness_tool__.name, inner_name]  # type: ignore[attr-defined]


def test_sync_timeout_is_recorded() -> None:
    @tool(name=uniq(), timeout_s=0.1)
    def slow() -> str:
        time.sleep(2)
        return "late"

    with trial() as ctx:
        slow()
    [call] = ctx.tool_calls
    assert call.status == "error"
    assert call.kind == "timeout"
    assert call.attempts == 1


# -- retries -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "exc", "kind"),
    with_modes(
        [
            ("upstream", ConnectionError("down"), "upstream"),
            ("rate_limit", HTTPStatusError(429), "rate_limit"),
            ("503", HTTPStatusError(503), "upstream"),
            ("timeout", TimeoutError("slow"), "timeout"),
        ]
    ),
)
def test_retryable_errors_are_retried_until_retries_run_out(
    mode: str, exc: Exception, kind: str
) -> None:
    fn, calls = make_tool(mode, raising(exc), retries=2, backoff_s=0)
    with trial() as ctx:
        result = run(fn)
    assert isinstance(result, Err)
    assert result.kind == kind
    assert len(calls) == 3
    [call] = ctx.tool_calls
    assert call.attempts == 3
    assert call.kind == kind


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "exc",
    [
        HTTPStatusError(401),
        HTTPStatusError(403),
        HTTPStatusError(404),
        HTTPStatusError(422),
        ValueError("bad"),
    ],
    ids=["401", "403", "404", "422", "unknown"],
)
def test_non_retryable_errors_are_not_retried(mode: str, exc: Exception) -> None:
    fn, calls = make_tool(mode, raising(exc), retries=3, backoff_s=0)
    with trial() as ctx:
        result = run(fn)
    assert isinstance(result, Err)
    assert result.retryable is False
    assert len(calls) == 1
    assert ctx.tool_calls[0].attempts == 1


@pytest.mark.parametrize("mode", MODES)
def test_retry_recovers(mode: str) -> None:
    fn, calls = make_tool(mode, flaky(ConnectionError("blip"), ["job"]), retries=3, backoff_s=0)
    with trial() as ctx:
        result = run(fn)
    assert result == Ok(["job"])
    assert len(calls) == 2
    [call] = ctx.tool_calls
    assert call.status == "ok"
    assert call.attempts == 2
    assert call.kind is None


@pytest.mark.parametrize("mode", MODES)
def test_retries_zero_means_one_attempt(mode: str) -> None:
    fn, calls = make_tool(mode, raising(ConnectionError("down")), backoff_s=0)
    assert run(fn).kind == "upstream"
    assert len(calls) == 1


@pytest.mark.parametrize("mode", MODES)
def test_returned_retryable_err_is_retried(mode: str) -> None:
    fn, calls = make_tool(
        mode, flaky(Err("rate_limit", "slow down"), "fine"), retries=1, backoff_s=0
    )
    assert run(fn) == Ok("fine")
    assert len(calls) == 2


@pytest.mark.parametrize("mode", MODES)
def test_returned_non_retryable_err_is_not_retried(mode: str) -> None:
    fn, calls = make_tool(mode, returning(Err("auth", "no key")), retries=3, backoff_s=0)
    assert run(fn) == Err("auth", "no key")
    assert len(calls) == 1


def test_sync_timeout_is_retried() -> None:
    attempts: list[int] = []

    @tool(name=uniq(), timeout_s=0.1, retries=1, backoff_s=0)
    def sometimes_slow() -> str:
        attempts.append(1)
        if len(attempts) == 1:
            time.sleep(2)
        return "fast"

    assert sometimes_slow() == Ok("fast")
    assert len(attempts) == 2


def test_async_timeout_is_retried() -> None:
    attempts: list[int] = []

    @tool(name=uniq(), timeout_s=0.05, retries=1, backoff_s=0)
    async def sometimes_slow() -> str:
        attempts.append(1)
        if len(attempts) == 1:
            await asyncio.sleep(5)
        return "fast"

    assert asyncio.run(sometimes_slow()) == Ok("fast")
    assert len(attempts) == 2


def test_backoff_doubles_and_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps: list[float] = []
    monkeypatch.setattr(decorator_module.time, "sleep", sleeps.append)
    fn, calls = make_tool("sync", raising(ConnectionError("down")), retries=3, backoff_s=0.5)
    fn()
    assert len(calls) == 4
    assert sleeps == [0.5, 1.0, 2.0]

    sleeps.clear()
    capped, _ = make_tool("sync", raising(ConnectionError("down")), retries=2, backoff_s=20)
    capped()
    assert sleeps == [20.0, 30.0]


def test_no_backoff_after_the_last_attempt_or_on_success(monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps: list[float] = []
    monkeypatch.setattr(decorator_module.time, "sleep", sleeps.append)
    fn, _ = make_tool("sync", returning("ok"), retries=3, backoff_s=1)
    fn()
    assert sleeps == []
    auth, _ = make_tool("sync", raising(HTTPStatusError(401)), retries=3, backoff_s=1)
    auth()
    assert sleeps == []


# -- truncate_at ---------------------------------------------------------------------------------


def _json_size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize("mode", MODES)
def test_truncate_at_caps_strings(mode: str) -> None:
    text = "abcdefghij" * 10
    fn, _ = make_tool(mode, returning(text), truncate_at=20)
    result = run(fn)
    assert isinstance(result, Ok)
    assert result.truncated is True
    assert text.startswith(result.value)
    assert 0 < len(result.value) < len(text)
    assert _json_size(result.value) <= 20


@pytest.mark.parametrize("mode", MODES)
def test_truncate_at_caps_lists(mode: str) -> None:
    items = list(range(100))
    fn, _ = make_tool(mode, returning(items), truncate_at=20)
    result = run(fn)
    assert isinstance(result, Ok)
    assert result.truncated is True
    assert result.value == items[: len(result.value)]
    assert 0 < len(result.value) < 100
    assert _json_size(result.value) <= 20
    assert _json_size([*result.value, items[len(result.value)]]) > 20


def test_truncate_at_keeps_whole_list_items() -> None:
    rows = [{"title": f"job {i}", "city": "Pune"} for i in range(10)]
    fn, _ = make_tool("sync", returning(rows), truncate_at=100)
    result = fn()
    assert result.truncated is True
    assert all(row in rows for row in result.value)
    assert _json_size(result.value) <= 100


def test_truncate_at_caps_tuples_as_lists() -> None:
    fn, _ = make_tool("sync", returning(tuple(range(50))), truncate_at=10)
    result = fn()
    assert result.truncated is True
    assert list(result.value) == list(range(len(result.value)))
    assert _json_size(list(result.value)) <= 10


def test_truncate_at_does_not_split_multibyte_characters() -> None:
    fn, _ = make_tool("sync", returning("é" * 50), truncate_at=11)
    result = fn()
    assert result.truncated is True
    assert set(result.value) == {"é"}
    assert _json_size(result.value) <= 11


def test_truncate_at_counts_json_escapes() -> None:
    fn, _ = make_tool("sync", returning('"' * 40), truncate_at=10)
    result = fn()
    assert result.truncated is True
    assert _json_size(result.value) <= 10


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("value", ["short", [1, 2, 3], {"a": 1}, 12345])
def test_values_within_the_limit_are_untouched(mode: str, value: Any) -> None:
    fn, _ = make_tool(mode, returning(value), truncate_at=1000)
    assert run(fn) == Ok(value)


def test_truncate_at_applies_to_returned_ok_and_keeps_its_flag() -> None:
    fn, _ = make_tool("sync", returning(Ok(list(range(100)))), truncate_at=20)
    result = fn()
    assert result.truncated is True
    assert _json_size(result.value) <= 20
    already, _ = make_tool("sync", returning(Ok([1], truncated=True)), truncate_at=1000)
    assert already() == Ok([1], truncated=True)


def test_truncate_at_is_recorded() -> None:
    fn, _ = make_tool("sync", returning("x" * 100), truncate_at=10)
    with trial() as ctx:
        fn()
    [call] = ctx.tool_calls
    assert call.truncated is True
    assert call.status == "ok"
    assert call.fault_injected is False


def test_truncate_at_does_not_touch_empty_or_err() -> None:
    fn, _ = make_tool("sync", returning([]), truncate_at=1, empty_when=lambda v: v == [])
    assert fn() == Empty()
    err, _ = make_tool("sync", raising(ValueError("x" * 100)), truncate_at=1)
    result = err()
    assert isinstance(result, Err)
    assert "x" * 100 in result.message


# -- recording -----------------------------------------------------------------------------------


@dataclasses.dataclass
class Filters:
    remote: bool
    tags: tuple[str, ...]


class Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


@pytest.mark.parametrize("mode", MODES)
def test_each_call_is_recorded_with_its_bound_arguments(mode: str) -> None:
    name = uniq("search_jobs")
    if mode == "sync":

        @tool(name=name)
        def search(city: str, limit: int, filters: Filters, ids: set[int], raw: Any) -> list[str]:
            return [city]

        fn: Callable[..., Any] = search
    else:

        @tool(name=name)
        async def search_async(
            city: str, limit: int, filters: Filters, ids: set[int], raw: Any
        ) -> list[str]:
            return [city]

        fn = search_async

    with trial() as ctx:
        result = run(fn, "Pune", 3, filters=Filters(True, ("py",)), ids={3, 1, 2}, raw=Opaque())
    assert result == Ok(["Pune"])
    [call] = ctx.tool_calls
    assert isinstance(call, ToolCall)
    assert call.name == name
    assert call.arguments == {
        "city": "Pune",
        "limit": 3,
        "filters": {"remote": True, "tags": ["py"]},
        "ids": [1, 2, 3],
        "raw": "<opaque>",
    }
    json.dumps(call.arguments)
    assert call.status == "ok"
    assert call.kind is None
    assert call.attempts == 1
    assert call.fault_injected is False
    assert call.truncated is False
    assert call.latency_ms >= 0


@pytest.mark.parametrize("mode", MODES)
def test_err_and_empty_are_recorded_with_status_and_kind(mode: str) -> None:
    err_fn, _ = make_tool(mode, raising(HTTPStatusError(404)))
    empty_fn, _ = make_tool(mode, returning([]), empty_when=lambda v: not v)
    with trial() as ctx:
        run(err_fn)
        run(empty_fn)
    err_call, empty_call = ctx.tool_calls
    assert (err_call.status, err_call.kind) == ("error", "not_found")
    assert (empty_call.status, empty_call.kind) == ("empty", None)
    assert err_call.fault_injected is False
    assert empty_call.fault_injected is False


@pytest.mark.parametrize("mode", MODES)
def test_invalid_arguments_are_recorded_without_attempts(mode: str) -> None:
    calls: list[int] = []
    if mode == "sync":

        @tool(name=uniq())
        def two(a: int, b: int) -> int:
            calls.append(a)
            return a + b

        target: Callable[..., Any] = two
    else:

        @tool(name=uniq())
        async def two_async(a: int, b: int) -> int:
            calls.append(a)
            return a + b

        target = two_async
    with trial() as ctx:
        result = run(target, 1)
    assert result.kind == "invalid_args"
    [call] = ctx.tool_calls
    assert call.status == "error"
    assert call.kind == "invalid_args"
    assert call.attempts == 0
    assert call.arguments == {}
    assert calls == []


def test_sequential_calls_are_recorded_in_order() -> None:
    a, _ = make_tool("sync", returning(1), name=uniq("a"))
    b, _ = make_tool("sync", raising(ValueError()), name=uniq("b"))
    with trial() as ctx:
        a(1)
        b(2)
        a(3)
    names = [a.__fairwitness_tool__.name, b.__fairwitness_tool__.name]  # type: ignore[attr-defined]
    assert [c.name for c in ctx.tool_calls] == [names[0], names[1], names[0]]
    assert [c.status for c in ctx.tool_calls] == ["ok", "error", "ok"]


def test_concurrent_async_calls_are_listed_in_start_order() -> None:
    finished: list[str] = []
    first_name, second_name = uniq("first"), uniq("second")

    @tool(name=first_name)
    async def first(gate: Any) -> str:
        await gate.wait()
        finished.append("first")
        return "first"

    @tool(name=second_name)
    async def second(gate: Any) -> str:
        await asyncio.sleep(0)
        gate.set()
        finished.append("second")
        return "second"

    async def main() -> list[Any]:
        gate = asyncio.Event()
        return list(await asyncio.gather(first(gate), second(gate)))

    with trial() as ctx:
        results = asyncio.run(main())
    assert results == [Ok("first"), Ok("second")]
    assert finished == ["second", "first"]
    assert [c.name for c in ctx.tool_calls] == [first_name, second_name]


def test_many_concurrent_async_calls_keep_start_order() -> None:
    @tool(name=uniq())
    async def echo(i: int) -> int:
        await asyncio.sleep((20 - i) / 2000)
        return i

    async def main() -> None:
        await asyncio.gather(*(echo(i) for i in range(20)))

    with trial() as ctx:
        asyncio.run(main())
    assert [c.arguments["i"] for c in ctx.tool_calls] == list(range(20))


def test_sync_calls_from_threads_with_copied_context_are_recorded() -> None:
    @tool(name=uniq())
    def work(i: int) -> int:
        return i * 2

    with trial() as ctx, ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(contextvars.copy_context().run, work, i) for i in range(8)]
        results = [f.result() for f in futures]
    assert results == [Ok(i * 2) for i in range(8)]
    assert sorted(c.arguments["i"] for c in ctx.tool_calls) == list(range(8))


@pytest.mark.parametrize("mode", MODES)
def test_outside_a_trial_nothing_is_recorded_and_nothing_fails(mode: str) -> None:
    assert active() is None
    fn, calls = make_tool(mode, returning(["x"]), retries=1, backoff_s=0, truncate_at=100)
    assert run(fn) == Ok(["x"])
    err_fn, _ = make_tool(mode, raising(ConnectionError()), retries=1, backoff_s=0)
    assert run(err_fn).kind == "upstream"
    assert len(calls) == 1
    assert active() is None


def test_a_trial_only_sees_its_own_calls() -> None:
    fn, _ = make_tool("sync", returning(1))
    with trial() as first:
        fn()
    fn()
    with trial() as second:
        fn()
        fn()
    assert len(first.tool_calls) == 1
    assert len(second.tool_calls) == 2


@pytest.mark.parametrize("mode", MODES)
def test_nothing_is_recorded_after_close(mode: str) -> None:
    fn, calls = make_tool(mode, returning(1))
    with trial() as ctx:
        run(fn)
        ctx.close()
        assert run(fn) == Ok(1)
        assert run(fn) == Ok(1)
    assert len(ctx.tool_calls) == 1
    assert len(calls) == 3


def test_abandoned_sync_call_cannot_record_after_close() -> None:
    inner_name = uniq("inner")
    release = threading.Event()
    done = threading.Event()

    @tool(name=inner_name)
    def inner() -> int:
        return 1

    @tool(name=uniq("outer"), timeout_s=0.05)
    def outer() -> None:
        release.wait(5)
        inner()
        done.set()

    with trial() as ctx:
        assert outer().kind == "timeout"
        ctx.close()
        release.set()
        assert done.wait(5)
    assert [c.name for c in ctx.tool_calls] == [outer.__fairwitness_tool__.name]  # type: ignore[attr-defined]


@pytest.mark.parametrize("timeout_s", [None, 5.0])
def test_a_timeout_error_raised_by_an_async_tool_keeps_its_message(timeout_s: float | None) -> None:
    @tool(name="raises_own_timeout", timeout_s=timeout_s)
    async def f() -> str:
        raise TimeoutError("upstream said 504")

    result = asyncio.run(f())
    assert isinstance(result, Err)
    assert result.kind == "timeout"
    assert result.message == "TimeoutError: upstream said 504"


def test_truncate_at_caps_dicts_and_never_claims_truncation_it_did_not_do() -> None:
    fn, _ = make_tool("sync", returning({f"k{i}": "v" * 10 for i in range(20)}), truncate_at=60)
    result = fn()
    assert result.truncated is True
    assert _json_size(result.value) <= 60
    assert list(result.value) == [f"k{i}" for i in range(len(result.value))]
    big_number, _ = make_tool("sync", returning(10**30), truncate_at=5)
    assert big_number() == Ok(10**30, truncated=False)
