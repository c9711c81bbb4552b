"""Calibration of a judge against human labels: checked against statsmodels (kappa, its standard
error, the contingency table, the Wilson interval) and a direct numpy reference (precision, recall,
F1); slices, the publish decision on both sides of the threshold, and the ``[judge]`` config."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa
from statsmodels.stats.inter_rater import to_table
from statsmodels.stats.proportion import proportion_confint

from fairwitness.config import load_config
from fairwitness.errors import ConfigError
from fairwitness.judge import (
    DEFAULT_THRESHOLD,
    MIN_ITEMS,
    UNPARSEABLE,
    CalibrationRecord,
    bound_text,
    calibrate,
    check_threshold,
    confusion_matrix,
)

LABELS = ["acknowledged", "misreport", "unreadable"]
Z95 = float(scipy.stats.norm.ppf(0.975))


def records(
    pairs: list[tuple[str, str]], language: str | None = None, prefix: str = "r"
) -> list[CalibrationRecord]:
    return [
        CalibrationRecord(f"{prefix}{i}", human, judge, language)
        for i, (human, judge) in enumerate(pairs)
    ]


def noisy_pairs(
    n: int, error: float, seed: int, labels: list[str] = LABELS
) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        human = rng.choice(labels)
        judge = rng.choice(labels) if rng.random() < error else human
        pairs.append((human, judge))
    return pairs


def reference_table(pairs: list[tuple[str, str]], labels: list[str]) -> np.ndarray:
    codes = np.array([[labels.index(h), labels.index(j)] for h, j in pairs])
    table, _ = to_table(codes, bins=len(labels))
    return table


# -- against the references ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "error", "seed"), [(12, 0.3, 1), (60, 0.15, 2), (200, 0.4, 3), (1000, 0.05, 4)]
)
def test_matrix_and_kappa_match_statsmodels(n: int, error: float, seed: int) -> None:
    pairs = noisy_pairs(n, error, seed)
    result = calibrate(records(pairs))
    labels = sorted({x for pair in pairs for x in pair})
    assert list(result.labels) == labels
    table = reference_table(pairs, labels)
    assert np.array_equal(np.array(result.matrix), table)
    reference = sm_cohens_kappa(table)
    kappa = result.kappa
    assert kappa.value == pytest.approx(float(reference.kappa), rel=1e-12)
    assert kappa.ci_low is not None and kappa.ci_high is not None
    assert kappa.ci_low == pytest.approx(max(-1.0, float(reference.kappa_low)), rel=1e-9)
    assert kappa.ci_high == pytest.approx(min(1.0, float(reference.kappa_upp)), rel=1e-9)
    if kappa.ci_high < 1.0 and kappa.ci_low > -1.0:
        assert (kappa.ci_high - kappa.ci_low) / (2 * Z95) == pytest.approx(
            float(reference.std_kappa), rel=1e-9
        )
    agreed = sum(h == j for h, j in pairs)
    assert result.agreed == agreed
    assert result.accuracy == pytest.approx(agreed / n)
    low, high = proportion_confint(agreed, n, alpha=0.05, method="wilson")
    assert result.accuracy_ci == pytest.approx((low, high), rel=1e-9)


def per_label_reference(
    matrix: np.ndarray,
) -> list[tuple[float | None, float | None, float | None]]:
    """Precision, recall, F1 per label straight from the definitions (sklearn's, without its
    zero_division substitution)."""
    out = []
    for i in range(matrix.shape[0]):
        tp = matrix[i, i]
        predicted = matrix[:, i].sum()
        actual = matrix[i, :].sum()
        precision = tp / predicted if predicted else None
        recall = tp / actual if actual else None
        # the harmonic mean of precision and recall, in counts
        f1 = None if precision is None or recall is None else 2 * tp / (predicted + actual)
        out.append((precision, recall, f1))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_precision_recall_f1_match_the_definitions(seed: int) -> None:
    pairs = noisy_pairs(80, 0.35, seed, labels=["a", "b", "c", "d"])
    pairs += [("e", "a"), ("a", "f")]  # a label only humans give, one only the judge gives
    result = calibrate(records(pairs))
    expected = per_label_reference(np.array(result.matrix))
    for stats, (precision, recall, f1) in zip(result.per_label, expected, strict=True):
        assert stats.precision == (None if precision is None else pytest.approx(precision))
        assert stats.recall == (None if recall is None else pytest.approx(recall))
        assert stats.f1 == (None if f1 is None else pytest.approx(f1))
    try:
        from sklearn.metrics import precision_recall_fscore_support  # type: ignore[import-not-found]
    except ImportError:
        return
    humans = [h for h, _ in pairs]
    judges = [j for _, j in pairs]
    p, r, f, support = precision_recall_fscore_support(
        humans, judges, labels=list(result.labels), zero_division=np.nan
    )
    for i, stats in enumerate(result.per_label):
        assert stats.human == support[i]
        if stats.precision is not None:
            assert stats.precision == pytest.approx(p[i])
        if stats.recall is not None:
            assert stats.recall == pytest.approx(r[i])
        if stats.f1 is not None:
            assert stats.f1 == pytest.approx(f[i])


def test_undefined_precision_and_recall_are_none_never_zero() -> None:
    pairs = [("misreport", "misreport")] * 6 + [("acknowledged", "acknowledged")] * 6
    pairs += [("unreadable", "misreport")] * 2 + [("misreport", UNPARSEABLE)]
    result = calibrate(records(pairs))
    by_label = {s.label: s for s in result.per_label}
    assert list(result.labels) == ["acknowledged", "misreport", "unparseable", "unreadable"]
    assert by_label["unreadable"].precision is None  # the judge never said unreadable
    assert by_label["unreadable"].recall == 0.0  # humans did, twice; the judge got neither
    assert by_label["unreadable"].f1 is None
    assert by_label[UNPARSEABLE].recall is None  # no human says unparseable
    assert by_label[UNPARSEABLE].precision == 0.0
    assert by_label["acknowledged"].precision == by_label["acknowledged"].recall == 1.0
    assert by_label["misreport"].precision == pytest.approx(6 / 8)
    assert by_label["misreport"].recall == pytest.approx(6 / 7)
    assert result.unparseable == 1


def test_f1_is_zero_when_precision_and_recall_are_both_zero() -> None:
    pairs = [("a", "b")] * 5 + [("b", "a")] * 5 + [("a", "a")]
    stats = {s.label: s for s in calibrate(records(pairs)).per_label}
    assert stats["b"].precision == 0.0 and stats["b"].recall == 0.0
    assert stats["b"].f1 == 0.0


# -- properties ----------------------------------------------------------------------------------

label_pairs = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c", UNPARSEABLE]), st.sampled_from(["a", "b", "c"])),
    min_size=1,
    max_size=60,
)


@given(label_pairs)
def test_matrix_sums_to_n_and_margins_are_the_label_counts(pairs: list[tuple[str, str]]) -> None:
    result = calibrate(records(pairs))
    assert sum(map(sum, result.matrix)) == result.n == len(pairs)
    for i, label in enumerate(result.labels):
        assert sum(result.matrix[i]) == sum(h == label for h, _ in pairs)
        assert sum(row[i] for row in result.matrix) == sum(j == label for _, j in pairs)
    assert result.agreed + len(result.disagreements) == result.n
    json.dumps(result.json_data(), allow_nan=False)


@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=MIN_ITEMS, max_size=80))
def test_identical_labels_give_kappa_one(labels: list[str]) -> None:
    result = calibrate(records([(x, x) for x in labels]))
    if len(set(labels)) > 1:
        assert result.kappa.value == 1.0
        assert result.kappa.ci_low == result.kappa.ci_high == 1.0
        assert result.publishable(1.0).publishable
    else:
        assert result.kappa.value is None
        assert "every human label is" in str(result.kappa.undefined_reason)
    assert result.accuracy == 1.0
    assert result.disagreements == ()


def test_confusion_matrix_helper_orders_by_the_given_labels() -> None:
    assert confusion_matrix(["x", "y", "y"], ["y", "y", "x"], ["y", "x"]) == ((1, 1), (1, 0))


# -- what is not estimated -----------------------------------------------------------------------


def test_fewer_than_ten_items_give_no_kappa_and_no_accuracy() -> None:
    result = calibrate(records([("a", "a"), ("b", "b")] * 4 + [("a", "b")]))
    assert result.n == 9
    assert result.kappa.value is None and result.kappa.ci_low is None
    assert result.kappa.undefined_reason == "9 items, fewer than 10"
    assert result.accuracy is None and result.accuracy_ci is None
    assert result.agreed == 8
    decision = result.publishable()
    assert not decision
    assert decision.reason == (
        "kappa is not estimated (9 items, fewer than 10): judge-derived numbers are withheld"
    )


def test_one_human_label_gives_no_kappa() -> None:
    result = calibrate(records([("misreport", "misreport")] * 19 + [("misreport", "acknowledged")]))
    assert result.kappa.value is None
    assert result.kappa.undefined_reason == (
        "every human label is 'misreport': one label cannot show agreement beyond chance"
    )
    assert result.accuracy == pytest.approx(0.95)
    assert not result.publishable().publishable


def test_slices_per_language_with_their_own_rules() -> None:
    items = records(noisy_pairs(30, 0.1, 5), "en", "en")
    items += records([("misreport", "misreport")] * 12, "de", "de")  # one human label
    items += records(noisy_pairs(6, 0.0, 6), "es", "es")  # too few
    items += records(noisy_pairs(4, 0.0, 7), None, "x")  # no language
    result = calibrate(items)
    assert [s.language for s in result.slices] == ["de", "en", "es", None]
    de, en, es, none = result.slices
    assert en.n == 30 and en.kappa.value is not None
    reference = calibrate(items[:30])
    assert en.kappa == reference.kappa and en.accuracy == reference.accuracy
    assert de.n == 12 and de.kappa.value is None
    assert "every human label is 'misreport'" in str(de.kappa.undefined_reason)
    assert de.accuracy == 1.0
    assert es.n == 6 and es.kappa.undefined_reason == "6 items, fewer than 10"
    assert es.accuracy is None and es.agreed == 6
    assert none.n == 4
    assert sum(s.n for s in result.slices) == result.n


def test_no_slices_when_no_record_names_a_language() -> None:
    assert calibrate(records(noisy_pairs(20, 0.1, 1))).slices == ()


# -- the publish decision ------------------------------------------------------------------------


def mostly_right(wrong: int, n: int = 60) -> list[CalibrationRecord]:
    pairs = [(LABELS[i % 3], LABELS[i % 3]) for i in range(n - wrong)]
    pairs += [(LABELS[i % 3], LABELS[(i + 1) % 3]) for i in range(wrong)]
    return records(pairs)


def test_publishable_when_the_lower_bound_reaches_the_threshold() -> None:
    result = calibrate(mostly_right(4))
    low = result.kappa.ci_low
    assert low is not None and low >= DEFAULT_THRESHOLD
    decision = result.publishable()
    assert decision.publishable and bool(decision)
    assert decision.threshold == 0.6
    assert decision.reason == (
        f"kappa {result.kappa} (95% interval, n=60): lower bound {low:.2f} reaches 0.6: "
        "judge-derived numbers may be published"
    )
    at_the_bound = result.publishable(low)
    assert at_the_bound.publishable
    just_above = result.publishable(min(1.0, low + 1e-9))
    assert not just_above.publishable


def test_withheld_when_the_lower_bound_is_below_the_threshold() -> None:
    result = calibrate(mostly_right(14))
    kappa = result.kappa
    assert kappa.value is not None and kappa.ci_low is not None
    assert kappa.value > 0.6 > kappa.ci_low  # the point estimate alone would have passed
    decision = result.publishable(0.6)
    assert not decision.publishable and not decision
    assert decision.reason == (
        f"kappa {kappa} (95% interval, n=60): lower bound {kappa.ci_low:.2f} is below 0.6: "
        "judge-derived numbers are withheld"
    )
    assert "\n" not in decision.reason
    assert result.publishable(0.4).publishable


def test_the_lower_bound_is_never_rounded_onto_the_wrong_side() -> None:
    assert bound_text(0.5996, 0.6) == "0.5996"
    assert bound_text(0.6004, 0.6) == "0.60"
    assert bound_text(0.599999999, 0.6) == "0.599999999"
    assert bound_text(0.41, 0.6) == "0.41"
    assert bound_text(0.6, 0.6) == "0.60"


def test_notes_name_weak_slices_and_unparseable_replies() -> None:
    items = records([(LABELS[i % 3], LABELS[i % 3]) for i in range(20)], "en", "en")
    items += records([(LABELS[i % 3], LABELS[(i + (i % 2)) % 3]) for i in range(20)], "de", "de")
    items += records([("misreport", UNPARSEABLE), ("acknowledged", "acknowledged")], "es", "es")
    decision = calibrate(items).publishable()
    assert (
        decision.notes[0] == "1 judge reply named no label (unparseable), counted as disagreement"
    )
    assert decision.notes[1].startswith("language de: kappa ")
    assert decision.notes[1].endswith("is below 0.6: judge labels in this language are doubtful")
    assert decision.notes[2] == "language es: kappa not estimated (2 items, fewer than 10)"
    assert len(decision.notes) == 3  # en is fine


@pytest.mark.parametrize("bad", [0, 0.0, -0.5, 1.01, float("nan"), float("inf"), True, "0.6"])
def test_threshold_must_be_in_zero_one(bad: object) -> None:
    with pytest.raises(ValueError, match="threshold must be"):
        check_threshold(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threshold must be"):
        calibrate(mostly_right(0)).publishable(bad)  # type: ignore[arg-type]


# -- refusals and serialisation ------------------------------------------------------------------


def test_calibrate_refuses_what_cannot_be_calibrated() -> None:
    with pytest.raises(ValueError, match="no records"):
        calibrate([])
    with pytest.raises(ValueError, match="repeated record ids: r0"):
        calibrate(records([("a", "a")]) + records([("b", "b")]))
    mixed = [CalibrationRecord("x", "a", "a", metric="m1"), CalibrationRecord("y", "a", "a")]
    with pytest.raises(ValueError, match=r"several metrics \(\(none\), m1\)"):
        calibrate(mixed)
    with pytest.raises(ValueError, match="confidence"):
        calibrate(records([("a", "a")]), confidence=1.0)


def test_other_confidence_levels_widen_or_narrow_the_interval() -> None:
    items = mostly_right(8)
    wide = calibrate(items, confidence=0.99)
    narrow = calibrate(items, confidence=0.8)
    assert wide.kappa.value == narrow.kappa.value
    assert wide.kappa.ci_low is not None and narrow.kappa.ci_low is not None
    assert wide.kappa.ci_low < narrow.kappa.ci_low
    assert "(99% interval, n=60)" in wide.publishable().reason


def test_json_data_is_json_safe_and_complete() -> None:
    items = [
        CalibrationRecord(f"r{i}", LABELS[i % 3], LABELS[i % 3], "en", "misreport_as_empty")
        for i in range(12)
    ]
    items.append(CalibrationRecord("odd", "misreport", UNPARSEABLE, None, "misreport_as_empty"))
    data = json.loads(json.dumps(calibrate(items).json_data(), allow_nan=False))
    assert data["n"] == 13
    assert data["metric"] == "misreport_as_empty"
    assert data["labels"] == ["acknowledged", "misreport", "unparseable", "unreadable"]
    assert data["confusion"]["rows"] == "human" and data["confusion"]["columns"] == "judge"
    assert data["confusion"]["counts"][1] == [0, 4, 1, 0]
    assert data["kappa"]["value"] == pytest.approx(calibrate(items).kappa.value)
    assert data["disagreements"] == ["odd"]
    assert data["unparseable"] == 1
    assert [s["language"] for s in data["slices"]] == ["en", None]
    assert data["slices"][1]["kappa"] == {
        "value": None,
        "ci_low": None,
        "ci_high": None,
        "n": 1,
        "undefined_reason": "1 items, fewer than 10",
    }
    assert data["slices"][1]["accuracy"] is None
    assert {row["label"] for row in data["per_label"]} == set(data["labels"])
    assert data["min_items"] == 10


# -- [judge] in the config (kept here: it only exists for calibration) ---------------------------


def write_config(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "fairwitness.toml"
    path.write_text(
        f'target = "agent:target"\n[[suites]]\nname = "s"\npath = "c.jsonl"\n{extra}',
        encoding="utf-8",
    )
    return path


def test_config_judge_section_defaults_and_values(tmp_path: Path) -> None:
    assert load_config(write_config(tmp_path, "")).config.judge.threshold == 0.6
    loaded = load_config(
        write_config(tmp_path, '[judge]\nthreshold = 0.7\nlabels = "judge-labels.jsonl"\n')
    )
    assert loaded.config.judge.threshold == 0.7
    assert loaded.config.judge.labels == "judge-labels.jsonl"
    assert loaded.resolve(loaded.config.judge.labels) == tmp_path / "judge-labels.jsonl"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "[judge]\nthreshold = 1.5\n",
            "fairwitness.toml:6: field 'judge.threshold': Input should be less than or equal to 1",
        ),
        (
            "[judge]\nthreshold = 0\n",
            "fairwitness.toml:6: field 'judge.threshold': Input should be greater than 0",
        ),
        (
            "[judge]\nthreshhold = 0.7\n",
            "fairwitness.toml:6: field 'judge.threshhold': unknown key (did you mean 'threshold'?)",
        ),
    ],
)
def test_config_judge_section_refusals(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write_config(tmp_path, extra))
    assert str(caught.value).endswith(message)
    assert caught.value.exit_code == 4


def test_the_bundled_example_config_names_its_labels() -> None:
    root = Path(__file__).resolve().parents[3] / "examples" / "jobsearch"
    loaded = load_config(root / "fairwitness.toml")
    assert loaded.config.judge.labels is not None
    assert loaded.resolve(loaded.config.judge.labels).is_file()
