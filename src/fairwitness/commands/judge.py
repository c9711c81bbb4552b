"""``fairwitness judge calibrate LABELS.jsonl``: may the judge's numbers be published? Exit 0/3/4."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from fairwitness.config import find_config, load_config
from fairwitness.errors import EXIT_INCONCLUSIVE, EXIT_OK, DatasetError, Problem, UsageError
from fairwitness.judge import (
    MIN_ITEMS,
    Calibration,
    ProviderJudge,
    PublishDecision,
    Slice,
    check_threshold,
    configured_judge,
    judge_identity,
    load_labels,
)
from fairwitness.judge import calibrate as calibrate_records
from fairwitness.stats import Kappa

_SHOWN_DISAGREEMENTS = 10


def _table(rows: Sequence[Sequence[str]], left: tuple[int, ...] = (0,)) -> list[str]:
    """Aligned columns: those in ``left`` aligned to the left, the others to the right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.ljust(width) if i in left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _kappa_cell(kappa: Kappa) -> str:
    if kappa.value is None:
        return f"- ({kappa.undefined_reason})"
    return str(kappa)


def _accuracy_line(calibration: Calibration) -> str:
    level = f"{calibration.confidence * 100:g}%"
    share = f"{calibration.agreed}/{calibration.n}"
    if calibration.accuracy is None or calibration.accuracy_ci is None:
        return f"accuracy  {share} agree (no share below {MIN_ITEMS} items)"
    low, high = calibration.accuracy_ci
    return (
        f"accuracy  {calibration.accuracy:.3f} [{low:.3f}, {high:.3f}] ({share} agree; "
        f"Wilson {level} interval)"
    )


def _slice_row(part: Slice) -> list[str]:
    return [
        part.language if part.language is not None else "(none)",
        str(part.n),
        f"{part.agreed}/{part.n}",
        _number(part.accuracy),
        _kappa_cell(part.kappa),
    ]


def render(calibration: Calibration, decision: PublishDecision, source: str) -> str:
    """The terminal report: verdict line, summary, confusion matrix, per-label and per-language."""
    code = EXIT_OK if decision.publishable else EXIT_INCONCLUSIVE
    verdict = "PUBLISHABLE" if decision.publishable else "WITHHELD"
    level = f"{calibration.confidence * 100:g}%"
    lines = [f"fairwitness judge calibrate: {verdict} (exit {code}): {decision.reason}"]
    lines.extend(f"  note: {note}" for note in decision.notes)
    metric = f", metric {calibration.metric}" if calibration.metric else ""
    lines += [
        "",
        f"labels    {source} ({calibration.n} items{metric})",
        _accuracy_line(calibration),
        f"kappa     {_kappa_cell(calibration.kappa)} (Cohen; {level} interval; "
        f"publish threshold on the lower bound: {decision.threshold:g})",
        "",
        "confusion matrix (rows: human label, columns: judge label)",
    ]
    corner = "human \\ judge"
    matrix_rows = [[corner, *calibration.labels]]
    matrix_rows += [
        [label, *(str(count) for count in row)]
        for label, row in zip(calibration.labels, calibration.matrix, strict=True)
    ]
    lines += _table(matrix_rows)
    lines += ["", "per label (precision: of the judge's labels; recall: of the humans' labels)"]
    label_rows = [["label", "human", "judge", "agreed", "precision", "recall", "f1"]]
    label_rows += [
        [
            stats.label,
            str(stats.human),
            str(stats.judge),
            str(stats.agreed),
            _number(stats.precision),
            _number(stats.recall),
            _number(stats.f1),
        ]
        for stats in calibration.per_label
    ]
    lines += _table(label_rows)
    if calibration.slices:
        lines += ["", f"per language (kappa and accuracy need {MIN_ITEMS}+ items)"]
        slice_rows = [["language", "n", "agree", "accuracy", "kappa"]]
        slice_rows += [_slice_row(part) for part in calibration.slices]
        lines += _table(slice_rows, left=(0, 4))
    if calibration.disagreements:
        shown = calibration.disagreements[:_SHOWN_DISAGREEMENTS]
        more = len(calibration.disagreements) - len(shown)
        tail = f" and {more} more" if more else ""
        lines += ["", f"disagreements: {', '.join(shown)}{tail}"]
    return "\n".join(lines) + "\n"


