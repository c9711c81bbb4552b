"""Join the shard reports of one sharded run into the report the whole run would have made.

The shards must be every shard of one run (indices 1..N, each once, covering every case of the
dataset exactly once) and must agree on everything that makes results comparable: suite, version,
split and split hash, the dataset's ids, seed, repeats, mode, target, time limit, concurrency,
config hash, fairwitness version, git sha, scoring (labeller version, scorers, settings, and the
identity of each user's scorer), the price table's version and the judge's calibration. Anything
else is refused naming the shards and the field.

Per-case records are copied in dataset order; metrics, stability and the meter and blindness
diagnostics are recomputed over the whole run (never averaged across shards); counts and usage
are summed, usage per model too (costs from the shards' unrounded sums). The shards' trace files
are concatenated (trace line numbers follow). The merged report equals the report of an
unsharded run of the same (replayed) traces byte for byte, except the fields that record time or
file layout: ``run.created_at`` (the earliest shard's), ``run.finished_at`` (the latest), each
outcome's ``latency_ms`` and ``trace_line``.

Shard reports are read line by line (:func:`~fairwitness.report.io.read_canonical`), so merging
holds offsets and verdicts in memory, never the outcomes themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairwitness._atomic import write_atomic
from fairwitness.diagnostics import DiagnosticBlock
from fairwitness.diagnostics.suite import suite_diagnostics
from fairwitness.errors import OutputExistsError, Problem, ReportError
from fairwitness.judge import JudgeBlock, JudgeUsage
from fairwitness.report._usage import merge_usage
from fairwitness.report.io import (
    NotCanonical,
    Truncated,
    read_canonical,
    read_case,
    render_report,
    write_report,
)
from fairwitness.report.model import (
    REPORT_SCHEMA,
    Counts,
    Metric,
    Report,
    Stability,
)
from fairwitness.report.slices import tag_figures
from fairwitness.scoring import CaseScore, Scorer, success_count, summarise
from fairwitness.scoring.base import KIND_OF_COLLAPSE

SAME: tuple[tuple[str, Callable[[Report], object]], ...] = (
    ("suite", lambda r: r.suite),
    ("suite_version", lambda r: r.suite_version),
    ("split", lambda r: r.split),
    ("split_hash", lambda r: r.split_hash),
    ("selection", lambda r: r.selection and r.selection.model_dump()),
    ("shard.total", lambda r: r.shard and r.shard.total),
    ("shard.dataset_cases", lambda r: r.shard and r.shard.dataset_cases),
    ("shard.dataset_ids_hash", lambda r: r.shard and r.shard.dataset_ids_hash),
    ("run.tool_version", lambda r: r.run.tool_version),
    ("run.git_sha", lambda r: r.run.git_sha),
    ("run.target", lambda r: r.run.target),
    ("run.config_hash", lambda r: r.run.config_hash),
    ("run.seed", lambda r: r.run.seed),
    ("run.repeats", lambda r: r.run.repeats),
    ("run.concurrency", lambda r: r.run.concurrency),
    ("run.timeout_s", lambda r: r.run.timeout_s),
    ("run.mode", lambda r: r.run.mode),
    ("scoring.scorers", lambda r: {n: i.model_dump() for n, i in r.scoring.scorers.items()}),
    ("scoring", lambda r: r.scoring.model_dump()),
    ("usage.pricing_version", lambda r: r.usage.pricing_version),
    ("diagnostics.label_skew", lambda r: _saved(r.diagnostics.label_skew)),
    ("diagnostics.judge", lambda r: _judge_setup(r.diagnostics.judge)),
)
"""What every shard of one run has in common (field name, how to read it)."""

Successes = dict[str, tuple[int, int]]
"""Per pass/fail metric, a case's (successes, measured repeats)."""


def _saved(block: DiagnosticBlock | None) -> dict[str, Any] | None:
    """A diagnostics block as saved, so a difference is shown as the files hold it."""
    return None if block is None else block.json_data()


def _judge_setup(block: JudgeBlock | None) -> dict[str, Any] | None:
    """The judge block without what each shard's judge did (``usage``), which is summed."""
    saved = _saved(block)
    if saved is not None:
        saved.pop("usage", None)
    return saved


