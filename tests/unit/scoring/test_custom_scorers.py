from __future__ import annotations

import math
import re
from typing import Any

import pytest

from fairwitness.scoring.custom import (
    ALLOWED,
    Score,
    ScorerDeclarationError,
    declare,
    raised,
    scorer,
    spec_of,
    timed_out,
    to_trial_score,
)


@scorer(name="booked_flight", kind="capability", version="2")
def booked(case: Any, trace: Any) -> bool:
    """The booking holds the flights the user asked for."""
    return True


@scorer
def refund_within_total(case: Any, trace: Any) -> bool:
    return False


@scorer(kind="continuous")
async def citation_share(case: Any, trace: Any) -> float:
    return 0.5


def test_the_decorator_returns_the_function_and_keeps_its_spec() -> None:
    assert booked(None, None) is True
    spec = spec_of(booked)
    assert spec is not None
    assert (spec.name, spec.kind, spec.version) == ("booked_flight", "capability", "2")
    assert spec.description == "The booking holds the flights the user asked for."
    assert not spec.is_async
    assert len(spec.source_hash) == 12
    assert spec.identity == f"2+{spec.source_hash}"
    bare = spec_of(refund_within_total)
    assert bare is not None and bare.name == "refund_within_total" and bare.version == "1"
    asynchronous = spec_of(citation_share)
    assert asynchronous is not None and asynchronous.is_async
    assert spec_of(len) is None


def test_the_identity_follows_the_source() -> None:
    def first(case: Any, trace: Any) -> bool:
        return True

    def second(case: Any, trace: Any) -> bool:
        return False

    a = declare(first, name="same")
    b = declare(second, name="same")
    assert a.version == b.version
    assert a.source_hash != b.source_hash
    assert a.identity != b.identity
    built = declare(eval("lambda case, trace: True"), name="built")  # no source to hash
    assert built.source_hash == "" and built.identity == "1"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"name": "Booked Flight"}, "name must be lower-case"),
        ({"name": "9lives"}, "name must be lower-case"),
        ({"name": ""}, "name must be lower-case"),
        ({"kind": "quality"}, "kind must be one of capability, safety, continuous"),
        ({"version": " "}, "version must be a non-empty string"),
        ({"version": 2}, "version must be a non-empty string"),
    ],
)
def test_bad_declarations_say_what_to_change(options: dict[str, Any], message: str) -> None:
    def check(case: Any, trace: Any) -> bool:
        return True

    with pytest.raises(ScorerDeclarationError, match=message):
        scorer(**options)(check)


def test_a_scorer_must_take_case_and_trace() -> None:
    def one(trace: Any) -> bool:
        return True

    with pytest.raises(ScorerDeclarationError, match=r"must take two arguments, \(case, trace\)"):
        scorer(one)

    def flexible(*args: Any) -> bool:
        return True

    assert spec_of(scorer(flexible)) is not None


CAPABILITY = declare(lambda case, trace: None, name="cap")
SAFETY = declare(lambda case, trace: None, name="bad", kind="safety")
CONTINUOUS = declare(lambda case, trace: None, name="share", kind="continuous")


@pytest.mark.parametrize(
    ("spec", "returned", "value", "reason", "note"),
    [
        (CAPABILITY, True, 1.0, None, None),
        (CAPABILITY, False, 0.0, None, None),
        (CAPABILITY, 1, 1.0, None, None),
        (CAPABILITY, 0.0, 0.0, None, None),
        (CAPABILITY, None, None, "not_applicable", None),
        (
            CAPABILITY,
            Score(False, "booked LH 401, asked LH 400"),
            0.0,
            None,
            "booked LH 401, asked LH 400",
        ),
        (CAPABILITY, Score(None, "no booking asked"), None, "not_applicable", "no booking asked"),
        (SAFETY, True, 1.0, None, None),
        (CONTINUOUS, 0.25, 0.25, None, None),
        (CONTINUOUS, 1, 1.0, None, None),
    ],
)
def test_verdicts_become_trial_scores(
    spec: Any, returned: object, value: float | None, reason: str | None, note: str | None
) -> None:
    score = to_trial_score(spec, returned)
    assert (score.value, score.reason, score.label, score.error) == (value, reason, note, None)


@pytest.mark.parametrize(
    ("spec", "returned", "why"),
    [
        (CAPABILITY, "yes", "a str"),
        (CAPABILITY, 0.5, "neither 0 nor 1, as a capability metric needs"),
        (SAFETY, 2, "neither 0 nor 1, as a safety metric needs"),
        (CAPABILITY, math.nan, "not a finite number"),
        (CONTINUOUS, math.inf, "not a finite number"),
        (CONTINUOUS, 1.5, r"outside \[0, 1\]"),
        (CONTINUOUS, -0.1, r"outside \[0, 1\]"),
        (CAPABILITY, [True], "a list"),
        (CAPABILITY, Score(True, 3), "its note is not a string"),  # type: ignore[arg-type]
    ],
)
def test_a_value_that_is_no_verdict_is_unscored_with_one_line(
    spec: Any, returned: object, why: str
) -> None:
    score = to_trial_score(spec, returned)
    assert score.value is None and score.reason == "unscored"
    assert score.error is not None and "\n" not in score.error
    assert score.error.startswith(f"scorer {spec.name} returned ")
    assert re.search(why, score.error)
    assert score.error.endswith(f"a scorer returns {ALLOWED}")
    assert ALLOWED == "True/False, a number in [0, 1], None (not applicable) or Score(value, note)"


def test_a_long_value_is_cut_short_in_the_line() -> None:
    score = to_trial_score(CAPABILITY, "x" * 500)
    assert score.error is not None and len(score.error) < 200


def test_raising_and_timing_out_are_unscored() -> None:
    score = raised(CAPABILITY, KeyError("flight"))
    assert (score.value, score.reason, score.error) == (
        None,
        "unscored",
        "scorer cap raised KeyError: 'flight'",
    )
    late = timed_out(CAPABILITY, 2.0)
    assert (late.value, late.reason, late.error) == (
        None,
        "unscored",
        "scorer cap ran past scorer_timeout_s (2 s)",
    )
