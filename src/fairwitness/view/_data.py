"""Gather a report, its baseline, the gate's decision and the traces into the viewer's data.

The data is one JSON object holding only what the page shows. Every string that comes from a
case (ids, inputs, answers, tool names and arguments, verdicts, errors) is interned: it appears
once in ``s`` and is referred to by its index, so a suite whose answers repeat costs little.
Numbers stay numbers; "not measured" stays ``null``. The page reads it as:

- ``head``: suite, split and, per side (``cand``, ``base``), the run, counts, usage, stability;
- ``decision``: the gate's decision (:meth:`Decision.json_data`), or null without a baseline;
- ``metrics``: per metric its description, direction and both sides' figures (headline,
  per-trial, collapsed, pass^k);
- ``diag``: each side's diagnostics blocks as saved;
- ``trend``: null without ``--history``; else ``source`` (what the runs are), ``notes`` (what
  was left out), ``runs`` (per run, oldest first, the candidate last: ``label``, ``file``,
  ``sha``, ``at``, ``cand``) and ``metrics`` (per gated metric its ``name`` and one point per
  run, ``[value, low, high, text]`` or null where that run did not measure it);
- ``m`` (metric names), ``tags``; ``cases``: one row per case of the union of both reports,
  candidate order first (see :data:`CASE_FIELDS`); ``cand`` and ``base``: per case
  ``[collapsed scores, exclusions, repeats]`` (scores as a flat ``[metric index, score, ...]``
  list, exclusions by metric index, repeats as :data:`REPEAT_FIELDS`), or null where that
  report lacks the case.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from fairwitness.dataset import Case
from fairwitness.gate import Decision
from fairwitness.judge import withheld_metrics
from fairwitness.render import point_text
from fairwitness.render._flips import OBSERVED
from fairwitness.report import CaseOutcomes, Report, TrialOutcome
from fairwitness.report.history import History
from fairwitness.trace.model import Trace

DATA_VERSION: Final = 1
"""Version of the data layout the page's script reads."""

MUST_PASS: Final = 1
UNSTABLE: Final = 2
FAILING: Final = 4
REGRESSED: Final = 8
IMPROVED: Final = 16
MUST_PASS_FAILED: Final = 32
ONLY_CANDIDATE: Final = 64
ONLY_BASELINE: Final = 128
"""Bits of a case row's ``flags``."""

CASE_FIELDS: Final = (
    "id",
    "flags",
    "tags",
    "failing",
    "regressed",
    "improved",
    "input",
    "expect",
    "faults",
)
"""A case row: the id (interned), the flag bits, tag indexes, the metric indexes the candidate
fails, regressed on and improved on, the input and the expectations (interned JSON text, -1
when unknown) and the number of faults it declares."""

REPEAT_FIELDS: Final = (
    "repeat",
    "variant",
    "status",
    "verdict",
    "latency_ms",
    "error",
    "scores",
    "notes",
    "trace",
    "said",
)
"""A repeat: its number, variant, status, verdict and error (interned, -1 for none), latency,
``scores`` as a flat ``[metric index, score, ...]`` list (a metric not applicable is absent, one
not measured has a null score), ``notes`` (a map of reasons, labels and anything else the report
keeps about the trial), ``trace`` (see :data:`TRACE_FIELDS`), -1 when unknown, and ``said``: the
phrases of the answer that decided a label (a misreport's deciding phrase, interned), which the
page marks in the answer."""

TRACE_FIELDS: Final = (
    "answer",
    "calls",
    "declared",
    "fired",
    "input_tokens",
    "output_tokens",
    "cost_usd",
    "cost_reason",
    "input",
)
"""A trial's trace: the answer (interned, -1 for none), the tool calls as ``[name, arguments,
status (0 Ok, 1 Empty, 2 Err), error kind, latency, flags (1 fault injected, 2 truncated),
attempts]``, the faults declared and fired (interned descriptions), tokens and cost (null when
unknown, with the reason) and the input."""

