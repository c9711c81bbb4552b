"""Metamorphic relations: transforms, what counts as held, violated, skipped or an error, fault
invariance, and the noise comparison against scipy's Fisher's exact test."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping

import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st

from fairwitness.diagnostics import relations
from fairwitness.diagnostics.relations import (
    BUILTIN_RELATIONS,
    Relation,
    RelationResult,
    case_invariance,
    compare_with_noise,
    evaluate,
    fault_invariance,
    normalisation_invariance,
    tool_selection_invariance,
    transform_inputs,
    whitespace_invariance,
)
from fairwitness.targets.base import Observation

Agent = Callable[[str], Observation]


def run(relation: Relation, agent: Agent, inputs: Mapping[str, str]) -> RelationResult:
    """Call ``agent`` on every input and on every changed follow-up, then evaluate."""
    follow_texts = transform_inputs(relation, inputs)
    sources = {i: agent(text) for i, text in inputs.items()}
    skipped = [i for i, t in follow_texts.items() if t is None]
    follows = {i: agent(t) for i, t in follow_texts.items() if t is not None}
    return evaluate(relation, sources, follows, skipped)


def case_sensitive_agent(text: str) -> Observation:
    return Observation(text="ok", verdict="escalate" if "URGENT" in text else "queue")


def case_insensitive_agent(text: str) -> Observation:
    return Observation(text="ok", verdict="escalate" if "urgent" in text.lower() else "queue")


def constant_agent(text: str) -> Observation:
    return Observation(text="ok", verdict="queue", tools=("search",))


def result_with(held: int, violated: int) -> RelationResult:
    """A result with the given counts, as evaluate would return it."""
    exercised = held + violated > 0
    return RelationResult(
        name="r",
        kind="invariant",
        layer="verdict",
        offered=held + violated,
        held=held,
        violated=violated,
        skipped=0,
        errors=0,
        unobserved=0,
        exercised=exercised,
        violation_rate=violated / (held + violated) if exercised else None,
        not_exercised_reason=None if exercised else "no input was offered to the relation",
        violations=[f"v{i}" for i in range(violated)],
    )


# -- module surface -----------------------------------------------------------------------------


def test_all_is_sorted_and_resolves() -> None:
    assert relations.__all__ == sorted(relations.__all__)
    for name in relations.__all__:
        assert hasattr(relations, name)


def test_builtin_relations() -> None:
    names = [r.name for r in BUILTIN_RELATIONS]
    assert names == [
        "normalisation_invariance",
        "case_invariance",
        "whitespace_invariance",
        "tool_selection_invariance",
    ]
    assert all(r.kind == "invariant" and r.check is None for r in BUILTIN_RELATIONS)
    assert [r.layer for r in BUILTIN_RELATIONS] == ["verdict", "verdict", "verdict", "tools"]
    assert all(r.description for r in BUILTIN_RELATIONS)
    assert normalisation_invariance() == BUILTIN_RELATIONS[0]


# -- transforms ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Café  in   Zürich", "Cafe in Zurich"),
        ("  crème\tbrûlée\n\n", "creme brulee"),
        ("São Paulo\u00a0jobs", "Sao Paulo jobs"),  # a no-break space is whitespace
        ("\ufb01le", "file"),  # a compatibility ligature
        ("naïve résumé", "naive resume"),
    ],
)
def test_normalisation_transform(text: str, expected: str) -> None:
    assert normalisation_invariance().transform(text) == expected
    assert tool_selection_invariance().transform(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "पुणे में क्षमा",  # Devanagari virama and vowel signs are not accents
        "서울 일자리",  # Hangul survives the NFKD round trip
        "find jobs in pune",
    ],
)
def test_normalisation_keeps_letters_of_other_scripts(text: str) -> None:
    assert normalisation_invariance().transform(text) == text


def test_case_and_whitespace_transforms() -> None:
    assert case_invariance().transform("Find URGENT jobs") == "fIND urgent JOBS"
    assert whitespace_invariance().transform("hi") == "\nhi  "
    assert whitespace_invariance().transform("") == "\n  "


def test_transform_inputs_marks_unchanged_inputs_none() -> None:
    follow = transform_inputs(case_invariance(), {"a": "Hello", "b": "123 ?!", "c": ""})
    assert follow == {"a": "hELLO", "b": None, "c": None}
    assert list(follow) == ["a", "b", "c"]


def test_transform_inputs_rejects_non_str() -> None:
    bad = Relation(name="bad", kind="invariant", transform=lambda t: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError, match="must return str"):
        transform_inputs(bad, {"a": "x"})
    with pytest.raises(TypeError, match="must be str"):
        transform_inputs(case_invariance(), {"a": 3})  # type: ignore[dict-item]


# -- not exercised is never a pass --------------------------------------------------------------

NO_OP_INPUTS: dict[str, dict[str, str]] = {
    "normalisation_invariance": {"1": "find jobs in pune", "2": "refund order 42", "3": "ok"},
    "case_invariance": {"1": "123 ?!", "2": "४२ नौकरी", "3": "", "4": "☺ 42"},
    "tool_selection_invariance": {"1": "find jobs in pune", "2": "refund order 42"},
}


@pytest.mark.parametrize("relation", BUILTIN_RELATIONS[:2] + BUILTIN_RELATIONS[3:])
def test_builtins_on_no_op_inputs_are_not_exercised(relation: Relation) -> None:
    inputs = NO_OP_INPUTS[relation.name]
    assert all(t is None for t in transform_inputs(relation, inputs).values())
    # Even an agent that would flip on anything cannot be judged when it is never asked.
    calls: list[str] = []

    def agent(text: str) -> Observation:
        calls.append(text)
        return constant_agent(text)

    result = run(relation, agent, inputs)
    assert calls == list(inputs.values())  # the source calls only: skipped inputs cost nothing
    assert result.exercised is False
    assert result.violation_rate is None
    assert result.held == 0
    assert result.violated == 0
    assert result.skipped == len(inputs)
    assert result.offered == len(inputs)
    assert result.not_exercised_reason is not None
    assert "returned every input unchanged" in result.not_exercised_reason
    assert "never asked a different question" in result.not_exercised_reason
    assert result.json_data()["violation_rate"] is None


def test_whitespace_transform_is_never_a_no_op_but_an_identity_is() -> None:
    relation = whitespace_invariance()
    for text in ["", "x", "  ", "\n"]:
        assert relation.transform(text) != text
    identity = Relation(name="identity", kind="invariant", transform=lambda t: t)
    result = run(identity, constant_agent, {"a": "x", "b": "y"})
    assert result.exercised is False
    assert result.violation_rate is None
    assert result.skipped == 2


def test_no_inputs_is_not_exercised() -> None:
    result = evaluate(case_invariance(), {}, {}, [])
    assert result.exercised is False
    assert result.offered == 0
    assert result.violation_rate is None
    assert result.not_exercised_reason == "no input was offered to the relation"


# -- held and violated --------------------------------------------------------------------------

URGENCY = {
    "1": "URGENT: my card was charged twice",
    "2": "urgent please, refund my order",
    "3": "Where is my parcel?",
    "4": "Change my address",
}


def test_a_case_sensitive_agent_violates_case_invariance() -> None:
    result = run(case_invariance(), case_sensitive_agent, URGENCY)
    # "1" loses URGENT when swapped, "2" gains it; "3" and "4" hold.
    assert result.violated == 2
    assert result.held == 2
    assert result.violations == ["1", "2"]
    assert result.exercised is True
    assert result.violation_rate == 0.5
    assert result.not_exercised_reason is None
    assert result.skipped == 0


def test_a_case_insensitive_agent_holds_case_invariance() -> None:
    result = run(case_invariance(), case_insensitive_agent, URGENCY)
    assert result.violated == 0
    assert result.held == 4
    assert result.violation_rate == 0.0  # exercised and clean: a real 0, not "n/a"
    assert result.violations == []


def test_skipped_inputs_are_never_held() -> None:
    inputs = {**URGENCY, "digits": "123 ?!"}
    result = run(case_invariance(), case_insensitive_agent, inputs)
    assert result.skipped == 1
    assert result.held == 4
    assert result.offered == 5


def test_tool_selection_invariance_compares_ordered_tool_lists() -> None:
    def accent_sensitive(text: str) -> Observation:
        tools = ("translate", "search") if "é" in text else ("search",)
        return Observation(text="ok", verdict="answer", tools=tools)

    def order_flipper(text: str) -> Observation:
        tools = ("search", "lookup") if "  " in text else ("lookup", "search")
        return Observation(text="ok", verdict="answer", tools=tools)

    inputs = {"cafe": "café near me", "spaces": "jobs  in pune", "plain": "hello"}
    relation = tool_selection_invariance()
    result = run(relation, accent_sensitive, inputs)
    assert (result.held, result.violated, result.skipped) == (1, 1, 1)
    assert result.violations == ["cafe"]
    # Same tools in another order is a violation: the order is part of the selection.
    result = run(relation, order_flipper, inputs)
    assert result.violations == ["spaces"]
    # The verdict is not what this relation compares.
    assert relation.holds(
        Observation(text="a", verdict="x", tools=("t",)),
        Observation(text="b", verdict="y", tools=("t",)),
    )


def test_unreported_layer_is_unobserved_not_held() -> None:
    def no_verdict(text: str) -> Observation:
        return Observation(text="ok")

    result = run(case_invariance(), no_verdict, URGENCY)
    assert result.unobserved == 4
    assert result.held == 0
    assert result.exercised is False
    assert result.violation_rate is None
    assert result.not_exercised_reason is not None
    assert "did not report a verdict" in result.not_exercised_reason

    result = run(tool_selection_invariance(), case_insensitive_agent, {"a": "Café"})
    assert result.unobserved == 1
    assert result.not_exercised_reason is not None
    assert "tools" in result.not_exercised_reason


def test_errors_are_counted_never_a_verdict() -> None:
    relation = case_invariance()
    sources = {i: case_insensitive_agent(t) for i, t in URGENCY.items()}
    follows: dict[str, Observation | None] = {
        "1": None,  # the follow-up call failed
        "2": Observation(text="ok", verdict="queue"),  # the source escalated: violated
        "3": sources["3"],
    }
    result = evaluate(relation, sources, follows, skipped=[], errors=["4"])
    assert result.errors == 2
    assert (result.held, result.violated) == (1, 1)
    assert result.offered == 4
    assert result.violation_rate == 0.5


def test_a_follow_up_without_a_source_is_an_error() -> None:
    follows: dict[str, Observation | None] = {"x": Observation(text="ok", verdict="a")}
    result = evaluate(case_invariance(), {}, follows, skipped=[])
    assert result.errors == 1
    assert result.exercised is False
    assert result.not_exercised_reason is not None
    assert "failed" in result.not_exercised_reason


def test_mixed_reasons_are_spelled_out() -> None:
    sources = {"a": Observation(text="ok"), "b": Observation(text="ok", verdict="v")}
    follows: dict[str, Observation | None] = {"a": Observation(text="ok"), "b": None}
    result = evaluate(case_invariance(), sources, follows, skipped=["c"])
    assert (result.skipped, result.errors, result.unobserved) == (1, 1, 1)
    assert result.not_exercised_reason is not None
    assert result.not_exercised_reason.startswith("no input produced a comparison")
    assert "1 input was returned unchanged" in result.not_exercised_reason
    assert "1 follow-up call failed" in result.not_exercised_reason


def test_an_input_both_skipped_and_called_is_refused() -> None:
    obs = Observation(text="ok", verdict="v")
    with pytest.raises(ValueError, match="both skipped"):
        evaluate(case_invariance(), {"a": obs}, {"a": obs}, skipped=["a"])
    with pytest.raises(ValueError, match="both skipped"):
        evaluate(case_invariance(), {"a": obs}, {}, skipped=["a"], errors=["a"])


def test_custom_checks_and_kinds() -> None:
    def escalates(source: Observation, follow: Observation) -> bool:
        # Adding "URGENT" must never lower the priority: a monotone relation.
        order = {"queue": 0, "escalate": 1}
        return order[follow.verdict or "queue"] >= order[source.verdict or "queue"]

    monotone = Relation(
        name="urgency_monotone",
        kind="monotone",
        transform=lambda t: "URGENT " + t,
        check=escalates,
    )
    result = run(monotone, case_sensitive_agent, {"a": "help", "b": "URGENT help"})
    assert (result.held, result.violated) == (2, 0)
    assert result.kind == "monotone"

    def demotes(text: str) -> Observation:
        return Observation(text="ok", verdict="queue" if "URGENT URGENT" in text else "escalate")

    result = run(monotone, demotes, {"a": "help", "b": "URGENT help"})
    assert result.violations == ["b"]

    with pytest.raises(ValueError, match="needs a check"):
        Relation(name="m", kind="monotone", transform=str.upper)
    with pytest.raises(ValueError, match="kind"):
        Relation(name="m", kind="sideways", transform=str.upper)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="layer"):
        Relation(name="m", kind="invariant", transform=str.upper, layer="logits")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="name"):
        Relation(name=" ", kind="invariant", transform=str.upper)
    with pytest.raises(TypeError, match="transform"):
        Relation(name="m", kind="invariant", transform="upper")  # type: ignore[arg-type]

    sloppy = Relation(
        name="sloppy",
        kind="directional",
        transform=str.upper,
        check=lambda s, f: "yes",  # type: ignore[arg-type,return-value]
    )
    with pytest.raises(TypeError, match="must return bool"):
        sloppy.holds(Observation(text="a"), Observation(text="b"))


def test_text_layer_default_compares_answers() -> None:
    relation = Relation(name="echo", kind="invariant", transform=str.upper, layer="text")
    assert relation.holds(Observation(text="same"), Observation(text="same", verdict="x"))
    assert not relation.holds(Observation(text="a"), Observation(text="b"))


def test_json_data_keys_and_json() -> None:
    result = run(case_invariance(), case_sensitive_agent, URGENCY)
    data = result.json_data()
    for key in ("name", "held", "violated", "skipped", "exercised", "above_noise"):
        assert key in data
    assert data["name"] == "case_invariance"
    assert data["violations"] == ["1", "2"]
    assert json.loads(json.dumps(data)) == data
    assert data["violations"] is not result.violations


# -- fault invariance ---------------------------------------------------------------------------

FOUND = "Here are 3 jobs in Pune: J-101, J-102, J-103."
ABSENT = "There are no jobs in Pune."
FAILED = "The search failed, please try again."


@pytest.mark.parametrize(
    ("source", "faulted", "expected"),
    [
        (FOUND, ABSENT, False),  # the fault turned an answer into an absence claim
        (FAILED, ABSENT, False),
        (FOUND, FAILED, True),  # the fault was reported as a failure
        (FOUND, FOUND, True),
        (FAILED, FAILED, True),
        (ABSENT, ABSENT, None),  # the source already claimed absence: not applicable
        (ABSENT, FAILED, None),
        (ABSENT, FOUND, None),
        (FOUND, "No jobs found because the search failed.", True),
        (FOUND, "पुणे में कोई नौकरी नहीं है।", False),
        (FOUND, "这里没有工作。", None),  # a language the labeller does not read
        ("这里有三个工作。", ABSENT, None),
    ],
)
def test_fault_invariance_truth_table(source: str, faulted: str, expected: bool | None) -> None:
    assert fault_invariance(source, faulted) is expected


def test_fault_invariance_takes_texts() -> None:
    with pytest.raises(TypeError):
        fault_invariance(Observation(text="x"), FOUND)  # type: ignore[arg-type]


# -- noise --------------------------------------------------------------------------------------


def scipy_greater(a: int, b: int, c: int, d: int) -> float:
    return float(scipy.stats.fisher_exact([[a, b], [c, d]], alternative="greater").pvalue)


def test_violations_at_the_noise_level_are_not_above_noise() -> None:
    result = compare_with_noise(result_with(held=19, violated=1), flips=5, pairs=100)
    assert result.above_noise is False
    assert result.noise_p is not None
    assert result.noise_p > 0.5
    assert result.noise_p == pytest.approx(scipy_greater(1, 19, 5, 95), rel=1e-9)


def test_many_more_violations_are_above_noise() -> None:
    result = compare_with_noise(result_with(held=5, violated=15), flips=5, pairs=100)
    assert result.above_noise is True
    assert result.noise_p is not None
    assert result.noise_p < 1e-9
    assert result.noise_p == pytest.approx(scipy_greater(15, 5, 5, 95), rel=1e-9)


def test_few_violations_on_few_inputs_are_not_called_above_noise() -> None:
    # 1 violation of 10 against 0 flips of 10: suggestive, not evidence.
    result = compare_with_noise(result_with(held=9, violated=1), flips=0, pairs=10)
    assert result.above_noise is False
    assert result.noise_p == pytest.approx(0.5)


def test_alpha_decides() -> None:
    base = result_with(held=6, violated=4)
    p = scipy_greater(4, 6, 0, 10)  # about 0.043
    assert compare_with_noise(base, 0, 10, alpha=0.05).above_noise is True
    assert compare_with_noise(base, 0, 10, alpha=0.01).above_noise is False
    assert compare_with_noise(base, 0, 10, alpha=p).above_noise is True  # p <= alpha


def test_noise_left_none_when_not_exercised_or_unmeasured() -> None:
    idle = result_with(held=0, violated=0)
    compared = compare_with_noise(idle, flips=3, pairs=50)
    assert compared.above_noise is None
    assert compared.noise_p is None
    busy = result_with(held=3, violated=3)
    compared = compare_with_noise(busy, flips=0, pairs=0)
    assert compared.above_noise is None
    assert compared.noise_p is None


def test_compare_with_noise_returns_a_new_result() -> None:
    base = result_with(held=5, violated=15)
    compared = compare_with_noise(base, flips=5, pairs=100)
    assert base.above_noise is None
    assert base.noise_p is None
    assert compared is not base
    assert (compared.held, compared.violated, compared.violations) == (5, 15, base.violations)
    assert compared.violations is not base.violations
    assert compared.json_data()["above_noise"] is True


def test_compare_with_noise_checks_its_arguments() -> None:
    base = result_with(held=1, violated=1)
    with pytest.raises(ValueError, match="cannot exceed"):
        compare_with_noise(base, flips=5, pairs=4)
    with pytest.raises(ValueError, match="flips"):
        compare_with_noise(base, flips=-1, pairs=4)
    with pytest.raises(TypeError, match="pairs"):
        compare_with_noise(base, flips=1, pairs=4.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="flips"):
        compare_with_noise(base, flips=True, pairs=4)
    for alpha in (0.0, 1.0, float("nan"), -0.5):
        with pytest.raises(ValueError, match="alpha"):
            compare_with_noise(base, flips=1, pairs=4, alpha=alpha)


GRID = [
    (a, b, c, d)
    for a, b, c, d in itertools.product(range(13), range(0, 13, 2), range(0, 13, 3), range(13))
    if a + b > 0 and c + d > 0
]
LARGE = [
    (40, 960, 5, 995),
    (300, 700, 200, 800),
    (3, 20, 0, 200),
    (1000, 2000, 3000, 4000),
    (60, 0, 0, 60),
    (120, 30, 40, 110),
    (7, 493, 1, 999),
    (2500, 2500, 2400, 2600),
]


def test_noise_p_agrees_with_scipy_fisher_exact_on_a_grid() -> None:
    bad = []
    for a, b, c, d in GRID + LARGE:
        got = compare_with_noise(result_with(held=b, violated=a), flips=c, pairs=c + d).noise_p
        expected = scipy_greater(a, b, c, d)
        if got is None or got != pytest.approx(expected, rel=1e-9, abs=0.0):
            bad.append(((a, b, c, d), got, expected))
    assert bad == []


@given(
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 40),
)
def test_noise_p_matches_scipy_and_is_a_probability(a: int, b: int, c: int, d: int) -> None:
    result = compare_with_noise(result_with(held=b, violated=a), flips=c, pairs=c + d)
    if a + b == 0 or c + d == 0:
        assert result.noise_p is None
        assert result.above_noise is None
        return
    assert result.noise_p is not None
    assert 0.0 <= result.noise_p <= 1.0
    assert result.noise_p == pytest.approx(scipy_greater(a, b, c, d), rel=1e-9, abs=0.0)


def test_noise_p_falls_as_violations_rise() -> None:
    ps = []
    for violated in range(21):
        p = compare_with_noise(result_with(held=20 - violated, violated=violated), 5, 100).noise_p
        assert p is not None
        ps.append(p)
    assert all(later <= earlier for earlier, later in itertools.pairwise(ps))
