"""Scorers a user writes: ``@scorer`` on ``def check(case, trace)``, and how what it returns
becomes a trial score.

A user's scorer gets the same honesty as a built-in one: ``None`` is *not applicable* (never a
pass), an exception is *unscored* with the exception kept, and a value that is not a verdict (a
string, NaN, 1.7 for a pass/fail metric) is refused with one line that says what was returned and
what a scorer may return. Its identity is its ``version`` and a hash of its source, so two reports
scored by different code are never compared on it.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from fairwitness.scoring.base import FAIL, PASS, Kind, Scorer, TrialScore

if TYPE_CHECKING:
    from fairwitness.dataset import Case
    from fairwitness.scoring.base import ScoringSettings
    from fairwitness.trace.model import Trace

NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
"""What a metric name may be: lower-case letters, digits and ``_``, starting with a letter."""

KINDS: tuple[Kind, ...] = ("capability", "safety", "continuous")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Score:
    """What a scorer may return instead of a bare value: the value and a short note (why it
    failed, what was found) kept with the trial and shown beside a failing case."""

    value: bool | float | None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class ScorerSpec:
    """A user's scorer as declared by :func:`scorer`."""

    name: str
    kind: Kind
    version: str
    description: str
    fn: Callable[..., Any]
    is_async: bool
    source_hash: str
    """The first 12 hex digits of the SHA-256 of the function's source, dedented (``""`` when
    Python cannot find the source, e.g. a function built at run time)."""

    @property
    def identity(self) -> str:
        """``version+hash``: reports scored by different identities are not compared."""
        return f"{self.version}+{self.source_hash}" if self.source_hash else self.version

    @property
    def higher_is_better(self) -> bool:
        """False for a safety metric, whose 1.0 is a hit (something bad)."""
        return self.kind != "safety"

    def identity_data(self) -> dict[str, str]:
        """What a report records of this scorer (``scoring.scorers``): kind, version, source
        hash."""
        return {"kind": self.kind, "version": self.version, "source_hash": self.source_hash}


class ScorerDeclarationError(ValueError):
    """``@scorer`` was used wrongly; the message names the function and what to change."""


def _source_hash(fn: Callable[..., Any]) -> str:
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        return ""
    return hashlib.sha256(textwrap.dedent(source).encode("utf-8")).hexdigest()[:12]


def _check_signature(fn: Callable[..., Any], where: str) -> None:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(None, None)
    except TypeError:
        raise ScorerDeclarationError(
            f"scorer {where} must take two arguments, (case, trace); it takes {signature}"
        ) from None


def declare(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    kind: str = "capability",
    version: str = "1",
    description: str | None = None,
) -> ScorerSpec:
    """The :class:`ScorerSpec` of ``fn``; a bad name, kind, version or signature raises
    :class:`ScorerDeclarationError`."""
    where = getattr(fn, "__qualname__", repr(fn))
    metric = name if name is not None else getattr(fn, "__name__", "")
    if not isinstance(metric, str) or NAME.fullmatch(metric) is None:
        raise ScorerDeclarationError(
            f"scorer {where}: name must be lower-case letters, digits and _ (starting with a"
            f" letter, at most 64), got {metric!r}"
        )
    if kind not in KINDS:
        raise ScorerDeclarationError(
            f"scorer {where}: kind must be one of {', '.join(KINDS)}, got {kind!r}"
        )
    if not isinstance(version, str) or not version.strip():
        raise ScorerDeclarationError(
            f"scorer {where}: version must be a non-empty string, got {version!r}"
        )
    if not callable(fn):
        raise ScorerDeclarationError(f"scorer {where} is not callable")
    _check_signature(fn, where)
    doc = inspect.getdoc(fn) or ""
    return ScorerSpec(
        name=metric,
        kind=kind,
        version=version.strip(),
        description=description if description is not None else doc.partition("\n")[0],
        fn=fn,
        is_async=inspect.iscoroutinefunction(fn),
        source_hash=_source_hash(fn),
    )


ATTRIBUTE = "__fairwitness_scorer__"
"""Where :func:`scorer` keeps a function's :class:`ScorerSpec`."""