def _threshold(value: float) -> float:
    try:
        return check_threshold(value)
    except ValueError:
        shown = value if isinstance(value, (int, float)) and math.isfinite(value) else repr(value)
        raise UsageError(f"--threshold: expected a number in (0, 1], got {shown}") from None


def calibrate_from_config(
    labels: str | None,
    *,
    threshold: float | None = None,
    config: str | None = None,
    as_json: bool = False,
    stdout: TextIO | None = None,
) -> int:
    """:func:`calibrate` with the label file and threshold defaulting to the config's
    ``[judge]`` section (``--config``, else the config in the current folder, if any)."""
    loaded = load_config(config) if config else None
    if loaded is None and labels is None:
        found = find_config(Path.cwd())
        loaded = load_config(found) if found is not None else None
    section = loaded.config.judge if loaded is not None else None
    if labels is None:
        if loaded is None or section is None or section.labels is None:
            raise UsageError(
                "judge calibrate: name a LABELS.jsonl file, or set [judge] labels in the config"
            )
        labels = str(loaded.resolve(section.labels))
    if threshold is None:
        threshold = section.threshold if section is not None else 0.6
    judge = None
    if loaded is not None:
        judge = configured_judge(
            loaded,
            run_mode=loaded.config.run.mode,
            cache_dir=loaded.resolve(loaded.config.run.cache_dir),
        )
    return calibrate(labels, threshold=threshold, as_json=as_json, stdout=stdout, judge=judge)


def calibrate(
    labels: str,
    *,
    threshold: float = 0.6,
    as_json: bool = False,
    stdout: TextIO | None = None,
    judge: ProviderJudge | None = None,
) -> int:
    """Calibrate a judge against human labels from the JSONL file ``labels``; print the report.

    Every record needs ``id``, ``human`` and ``judge`` (``language`` optional). With ``judge`` (the
    config's ``[judge] provider``), that judge labels every record instead, from its ``question``,
    ``answer`` and ``tool_outcomes``: the stored ``judge`` labels are set aside. Exit codes:

    - 0: publishable, the lower bound of kappa's 95% interval reaches ``threshold``;
    - 3 (inconclusive): withheld, the lower bound is below ``threshold`` or kappa is not estimated.
      The agent did not regress (that is 1): the instrument that would measure it is not yet
      trusted, so a CI job that publishes judge-derived numbers should stop;
    - 4: the label file or ``threshold`` is invalid (raised as a ``FairwitnessError``, nothing
      printed on stdout).

    With ``as_json`` the report is one JSON object: the calibration, the decision and the exit code.
    """
    stdout = stdout or sys.stdout
    threshold = _threshold(threshold)
    try:
        records = load_labels(labels, judge=judge, relabel=judge is not None)
    except ValueError as exc:  # a record the judge cannot label: no question or answer
        raise DatasetError(Problem(str(exc), file=labels)) from None
    calibration = calibrate_records(records)
    decision = calibration.publishable(threshold)
    code = EXIT_OK if decision.publishable else EXIT_INCONCLUSIVE
    if as_json:
        payload: dict[str, Any] = {
            "labels_file": labels,
            "judge": None if judge is None else {**judge_identity(judge), **_work(judge)},
            "exit_code": code,
            "decision": decision.to_dict(),
            "calibration": calibration.to_dict(),
        }
        stdout.write(json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    else:
        text = render(calibration, decision, labels)
        if judge is not None:
            work = _work(judge)
            head, _, rest = text.partition("\n")
            text = (
                f"{head}\n  judge: {judge.name} (prompt {judge.prompt_version}, {work['mode']}: "
                f"{work['live_calls']} live calls, {work['replayed']} replayed)\n{rest}"
            )
        stdout.write(text)
    return code


def _work(judge: ProviderJudge) -> dict[str, Any]:
    return {"mode": judge.mode, "live_calls": judge.live_calls, "replayed": judge.replayed}
