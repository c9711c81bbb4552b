"""Words that name a failure in one use and an item in another ("technical", "limit",
"maintenance", "crash", "तकनीकी"): as the kind of thing the user asked for, or a bound the user
set, they leave an absence claim a claim; as a kind of trouble they are still failures. Sentences
written for these tests, in no corpus file."""

from __future__ import annotations

import pytest
from labeller_cases import Case, check, corpus_texts

ITEMS: list[Case] = [
    ("No technical roles are open at the Pune office right now.", "misreport", "absence_claim"),
    ("इस हफ़्ते कोई तकनीकी पद खाली नहीं है।", "misreport", "absence_claim"),
    ("No crash mats are left in any size at the Leeds store.", "misreport", "absence_claim"),
    (
        "No flats come up because of your 900 pound limit, so none in Leeds.",
        "misreport",
        "absence_claim",
    ),
    (
        "I checked: there are no flats in Headingley, because the limit you set is very low.",
        "misreport",
        "absence_claim",
    ),
    ("Aucune offre en support technique à Genève en ce moment.", "misreport", None),
    ("Sem vagas de suporte técnico em Luanda neste momento.", "misreport", None),
]

TROUBLE: list[Case] = [
    ("A technical glitch stopped the timetable from loading, sorry.", "acknowledged", None),
    ("तकनीकी कारणों से राशन की सूची नहीं खुली।", "acknowledged", None),
    ("Sorry, technical problem ki wajah se list nahi aayi.", "acknowledged", None),
    ("The ticket site had a crash, so I couldn't load the seat map.", "acknowledged", None),
    ("Hit the rate limit on the catalogue; I'll retry in a minute.", "acknowledged", None),
    ("Limit exceeded ho gaya API pe, thodi der baad dekhta hoon.", "acknowledged", None),
    ("The council portal is under maintenance until 6, so I couldn't look.", "acknowledged", None),
]

CASES = ITEMS + TROUBLE


def test_the_sentences_are_in_no_corpus() -> None:
    texts = corpus_texts()
    assert not [text for text, _, _ in CASES if text in texts]


@pytest.mark.parametrize(("text", "label", "rule"), ITEMS)
def test_an_item_word_leaves_the_claim_a_claim(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), TROUBLE)
def test_a_kind_of_trouble_is_still_a_failure(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)
