"""MCP tools as fairwitness tools (see :mod:`fairwitness.targets.mcp`): each tool of a server wrapped
in :func:`fairwitness.tool`, so every call is typed, traced and open to declared faults.

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
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from fairwitness.errors import TargetLoadError
from fairwitness.tools.decorator import tool
from fairwitness.tools.results import Empty, Err, Ok
from fairwitness.trace.model import ErrKind

if TYPE_CHECKING:
    pass

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


__all__ = [
    "INSTALL_HINT",
    "MCPTool",
    "classify_error_text",
    "mcp_tool",
    "mcp_tools",
    "require_mcp",
    "result_value",
]
