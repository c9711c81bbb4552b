"""MCP tools as fairwitness tools: every call typed, traced and open to declared faults.

:func:`mcp_tool` wraps one tool of an MCP server, reached through a connected client session
(anything with ``call_tool(name, arguments)``, such as ``mcp.ClientSession`` or ``mcp.Client``), in
:func:`fairwitness.tool`. :func:`mcp_tools` lists the server's tools and wraps each of them. Calling a
wrapped tool returns ``Ok | Empty | Err`` like any other ``@tool``, so a case can declare a fault on an
MCP tool by its MCP name and the call lands in the trial's trace.

How a ``CallToolResult`` becomes a typed result:

- ``isError`` true becomes ``Err``. Its kind is read from the error text when the text names a cause
  (timeout, rate limit, authorisation, not found, invalid arguments, unavailable); a failure whose
  text names no known cause is ``"upstream"``: the server said the tool failed, and why is unknown.
  A reply that is not a tool result at all is ``Err("unknown")``; exceptions raised by the session
  (a closed connection, a protocol error) are classified like any tool exception.
- Otherwise the value is the structured content when the server sent one, else the content blocks:
  no block gives ``[]``, a single text block gives its text, several blocks give a list (text blocks
  as ``str``, other blocks as dicts). Structured content of the form ``{"result": value}``, which
  servers use to carry a value that is not an object, is unwrapped to ``value`` unless the tool's
  declared output schema has other properties.
- An empty value is still ``Ok``: only ``empty_when`` turns a value into ``Empty``.

:func:`from_mcp` turns an agent that uses a server's tools into a target: each trial hands the agent
the wrapped tools of a session. A session fairwitness opens itself (a stdio subprocess, or a
session factory) is opened per trial and closed when the trial ends; a session you pass in is
shared by every trial and stays yours to close.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import functools
import inspect
import re
import shlex
import threading
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from fairwitness._threads import _DaemonThreads, on_worker
from fairwitness.errors import TargetLoadError
from fairwitness.targets._sdk import StateFrom, check_state_from, read_state
from fairwitness.targets.base import from_callable, to_observation
from fairwitness.tools.decorator import tool
from fairwitness.tools.results import Empty, Err, Ok
from fairwitness.trace.model import ErrKind

if TYPE_CHECKING:
    from fairwitness.dataset import Case

MCPTool = Callable[..., Coroutine[Any, Any, Ok | Empty | Err]]
"""A wrapped MCP tool: call it with the tool's arguments as keywords."""

INSTALL_HINT = "pip install 'fairwitness[mcp]'"

_TEXT_KINDS: tuple[tuple[str, ErrKind], ...] = (
    (r"time[d ]?\s*out|timeout|deadline exceeded", "timeout"),
    (r"rate[ -]?limit|too many requests|\b429\b|quota", "rate_limit"),
    (
        r"unauthori[sz]ed|forbidden|permission denied|not authori[sz]ed|authenticat|\b40[13]\b",
        "auth",
    ),
    (r"not found|unknown tool|no such|does not exist|\b404\b", "not_found"),
    (
        r"invalid|validation error|missing required|field required|bad request|\b4(00|22)\b",
        "invalid_args",
    ),
)


def require_mcp() -> None:
    """Check that the MCP SDK is importable; raise :class:`TargetLoadError` with the fix if not."""
    try:
        import mcp  # noqa: F401
    except ImportError as exc:
        raise TargetLoadError(
            f"the MCP adapter needs the 'mcp' package, which is not installed: {INSTALL_HINT}"
        ) from exc


def classify_error_text(text: str) -> ErrKind:
    """The ``Err`` kind named by an MCP error text; ``"upstream"`` when it names no known cause."""
    lowered = text.casefold()
    for pattern, kind in _TEXT_KINDS:
        if re.search(pattern, lowered):
            return kind
    return "upstream"


def _field(obj: Any, snake: str, camel: str, default: Any = None) -> Any:
    """Read a field of an MCP model by its Python name, or by its wire name (older SDKs)."""
    if isinstance(obj, Mapping):
        return obj.get(camel, obj.get(snake, default))
    value = getattr(obj, snake, None)
    return getattr(obj, camel, default) if value is None else value


def _block_value(block: Any) -> Any:
    text = _field(block, "text", "text")
    kind = _field(block, "type", "type")
    if kind == "text" and isinstance(text, str):
        return text
    dump = getattr(block, "model_dump", None)
    if callable(dump):
        return dump(mode="json", by_alias=True, exclude_none=True)
    return block


