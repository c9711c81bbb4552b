"""Metamorphic relations: change the input in a way that must not matter, and compare the outputs.

A :class:`Relation` pairs a text ``transform`` with a comparison at one ``layer`` of what the agent
observably did (its verdict, the ordered names of the tools it called, or its answer text). For each
input the agent is called on the original text (the *source*) and on the transformed text (the
*follow-up*); the relation *holds* when the comparison passes and is *violated* when it fails.

The built-in relations are invariances, each a :class:`Relation` returned by a function:

- :func:`normalisation_invariance`: strip accents (NFKD, then drop the combining diacritical marks
  U+0300..U+036F that Latin accents decompose into, then recompose with NFC so other scripts keep
  their code points), collapse every run of whitespace to one space, and strip the ends; the verdict
  must not change;
- :func:`case_invariance`: :meth:`str.swapcase`; the verdict must not change;
- :func:`whitespace_invariance`: prepend ``"\\n"`` and append two spaces; the verdict must not change;
- :func:`tool_selection_invariance`: the normalisation transform, compared at the ``tools`` layer:
  the ordered tool names must not change.

Fault invariance is the one relation that is not a text transform: the follow-up is the same input
with a tool fault injected, and :func:`fault_invariance` compares the two answers. Injecting a fault
must never turn an answer into an absence claim ("there are no jobs in Pune") when the answer without
the fault made none: the user would act on an absence that was never observed. It returns ``False``
(violated) when the faulted answer claims absence and the source answer did not, ``True`` when it
held, and ``None`` when it does not apply: the source answer itself claimed absence, or the labeller
could not read one of the answers (a language it does not cover).

What is counted, and what is never passed off as a result (:func:`evaluate`):

- an input the transform returned unchanged (byte-identical) is *skipped*: the agent was never asked
  a different question, so it is never counted as held;
- a follow-up call that failed is an *error* of the harness, counted, never a verdict;
- an input whose source or follow-up does not report the compared layer (no verdict, no tool list)
  is *unobserved*: ``None == None`` is not evidence that the relation held;
- a relation with no held or violated input is *not exercised*: its violation rate is ``None``
  ("n/a"), never 0.0, and ``not_exercised_reason`` says why.

Noise (:func:`compare_with_noise`): an agent that samples can change its verdict on an unchanged
input. When that flip rate was measured (``flips`` out of ``pairs`` repeated calls on unchanged
inputs), a relation's violations are compared with it by a one-sided Fisher's exact test (R. A.
Fisher, *The Design of Experiments*, 1935) on the 2x2 table

=============  ==========  =================
               changed     did not change
=============  ==========  =================
relation       violated    held
noise          flips       pairs - flips
=============  ==========  =================

conditional on the margins: the p-value is P(X >= violated) for X hypergeometric, the same as
``scipy.stats.fisher_exact(table, alternative="greater")``. Fisher's test was chosen over a
two-proportion z-test because the counts here are small, and over a binomial test against the flip
rate because that rate is itself an estimate from a finite number of pairs. Each hypergeometric
probability is a ratio of binomial probabilities computed by Loader's saddle-point method
(:func:`fairwitness.stats.binom_pmf`), so it keeps full relative precision at any size, and the tail
is summed from its largest term outward until the remaining terms can no longer change the sum.
The test is exact and, like every exact test of a discrete statistic, conservative.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

from fairwitness._jsonable import fields_data
from fairwitness.diagnostics._noise import _count, _fisher_greater
from fairwitness.scoring.misreport import analyze_answer
from fairwitness.targets.base import Observation

__all__ = [
    "BUILTIN_RELATIONS",
    "Kind",
    "Layer",
    "Relation",
    "RelationResult",
    "case_invariance",
    "compare_with_noise",
    "evaluate",
    "fault_invariance",
    "normalisation_invariance",
    "tool_selection_invariance",
    "transform_inputs",
    "whitespace_invariance",
]

Kind = Literal["invariant", "monotone", "directional"]
Layer = Literal["verdict", "tools", "text"]

_KINDS: tuple[str, ...] = get_args(Kind)
_LAYERS: tuple[str, ...] = get_args(Layer)

# What the agent failed to report, per layer, for the unobserved count and its reason.
_LAYER_NOUN: dict[Layer, str] = {"verdict": "a verdict", "tools": "its tools", "text": "an answer"}


# -- relations ----------------------------------------------------------------------------------


def _layer_value(observation: Observation, layer: Layer) -> object:
    if layer == "verdict":
        return observation.verdict
    if layer == "tools":
        return observation.tools
    return observation.text


def _observed(observation: Observation, layer: Layer) -> bool:
    """Whether ``observation`` reports the output at ``layer`` (the answer text always is)."""
    return _layer_value(observation, layer) is not None


@dataclass(frozen=True)
class Relation:
    """A metamorphic relation: a transform of the input text and how the outputs must compare.

    ``check(source, follow)`` returns whether the relation held; ``None`` means the outputs at
    ``layer`` must be equal (the invariant default). A ``monotone`` or ``directional`` relation
    needs its own ``check``: equality is not what it promises. ``layer`` also names the output that
    :func:`evaluate` requires both observations to report.
    """

    name: str
    kind: Kind
    transform: Callable[[str], str]
    check: Callable[[Observation, Observation], bool] | None = None
    layer: Layer = "verdict"
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"Relation.name must be a non-empty str, got {self.name!r}")
        if self.kind not in _KINDS:
            raise ValueError(f"Relation.kind must be one of {list(_KINDS)}, got {self.kind!r}")
        if self.layer not in _LAYERS:
            raise ValueError(f"Relation.layer must be one of {list(_LAYERS)}, got {self.layer!r}")
        if not callable(self.transform):
            raise TypeError(f"Relation.transform must be callable, got {self.transform!r}")
        if self.check is not None and not callable(self.check):
            raise TypeError(f"Relation.check must be callable or None, got {self.check!r}")
        if self.check is None and self.kind != "invariant":
            raise ValueError(
                f"a {self.kind} relation needs a check: equal outputs is what an invariant promises"
            )

    def holds(self, source: Observation, follow: Observation) -> bool:
        """Whether the relation held between the source and the follow-up observation."""
        if self.check is None:
            return _layer_value(source, self.layer) == _layer_value(follow, self.layer)
        result = self.check(source, follow)
        if not isinstance(result, bool):
            raise TypeError(f"the check of relation {self.name!r} must return bool, got {result!r}")
        return result


_COMBINING_DIACRITICS = re.compile("[\u0300-\u036f]+")
_WHITESPACE = re.compile(r"\s+")


def _normalise(text: str) -> str:
    """Accents stripped, whitespace runs collapsed to one space, ends stripped.

    Only the combining diacritical marks U+0300..U+036F are dropped: those are what accented Latin
    (and Greek and Cyrillic) letters decompose into. Marks of other scripts, such as the Devanagari
    virama and nukta, change the letters they sit on and are kept; NFC then recomposes what NFKD
    split (Hangul syllables, for one) so that only the accents and compatibility forms change.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = unicodedata.normalize("NFC", _COMBINING_DIACRITICS.sub("", decomposed))
    return _WHITESPACE.sub(" ", stripped).strip()