def scorer(
    fn: F | None = None,
    *,
    name: str | None = None,
    kind: str = "capability",
    version: str = "1",
    description: str | None = None,
) -> Any:
    """Declare ``fn(case, trace)`` a metric. Use bare (``@scorer``) or with options
    (``@scorer(name="booked_flight", kind="capability", version="2")``).

    ``kind``: ``capability`` (True or 1.0 is a pass; majority over repeats, per-trial rate and
    pass^k), ``safety`` (True or 1.0 is a hit, something bad; any hit over repeats is a finding)
    or ``continuous`` (a value in [0, 1], higher is better; median over repeats). Return ``None``
    when the case does not apply, or a :class:`Score` to keep a note. Change ``version`` when the
    meaning changes; the source hash changes by itself with the code. The function is returned
    unchanged, so it can still be called in the user's own tests.
    """

    def wrap(target: F) -> F:
        spec = declare(target, name=name, kind=kind, version=version, description=description)
        setattr(target, ATTRIBUTE, spec)
        return target

    return wrap(fn) if fn is not None else wrap


def spec_of(obj: object) -> ScorerSpec | None:
    """The spec ``@scorer`` attached to ``obj``, if any."""
    spec = getattr(obj, ATTRIBUTE, None)
    return spec if isinstance(spec, ScorerSpec) else None


ALLOWED = "True/False, a number in [0, 1], None (not applicable) or Score(value, note)"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def to_trial_score(spec: ScorerSpec, returned: object) -> TrialScore:
    """What the scorer returned as a trial score. A value that is no verdict is *unscored*, with
    one line in ``error`` saying what was returned and what is allowed."""
    note: str | None = None
    value = returned
    if isinstance(returned, Score):
        value, note = returned.value, returned.note
        if note is not None and not isinstance(note, str):
            return _refused(spec, returned, "its note is not a string")
    if value is None:
        return TrialScore(None, "not_applicable", note)
    if isinstance(value, bool):
        if note is None:
            return PASS if value else FAIL
        return TrialScore(1.0 if value else 0.0, None, note)
    if not isinstance(value, int | float):
        return _refused(spec, returned, f"a {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        return _refused(spec, returned, "not a finite number")
    if spec.kind == "continuous":
        if not 0.0 <= number <= 1.0:
            return _refused(spec, returned, "outside [0, 1]")
    elif number not in (0.0, 1.0):
        return _refused(spec, returned, f"neither 0 nor 1, as a {spec.kind} metric needs")
    return TrialScore(number, None, note)


def _refused(spec: ScorerSpec, returned: object, why: str) -> TrialScore:
    return TrialScore(
        None,
        "unscored",
        None,
        f"scorer {spec.name} returned {_short(returned)} ({why}); a scorer returns {ALLOWED}",
    )


def raised(spec: ScorerSpec, exc: BaseException) -> TrialScore:
    """The trial score of a scorer that raised: unscored, the exception kept."""
    return TrialScore(
        None, "unscored", None, f"scorer {spec.name} raised {type(exc).__name__}: {exc}"
    )


def timed_out(spec: ScorerSpec, timeout_s: float) -> TrialScore:
    """The trial score of a scorer that ran past its time limit: unscored."""
    return TrialScore(
        None, "unscored", None, f"scorer {spec.name} ran past scorer_timeout_s ({timeout_s:g} s)"
    )


@dataclass(frozen=True)
class UserScorer(Scorer):
    """A metric whose scores come from a user's scorer. The score board calls ``spec.fn(case,
    trace)`` under ``[scoring] scorer_timeout_s`` (``fn`` calls it directly, without a limit)."""

    spec: ScorerSpec


def as_scorer(spec: ScorerSpec) -> UserScorer:
    """The metric of ``spec``, ready for a :class:`~fairwitness.scoring.apply.ScoreBoard`."""

    def direct(trace: Trace, case: Case, settings: ScoringSettings) -> TrialScore:
        if spec.is_async:
            raise TypeError(f"scorer {spec.name} is async: score with 'await board.ascore(...)'")
        try:
            returned = spec.fn(case, trace)
        except Exception as exc:
            return raised(spec, exc)
        return to_trial_score(spec, returned)

    return UserScorer(
        spec.name, spec.kind, spec.higher_is_better, spec.description, direct, spec=spec
    )


__all__ = [
    "ALLOWED",
    "ATTRIBUTE",
    "KINDS",
    "NAME",
    "Score",
    "ScorerDeclarationError",
    "ScorerSpec",
    "UserScorer",
    "as_scorer",
    "declare",
    "raised",
    "scorer",
    "spec_of",
    "timed_out",
    "to_trial_score",
]
