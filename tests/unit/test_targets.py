from __future__ import annotations

import dataclasses

import pytest

from fairwitness import Case, Observation, from_callable
from fairwitness.targets.base import InvalidReturn, to_observation


def test_observation_is_frozen_and_checked() -> None:
    obs = Observation(text="hi", verdict="search", tools=["a", "b"])  # type: ignore[arg-type]
    assert obs.tools == ("a", "b")
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.text = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Observation(text=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("plain", Observation(text="plain")),
        ({"text": "t", "verdict": "v"}, Observation(text="t", verdict="v")),
        (
            {"answer": "t", "route": "r", "tools": ["x"]},
            Observation(text="t", verdict="r", tools=("x",)),
        ),
        ("", Observation(text="")),
    ],
)
def test_returns_normalise(value: object, expected: Observation) -> None:
    assert to_observation(value) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "returned None"),
        (42, "returned int"),
        (["a"], "returned list"),
        ({"verdict": "v"}, "without a str 'text'"),
        ({"text": "t", "verdict": 1}, "non-str verdict"),
        ({"text": "t", "tools": "search"}, "not a list"),
    ],
)
def test_non_answers_are_target_errors(value: object, message: str) -> None:
    with pytest.raises(InvalidReturn, match=message):
        to_observation(value)


def test_from_callable_detects_text_and_async() -> None:
    def by_text(text: str) -> str:
        return text

    async def by_case(case: Case) -> str:
        return case.id

    class Agent:
        async def __call__(self, case: Case) -> str:
            return case.id

    case = Case(id="c1", input={"messages": [{"role": "user", "content": "q"}]})
    text_target = from_callable(by_text)
    assert (text_target.takes, text_target.is_async) == ("text", False)
    assert text_target.argument(case) == "q"
    case_target = from_callable(by_case)
    assert (case_target.takes, case_target.is_async) == ("case", True)
    assert case_target.argument(case) is case
    assert from_callable(Agent()).is_async
    assert from_callable(by_case, takes="text").takes == "text"
    with pytest.raises(TypeError):
        from_callable("not callable")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="takes"):
        from_callable(by_text, takes="both")  # type: ignore[arg-type]


def test_two_projects_with_an_agent_module_each_load_their_own(
    tmp_path, clean_modules: None
) -> None:
    from fairwitness.targets.loader import load_object

    first, second = tmp_path / "one", tmp_path / "two"
    for folder, answer in ((first, "one"), (second, "two")):
        folder.mkdir()
        (folder / "agent.py").write_text(f"ANSWER = {answer!r}\n", encoding="utf-8")
    assert load_object("agent:ANSWER", search_path=[first]) == "one"
    assert load_object("agent:ANSWER", search_path=[second]) == "two"
    assert load_object("agent:ANSWER", search_path=[first]) == "one"
