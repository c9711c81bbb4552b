"""The score board a config asks for: the built-in scorers with ``[scoring]``'s options, and the
user's scorers of ``[[scorers]]``, imported like the target (relative to the config, with
``python_path`` first on ``sys.path``).

Every way a ``[[scorers]]`` entry can be wrong is refused here, before any trial runs or
anything is written, as one line naming the config file, the entry's line and its key (exit 4):
a module that fails to import, a missing function, something that is not a scorer, a plain
function without a ``kind``, a ``kind`` that contradicts the decorator's, a name that is already
a built-in metric's (or another reserved one, such as the judge's), and two scorers of one name.

A ``kind = "rubric"`` entry (:func:`rubric_entries`) is refused the same way when it has no
``name``, both or neither of ``rubric`` and ``rubric_file``, a ``rubric_file`` that cannot be read,
no ``labels`` (a rubric is never believed without them) or a label file that does not exist, or
when ``[judge]`` names no provider to score it. Its metric is scored by the judge package's rubric
scorer, given to :func:`configured_board`; a command that calls no judge refuses the entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fairwitness._toml_lines import table_line
from fairwitness.config import LoadedConfig
from fairwitness.errors import ConfigError, Problem, TargetLoadError
from fairwitness.scoring.apply import AwaitedScorer, ScoreBoard
from fairwitness.scoring.base import ScoringSettings
from fairwitness.scoring.custom import ScorerDeclarationError, ScorerSpec, declare, spec_of
from fairwitness.scoring.scorers import BUILTIN_SCORERS
from fairwitness.targets.loader import load_object

if TYPE_CHECKING:
    from fairwitness.judge import JudgedScorer


def scoring_settings(loaded: LoadedConfig | None) -> ScoringSettings:
    """The built-in scorers' options of ``[scoring]`` (the defaults without a config)."""
    if loaded is None:
        return ScoringSettings()
    options = loaded.config.scoring.model_dump(exclude={"scorer_timeout_s"})
    return ScoringSettings(**options)


class _Entries:
    """Locates problems of ``[[scorers]]`` entries in the config's text."""

    def __init__(self, loaded: LoadedConfig) -> None:
        self.loaded = loaded
        self.prefix = "tool.fairwitness." if loaded.source.name == "pyproject.toml" else ""
        try:
            self.text = loaded.source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            self.text = ""

    def problem(self, index: int, key: str, message: str) -> Problem:
        return Problem(
            message,
            file=str(self.loaded.source),
            line=table_line(self.text, "scorers", index, key),
            field=f"{self.prefix}scorers[{index}].{key}",
        )


_RUBRIC_ONLY = ("name", "rubric", "rubric_file", "labels", "threshold")


@dataclass(frozen=True)
class RubricEntry:
    """A checked ``kind = "rubric"`` entry of ``[[scorers]]``."""

    index: int
    """Its position in ``[[scorers]]``."""
    name: str
    """The metric's name."""
    text: str
    """The rubric's text, from ``rubric`` or read from ``rubric_file``."""
    labels: Path
    """The label file, resolved."""
    labels_name: str
    """The label file as the config names it."""
    threshold: float
    """The kappa lower bound its judge must reach (``threshold``, else ``[judge] threshold``)."""


