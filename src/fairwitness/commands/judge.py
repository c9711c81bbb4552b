"""``fairwitness judge calibrate [LABELS.jsonl] [--rubric NAME]``: may the judge's numbers be
published? Exit 0/3/4."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, TextIO

from fairwitness.config import LoadedConfig, find_config, load_config
from fairwitness.errors import EXIT_INCONCLUSIVE, EXIT_OK, DatasetError, Problem, UsageError
from fairwitness.judge import (
    RUBRIC_PROMPT_VERSION,
    PromptJudge,
    ProviderJudge,
    calibrate_rubric,
    check_threshold,
    configured_judge,
    judge_identity,
    judge_of,
    load_labels,
    read_rubric_labels,
    rubric_scorers,
    suite_cases,
)
from fairwitness.judge import calibrate as calibrate_records
from fairwitness.render import calibration_text
from fairwitness.scoring.configured import rubric_entries


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
    rubric: str | None = None,
) -> int:
    """:func:`calibrate` with the label file and threshold defaulting to the config's
    ``[judge]`` section (``--config``, else the config in the current folder, if any); with
    ``rubric``, :func:`calibrate_rubric` on that rubric scorer of ``[[scorers]]``."""
    loaded = load_config(config) if config else None
    if loaded is None and (labels is None or rubric is not None):
        found = find_config(Path.cwd())
        loaded = load_config(found) if found is not None else None
    if rubric is not None:
        if loaded is None:
            raise UsageError("judge calibrate --rubric: no config here; pass --config FILE")
        return calibrate_rubric_from_config(
            loaded, rubric, labels=labels, threshold=threshold, as_json=as_json, stdout=stdout
        )
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
            "decision": decision.json_data(),
            "calibration": calibration.json_data(),
        }
        stdout.write(json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    else:
        stdout.write(calibration_text(calibration, decision, labels, judge=judge))
    return code


def calibrate_rubric_from_config(
    loaded: LoadedConfig,
    name: str,
    *,
    labels: str | None = None,
    threshold: float | None = None,
    as_json: bool = False,
    stdout: TextIO | None = None,
) -> int:
    """Calibrate the ``[judge]`` model on the rubric scorer ``name`` against its labels (or the
    label file ``labels``), whose ids must name cases of the configured suites; print kappa with
    its interval, the confusion matrix (rows human, columns judge) and the ids of disagreement.
    Exit codes as for :func:`calibrate`; the threshold defaults to the rubric's."""
    stdout = stdout or sys.stdout
    entries = {entry.name: entry for entry in rubric_entries(loaded)}
    entry = entries.get(name)
    if entry is None:
        known = ", ".join(sorted(entries)) or "none"
        raise UsageError(
            f"--rubric: no rubric scorer named '{name}' in [[scorers]] (known: {known})"
        )
    threshold = _threshold(entry.threshold if threshold is None else threshold)
    source = labels if labels is not None else str(entry.labels)
    records = read_rubric_labels(source, suite_cases(loaded))
    model = configured_judge(
        loaded,
        run_mode=loaded.config.run.mode,
        cache_dir=loaded.resolve(loaded.config.run.cache_dir),
    )
    assert model is not None  # rubric_entries refuses a rubric without a [judge] provider
    view = model.for_prompt(RUBRIC_PROMPT_VERSION)
    concurrency = loaded.config.judge.concurrency
    scorer = rubric_scorers([entry], view, concurrency=concurrency)[0]
    calibration = calibrate_rubric(scorer, records, concurrency=concurrency)
    decision = calibration.publishable(threshold)
    code = EXIT_OK if decision.publishable else EXIT_INCONCLUSIVE
    if as_json:
        payload: dict[str, Any] = {
            "labels_file": source,
            "rubric": {"name": name, "rubric_hash": scorer.rubric_hash},
            "judge": {**judge_of(view), **_work(view)},
            "exit_code": code,
            "decision": decision.json_data(),
            "calibration": calibration.json_data(),
        }
        stdout.write(json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    else:
        text = calibration_text(
            calibration, decision, source, judge=view, rubric=(name, scorer.rubric_hash)
        )
        stdout.write(text)
    return code


def _work(judge: ProviderJudge | PromptJudge) -> dict[str, Any]:
    return {"mode": judge.mode, "live_calls": judge.live_calls, "replayed": judge.replayed}
