from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from builders import ListSink
from fairwitness import Case, Dataset, Observation, Runner, from_callable
from fairwitness.targets.base import TEXT_PARAMETERS, InvalidReturn, to_observation


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


def _first(name: str, annotation: str | None) -> object:
    """A one-parameter function ``fn(<name>[: annotation])``, its annotation a string as under
    ``from __future__ import annotations``."""
    hint = f": {annotation}" if annotation else ""
    namespace: dict[str, object] = {}
    exec(f"def fn({name}{hint}):\n    return {name}\n", namespace)
    return namespace["fn"]


@pytest.mark.parametrize(
    ("name", "annotation", "takes"),
    [
        ("text", None, "text"),
        ("prompt", None, "text"),
        ("query", None, "text"),
        ("question", None, "text"),
        ("message", None, "text"),
        ("input_text", None, "text"),
        ("anything", "str", "text"),
        ("case", None, "case"),
        ("c", None, "case"),
        ("inputs", None, "case"),
        ("text", "Case", "case"),  # the annotation decides over the name
        ("prompt", "fairwitness.Case", "case"),
        ("case", "str", "text"),
        ("message", "'Case'", "case"),
    ],
)
def test_the_first_parameter_says_what_the_target_receives(
    name: str, annotation: str | None, takes: str
) -> None:
    case = Case(id="c1", input="Any jobs in Lyon?")
    target = from_callable(_first(name, annotation))  # type: ignore[arg-type]
    assert target.takes == takes
    assert target.argument(case) == ("Any jobs in Lyon?" if takes == "text" else case)


def test_the_text_parameter_names_are_the_documented_ones() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    assert TEXT_PARAMETERS == ("text", "prompt", "query", "question", "message", "input_text")
    section = readme[readme.index("## Targets") :].split("\n## ", 1)[0]
    named = " ".join(section.split())
    listed = ", ".join(f"`{n}`" for n in TEXT_PARAMETERS[:-1]) + f" or `{TEXT_PARAMETERS[-1]}`"
    assert listed in named


def test_an_attribute_error_on_a_case_says_how_to_ask_for_the_text() -> None:
    def agent(inputs):  # type: ignore[no-untyped-def]  # neither annotated nor named like text
        return {"text": inputs.lower(), "verdict": "search"}

    def by_text(text: str) -> str:
        return text.input  # type: ignore[attr-defined]  # wanted the case

    sink = ListSink()
    asyncio.run(Runner(agent).run(Dataset([Case(id="c1", input="Jobs?")]), sink))
    (trace,) = sink.traces
    assert trace.status == "crashed" and trace.error is not None
    assert trace.error.type == "AttributeError"
    assert trace.error.message.startswith("'Case' object has no attribute 'lower'")
    assert 'target_takes = "text"' in trace.error.message
    assert "annotate its first parameter `str`" in trace.error.message

    sink = ListSink()
    asyncio.run(Runner(by_text).run(Dataset([Case(id="c1", input="Jobs?")]), sink))
    (trace,) = sink.traces
    assert trace.error is not None and 'target_takes = "case"' in trace.error.message


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