def _rubric_text(entries: _Entries, index: int) -> str:
    loaded = entries.loaded
    entry = loaded.config.scorers[index]
    if (entry.rubric is None) == (entry.rubric_file is None):
        key, state = ("kind", "neither") if entry.rubric is None else ("rubric_file", "both")
        raise ConfigError(
            entries.problem(index, key, f"give exactly one of rubric and rubric_file, not {state}")
        )
    if entry.rubric is not None:
        return entry.rubric
    assert entry.rubric_file is not None
    path = loaded.resolve(entry.rubric_file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = "not found" if isinstance(exc, FileNotFoundError) else f"unreadable ({exc})"
        raise ConfigError(
            entries.problem(index, "rubric_file", f"rubric file {path} {why}")
        ) from None
    if not text.strip():
        raise ConfigError(entries.problem(index, "rubric_file", f"rubric file {path} is empty"))
    return text


def _rubric(entries: _Entries, index: int) -> RubricEntry:
    loaded = entries.loaded
    entry = loaded.config.scorers[index]
    if entry.ref is not None:
        raise ConfigError(
            entries.problem(index, "ref", 'a kind = "rubric" entry is scored by the judge: no ref')
        )
    if entry.name is None:
        raise ConfigError(
            entries.problem(index, "kind", 'a kind = "rubric" entry needs name = "metric_name"')
        )
    text = _rubric_text(entries, index)
    if entry.labels is None:
        raise ConfigError(
            entries.problem(
                index,
                "kind",
                f"rubric '{entry.name}' has no labels: a rubric judge is believed only once "
                'calibrated against your labels (labels = "rubric-labels.jsonl")',
            )
        )
    labels = loaded.resolve(entry.labels)
    if not labels.is_file():
        raise ConfigError(entries.problem(index, "labels", f"label file {labels} not found"))
    if loaded.config.judge.provider is None:
        raise ConfigError(
            entries.problem(
                index,
                "kind",
                f"rubric '{entry.name}' is scored by the [judge] model, but [judge] names no "
                'provider (provider = "openai" or "anthropic", and model)',
            )
        )
    threshold = entry.threshold if entry.threshold is not None else loaded.config.judge.threshold
    return RubricEntry(index, entry.name, text, labels, entry.labels, threshold)


def rubric_entries(loaded: LoadedConfig) -> tuple[RubricEntry, ...]:
    """The config's ``kind = "rubric"`` entries, checked, in order; a bad one raises a located
    :class:`~fairwitness.errors.ConfigError` naming its line and key."""
    found = [i for i, entry in enumerate(loaded.config.scorers) if entry.kind == "rubric"]
    if not found:
        return ()
    entries = _Entries(loaded)
    return tuple(_rubric(entries, index) for index in found)


def _spec(entries: _Entries, index: int) -> ScorerSpec:
    loaded = entries.loaded
    entry = loaded.config.scorers[index]
    for key in _RUBRIC_ONLY:
        if getattr(entry, key) is not None:
            raise ConfigError(entries.problem(index, key, f'{key} is only for kind = "rubric"'))
    if entry.ref is None:
        raise ConfigError(
            entries.problem(
                index,
                "ref",
                'a [[scorers]] entry needs ref = "module:function" (or kind = "rubric")',
            )
        )
    try:
        found = load_object(
            entry.ref,
            search_path=[loaded.resolve(p) for p in loaded.config.python_path],
            where=str(loaded.source),
            field=f"scorers[{index}].ref",
        )
    except TargetLoadError as exc:
        message = exc.problem.message.replace(f"scorers[{index}].ref module", "scorer module")
        raise TargetLoadError(entries.problem(index, "ref", message)) from None
    spec = spec_of(found)
    if spec is not None:
        if entry.kind not in (None, spec.kind):
            raise ConfigError(
                entries.problem(
                    index,
                    "kind",
                    f"'{entry.ref}' is declared kind '{spec.kind}' by @scorer; remove this "
                    "kind or change the decorator's",
                )
            )
        return spec
    if not callable(found):
        raise ConfigError(
            entries.problem(
                index, "ref", f"'{entry.ref}' is a {type(found).__name__}, not a function"
            )
        )
    if entry.kind is None:
        raise ConfigError(
            entries.problem(
                index,
                "ref",
                f"'{entry.ref}' is not decorated with @fairwitness.scorer: decorate it, or give "
                'this entry a kind ("capability", "safety" or "continuous")',
            )
        )
    try:
        return declare(found, kind=entry.kind)
    except ScorerDeclarationError as exc:
        raise ConfigError(entries.problem(index, "ref", str(exc))) from None


def configured_scorers(
    loaded: LoadedConfig, reserved: Iterable[str] = ()
) -> tuple[ScorerSpec, ...]:
    """The user's scorers of ``[[scorers]]``, in order; a bad entry raises a located
    :class:`~fairwitness.errors.FairwitnessError`. ``reserved`` are metric names taken besides
    the built-in ones (the judge's)."""
    if not loaded.config.scorers:
        return ()
    entries = _Entries(loaded)
    taken = {scorer.name: "a built-in metric" for scorer in BUILTIN_SCORERS}
    taken.update((name, "a judge-derived metric") for name in reserved)
    specs: list[ScorerSpec] = []
    for index, entry in enumerate(loaded.config.scorers):
        if entry.kind == "rubric":
            name, key, what = entry.name or "", "name", f"rubric '{entry.name}'"
            fix = "give it another name"
        else:
            spec = _spec(entries, index)
            name, key, what = spec.name, "ref", f"scorer '{entry.ref}'"
            fix = "give it another name (@scorer(name=...))"
        if name in taken:
            raise ConfigError(
                entries.problem(
                    index, key, f"{what} is named '{name}', the name of {taken[name]}; {fix}"
                )
            )
        taken[name] = f"scorers[{index}] ('{entry.ref or entry.name}')"
        if entry.kind != "rubric":
            specs.append(spec)
    return tuple(specs)


def configured_board(
    loaded: LoadedConfig | None,
    *,
    reserved: Iterable[str] = (),
    judged: JudgedScorer | None = None,
    rubrics: Sequence[AwaitedScorer] = (),
) -> ScoreBoard:
    """A :class:`ScoreBoard` with the config's ``[scoring]`` options and time limit and its
    ``[[scorers]]`` (and the judge's metric, with ``judged``; the rubric metrics, with
    ``rubrics``, one per rubric entry in order); without a config, the built-in scorers with
    their defaults. A config with rubric entries and no ``rubrics`` (a command that calls no
    judge) is refused at the first entry's line."""
    if loaded is None:
        return ScoreBoard(judged=judged)
    user = configured_scorers(loaded, reserved)
    entries = rubric_entries(loaded)
    if entries and len(rubrics) != len(entries):
        raise ConfigError(
            _Entries(loaded).problem(
                entries[0].index,
                "kind",
                f"rubric '{entries[0].name}' is scored by the [judge] model, which only "
                "'fairwitness run' calls; score these traces with a run, or remove the entry",
            )
        )
    return ScoreBoard(
        settings=scoring_settings(loaded),
        judged=judged,
        user=user,
        rubrics=rubrics,
        scorer_timeout_s=loaded.config.scoring.scorer_timeout_s,
    )


__all__ = [
    "RubricEntry",
    "configured_board",
    "configured_scorers",
    "rubric_entries",
    "scoring_settings",
]