def _merged_judge(blocks: list[JudgeBlock | None]) -> JudgeBlock | None:
    """The first shard's judge block with every shard's judge ``usage`` summed (a cost is known
    only when every shard's is)."""
    first = blocks[0]
    usages = [b.usage for b in blocks if b is not None and b.usage is not None]
    if first is None or len(usages) != len(blocks):
        return first
    total: dict[str, Any] = {}
    for key in ("asked", "live_calls", "replayed"):
        counts = [getattr(u, key) for u in usages]
        total[key] = sum(counts) if all(isinstance(c, int) for c in counts) else None
    for key in ("by_labeller", "by_judge", "unread"):  # newer counts: summed when every shard has
        counts = [getattr(u, key) for u in usages]
        if all(isinstance(c, int) for c in counts):
            total[key] = sum(counts)
    costs = [u.cost_usd for u in usages]
    known = [c for c in costs if c is not None]
    total["cost_usd"] = round(sum(known), 6) if len(known) == len(costs) else None
    modes = {u.mode for u in usages}
    total["mode"] = modes.pop() if len(modes) == 1 else "mixed"
    return first.model_copy(update={"usage": JudgeUsage(**total)})


@dataclass
class _Shard:
    path: Path
    header: Report
    index: list[tuple[str, int, int]]
    trace_lines: int = 0


def _load(path: Path) -> _Shard:
    try:
        raw, index = read_canonical(path)
    except FileNotFoundError:
        raise ReportError(Problem("shard report not found", file=str(path))) from None
    except Truncated:
        raise ReportError(Problem("report is truncated (cut short)", file=str(path))) from None
    except NotCanonical:
        raise ReportError(
            Problem(
                "not a report as fairwitness writes it (one case per line); merge the files "
                "`fairwitness run --shard` wrote, unedited",
                file=str(path),
            )
        ) from None
    if raw.get("schema") != REPORT_SCHEMA:
        raise ReportError(
            Problem(f"unknown report schema {raw.get('schema')!r}", file=str(path), field="schema")
        )
    try:
        header = Report.model_validate({**raw, "cases": {}})
    except Exception as exc:  # a pydantic ValidationError: name the first field
        raise ReportError(Problem(f"invalid report header: {exc}", file=str(path))) from None
    if header.shard is None:
        raise ReportError(
            Problem(
                "not a shard report (no 'shard' field): it was not made by "
                "`fairwitness run --shard I/N`",
                file=str(path),
                field="shard",
            )
        )
    if len(index) != len(header.shard.positions):
        raise ReportError(
            Problem(
                f"holds {len(index)} cases but its shard.positions lists "
                f"{len(header.shard.positions)} (truncated or edited?)",
                file=str(path),
                field="shard.positions",
            )
        )
    return _Shard(path, header, index)


def _check(shards: list[_Shard]) -> None:
    problems: list[Problem] = []
    first = shards[0]
    for name, read in SAME:
        for other in shards[1:]:
            if read(other.header) != read(first.header):
                problems.append(
                    Problem(
                        f"shards of different runs: {first.path.name} and {other.path.name} "
                        f"differ in {name} ({read(first.header)!r} vs {read(other.header)!r})",
                        file=str(other.path),
                        field=name,
                    )
                )
                break
    if problems:
        raise ReportError(problems[0], problems=problems)
    total = first.header.shard.total if first.header.shard else 0
    seen: dict[int, Path] = {}
    for shard in shards:
        assert shard.header.shard is not None
        index = shard.header.shard.index
        if index in seen:
            raise ReportError(
                Problem(
                    f"shard {index}/{total} given twice ({seen[index].name} and "
                    f"{shard.path.name}): overlapping shards",
                    file=str(shard.path),
                    field="shard.index",
                )
            )
        seen[index] = shard.path
    missing = [f"{i}/{total}" for i in range(1, total + 1) if i not in seen]
    if missing:
        raise ReportError(
            Problem(f"missing shard(s) {', '.join(missing)}: every shard of the run is needed")
        )
    cases = first.header.shard.dataset_cases if first.header.shard else 0
    taken: dict[int, Path] = {}
    for shard in shards:
        assert shard.header.shard is not None
        for position in shard.header.shard.positions:
            if not 0 <= position < cases or position in taken:
                raise ReportError(
                    Problem(
                        f"case position {position} is claimed by {taken[position].name} too "
                        "(overlapping shards)"
                        if position in taken
                        else f"case position {position} is outside the dataset's {cases} cases",
                        file=str(shard.path),
                        field="shard.positions",
                    )
                )
            taken[position] = shard.path
    if len(taken) != cases:
        raise ReportError(Problem(f"the shards cover {len(taken)} of the dataset's {cases} cases"))