def _error_text(content: Iterable[Any]) -> str:
    return "\n".join(
        str(_field(block, "text", "text"))
        for block in content
        if _field(block, "text", "text") is not None
    )


def _unwrap(structured: Any, output_schema: Mapping[str, Any] | None) -> Any:
    if not (isinstance(structured, Mapping) and set(structured) == {"result"}):
        return structured
    if output_schema is not None:
        properties = output_schema.get("properties")
        if isinstance(properties, Mapping) and set(properties) != {"result"}:
            return structured
    return structured["result"]


def result_value(result: Any, output_schema: Mapping[str, Any] | None = None) -> Any:
    """Turn a ``CallToolResult`` into a tool value, or an ``Err`` for a failure (see module doc)."""
    content = _field(result, "content", "content")
    if content is None or isinstance(content, (str, bytes)):
        return Err("unknown", f"the MCP server returned no tool result: {type(result).__name__}")
    blocks = list(content)
    if _field(result, "is_error", "isError", False):
        text = _error_text(blocks) or "the MCP server reported a failure without a message"
        return Err(classify_error_text(text), text)
    structured = _field(result, "structured_content", "structuredContent")
    if structured is not None:
        return _unwrap(structured, output_schema)
    if not blocks:
        return []
    if len(blocks) == 1 and _field(blocks[0], "type", "type") == "text":
        return _block_value(blocks[0])
    return [_block_value(block) for block in blocks]


def _signature(input_schema: Mapping[str, Any] | None) -> inspect.Signature:
    """Keyword-only parameters named after the schema's properties (so traces record them flat)."""
    variadic = inspect.Parameter("arguments", inspect.Parameter.VAR_KEYWORD)
    if input_schema is None:
        return inspect.Signature([variadic])
    properties = input_schema.get("properties") or {}
    required = set(input_schema.get("required") or ())
    params: list[inspect.Parameter] = []
    try:
        for prop in properties:
            default = inspect.Parameter.empty if prop in required else None
            params.append(inspect.Parameter(prop, inspect.Parameter.KEYWORD_ONLY, default=default))
    except (TypeError, ValueError):  # a property name that is not a Python identifier
        return inspect.Signature([variadic])
    if input_schema.get("additionalProperties") is not False:
        params.append(variadic)
    return inspect.Signature(params)


def mcp_tool(
    session: Any,
    name: str,
    *,
    empty_when: Callable[[Any], bool] | None = None,
    timeout_s: float | None = None,
    input_schema: Mapping[str, Any] | None = None,
    output_schema: Mapping[str, Any] | None = None,
    description: str | None = None,
) -> MCPTool:
    """Wrap the MCP tool ``name`` of ``session`` as a fairwitness tool of the same name.

    Call the result with the tool's arguments as keywords: ``await search_jobs(city="Lyon")``.
    ``empty_when`` and ``timeout_s`` mean what they mean for :func:`fairwitness.tool`. With
    ``input_schema`` (as :func:`mcp_tools` passes it) the arguments are checked against the declared
    names before the call and recorded one by one; without it they are recorded under
    ``arguments``. ``output_schema`` decides whether a ``{"result": ...}`` structured value is
    unwrapped (see the module documentation).
    """
    require_mcp()
    if not isinstance(name, str) or not name:
        raise TypeError(f"an MCP tool name must be a non-empty str, got {name!r}")
    call_tool = getattr(session, "call_tool", None)
    if not callable(call_tool):
        raise TypeError(
            f"session must be a connected MCP client session with call_tool(), "
            f"got {type(session).__name__}"
        )

    async def call(**arguments: Any) -> Any:
        result = await call_tool(name, arguments)
        return result_value(result, output_schema)

    call.__name__ = call.__qualname__ = re.sub(r"\W", "_", name)
    call.__doc__ = description or f"MCP tool {name}."
    call.__signature__ = _signature(input_schema)  # type: ignore[attr-defined]
    return tool(name=name, empty_when=empty_when, timeout_s=timeout_s)(call)


