"""The score board a config asks for: the built-in scorers with ``[scoring]``'s options, and the
user's scorers of ``[[scorers]]``, imported like the target (relative to the config, with
``python_path`` first on ``sys.path``).

Every way a ``[[scorers]]`` entry can be wrong is refused here, before any trial runs or
anything is written, as one line naming the config file, the entry's line and its key (exit 4):
a module that fails to import, a missing function, something that is not a scorer, a plain
function without a ``kind``, a ``kind`` that contradicts the decorator's, a name that is already
a built-in metric's (or another reserved one, such as the judge's), and two scorers of one name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from fairwitness._toml_lines import table_line
from fairwitness.config import LoadedConfig
from fairwitness.errors import ConfigError, Problem, TargetLoadError
from fairwitness.scoring.apply import ScoreBoard
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


def _spec(entries: _Entries, index: int) -> ScorerSpec:
    loaded = entries.loaded
    entry = loaded.config.scorers[index]
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
        if entry.kind is not None and entry.kind != spec.kind:
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
        spec = _spec(entries, index)
        if spec.name in taken:
            raise ConfigError(
                entries.problem(
                    index,
                    "ref",
                    f"scorer '{entry.ref}' is named '{spec.name}', the name of {taken[spec.name]}; "
                    "give it another name (@scorer(name=...))",
                )
            )
        taken[spec.name] = f"scorers[{index}] ('{entry.ref}')"
        specs.append(spec)
    return tuple(specs)


def configured_board(
    loaded: LoadedConfig | None,
    *,
    reserved: Iterable[str] = (),
    judged: JudgedScorer | None = None,
) -> ScoreBoard:
    """A :class:`ScoreBoard` with the config's ``[scoring]`` options and time limit and its
    ``[[scorers]]`` (and the judge's metric, with ``judged``); without a config, the built-in
    scorers with their defaults."""
    if loaded is None:
        return ScoreBoard(judged=judged)
    return ScoreBoard(
        settings=scoring_settings(loaded),
        judged=judged,
        user=configured_scorers(loaded, reserved),
        scorer_timeout_s=loaded.config.scoring.scorer_timeout_s,
    )


__all__ = ["configured_board", "configured_scorers", "scoring_settings"]