def _swapcase(text: str) -> str:
    return text.swapcase()


def _pad_whitespace(text: str) -> str:
    return "\n" + text + "  "


def normalisation_invariance() -> Relation:
    """Stripping accents and collapsing whitespace must not change the verdict."""
    return Relation(
        name="normalisation_invariance",
        kind="invariant",
        transform=_normalise,
        layer="verdict",
        description=(
            "Accents stripped (NFKD), runs of whitespace collapsed to one space, ends stripped: "
            "the verdict must not change."
        ),
    )


def case_invariance() -> Relation:
    """Swapping the case of every letter must not change the verdict."""
    return Relation(
        name="case_invariance",
        kind="invariant",
        transform=_swapcase,
        layer="verdict",
        description="Upper and lower case swapped: the verdict must not change.",
    )


def whitespace_invariance() -> Relation:
    """A leading newline and two trailing spaces must not change the verdict."""
    return Relation(
        name="whitespace_invariance",
        kind="invariant",
        transform=_pad_whitespace,
        layer="verdict",
        description="A newline prepended and two spaces appended: the verdict must not change.",
    )


def tool_selection_invariance() -> Relation:
    """Normalising the input must not change which tools the agent calls, or their order."""
    return Relation(
        name="tool_selection_invariance",
        kind="invariant",
        transform=_normalise,
        layer="tools",
        description=(
            "Accents stripped and whitespace collapsed: the ordered names of the tools the agent "
            "called must not change."
        ),
    )