_KNOWN_OUTCOME_FIELDS: Final = frozenset(
    {
        "repeat", "variant", "status", "verdict", "latency_ms", "tool_calls", "faults_fired",
        "error", "replayed", "trace_line", "scores", "reasons", "labels", "unscored",
        "evidence",
    }
)  # fmt: skip
"""The fields of :class:`TrialOutcome` this viewer shows in place; any other is shown as saved."""
_NEWER_OUTCOME_FIELDS: Final = tuple(
    name for name in TrialOutcome.model_fields if name not in _KNOWN_OUTCOME_FIELDS
)
"""The fields of :class:`TrialOutcome` shown as saved (none while the viewer knows them all)."""
_STATUS: Final = {"ok": 0, "empty": 1, "error": 2}


class _Strings:
    """An intern table: each distinct string once, referred to by index."""

    def __init__(self) -> None:
        self.table: list[str] = []
        self.index: dict[str, int] = {}

    def __call__(self, text: str | None) -> int:
        if text is None:
            return -1
        found = self.index.get(text)
        if found is None:
            found = self.index[text] = len(self.table)
            self.table.append(text)
        return found


def _compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def _input_shown(value: Any) -> str:
    """An input as a person reads it: the text of a one-message conversation (what a case given as
    a plain string becomes), else the whole conversation as compact JSON."""
    if isinstance(value, str):
        return value
    if len(value.messages) == 1:
        return str(value.messages[0].content)
    return _compact_json(value.model_dump())


def compact_trace(trace: Trace, strings: _Strings) -> list[Any]:
    """The fields of ``trace`` the page shows (:data:`TRACE_FIELDS`)."""
    calls = [
        [
            strings(call.name),
            strings(_compact_json(call.arguments)),
            _STATUS[call.status],
            strings(call.kind),
            round(call.latency_ms, 3),
            (1 if call.fault_injected else 0) | (2 if call.truncated else 0),
            call.attempts,
        ]
        for call in trace.tool_calls
    ]
    declared = [
        strings(_compact_json(f.model_dump(mode="json", exclude_none=True)))
        for f in trace.faults_declared
    ]
    fired = [
        strings(f"fault {f.fault}: {f.kind} on {f.tool}, call {f.call}") for f in trace.faults_fired
    ]
    text = _input_shown(trace.input)
    usage = trace.usage
    return [
        strings(trace.answer),
        calls,
        declared,
        fired,
        usage.input_tokens,
        usage.output_tokens,
        usage.cost_usd,
        strings(usage.cost_unknown_reason if usage.cost_usd is None else None),
        strings(text),
    ]


def _figure(figure: Any) -> dict[str, Any] | None:
    if figure is None:
        return None
    return {
        "value": figure.value,
        "k": figure.k,
        "n": figure.n,
        "lo": figure.ci_low,
        "hi": figure.ci_high,
    }


def _metric_side(report: Report | None, name: str) -> dict[str, Any] | None:
    metric = report.metrics.get(name) if report is not None else None
    if metric is None:
        return None
    return {
        "headline": _figure(metric),
        "which": metric.headline,
        "per_trial": _figure(metric.per_trial),
        "collapsed": _figure(metric.collapsed),
        "trials": metric.trials,
        "successes": metric.successes,
        "excluded": dict(metric.excluded),
        "pass_k": [p.model_dump(mode="json") for p in metric.pass_k],
    }