def _scorers(header: Report) -> list[Scorer]:
    def never(*_: Any) -> Any:
        raise AssertionError("merging never scores")

    found = []
    for name in header.scoring.metrics:
        metric = header.metrics.get(name)
        if metric is None or metric.collapse not in KIND_OF_COLLAPSE:
            raise ReportError(Problem(f"metric '{name}' is missing or has an unknown collapse"))
        kind = KIND_OF_COLLAPSE[metric.collapse]
        found.append(Scorer(name, kind, metric.higher_is_better, metric.description, never))
    return found


def merge_reports(paths: Sequence[str | Path], out: str | Path, *, force: bool = False) -> Report:
    """Merge the shard reports at ``paths`` into ``out`` (and its trace file beside it);
    returns the merged report's header. Refuses (:class:`ReportError`, exit 4) anything that is
    not every shard of one run."""
    if not paths:
        raise ReportError(Problem("no shard reports given"))
    target = Path(out)
    traces_target = target.with_name(target.name.replace(".report.json", "") + ".traces.jsonl")
    if target.exists() and not force:
        raise OutputExistsError(
            Problem("report already exists; pass --force to replace it", file=str(target))
        )
    shards = sorted((_load(Path(p)) for p in paths), key=lambda s: s.header.shard.index)  # type: ignore[union-attr]
    _check(shards)
    first = shards[0].header
    assert first.shard is not None
    n_cases = first.shard.dataset_cases
    scorers = _scorers(first)

    # Pass 1: where each case is, and what the whole-run figures need from it.
    where: list[tuple[int, int, int]] = [(0, 0, 0)] * n_cases
    ids: list[str] = [""] * n_cases
    tags: list[tuple[str, ...]] = [()] * n_cases
    tag_tuples: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple per combination seen
    verdicts: list[list[str | None]] = [[] for _ in range(n_cases)]
    values: dict[str, list[CaseScore]] = {s.name: [] for s in scorers}
    per_position: list[tuple[dict[str, Any], dict[str, Any], Successes]] = [({}, {}, {})] * n_cases
    # success counts of the pass/fail metrics, one shared object per combination seen
    binary = [s.name for s in scorers if s.kind != "continuous"]
    interned: dict[tuple[tuple[int, int], ...], Successes] = {}
    measured = unstable = 0
    trace_offsets: list[int] = []
    lines_so_far = 0
    for k, shard in enumerate(shards):
        assert shard.header.shard is not None
        trace_offsets.append(lines_so_far)
        with open(shard.path, "rb") as handle:
            for (case_id, offset, length), position in zip(
                shard.index, shard.header.shard.positions, strict=True
            ):
                _, record = read_case(handle, offset, length)
                base = [o for o in record["repeats"] if o.get("variant", "base") == "base"]
                ids[position] = case_id
                listed = tuple(record.get("tags", ()))
                tags[position] = tag_tuples.setdefault(listed, listed)
                where[position] = (k, offset, length)
                verdicts[position] = [o.get("verdict") for o in base]
                counts = tuple(
                    success_count(
                        v for o in base if (v := o.get("scores", {}).get(name)) is not None
                    )
                    for name in binary
                )
                found = interned.get(counts)
                if found is None:
                    found = interned[counts] = dict(zip(binary, counts, strict=True))
                per_position[position] = (record["scores"], record["excluded"], found)
                if len(base) >= 2:
                    measured += 1
                    unstable += bool(record["unstable"])
        lines_so_far += _count_lines(shard)
    for scores, excluded, successes in per_position:
        for scorer in scorers:
            name = scorer.name
            if name not in scores:
                values[name].append(CaseScore(None, "not_applicable", False))
            else:
                value = scores[name]
                reason = excluded.get(name) if value is None else None
                ones, trials = successes.get(name, (0, 0))
                values[name].append(CaseScore(value, reason, False, ones, trials))
    if len(set(ids)) != n_cases:
        raise ReportError(Problem("the same case id appears in two shards"))

    by_id = {ids[i]: verdicts[i] for i in range(n_cases)}
    header = _header(shards, scorers, values, by_id, measured, unstable, tags)
    has_traces = all(_traces_of(s) is not None for s in shards)
    if has_traces:
        write_atomic(traces_target, _concatenate(shards))
        header = header.model_copy(update={"traces": traces_target.name})
    else:
        header = header.model_copy(update={"traces": None})

    def records() -> Iterator[tuple[str, dict[str, Any]]]:
        handles = [open(s.path, "rb") for s in shards]  # noqa: SIM115 - closed below
        try:
            for position in range(n_cases):
                k, offset, length = where[position]
                case_id, record = read_case(handles[k], offset, length)
                for outcome in record["repeats"]:
                    line = outcome.get("trace_line")
                    if has_traces and line is not None:
                        outcome["trace_line"] = line + trace_offsets[k]
                    elif not has_traces:
                        outcome["trace_line"] = None
                yield case_id, record
        finally:
            for handle in handles:
                handle.close()

    data = header.json_data()
    write_report(target, render_report(data, records()), force=True)
    return header


