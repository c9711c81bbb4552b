"""Reports built by the real pipeline (Runner, ScoreBoard, build_report) with deterministic
in-process targets, for the tests of everything that reads reports (gate, render, readme)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fairwitness import Case, Dataset, Report, Runner, current
from fairwitness.report import build_report
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard, Scorer, ScoringSettings, TrialScore
from fairwitness.trace.model import Trace

PASS, FAIL, CRASH, CLAIM, SLIP = "pass", "fail", "crash", "claim", "slip"
"""Per-repeat behaviour of the fake target: right route; wrong route; raises; right route but a
forbidden claim in the answer; right route with an answer the custom ``slips`` scorer flags."""


def _slips(trace: Trace, case: Case, settings: ScoringSettings) -> TrialScore:
    if trace.status != "ok" or trace.answer is None:
        return TrialScore.missing("no_answer")
    return TrialScore(1.0 if "oops" in trace.answer else 0.0)


SLIPS = Scorer("slips", "safety", False, "the answer says oops", _slips)


class ListSink:
    """A trace sink that keeps every trace in memory, in the order written."""

    def __init__(self) -> None:
        self.traces: list[Trace] = []

    def write(self, trace: Trace) -> int:
        self.traces.append(trace)
        return len(self.traces)


class _Sink:
    def __init__(self) -> None:
        self.lines = 0

    def write(self, trace: Trace) -> int:
        self.lines += 1
        return self.lines


def build(
    plan: Mapping[str, Sequence[str]],
    *,
    must_pass: Sequence[str] = (),
    expect: Mapping[str, Any] | None = None,
    bare: Sequence[str] = (),
    claims: bool = False,
    model: str = "model-a",
    suite: str = "s",
    scorers: tuple[Scorer, ...] = BUILTIN_SCORERS,
    max_calls: int | None = None,
    tags: Mapping[str, Sequence[str]] | None = None,
) -> Report:
    """A report of ``plan`` (case id -> behaviour per repeat) run through the real pipeline;
    every case expects ``expect`` (default: route ``yes``) except the ``bare`` ones; ``tags``
    gives cases their tags (case id -> tags)."""
    repeats = len(next(iter(plan.values())))
    base_expect: dict[str, Any] = {"route": "yes"} if expect is None else dict(expect)
    if claims:
        base_expect["forbidden_claims"] = ["guarantee"]
    data = Dataset(
        [
            Case(
                id=case_id,
                input=case_id,
                must_pass=case_id in must_pass,
                expect={} if case_id in bare else base_expect,
                tags=list((tags or {}).get(case_id, ())),
            )
            for case_id in plan
        ]
    )

    async def target(case: Case) -> dict[str, str]:
        ctx = current()
        ctx.record_model(model)
        step = plan[case.id][ctx.repeat]
        if step == CRASH:
            raise RuntimeError("boom")
        text = {CLAIM: "I guarantee it", SLIP: "oops, done"}.get(step, "done")
        return {"text": text, "verdict": "no" if step == FAIL else "yes"}

    board = ScoreBoard(scorers)
    runner = Runner(
        target, suite=suite, repeats=repeats, concurrency=1, scoring=board, max_calls=max_calls
    )
    result = asyncio.run(runner.run(data, _Sink()))
    return build_report(
        result,
        data,
        board=ScoreBoard(scorers),
        target="fake:target",
        seed=0,
        repeats=repeats,
        concurrency=1,
        timeout_s=None,
        mode="live",
    )


def plan_of(n: int, steps: Callable[[int], Sequence[str]]) -> dict[str, list[str]]:
    return {f"c{i}": list(steps(i)) for i in range(n)}


def edit(report: Report, change: Callable[[dict[str, Any]], None]) -> Report:
    """A copy of ``report`` with its JSON edited (as someone editing the file would)."""
    data = json.loads(report.to_json())
    change(data)
    return Report.model_validate(data)


def adapter_report(
    result: Any, data: Any, *, target: str, concurrency: int, timeout_s: float | None = None
) -> Report:
    """The report of a one-repeat live run of an adapter's agent, scored by the built-in scorers."""
    return build_report(
        result,
        data,
        board=ScoreBoard(BUILTIN_SCORERS),
        target=target,
        seed=0,
        repeats=1,
        concurrency=concurrency,
        timeout_s=timeout_s,
        mode="live",
    )