def _metrics(cand: Report, base: Report | None, names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for name in names:
        metric = cand.metrics.get(name) or (base.metrics[name] if base is not None else None)
        assert metric is not None
        rows.append(
            {
                "name": name,
                "description": metric.description,
                "higher_is_better": metric.higher_is_better,
                "collapse": metric.collapse,
                "cand": _metric_side(cand, name),
                "base": _metric_side(base, name),
            }
        )
    return rows


def _side_head(report: Report | None, name: str | None) -> dict[str, Any] | None:
    if report is None:
        return None
    return {
        "file": name,
        "complete": report.complete,
        "incomplete_reason": report.incomplete_reason,
        "suite_version": report.suite_version,
        "split_hash": report.split_hash,
        "run": report.run.model_dump(mode="json"),
        "counts": report.counts.model_dump(mode="json"),
        "usage": report.usage.model_dump(mode="json", exclude={"by_model"}),
        "stability": report.stability.model_dump(mode="json"),
        "traces": report.traces,
    }


def _bad(score: float | None, higher_is_better: bool) -> bool:
    if score is None:
        return False
    return score < 0.5 if higher_is_better else score > 0.5


def _repeats(
    case: CaseOutcomes | None,
    index: dict[str, int],
    traces: Mapping[int, list[Any]] | None,
    strings: _Strings,
) -> list[Any] | None:
    if case is None:
        return None
    collapsed: list[Any] = []
    for name, score in case.scores.items():
        collapsed += [index[name], score]
    excluded = {str(index[name]): strings(why) for name, why in case.excluded.items()}
    rows = []
    for outcome in case.repeats:
        scores: list[Any] = []
        for name, score in outcome.scores.items():
            scores += [index[name], score]
        notes: dict[str, Any] = {}
        for name, reason in outcome.reasons.items():
            notes[f"{name}: not measured"] = reason
        for name, label in outcome.labels.items():
            notes[f"{name}: label"] = label
        for name, error in outcome.unscored.items():
            notes[f"{name}: scorer raised"] = error
        said: list[int] = []
        for name, found in outcome.evidence.items():  # "rule: phrase": what decided the score
            rule, _, phrase = found.partition(": ")
            notes[f"{name}: {rule}"] = phrase
            if rule != OBSERVED and phrase:  # a phrase of the answer, not an observation
                index_of = strings(phrase)
                if index_of not in said:
                    said.append(index_of)
        if _NEWER_OUTCOME_FIELDS:  # fields newer than this viewer, shown as saved
            extra = outcome.model_dump(mode="json", include=set(_NEWER_OUTCOME_FIELDS))
            for key, value in extra.items():
                if value not in (None, {}, [], ""):
                    notes[key] = value if isinstance(value, str) else _compact_json(value)
        line = outcome.trace_line
        trace = traces.get(line, -1) if traces is not None and line is not None else -1
        rows.append(
            [
                outcome.repeat,
                strings(outcome.variant),
                strings(outcome.status),
                strings(outcome.verdict),
                round(outcome.latency_ms, 3),
                strings(outcome.error),
                scores,
                {k: strings(str(v)) for k, v in notes.items()},
                trace,
                said,
            ]
        )
    return [collapsed, excluded, rows]


def _flip_sets(
    decision: Decision | None, index: dict[str, int]
) -> tuple[dict[str, list[int]], ...]:
    regressed: dict[str, list[int]] = {}
    improved: dict[str, list[int]] = {}
    if decision is not None:
        for metric in decision.metrics:
            for case_id in metric.regressed_ids:
                regressed.setdefault(case_id, []).append(index[metric.name])
            for case_id in metric.improved_ids:
                improved.setdefault(case_id, []).append(index[metric.name])
    return regressed, improved


def build_data(
    candidate: Report,
    baseline: Report | None = None,
    decision: Decision | None = None,
    *,
    traces: Mapping[int, Trace] | Iterable[tuple[int, Trace]] | None = None,
    baseline_traces: Mapping[int, Trace] | Iterable[tuple[int, Trace]] | None = None,
    cases: Mapping[str, Case] | None = None,
    names: tuple[str | None, str | None] = (None, None),
    history: History | None = None,
) -> dict[str, Any]:
    """The viewer's data (see the module) for ``candidate`` shown against ``baseline``.

    ``traces`` and ``baseline_traces`` map a trace file's line numbers to its traces (what
    :func:`~fairwitness.trace.read_traces` yields); ``cases`` (by id) adds each case's input and
    expectations; ``names`` are the two reports' file names as the page should show them;
    ``history`` the default branch's earlier runs, for the trend of each gated metric."""
    strings = _Strings()
    metric_names = list(candidate.metrics)
    if baseline is not None:
        metric_names += [m for m in baseline.metrics if m not in candidate.metrics]
    index = {name: i for i, name in enumerate(metric_names)}
    for metric in decision.metrics if decision is not None else ():
        if metric.name not in index:
            index[metric.name] = len(metric_names)
            metric_names.append(metric.name)
    direction = [
        (m.higher_is_better, m.collapse != "median")
        for m in (
            candidate.metrics.get(name) or (baseline.metrics.get(name) if baseline else None)
            for name in metric_names
        )
        if m is not None
    ]
    cand_traces = _traces(traces, strings)
    base_traces = _traces(baseline_traces, strings)
    ids = list(candidate.cases)
    if baseline is not None:
        ids += [case_id for case_id in baseline.cases if case_id not in candidate.cases]
    regressed, improved = _flip_sets(decision, index)
    tags: dict[str, int] = {}
    rows, cand_rows, base_rows = [], [], []
    for case_id in ids:
        cand = candidate.cases.get(case_id)
        base = baseline.cases.get(case_id) if baseline is not None else None
        either = cand or base
        assert either is not None
        failing = [
            index[name]
            for name, score in (cand.scores.items() if cand is not None else ())
            if index[name] < len(direction)
            and direction[index[name]][1]
            and _bad(score, direction[index[name]][0])
        ]
        flags = (
            (MUST_PASS if either.must_pass else 0)
            | (UNSTABLE if cand is not None and cand.unstable else 0)
            | (FAILING if failing else 0)
            | (REGRESSED if case_id in regressed else 0)
            | (IMPROVED if case_id in improved else 0)
            | (MUST_PASS_FAILED if either.must_pass and failing else 0)
            | (ONLY_CANDIDATE if baseline is not None and base is None else 0)
            | (ONLY_BASELINE if cand is None else 0)
        )
        known = cases.get(case_id) if cases is not None else None
        text = expect = -1
        if known is not None:
            raw = known.input
            text = strings(_input_shown(raw))
            expect = strings(_compact_json(known.expect.model_dump(exclude_none=True)))
        rows.append(
            [
                strings(case_id),
                flags,
                [tags.setdefault(tag, len(tags)) for tag in either.tags],
                failing,
                regressed.get(case_id, []),
                improved.get(case_id, []),
                text,
                expect,
                either.faults,
            ]
        )
        cand_rows.append(_repeats(cand, index, cand_traces, strings))
        base_rows.append(_repeats(base, index, base_traces, strings))
    return {
        "v": DATA_VERSION,
        "head": {
            "suite": candidate.suite,
            "split": candidate.split,
            "cand": _side_head(candidate, names[0]),
            "base": _side_head(baseline, names[1]),
            "traces": {"cand": cand_traces is not None, "base": base_traces is not None},
            "expectations": cases is not None,
        },
        "decision": decision.json_data() if decision is not None else None,
        "trend": _trend(history, decision, candidate),
        "metrics": _metrics(candidate, baseline, metric_names),
        "diag": {
            "cand": candidate.diagnostics.json_data(),
            "base": baseline.diagnostics.json_data() if baseline is not None else None,
        },
        "m": metric_names,
        "tags": list(tags),
        "cases": rows,
        "cand": cand_rows,
        "base": base_rows if baseline is not None else None,
        "s": strings.table,
    }


def _traces(
    traces: Mapping[int, Trace] | Iterable[tuple[int, Trace]] | None, strings: _Strings
) -> dict[int, list[Any]] | None:
    if traces is None:
        return None
    pairs = traces.items() if isinstance(traces, Mapping) else traces
    return {line: compact_trace(trace, strings) for line, trace in pairs}


def _trend(history: History | None, decision: Decision | None, cand: Report) -> Any:
    if history is None:
        return None
    gated = [m.name for m in decision.metrics if m.gated] if decision is not None else None
    withheld = withheld_metrics(cand.diagnostics)
    names = [name for name in history.metrics_for(gated) if name not in withheld]
    return {
        "source": history.summary(),
        "notes": history.notes,
        "runs": [
            {
                "label": run.label,
                "file": run.name,
                "sha": run.git_sha,
                "at": run.created_at.isoformat(),
                "cand": run.candidate,
            }
            for run in history.runs
        ],
        "metrics": [
            {
                "name": name,
                "points": [
                    None
                    if point is None or point.value is None
                    else [point.value, point.low, point.high, point_text(point)]
                    for point in history.series(name)
                ],
            }
            for name in names
        ],
    }