BUILTIN_RELATIONS: tuple[Relation, ...] = (
    normalisation_invariance(),
    case_invariance(),
    whitespace_invariance(),
    tool_selection_invariance(),
)
"""The built-in text relations, in the order a report lists them."""


def fault_invariance(source_text: str, faulted_text: str) -> bool | None:
    """Injecting a fault must never turn an answer into an absence claim.

    ``source_text`` is the answer without the fault, ``faulted_text`` the answer to the same input
    with a tool fault injected. ``False`` (violated) when the faulted answer claims absence and the
    source answer did not; ``True`` when it held; ``None`` when the relation does not apply: the
    source answer itself claimed absence, or either answer is in a language the labeller does not
    read (its silence there is not evidence).
    """
    if not isinstance(source_text, str) or not isinstance(faulted_text, str):
        raise TypeError("fault_invariance compares two answer texts (str)")
    source = analyze_answer(source_text)
    faulted = analyze_answer(faulted_text)
    if source.language == "other" or faulted.language == "other":
        return None
    if source.absence:
        return None
    return not faulted.absence


# -- evaluation ---------------------------------------------------------------------------------


@dataclass
class RelationResult:
    """What one relation found over a set of inputs.

    ``offered`` = ``held + violated + skipped + errors + unobserved``. ``exercised`` is true when at
    least one input was held or violated; ``violation_rate`` is ``violated / (held + violated)``,
    ``None`` ("n/a") when not exercised. ``above_noise`` and ``noise_p`` are set by
    :func:`compare_with_noise`. ``violations`` lists the ids of the violating inputs, sorted.
    """

    name: str
    kind: Kind
    layer: Layer
    offered: int
    held: int
    violated: int
    skipped: int
    errors: int
    unobserved: int
    exercised: bool
    violation_rate: float | None
    not_exercised_reason: str | None
    above_noise: bool | None = None
    noise_p: float | None = None
    violations: list[str] = field(default_factory=list)

    def json_data(self) -> dict[str, Any]:
        """The result as JSON data, its fields in order."""
        return fields_data(self)


def transform_inputs(relation: Relation, inputs: Mapping[str, str]) -> dict[str, str | None]:
    """The follow-up text for each input id, or ``None`` where the transform left the input
    unchanged (identical code points, hence identical bytes): such an input is skipped and needs
    no agent call."""
    follow_ups: dict[str, str | None] = {}
    for input_id, text in inputs.items():
        if not isinstance(text, str):
            raise TypeError(f"input {input_id!r} must be str, got {type(text).__name__}")
        changed = relation.transform(text)
        if not isinstance(changed, str):
            raise TypeError(
                f"the transform of relation {relation.name!r} must return str, "
                f"got {type(changed).__name__} for input {input_id!r}"
            )
        follow_ups[input_id] = None if changed == text else changed
    return follow_ups


def _count_phrase(count: int, singular: str, plural: str) -> str:
    return f"{count} {singular if count == 1 else plural}"


def _not_exercised_reason(
    offered: int, skipped: int, errors: int, unobserved: int, layer: Layer
) -> str:
    if offered == 0:
        return "no input was offered to the relation"
    if skipped == offered:
        return (
            "the transform returned every input unchanged, so the agent was never asked a "
            "different question"
        )
    if errors == offered:
        return "every follow-up call failed (harness errors), so no output could be compared"
    if unobserved == offered:
        return (
            f"the agent did not report {_LAYER_NOUN[layer]} on any input, so the {layer} layer "
            "could not be compared"
        )
    parts = []
    if skipped:
        parts.append(
            _count_phrase(skipped, "input was", "inputs were")
            + " returned unchanged by the transform (never asked a different question)"
        )
    if errors:
        parts.append(_count_phrase(errors, "follow-up call", "follow-up calls") + " failed")
    if unobserved:
        parts.append(
            _count_phrase(unobserved, "input", "inputs")
            + f" had no reported {layer} on the source or the follow-up"
        )
    return "no input produced a comparison: " + "; ".join(parts)


