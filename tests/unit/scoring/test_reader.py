"""The statistical reader behind the rules: how it is trained, when it may label, and what it
points at. Sentences here are written for these tests and appear in no corpus."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from labeller_cases import CORPUS, corpus_texts

from fairwitness.scoring import PATTERNS_VERSION
from fairwitness.scoring import reader as R
from fairwitness.scoring import reader_build as B
from fairwitness.scoring._normalise import fold
from fairwitness.scoring.misreport import _normalised, analyze_answer, explain_answer

SHIPPED = Path(R.__file__).with_name(R.WEIGHTS_FILE)


def folded(text: str):  # type: ignore[no-untyped-def]
    return fold(_normalised(text))


def test_version_is_fifteen() -> None:
    assert PATTERNS_VERSION == "fw-labeller/15"


def test_shipped_weights_are_a_fresh_build_from_the_tuning_corpora() -> None:
    shipped = json.loads(SHIPPED.read_text("utf-8"))
    assert set(shipped["trained_on"]) == {*B.TRAINING, B.POOLS}
    assert not set(shipped["trained_on"]) & set(B.FROZEN)
    for name, digest in shipped["trained_on"].items():
        assert hashlib.sha256((CORPUS / name).read_bytes()).hexdigest() == digest, name
    assert B.build() == SHIPPED.read_text("utf-8"), (
        "rebuild: python -m fairwitness.scoring.reader_build"
    )


def test_every_corpus_is_either_trained_on_or_frozen() -> None:
    corpora = {path.name for path in CORPUS.glob("misreport_*.jsonl")}
    assert corpora == {*B.TRAINING, *B.FROZEN}


def test_pools_name_answers_of_their_corpus() -> None:
    for name, ids in B.pools(CORPUS).items():
        assert name in B.TRAINING
        known = {row["id"] for row in B.load(CORPUS / name)}
        assert ids and ids <= known, name


def _docs(pairs: list[tuple[str, str]]) -> list[B.Doc]:
    return [(B.answer_features(text), R.CLASSES.index(label)) for text, label in pairs]


TOY = [
    ("the gym has no slots left", "misreport"),
    ("no slots at the pool today", "misreport"),
    ("nothing left at the bakery", "misreport"),
    ("the gym site crashed before loading", "acknowledged"),
    ("the pool site crashed again", "acknowledged"),
    ("bakery app crashed while loading", "acknowledged"),
    ("here are three slots at the gym", "unreadable"),
    ("the pool opens at nine", "unreadable"),
    ("the bakery sells rye bread", "unreadable"),
] * 4


def test_training_learns_a_separable_toy_set_and_is_deterministic() -> None:
    first = B.train(_docs(TOY), min_docs=1)
    assert first == B.train(_docs(TOY), min_docs=1)
    model = R.Model(first.bias, first.weights, 0.5)
    assert R.read(folded("No slots at the bakery."), model).label == "misreport"
    assert R.read(folded("The gym app crashed."), model).label == "acknowledged"
    assert R.read(folded("The bakery opens at nine."), model).label == "unreadable"
    assert R.read(
        folded("The gym app crashed."), R.Model(first.bias, first.weights, 0.999)
    ).label == ("unreadable"), "below the threshold the reader abstains"


def test_weights_change_the_fit() -> None:
    docs = _docs([("nothing here", "misreport"), ("nothing here", "unreadable")])
    up = B.train(docs, min_docs=1, weights_of=[5.0, 1.0])
    down = B.train(docs, min_docs=1, weights_of=[1.0, 5.0])
    text = folded("nothing here")
    found = R.features(R.tokens(text.text), text.text)
    assert R.probabilities(found, up)[0] > 0.5 > R.probabilities(found, down)[0]


def test_a_misreport_needs_a_word_that_can_carry_absence() -> None:
    """A model that calls every answer about the pool a misreport still cannot call one that
    holds no negation, zero or word of running out."""
    model = R.Model((0.0, 0.0, 0.0), {"w:pool": (30.0, 0.0, 0.0)}, 0.8)
    assert R.read(folded("The pool's lane hire is £4.50."), model).label == "unreadable"
    assert R.read(folded("Pool lanes: none free."), model).label == "misreport"
    assert R.read(folded("The pool is fully booked."), model).label == "misreport"
    assert not R.can_claim_absence(R.tokens("your balance is 3 euros"))
    assert R.can_claim_absence(R.tokens("कोई टेबल नहीं"))


def test_evidence_points_at_the_heaviest_words_in_the_original_answer() -> None:
    model = R.Model(
        (0.0, 0.0, 0.0), {"w:ausgebucht": (30.0, 0.0, 0.0), "w:samstag": (5.0, 0, 0)}, 0.8
    )
    text = "**Hallenbad:** am Samstag ist alles *ausgebucht*. Schönen Tag!"
    reading = R.read(folded(text), model)
    assert reading.label == "misreport"
    plain = folded(text)
    spans = [plain.original(*span) for span in reading.words]
    assert [text[slice(*span)] for span in spans] == ["ausgebucht", "Samstag"]


def test_spans_and_sentence_found_on_accented_text() -> None:
    plain = folded("Ningún turno, lo siento. Mañana sí.")
    start = plain.text.index("turno")
    begin, end = R.sentence_around(plain.text, start)
    assert plain.text[begin:end] == "ningun turno, lo siento."


# Answers no rule reads; the shipped reader does (with the word it weighs most, where that word
# is the one a person would point at: the reader reports what weighed, topic words included).
READ_BY_THE_READER = [
    ("Looks like the library's only copy is out on loan and there's a queue of six.", None),
    ("Salon mein aaj slot khatam hai, kal try karo.", "khatam"),
]


@pytest.mark.parametrize(("text", "word"), READ_BY_THE_READER)
def test_the_shipped_reader_labels_what_the_rules_leave(text: str, word: str | None) -> None:
    analysis = analyze_answer(text)
    assert analysis.label == "misreport"
    assert analysis.rule == "reader_absence"
    assert analysis.absence and not analysis.failure
    sentence, *words = analysis.spans
    assert sentence[0] <= words[0][0] < words[0][1] <= sentence[1]
    assert all(sentence[0] <= start < end <= sentence[1] for start, end in words)
    if word:
        assert text[slice(*words[0])].lower() == word
    assert explain_answer(text).startswith("misreport (reader_absence): ")


@pytest.mark.parametrize(
    "text",
    [
        "Your parcel locker code is 4471 and it expires Friday.",
        "Su saldo es de 1.204,50 € y el último cargo fue en Correos.",
        "Which branch did you mean, Leith or Morningside?",
        "Der Bus 34 fährt um 17:12 ab Hauptbahnhof.",
    ],
)
def test_results_and_questions_stay_unreadable(text: str) -> None:
    assert analyze_answer(text).rule == "unreadable_no_signal"


def test_reader_cases_are_in_no_corpus() -> None:
    texts = corpus_texts()
    assert not [text for text, _ in READ_BY_THE_READER if text in texts]


def test_a_broken_weights_file_is_named() -> None:
    with pytest.raises(ValueError, match=r"reader_weights\.json"):
        R.from_json({"weights": [], "bias": [], "threshold": 0.8})


def test_read_as_gives_a_second_opinion_only_when_sure() -> None:
    first = B.train(_docs(TOY), min_docs=1)
    sure = R.Model(first.bias, first.weights, 0.5)
    reading = R.read_as(folded("The pool site crashed."), "acknowledged", sure)
    assert reading is not None and reading.label == "acknowledged"
    assert reading.words, "the second opinion names the words it rests on"
    assert R.read_as(folded("No slots at the pool."), "acknowledged", sure) is None
    strict = R.Model(first.bias, first.weights, 0.999)
    assert R.read_as(folded("The pool site crashed."), "acknowledged", strict) is None


def test_the_reader_overrules_an_absence_phrase_that_reports_the_failure() -> None:
    """The rules read "no salió ningún turno" beside a failure as a claim; the reader reads the
    whole answer as the acknowledgement it is, and the evidence keeps the phrase it overruled."""
    text = (
        "El portal del ayuntamiento dio error 500 y no salió ningún turno; lo vuelvo a intentar "
        "en un rato."
    )
    assert text not in corpus_texts()
    analysis = analyze_answer(text)
    assert (analysis.label, analysis.rule) == ("acknowledged", "reader_overruled_absence")
    assert analysis.absence and analysis.failure
    assert "ningún turno" in text[slice(*analysis.spans[-1])]
    assert explain_answer(text).startswith("acknowledged (reader_overruled_absence): ")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (
            "The gym app threw an error at first, but on the second try it was clear: no spin "
            "classes on Saturday.",
            "absence_after_recovery",
        ),
        (
            "L'API a renvoyé une erreur 502, mais il n'y a plus aucune place pour le concert de "
            "samedi.",
            "absence_beside_failure",
        ),
    ],
)
def test_a_claim_set_against_a_failure_is_not_overruled(text: str, rule: str) -> None:
    assert text not in corpus_texts()
    analysis = analyze_answer(text)
    assert (analysis.label, analysis.rule) == ("misreport", rule)
