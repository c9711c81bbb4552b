"""What ``fairwitness judge calibrate`` prints: whether the judge's numbers may be published, the
agreement behind it, the confusion matrix, and per-label and per-language figures.

Labels, languages, record ids, the label file's name and the decision's reasons come from the
user's label file: they go through :func:`~fairwitness.render.plain`, uncut, before they are laid
out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fairwitness.errors import EXIT_INCONCLUSIVE, EXIT_OK
from fairwitness.judge import (
    MIN_ITEMS,
    Calibration,
    PromptJudge,
    ProviderJudge,
    PublishDecision,
    Slice,
)
from fairwitness.render._escape import plain
from fairwitness.stats import Kappa

SHOWN_DISAGREEMENTS: Final = 10
"""The disagreeing record ids shown by name; the rest are counted."""


def _text(value: object) -> str:
    return plain(value, None)


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
        _text(part.language) if part.language is not None else "(none)",
        str(part.n),
        f"{part.agreed}/{part.n}",
        _number(part.accuracy),
        _kappa_cell(part.kappa),
    ]


def _judge_line(judge: ProviderJudge | PromptJudge) -> str:
    return (
        f"  judge: {_text(judge.name)} (prompt {_text(judge.prompt_version)}, {judge.mode}: "
        f"{judge.live_calls} live calls, {judge.replayed} replayed)"
    )


def calibration_text(
    calibration: Calibration,
    decision: PublishDecision,
    source: str,
    *,
    judge: ProviderJudge | PromptJudge | None = None,
    rubric: tuple[str, str] | None = None,
) -> str:
    """The terminal report of a calibration against the labels in ``source``: the verdict line
    (and, when ``judge`` labelled the records, which judge and what it cost; for a rubric, its
    name and hash), the summary, the confusion matrix, per label and per language, and the
    records the two disagree on."""
    code = EXIT_OK if decision.publishable else EXIT_INCONCLUSIVE
    verdict = "PUBLISHABLE" if decision.publishable else "WITHHELD"
    level = f"{calibration.confidence * 100:g}%"
    lines = [f"fairwitness judge calibrate: {verdict} (exit {code}): {_text(decision.reason)}"]
    if judge is not None:
        lines.append(_judge_line(judge))
    if rubric is not None:
        lines.append(f"  rubric: {_text(rubric[0])} ({_text(rubric[1])})")
    lines.extend(f"  note: {_text(note)}" for note in decision.notes)
    metric = f", metric {_text(calibration.metric)}" if calibration.metric else ""
    lines += [
        "",
        f"labels    {_text(source)} ({calibration.n} items{metric})",
        _accuracy_line(calibration),
        f"kappa     {_kappa_cell(calibration.kappa)} (Cohen; {level} interval; "
        f"publish threshold on the lower bound: {decision.threshold:g})",
        "",
        "confusion matrix (rows: human label, columns: judge label)",
    ]
    labels = [_text(label) for label in calibration.labels]
    matrix_rows = [["human \\ judge", *labels]]
    matrix_rows += [
        [label, *(str(count) for count in row)]
        for label, row in zip(labels, calibration.matrix, strict=True)
    ]
    lines += _table(matrix_rows)
    lines += ["", "per label (precision: of the judge's labels; recall: of the humans' labels)"]
    label_rows = [["label", "human", "judge", "agreed", "precision", "recall", "f1"]]
    label_rows += [
        [
            _text(stats.label),
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
        shown = [_text(one) for one in calibration.disagreements[:SHOWN_DISAGREEMENTS]]
        more = len(calibration.disagreements) - len(shown)
        tail = f" and {more} more" if more else ""
        lines += ["", f"disagreements: {', '.join(shown)}{tail}"]
    return "\n".join(lines) + "\n"