def evaluate(
    relation: Relation,
    sources: Mapping[str, Observation],
    follows: Mapping[str, Observation | None],
    skipped: Iterable[str],
    errors: Iterable[str] = (),
) -> RelationResult:
    """Count where ``relation`` held, was violated, or could not be judged.

    ``sources`` maps input ids to the observation on the original input, ``follows`` to the
    observation on the follow-up (``None``: the follow-up call failed). ``skipped`` lists the inputs
    the transform left unchanged (see :func:`transform_inputs`); ``errors`` lists further inputs
    whose calls failed. Every id that appears anywhere is offered. An input without a source or a
    follow-up observation is an error; one whose observations do not report ``relation.layer`` is
    unobserved. An id both skipped and present in ``follows`` or ``errors`` is a contradiction and
    raises ``ValueError``.
    """
    skipped_ids = set(skipped)
    error_ids = set(errors)
    clash = skipped_ids & (error_ids | set(follows))
    if clash:
        raise ValueError(
            f"inputs both skipped (unchanged by the transform) and called: {sorted(clash)}"
        )
    offered = skipped_ids | error_ids | set(sources) | set(follows)
    held = violated = failed = unobserved = 0
    violations: list[str] = []
    for input_id in offered:
        if input_id in skipped_ids:
            continue
        source = sources.get(input_id)
        follow = follows.get(input_id)
        if input_id in error_ids or source is None or follow is None:
            failed += 1
            continue
        if not (_observed(source, relation.layer) and _observed(follow, relation.layer)):
            unobserved += 1
            continue
        if relation.holds(source, follow):
            held += 1
        else:
            violated += 1
            violations.append(input_id)
    exercised = held + violated > 0
    return RelationResult(
        name=relation.name,
        kind=relation.kind,
        layer=relation.layer,
        offered=len(offered),
        held=held,
        violated=violated,
        skipped=len(skipped_ids),
        errors=failed,
        unobserved=unobserved,
        exercised=exercised,
        violation_rate=violated / (held + violated) if exercised else None,
        not_exercised_reason=None
        if exercised
        else _not_exercised_reason(
            len(offered), len(skipped_ids), failed, unobserved, relation.layer
        ),
        violations=sorted(violations),
    )


# -- noise --------------------------------------------------------------------------------------


def compare_with_noise(
    result: RelationResult, flips: int, pairs: int, *, alpha: float = 0.05
) -> RelationResult:
    """Whether the relation's violation rate is above the agent's own flip rate on unchanged
    inputs.

    ``flips`` of ``pairs`` repeated calls on an unchanged input changed the output. The one-sided
    Fisher's exact test described in the module docstring compares ``violated / (held + violated)``
    with ``flips / pairs``; ``noise_p`` is its p-value and ``above_noise`` is ``noise_p <= alpha``.
    Both stay ``None`` when the relation was not exercised or no pair was measured. Returns a new
    result; ``result`` is not changed.
    """
    flips = _count("flips", flips)
    pairs = _count("pairs", pairs)
    if flips > pairs:
        raise ValueError(f"flips ({flips}) cannot exceed pairs ({pairs})")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"alpha must be a number, got {alpha!r}")
    if not 0.0 < alpha < 1.0:  # also refuses NaN
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha!r}")
    if not result.exercised or pairs == 0:
        return replace(result, above_noise=None, noise_p=None, violations=list(result.violations))
    p_value = _fisher_greater(result.violated, result.held, flips, pairs - flips)
    return replace(
        result,
        above_noise=p_value <= alpha,
        noise_p=p_value,
        violations=list(result.violations),
    )