async def _list_all_tools(session: Any) -> list[Any]:
    """Every tool the server lists, following pagination cursors."""
    listing = getattr(session, "list_tools", None)
    if not callable(listing):
        raise TypeError(
            f"session must be a connected MCP client session with list_tools(), "
            f"got {type(session).__name__}"
        )
    parameters = inspect.signature(listing).parameters
    found: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    while True:
        if cursor is None:
            page = await listing()
        elif "cursor" in parameters:
            page = await listing(cursor=cursor)
        else:
            from mcp.types import PaginatedRequestParams

            page = await listing(params=PaginatedRequestParams(cursor=cursor))
        found.extend(_field(page, "tools", "tools", ()) or ())
        cursor = _field(page, "next_cursor", "nextCursor")
        if not cursor or cursor in seen:
            return found
        seen.add(cursor)


def _as_mapping(value: Any) -> Mapping[str, Any] | None:
    if value is None or isinstance(value, Mapping):
        return value
    dump = getattr(value, "model_dump", None)
    data = dump(mode="json", by_alias=True) if callable(dump) else None
    return data if isinstance(data, Mapping) else None


async def mcp_tools(
    session: Any,
    names: Iterable[str] | None = None,
    *,
    empty_when: Callable[[Any], bool] | Mapping[str, Callable[[Any], bool]] | None = None,
    timeout_s: float | None = None,
) -> dict[str, MCPTool]:
    """List the server's tools and wrap them, keyed by tool name, in the server's order.

    ``names`` picks some of them (a name the server does not list is an error). ``empty_when`` is
    one predicate for every tool, or a mapping from tool name to predicate.
    """
    require_mcp()
    listed = await _list_all_tools(session)
    by_name = {str(_field(t, "name", "name")): t for t in listed}
    if names is None:
        wanted = list(by_name)
    else:
        wanted = list(names)
        missing = [n for n in wanted if n not in by_name]
        if missing:
            known = ", ".join(by_name) or "none"
            raise TargetLoadError(
                f"the MCP server lists no tool named {', '.join(map(repr, missing))} "
                f"(it lists: {known})"
            )
    wrapped: dict[str, MCPTool] = {}
    for tool_name in wanted:
        listed_tool = by_name[tool_name]
        predicate = empty_when.get(tool_name) if isinstance(empty_when, Mapping) else empty_when
        wrapped[tool_name] = mcp_tool(
            session,
            tool_name,
            empty_when=predicate,
            timeout_s=timeout_s,
            input_schema=_as_mapping(_field(listed_tool, "input_schema", "inputSchema")),
            output_schema=_as_mapping(_field(listed_tool, "output_schema", "outputSchema")),
            description=_field(listed_tool, "description", "description"),
        )
    return wrapped


# -- an agent on MCP tools as a target ----------------------------------------------------------

MCPAgent = Callable[[Any, dict[str, Any]], Any]
"""An agent on MCP tools: ``agent(text_or_case, tools)``, sync or async."""

DEFAULT_START_TIMEOUT_S = 30.0


def _leaf(exc: BaseException) -> BaseException:
    """The one exception inside nested exception groups (what a task group wraps), else ``exc``."""
    while True:
        inner = getattr(exc, "exceptions", None)
        if not isinstance(inner, tuple) or len(inner) != 1:
            return exc
        exc = inner[0]


def _reason(exc: BaseException) -> str:
    leaf = _leaf(exc)
    text = str(leaf)
    return f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__


def _load_error(message: str, cause: BaseException) -> TargetLoadError:
    error = TargetLoadError(message)
    error.__cause__ = cause
    return error


def _describe_command(params: Any) -> str:
    return shlex.join([str(params.command), *(str(a) for a in params.args or ())])


def _declare(name: str) -> None:
    """Register ``name`` as a tool before any session lists it, for fault-plan checks."""

    async def declared(**arguments: Any) -> Any:
        raise TargetLoadError(f"the MCP tool {name!r} is only callable through a session")

    declared.__name__ = declared.__qualname__ = re.sub(r"\W", "_", name)
    tool(name=name)(declared)


_AGENT_THREADS = _DaemonThreads()
"""Where sync agents run: a trial that hangs past its time limit keeps its worker, never the loop."""


def _blocking(wrapped: MCPTool, loop: asyncio.AbstractEventLoop) -> Callable[..., Any]:
    """A sync form of a wrapped MCP tool, for sync agents: the call runs on the session's loop."""
    loop_thread = threading.get_ident()

    @functools.wraps(wrapped)
    def call(*args: Any, **kwargs: Any) -> Ok | Empty | Err:
        if threading.get_ident() == loop_thread:
            raise RuntimeError("a sync MCP tool cannot be called from its event loop's thread")
        return asyncio.run_coroutine_threadsafe(wrapped(*args, **kwargs), loop).result()

    return call


