"""Tokens and cost per model: the [pricing] table, the pricing math, unknown costs and their
reasons, totals consistent with the per-model figures, and round-trips of reports with them."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from fairwitness import Report
from fairwitness.config import ModelPrice, load_config
from fairwitness.errors import ConfigError
from fairwitness.report._usage import (
    ExactSum,
    digest_usage,
    merge_usage,
    model_key,
    trial_cost,
)
from fairwitness.report.model import NO_MODEL, Counts, ShardInfo

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
GPT = ModelPrice(input_usd_per_mtok=2.5, output_usd_per_mtok=10.0)
PRICES = {"gpt": GPT}


@dataclass
class T:
    """One finished trial, as usage reads it."""

    models: tuple[str, ...] = ()
    cost_usd: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None


def priced(
    n: int, models: tuple[str, ...] = ("gpt",), tokens: tuple[int, int] = (1000, 100)
) -> list[T]:
    return [T(models, None, *tokens) for _ in range(n)]


# -- the pricing math -----------------------------------------------------------------------------


def test_a_price_is_per_million_tokens() -> None:
    assert GPT.cost_usd(1_000_000, 0) == pytest.approx(2.5)
    assert GPT.cost_usd(0, 1_000_000) == pytest.approx(10.0)
    assert GPT.cost_usd(1000, 100) == pytest.approx(0.0035)
    assert GPT.cost_usd(0, 0) == 0.0


def test_a_reported_cost_wins_over_a_price() -> None:
    assert trial_cost(0.5, 1000, 100, GPT) == (0.5, "reported")
    assert trial_cost(0.0, None, None, None) == (0.0, "reported")  # a reported 0 is a value


def test_tokens_without_a_cost_are_priced_only_with_a_price_and_both_counts() -> None:
    assert trial_cost(None, 1000, 100, GPT) == (pytest.approx(0.0035), "pricing")
    assert trial_cost(None, 1000, 100, None) == (None, None)
    assert trial_cost(None, 1000, None, GPT) == (None, None)
    assert trial_cost(None, None, 100, GPT) == (None, None)
    assert trial_cost(None, None, None, GPT) == (None, None)


def test_keys_name_the_model_or_say_none_was_recorded() -> None:
    assert model_key(("gpt",)) == "gpt"
    assert model_key(()) == NO_MODEL
    assert model_key(("b", "a")) == model_key(("a", "b")) == "a + b"


def test_an_exact_sum_does_not_depend_on_order() -> None:
    values = [0.1] * 10 + [1e16, -1e16, 3e-7, 0.3]
    forward, backward = ExactSum(), ExactSum()
    for v in values:
        forward.add(v)
    for v in reversed(values):
        backward.add(v)
    assert forward.value() == backward.value() == math.fsum(values)


# -- per model: known, unknown, and why ---------------------------------------------------------


def test_a_priced_model_gets_its_cost_from_tokens_and_says_so() -> None:
    usage = digest_usage(priced(4), PRICES, "2026-01").totals
    gpt = usage.by_model["gpt"]
    assert (gpt.trials, gpt.input_tokens, gpt.output_tokens) == (4, 4000, 400)
    assert gpt.cost_usd == pytest.approx(0.014)
    assert gpt.cost_source == "pricing"
    assert (gpt.cost_known_trials, gpt.cost_unknown_reason) == (4, None)
    assert usage.cost_usd == pytest.approx(0.014) and usage.cost_unknown_reason is None
    assert usage.cost_known_trials == 4 and usage.pricing_version == "2026-01"


def test_an_unpriced_model_without_reported_cost_is_unknown_never_zero() -> None:
    usage = digest_usage(priced(3, ("other",)), PRICES, "2026-01").totals
    other = usage.by_model["other"]
    assert other.cost_usd is None and other.cost_source is None
    assert other.cost_known_trials == 0
    assert other.cost_unknown_reason == (
        "no cost reported and no price for model 'other' in [pricing]"
    )
    assert other.input_tokens == 3000  # tokens are still counted
    assert usage.cost_usd is None
    assert usage.cost_unknown_reason == "cost neither reported nor priced for 3 of 3 trials"


def test_a_model_is_known_only_when_every_trial_is_and_the_reason_counts_the_rest() -> None:
    trials = [T(("gpt",), 0.01, 5, 5)] * 37 + [T(("gpt",), None, None, None)] * 3
    gpt = digest_usage(trials, PRICES, "v").totals.by_model["gpt"]
    assert gpt.cost_usd is None and gpt.cost_known_trials == 37
    assert gpt.cost_unknown_reason == (
        "cost unknown for 3 of 40 trials: no cost reported, and no input and output tokens "
        "reported to price by [pricing]"
    )


def test_reported_and_priced_trials_of_one_model_are_mixed() -> None:
    trials = [T(("gpt",), 0.5, 1, 1), *priced(1)]
    gpt = digest_usage(trials, PRICES, "v").totals.by_model["gpt"]
    assert gpt.cost_usd == pytest.approx(0.5035) and gpt.cost_source == "mixed"
    only_reported = digest_usage([T(("gpt",), 0.5, 1, 1)], PRICES, "v").totals
    assert only_reported.by_model["gpt"].cost_source == "reported"


def test_trials_without_a_model_and_with_several_models_are_kept_apart_and_explained() -> None:
    trials = [T((), None, 10, 10), T(("gpt", "mini"), None, 10, 10), T(("mini", "gpt"), 0.2)]
    usage = digest_usage(trials, {**PRICES, "mini": GPT}, "v").totals
    assert list(usage.by_model) == ["gpt + mini", NO_MODEL]  # sorted; no model last
    nobody = usage.by_model[NO_MODEL]
    assert nobody.cost_unknown_reason == (
        "no cost reported, and no model recorded to look a price up by"
    )
    both = usage.by_model["gpt + mini"]
    assert both.trials == 2 and both.cost_known_trials == 1
    assert both.cost_unknown_reason == (
        "cost unknown for 1 of 2 trials: no cost reported, and tokens shared by several models "
        "cannot be priced"
    )


def test_totals_agree_with_the_models() -> None:
    trials = [*priced(2), T(("b",), 0.25, None, None), T(("b",), 0.5, 7, None)]
    usage = digest_usage(trials, PRICES, None).totals
    assert usage.cost_usd == pytest.approx(0.757)
    assert usage.cost_usd == pytest.approx(sum(m.cost_usd or 0 for m in usage.by_model.values()))
    assert usage.cost_known_trials == sum(m.cost_known_trials for m in usage.by_model.values())
    assert usage.input_tokens == 2007
    assert usage.output_tokens == 200  # only the trials that reported output tokens
    assert usage.by_model["b"].output_tokens is None  # none of b's trials did: not 0
    assert usage.pricing_version is None


def test_without_a_price_table_the_total_reason_says_not_reported() -> None:
    usage = digest_usage([T(("a",), 0.1), T(("a",))], {}, None).totals
    assert usage.cost_unknown_reason == "cost not reported for 1 of 2 trials"
    assert digest_usage([], {}, None).totals.cost_unknown_reason == "no trial finished"
    assert digest_usage([], {}, None).totals.by_model == {}


# -- merging shard figures ------------------------------------------------------------------------


def _shard_header(trials: list[T], index: int) -> Report:
    golden = Report.load(GOLDEN / "report-v1.json")
    digest = digest_usage(trials, PRICES, "v")
    counts = golden.counts.model_dump() | {"trials": len(trials)}
    return golden.model_copy(
        update={
            "usage": digest.totals,
            "counts": Counts(**counts),
            "shard": ShardInfo(
                index=index,
                total=2,
                dataset_cases=2,
                dataset_ids_hash="x",
                cost_usd_sum=digest.cost_usd_sum,
                cost_usd_sum_by_model=digest.sums_by_model,
            ),
        }
    )


@pytest.mark.parametrize(
    "trials",
    [
        [*priced(3), T(("b",), 0.1, 1, 1), T(("b",), None, 1, 1), T((), 0.3)],
        [*priced(5, tokens=(333, 7)), T(("gpt",), 0.1 / 3), T(("c", "d"), 0.2)],
        [T(("b",), None, 1, 1)] * 4 + priced(2),
    ],
)
def test_merged_shard_usage_equals_the_whole_runs(trials: list[T]) -> None:
    for cut in range(len(trials) + 1):
        heads = [_shard_header(trials[:cut], 1), _shard_header(trials[cut:], 2)]
        assert merge_usage(heads) == digest_usage(trials, PRICES, "v").totals, cut


# -- the saved report -----------------------------------------------------------------------------


def test_old_reports_round_trip_and_new_fields_are_saved_only_when_set(tmp_path: Path) -> None:
    # a report written before per-model usage: the golden report without the new fields
    lines = (GOLDEN / "report-v1.json").read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith(' "usage": '))
    usage = json.loads(lines[at].removeprefix(' "usage": ').rstrip().removesuffix(","))
    usage.pop("by_model", None)
    usage.pop("pricing_version", None)
    lines[at] = ' "usage": ' + json.dumps(usage, separators=(",", ":")) + ",\n"
    old_text = "".join(lines)
    (tmp_path / "old.json").write_text(old_text, encoding="utf-8")
    old = Report.load(tmp_path / "old.json")
    assert old.usage.by_model == {} and old.usage.pricing_version is None
    assert old.to_json() == old_text
    new = old.model_copy(update={"usage": digest_usage(priced(2), PRICES, "2026-01").totals})
    path = new.save(tmp_path / "new.json")
    text = path.read_text(encoding="utf-8")
    saved = json.loads(text)["usage"]
    assert saved["pricing_version"] == "2026-01"
    assert saved["by_model"]["gpt"]["cost_source"] == "pricing"
    again = Report.load(path)
    assert again.usage == new.usage and again.to_json() == text


# -- the [pricing] table --------------------------------------------------------------------------

MINIMAL = 'target = "agent:target"\n\n[[suites]]\nname = "s"\npath = "cases.jsonl"\n'


def _load(tmp_path: Path, pricing: str) -> object:
    path = tmp_path / "fairwitness.toml"
    path.write_text(MINIMAL + pricing, encoding="utf-8")
    return load_config(path)


def test_a_price_table_loads(tmp_path: Path) -> None:
    loaded = _load(
        tmp_path,
        '[pricing]\nversion = "2026-01"\n[pricing.models."gpt-4.1"]\n'
        "input_usd_per_mtok = 2\noutput_usd_per_mtok = 8.0\n",
    )
    pricing = loaded.config.pricing  # type: ignore[attr-defined]
    assert pricing.version == "2026-01"
    assert pricing.models["gpt-4.1"] == ModelPrice(input_usd_per_mtok=2, output_usd_per_mtok=8)
    empty = _load(tmp_path, "").config.pricing  # type: ignore[attr-defined]
    assert empty.version is None and empty.models == {}


def _problems(tmp_path: Path, pricing: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, pricing)
    assert caught.value.exit_code == 4
    return [str(p) for p in caught.value.problems]


def test_prices_need_a_version(tmp_path: Path) -> None:
    (line,) = _problems(
        tmp_path, "[pricing.models.gpt]\ninput_usd_per_mtok = 1\noutput_usd_per_mtok = 1\n"
    )
    assert "field 'pricing.version'" in line
    assert "a version is required when [pricing.models] lists prices" in line


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-1", "greater than or equal to 0"),
        ("inf", "finite number"),
        ("nan", "finite number"),
        ('"cheap"', "valid number"),
    ],
)
def test_a_price_must_be_a_finite_non_negative_number(
    tmp_path: Path, value: str, message: str
) -> None:
    (line,) = _problems(
        tmp_path,
        f'[pricing]\nversion = "1"\n[pricing.models."gpt"]\n'
        f"input_usd_per_mtok = {value}\noutput_usd_per_mtok = 1\n",
    )
    path = tmp_path / "fairwitness.toml"
    assert line.startswith(f"{path}:9: field 'pricing.models.gpt.input_usd_per_mtok': ")
    assert message in line


def test_unknown_pricing_keys_are_refused_with_a_suggestion(tmp_path: Path) -> None:
    path = tmp_path / "fairwitness.toml"
    lines = _problems(
        tmp_path,
        '[pricing]\nverison = "1"\n[pricing.models."gpt-4o"]\n'
        "input_usd_per_mtok = 1\noutput_usd_per_mtk = 1\n",
    )
    assert f"{path}:7: field 'pricing.verison': unknown key (did you mean 'version'?)" in lines
    assert (
        f"{path}:10: field 'pricing.models.gpt-4o.output_usd_per_mtk': unknown key "
        "(did you mean 'output_usd_per_mtok'?)"
    ) in lines
