"""The trace format: one JSON object per (case, repeat, variant), written as JSONL.

A trace is what was observed during one trial: the input, the final answer, the verdict, every tool
call in order with its typed outcome, the faults declared and the faults that actually fired, usage,
the model identity and the final state the target reported. Nothing in a trace is a score; scorers
read traces later.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

TRACE_SCHEMA: Final = "fairwitness.trace/1"

ErrKind = Literal[
    "timeout", "rate_limit", "upstream", "auth", "invalid_args", "not_found", "unknown"
]
"""Why a tool call failed. ``retryable`` is true for timeout, rate_limit and upstream."""

FaultKind = Literal["timeout", "rate_limit", "upstream", "auth", "empty", "truncated", "latency"]
"""What an injected fault does to a tool call."""

TrialStatus = Literal["ok", "crashed", "timed_out", "cancelled"]
"""How a trial ended: the target returned (``ok``), raised or returned no text (``crashed``), ran past
its time limit (``timed_out``) or was stopped by an interrupt or budget (``cancelled``)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Message(_Strict):
    """One chat message of a case input."""

    role: str = Field(min_length=1)
    """Who speaks: ``user``, ``assistant``, ``system``, ``tool`` or a framework's own role name."""
    content: str
    """The message text."""


class Conversation(_Strict):
    """A case input given as a list of chat messages."""

    messages: list[Message] = Field(min_length=1)
    """The messages in order; the last ``user`` message is the question a text-only target sees."""

    def last_user_text(self) -> str:
        """The content of the last user message (or of the last message if no user spoke)."""
        for message in reversed(self.messages):
            if message.role == "user":
                return message.content
        return self.messages[-1].content


CaseInput = str | Conversation


def input_text(value: CaseInput) -> str:
    """The text a text-only target receives for an input."""
    return value if isinstance(value, str) else value.last_user_text()


class Fault(_Strict):
    """A fault a case declares on one tool. Several faults on a tool apply in declaration order."""

    tool: str = Field(min_length=1)
    """Name of the ``@tool``-wrapped tool the fault applies to."""
    kind: FaultKind
    """What the fault does: fail with an error kind, return ``Empty``, truncate, or add latency."""
    after_calls: int = Field(default=0, ge=0)
    """How many calls of the tool in the trial go through untouched before the fault can fire."""
    times: int | None = Field(default=None, ge=1)
    """How many times the fault fires; ``null`` means on every call once it is armed."""
    latency_ms: int | None = Field(default=None, ge=0, validate_default=True)
    """Delay added before the call for ``latency`` faults (required for them, refused for others)."""

    @field_validator("latency_ms")
    @classmethod
    def _latency_only_for_latency(cls, value: int | None, info: Any) -> int | None:
        kind = info.data.get("kind")
        if kind == "latency" and value is None:
            raise ValueError("a latency fault needs latency_ms")
        if kind not in (None, "latency") and value is not None:
            raise ValueError(f"latency_ms only applies to latency faults, not {kind}")
        return value


class FiredFault(_Strict):
    """A fault that actually fired during a trial."""

    fault: int
    """Index of the fault in the case's ``faults`` list."""
    tool: str
    """The tool it fired on."""
    kind: FaultKind
    """What it did."""
    call: int
    """0-based index of the tool's call (attempt) within the trial at which it fired."""


class ToolCall(_Strict):
    """One call of a ``@tool``-wrapped tool, in the order the calls started."""

    name: str
    """The tool's registered name."""
    arguments: dict[str, Any]
    """Arguments bound to parameter names (JSON-safe rendering)."""
    status: Literal["ok", "empty", "error"]
    """The typed outcome the model saw."""
    kind: ErrKind | None = None
    """The error kind when ``status`` is ``error``; otherwise null."""
    latency_ms: float
    """Wall time of the call including retries and injected latency."""
    attempts: int = 1
    """How many attempts were made (1 + retries used)."""
    fault_injected: bool = False
    """True when the outcome the model saw was produced by an injected fault."""
    truncated: bool = False
    """True when an ``Ok`` value was cut short (by ``truncate_at`` or a ``truncated`` fault)."""


class Usage(_Strict):
    """Tokens and cost of a trial. Unknown stays null with a reason; unknown cost is never 0."""

    input_tokens: int | None = None
    """Prompt tokens, when the target reported them."""
    output_tokens: int | None = None
    """Completion tokens, when the target reported them."""
    cost_usd: float | None = None
    """Cost in US dollars, when known."""
    cost_unknown_reason: str | None = "not reported by the target"
    """Why ``cost_usd`` is null; null when the cost is known."""


class TargetFailure(_Strict):
    """Why a trial did not produce an answer."""

    type: str
    """Exception class name, or ``Timeout`` / ``InvalidReturn`` / ``Cancelled``."""
    message: str
    """The exception message or the reason."""


class Trace(_Strict):
    """Everything observed in one trial of one case."""

    schema_: Literal["fairwitness.trace/1"] = Field(default=TRACE_SCHEMA, alias="schema")
    """Format version; readers refuse versions they do not know."""
    suite: str
    """Suite name."""
    case_id: str
    """The case's id."""
    repeat: int = Field(ge=0)
    """0-based repeat index."""
    variant: str = "base"
    """``base`` for the case as written; a relation's name for a transformed input."""
    input: CaseInput
    """The input the target received."""
    status: TrialStatus
    """How the trial ended."""
    answer: str | None = None
    """The final answer text; null when the trial produced none."""
    verdict: str | None = None
    """The verdict or route the target reported; null when it reported none."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    """``@tool`` calls in start order."""
    reported_tools: list[str] | None = None
    """Tool names the target itself reported (``Observation.tools``), when it did."""
    state: dict[str, Any] | None = Field(default=None, exclude_if=lambda s: s is None)
    """The state of the world the target reported after acting (``Observation.state``, a JSON
    object: the rows written, the booking made), matched against ``expect.state``. Written only
    when the target reported one."""
    faults_declared: list[Fault] = Field(default_factory=list)
    """Faults the case declared."""
    faults_fired: list[FiredFault] = Field(default_factory=list)
    """Faults that fired, in firing order."""
    usage: Usage = Field(default_factory=Usage)
    """Tokens and cost."""
    models: list[str] = Field(default_factory=list)
    """Model identities the target reported, in first-seen order."""
    latency_ms: float
    """Wall time of the trial."""
    error: TargetFailure | None = None
    """Why the trial produced no answer; null when it did."""
    replayed: bool = False
    """True when the trial came from the record/replay cache instead of a live call."""
    attempts: int = Field(default=1, ge=1, exclude_if=lambda n: n == 1)
    """Calls of the target this trial took: 1, plus the retries ``[run] retry`` spent on it.
    Written only when above 1."""
    retried_errors: list[TargetFailure] = Field(default_factory=list, exclude_if=lambda e: not e)
    """Why each earlier attempt was retried (a timeout or a retryable crash), in order; the trial
    itself is the last attempt. Written only when not empty."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, populate_by_name=True, use_attribute_docstrings=True
    )
