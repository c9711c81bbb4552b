"""Case lines of the same shape: lines that differ only in their repeats' latencies and trace lines.

In a report of 100,000 cases most case lines repeat an earlier one but for the case id and, per
repeat, the numbers after ``"latency_ms":`` and ``"trace_line":``. Those numbers are the *slots*
of a line; the rest of its value, with each slot marked, is its *shape*. A line of a known shape
need not be parsed again: it reads as the earlier line of that shape, with its own latencies.

That is safe only when a shape's slots feed nothing the readers keep but the latencies. Before a
shape is used it is proven: it is validated twice more, with two different made-up numbers in
every slot (no number can be both). A slot that fed any other kept field would change it, or be
refused by its type; a latency that did not come from its slot would keep its old value. Either
way the shape is never used. Each slot holds a JSON number (or ``null``, for a trace line) that
ends where the line goes on, so a line of a proven shape is valid JSON exactly when the first line
of that shape is, and it validates to the same fields with its own latencies.

A line of a shape not seen before costs one regular-expression pass more than validating it; a
report whose lines are mostly all different is read without looking for shapes once
:data:`MAX_SHAPES` lines have missed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

View = TypeVar("View")

PLAIN_ID: Final = re.compile(rb'  "([^"\\\x00-\x1f]*)": ')
"""The start of a case line whose id needs no unescaping (no quote, backslash or control
character)."""
_NUMBER = rb"(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{1,25})?(?:[eE][+-]?[0-9]{1,3})?"
"""A non-negative JSON number that Python's ``float`` reads exactly as pydantic-core does."""
_LATENCY: Final = b',"latency_ms":'
_TRACE: Final = b',"trace_line":'
_SLOTS: Final = re.compile(
    re.escape(_LATENCY)
    + b"("
    + _NUMBER
    + rb")(?=[,}])|"
    + re.escape(_TRACE)
    + rb"(?:0|[1-9][0-9]{0,18}|null)(?=[,}])"
)
_MARK: Final = b"\x00"
"""Where a slot was; a valid line holds no raw control character."""
MAX_SHAPES: Final = 2048
"""Shapes remembered per report, and misses after which a report of mostly different lines is
read without looking for shapes."""
MAX_SHAPE_BYTES: Final = 16 * 1024 * 1024
"""Bytes of remembered shapes per report."""
_PROBES: Final = (b".25", b".75")
"""The fractions of the made-up numbers that prove a shape: slot ``i`` holds ``i + 1`` plus one."""

Key = tuple[bytes, tuple[type, ...]]
Validate = Callable[[bytes], Any]
Split = Callable[[Any], tuple[tuple[float, ...], Any]]


def latencies_of(slots: list[bytes | None]) -> tuple[float, ...]:
    """The latencies among a line's slots (the trace lines are ``None``)."""
    return tuple(map(float, filter(None, slots)))


class _Shape(Generic[View]):
    __slots__ = ("fields", "proven", "view")

    def __init__(self, fields: Any, view: View) -> None:
        self.fields = fields
        self.view = view
        self.proven: bool | None = None
        """Unknown until a second line of this shape is read."""


class Shapes(Generic[View]):
    """The shapes of one report's case lines, as they are read.

    ``validate`` turns a line's value into fields (raising ``ValueError``); ``split`` gives the
    fields' latencies (in repeat order) and everything else they hold, comparable with ``==``.
    A reader asks :meth:`key` for each line's shape while :attr:`looking`; looks it up in
    :attr:`proven`, else asks :meth:`miss`; and when neither knows it, validates the line and
    tells :meth:`remember` what it found.
    """

    def __init__(self, validate: Validate, split: Split) -> None:
        self._validate = validate
        self._split = split
        self.proven: dict[Key, View] = {}
        """The view of the first line of each proven shape."""
        self._unproven: dict[Key, _Shape[View]] = {}
        self._pending: Key | None = None
        self._bytes = 0
        self.lines = 0
        self.misses = 0
        self.looking = True
        """False once most lines have turned out to be of shapes not seen before."""

    def key(self, line: bytes, start: int, end: int) -> tuple[Key, list[bytes | None]]:
        """The shape of the value ``line[start:end]`` of a case line, and its slots
        (:func:`latencies_of` reads the latencies among them)."""
        self.lines += 1
        parts = _SLOTS.split(line)
        if len(parts) == 1:
            parts[0] = line[start:end]
        else:  # the id and the line's end stay out of the shape
            parts[0] = parts[0][start:]
            parts[-1] = parts[-1][:end]
        slots = parts[1::2]  # a latency, or None where a trace line was
        return (_MARK.join(parts[::2]), tuple(map(type, slots))), slots

    def miss(self, key: Key) -> View | None:
        """The view of the first line of shape ``key`` when the shape is proven now; otherwise
        ``None``, and then :meth:`remember` is told the fields the line validates to."""
        self._pending = None
        shape = self._unproven.get(key)
        if shape is not None:
            if shape.proven is None:
                shape.proven = self._prove(key, shape.fields)
            if shape.proven:
                del self._unproven[key]
                self.proven[key] = shape.view
                return shape.view
        self.misses += 1
        if self.misses >= MAX_SHAPES and self.misses > self.lines - self.misses:
            self.looking = False
        elif (
            shape is None
            and len(self._unproven) + len(self.proven) < MAX_SHAPES
            and self._bytes + len(key[0]) <= MAX_SHAPE_BYTES
        ):
            self._pending = key
        return None

    def remember(self, fields: Any, view: View) -> None:
        """The fields and view of the line :meth:`miss` last missed, validated in full."""
        if self._pending is not None:
            self._unproven[self._pending] = _Shape(fields, view)
            self._bytes += len(self._pending[0])
            self._pending = None

    def _prove(self, key: Key, fields: Any) -> bool:
        """Whether the slots of ``key`` are exactly the latencies of ``fields`` (see the module)."""
        text, kinds = key
        parts = text.split(_MARK)
        if len(parts) != len(kinds) + 1:
            return False
        _, rest = self._split(fields)
        for fraction in _PROBES:
            tokens = [b"%d%s" % (i + 1, fraction) for i in range(len(kinds))]
            chunks = [parts[0]]
            for kind, token, part in zip(kinds, tokens, parts[1:], strict=True):
                chunks += (_LATENCY if kind is bytes else _TRACE, token, part)
            try:
                probed = self._validate(b"".join(chunks))
            except ValueError:
                return False
            latencies, probed_rest = self._split(probed)
            made_up = tuple(float(t) for t, k in zip(tokens, kinds, strict=True) if k is bytes)
            if latencies != made_up or probed_rest != rest:
                return False
        return True