class MCPTarget:
    """A target running an agent on the wrapped tools of an MCP session; see :func:`from_mcp`."""

    def __init__(
        self,
        server: Any,
        agent: MCPAgent,
        *,
        names: tuple[str, ...] | None,
        empty_when: Callable[[Any], bool] | Mapping[str, Callable[[Any], bool]] | None,
        timeout_s: float | None,
        takes: Literal["case", "text", "auto"],
        start_timeout_s: float | None,
        state_from: StateFrom = None,
    ) -> None:
        from mcp import StdioServerParameters

        check_state_from(state_from)
        self._agent = agent
        self._state_from = state_from
        # from_callable only inspects the agent here: what its first argument is, and whether it is
        # async (the tools are its second argument).
        self._spec = from_callable(cast(Callable[[Any], Any], agent), takes=takes)
        self._names = names
        self._empty_when = empty_when
        self._timeout_s = timeout_s
        self._start_timeout_s = start_timeout_s
        self._stdio: Any = None
        self._factory: Callable[[], Any] | None = None
        self._session: Any = None
        self._shared_tools: dict[str, MCPTool] | None = None
        if isinstance(server, StdioServerParameters):
            self._stdio = server
            self.server_name = f"`{_describe_command(server)}`"
        elif callable(getattr(server, "call_tool", None)) and callable(
            getattr(server, "list_tools", None)
        ):
            self._session = server
            self.server_name = f"session {type(server).__name__}"
        elif callable(server):
            self._factory = server
            self.server_name = getattr(server, "__qualname__", None) or type(server).__name__
        else:
            raise TypeError(
                "from_mcp needs mcp.StdioServerParameters, a function returning an async context "
                "manager that yields a connected session, or a connected session; "
                f"got {type(server).__name__}"
            )
        self.__qualname__ = getattr(agent, "__qualname__", None) or type(agent).__qualname__
        self.__module__ = getattr(agent, "__module__", None) or type(agent).__module__

    async def __call__(self, case: Case) -> Any:
        argument = self._spec.argument(case)
        if self._session is not None:
            if self._shared_tools is None:
                self._shared_tools = await self._tools(self._session)
            value = await self._run_agent(argument, self._shared_tools)
            return await self._with_state(value, self._session)
        return await self._in_own_session(argument)

    async def _with_state(self, value: Any, session: Any) -> Any:
        """The agent's answer, with the state ``state_from`` reads through the open session."""
        if self._state_from is None:
            return value
        observed = to_observation(value)
        return dataclasses.replace(observed, state=await read_state(self._state_from, session))

    async def _tools(self, session: Any) -> dict[str, MCPTool]:
        return await mcp_tools(
            session, self._names, empty_when=self._empty_when, timeout_s=self._timeout_s
        )

    async def _run_agent(self, argument: Any, tools: dict[str, MCPTool]) -> Any:
        if self._spec.is_async:
            return await self._agent(argument, tools)
        loop = asyncio.get_running_loop()
        blocking = {name: _blocking(fn, loop) for name, fn in tools.items()}
        context = contextvars.copy_context()
        return await on_worker(_AGENT_THREADS, context, self._agent, argument, blocking)

    async def _in_own_session(self, argument: Any) -> Any:
        # The transport's task groups wrap whatever crosses them in exception groups, so the
        # agent's own exception is carried out of the session rather than raised through it.
        failure: BaseException | None = None
        value: Any = None
        try:
            async with contextlib.AsyncExitStack() as stack:
                try:
                    session = await self._open(stack)
                except TargetLoadError as exc:
                    failure = exc
                except Exception as exc:
                    verb = "start" if self._stdio is not None else "connect to"
                    failure = _load_error(
                        f"could not {verb} the MCP server {self.server_name}: {_reason(exc)}", exc
                    )
                else:
                    try:
                        value = await self._run_agent(argument, await self._tools(session))
                        value = await self._with_state(value, session)
                    except Exception as exc:
                        failure = exc
        except Exception as exc:  # closing the session failed
            leaf = _leaf(exc)
            if leaf is exc or not isinstance(leaf, Exception):
                raise
            raise leaf from exc
        if failure is not None:
            raise failure
        return value

    async def _open(self, stack: contextlib.AsyncExitStack) -> Any:
        if self._factory is not None:
            opened = self._factory()
            if not (hasattr(opened, "__aenter__") and hasattr(opened, "__aexit__")):
                raise TargetLoadError(
                    f"the MCP session factory {self.server_name} returned {type(opened).__name__}, "
                    "not an async context manager yielding a connected session"
                )
            return await stack.enter_async_context(opened)
        import anyio
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        read, write = await stack.enter_async_context(stdio_client(self._stdio))
        session = await stack.enter_async_context(ClientSession(read, write))
        if self._start_timeout_s is None:
            await session.initialize()
            return session
        try:
            with anyio.fail_after(self._start_timeout_s):
                await session.initialize()
        except TimeoutError as exc:
            raise TargetLoadError(
                f"the MCP server {self.server_name} did not finish initialising within "
                f"{self._start_timeout_s:g}s"
            ) from exc
        return session