def _traces_of(shard: _Shard) -> Path | None:
    name = shard.header.traces
    if not name:
        return None
    path = shard.path.parent / name
    return path if path.is_file() else None


def _count_lines(shard: _Shard) -> int:
    path = _traces_of(shard)
    if path is None:
        return 0
    with open(path, "rb") as handle:
        return sum(1 for _line in handle)


def _concatenate(shards: list[_Shard]) -> Iterator[str]:
    for shard in shards:
        path = _traces_of(shard)
        assert path is not None
        with open(path, encoding="utf-8", newline="") as handle:
            yield from handle


def _header(
    shards: list[_Shard],
    scorers: list[Scorer],
    values: dict[str, list[CaseScore]],
    verdicts: dict[str, list[str | None]],
    measured: int,
    unstable: int,
    tags: list[tuple[str, ...]],
) -> Report:
    heads = [s.header for s in shards]
    first = heads[0]
    assert first.shard is not None
    seed = first.run.seed
    metrics = {
        scorer.name: {
            **summarise(scorer, values[scorer.name], seed=seed).as_dict(),
            "by_tag": tag_figures(
                scorer,
                ((tags[i], score, 1) for i, score in enumerate(values[scorer.name]) if tags[i]),
                seed=seed,
            ),
        }
        for scorer in scorers
    }
    counts = {field: sum(getattr(h.counts, field) for h in heads) for field in Counts.model_fields}
    counts["cases"] = first.shard.dataset_cases
    usage = merge_usage(heads)
    if measured:
        stability = Stability(
            measured_cases=measured, unstable_cases=unstable, unstable_share=unstable / measured
        )
    else:
        stability = Stability(
            reason="repeats = 1: disagreement between repeats cannot be seen"
            if counts["planned"] <= counts["cases"]
            else "no case finished two repeats"
        )
    diagnostics = suite_diagnostics(verdicts, []).model_copy(
        update={"label_skew": first.diagnostics.label_skew}
    )
    if "judge" in first.diagnostics.model_fields_set:
        judge = _merged_judge([h.diagnostics.judge for h in heads])
        diagnostics = diagnostics.model_copy(update={"judge": judge})
    complete = all(h.complete for h in heads)
    reason = next(
        (
            f"shard {h.shard.index}/{h.shard.total}: {h.incomplete_reason}"
            for h in heads
            if not h.complete and h.shard is not None
        ),
        None,
    )
    if complete:
        for name, metric in metrics.items():
            if metric["n"] == 0 and metric["excluded"].get("unscored"):
                complete = False
                reason = f"metric '{name}' could not be scored on any case (its scorer raised)"
                break
    models = sorted({m for h in heads for m in h.run.models})  # sorted, as the runner lists them
    run = first.run.model_copy(
        update={
            "created_at": min(h.run.created_at for h in heads),
            "finished_at": max(h.run.finished_at for h in heads),
            "models": models,
        }
    )
    return first.model_copy(
        update={
            "complete": complete,
            "incomplete_reason": reason,
            "run": run,
            "counts": Counts(**counts),
            "usage": usage,
            "metrics": {name: Metric.model_validate(m) for name, m in metrics.items()},
            "stability": stability,
            "diagnostics": diagnostics,
            "shard": None,
            "cases": {},
        }
    )
