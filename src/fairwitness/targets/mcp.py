"""MCP tools as fairwitness tools: every call typed, traced and open to declared faults.

:func:`mcp_tool` wraps one tool of an MCP server, reached through a connected client session
(anything with ``call_tool(name, arguments)``, such as ``mcp.ClientSession`` or ``mcp.Client``), in
:func:`fairwitness.tool`. :func:`mcp_tools` lists the server's tools and wraps each of them. Calling a
wrapped tool returns ``Ok | Empty | Err`` like any other ``@tool``, so a case can declare a fault on an
MCP tool by its MCP name and the call lands in the trial's trace.

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
import re
import shlex
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from fairwitness._threads import _DaemonThreads, on_worker
from fairwitness.errors import TargetLoadError
from fairwitness.targets._sdk import StateFrom, check_state_from, read_state
from fairwitness.targets.base import from_callable, to_observation
from fairwitness.tools.decorator import tool
from fairwitness.tools.results import Empty, Err, Ok

if TYPE_CHECKING:
    from fairwitness.dataset import Case

from fairwitness.targets._mcp_tools import (
    INSTALL_HINT,
    MCPTool,
    classify_error_text,
    mcp_tool,
    mcp_tools,
    require_mcp,
    result_value,
)

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