def from_mcp(
    server: Any,
    agent: MCPAgent,
    *,
    names: Iterable[str] | None = None,
    empty_when: Callable[[Any], bool] | Mapping[str, Callable[[Any], bool]] | None = None,
    timeout_s: float | None = None,
    takes: Literal["case", "text", "auto"] = "auto",
    start_timeout_s: float | None = DEFAULT_START_TIMEOUT_S,
    state_from: StateFrom = None,
) -> MCPTarget:
    """A target for ``agent(text_or_case, tools)`` on the tools of an MCP server.

    ``server`` is how to reach the server:

    - ``mcp.StdioServerParameters``: the server runs as a subprocess over stdio (the MCP SDK's own
      stdio client). Each trial starts its own server process, initialises a session (bounded by
      ``start_timeout_s``) and stops the process when the trial ends, so trials are isolated: a
      server that crashes or hangs fails that trial only, and a trial's time limit stops its
      server too. The cost is one process start per trial.
    - a function of no arguments returning an async context manager that yields a connected,
      initialised client session (an in-memory or HTTP transport): entered and left per trial,
      the same way.
    - a connected session (anything with ``call_tool`` and ``list_tools``, such as
      ``mcp.ClientSession`` or an entered ``mcp.Client``): shared by every trial, which may call
      it concurrently; its tools are listed once. Opening and closing it is up to you, so this is
      how to keep one server process for a whole run::

          async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
              await session.initialize()
              result = await Runner(from_mcp(session, agent)).run(dataset, sink)

    fairwitness does not keep a session it opened across trials: the transport's task groups must
    be closed by the task that opened them, and no trial owns the end of the run.

    ``agent`` receives the case's input text or the :class:`~fairwitness.Case` (``takes`` decides,
    as for :func:`~fairwitness.targets.base.from_callable`: ``"auto"`` passes the text to a first
    parameter annotated ``str``), and the tools from :func:`mcp_tools` keyed by name; it returns
    what any target returns. An async agent awaits the tools; a sync agent runs in a thread of its
    own and gets sync versions of them. ``names``, ``empty_when`` and ``timeout_s`` are passed to
    :func:`mcp_tools`; tools named in ``names`` are registered as tools at once, so faults declared
    on them pass ``fairwitness run``'s fault-plan check before any server has started.

    ``state_from`` reads the state of the world once the agent has answered, for
    ``expect.state``: a callable (usually async) of the trial's session, still open, so it can
    ask the server what the agent left behind (``await session.call_tool("get_booking", {})``,
    a resource), or of no argument; it returns a JSON object, which replaces any ``state`` the
    agent returned. A server that cannot be started or does not initialise fails the trial with a
    :class:`TargetLoadError` naming the command.
    """
    require_mcp()
    if isinstance(names, str):
        raise TypeError(f"names must be a list of tool names, not a str: {names!r}")
    wanted = tuple(names) if names is not None else None
    if not callable(agent):
        raise TypeError(f"the agent must be callable, got {type(agent).__name__}")
    if start_timeout_s is not None and start_timeout_s <= 0:
        raise ValueError(f"start_timeout_s must be > 0, got {start_timeout_s!r}")
    target = MCPTarget(
        server,
        agent,
        names=wanted,
        empty_when=empty_when,
        timeout_s=timeout_s,
        takes=takes,
        start_timeout_s=start_timeout_s,
        state_from=state_from,
    )
    for name in wanted or ():
        _declare(name)
    return target


__all__ = [
    "DEFAULT_START_TIMEOUT_S",
    "INSTALL_HINT",
    "MCPAgent",
    "MCPTarget",
    "MCPTool",
    "classify_error_text",
    "from_mcp",
    "mcp_tool",
    "mcp_tools",
    "require_mcp",
    "result_value",
]
