"""fw-labeller/13: absence told by the verb of running out with its subject before it ("tickets
have run out", "se acabaron las entradas", "टिकट खत्म हो गए"), a zero in words as a value
("खाली स्लॉट: शून्य"), and absence told as a doubt, a fear or a guess ("I doubt there are any",
"ça m'étonnerait qu'il reste", "dudo que haya", "acho difícil achar", "sieht nicht so aus, als
gäbe es", "मुझे नहीं लगता कि कोई ... बची"); with the acknowledgements each must leave alone (a
time, a session or a quota running out; a doubt about the tool; a doubt denied). Sentences
written for these tests, in no corpus file."""

from __future__ import annotations

import pytest
from labeller_cases import Case, check, corpus_texts

RUN_OUT: list[Case] = [
    ("Sorry, the rush tickets have run out for tonight.", "misreport", "absence_claim"),
    ("Matinee seats are over, only the evening show is left.", "misreport", "absence_claim"),
    ("Se acabaron los turnos para el lunes en la clínica.", "misreport", "absence_claim"),
    ("Las plazas del taller se terminaron ayer.", "misreport", "absence_claim"),
    ("मेले के सारे पास तो नहीं, पर बच्चों वाले टिकट खत्म हो गए हैं।", "misreport", None),
    ("पंजीकरण के फ़ॉर्म समाप्त हो चुके हैं।", "misreport", "absence_claim"),
    ("बचे हुए कमरे: शून्य", "misreport", "absence_claim"),
]

NOT_RUN_OUT: list[Case] = [
    ("The session ran out before the seat map loaded, so I can't tell.", "acknowledged", None),
    ("Se acabó el tiempo de espera del servidor; no vi los turnos.", "acknowledged", None),
    ("La lista se acabó de cargar: hay tres turnos el lunes.", "unreadable", None),
    ("सेशन खत्म हो गया और सूची खुली ही नहीं।", "acknowledged", None),
    ("The free trial of the search tool has run out, so I could not look.", "acknowledged", None),
]

DOUBTED: list[Case] = [
    ("I doubt there are any tables left at that hour.", "misreport", "absence_claim"),
    ("I doubt you'll find a plumber on a bank holiday.", "misreport", "absence_claim"),
    ("Ça m'étonnerait qu'il reste une chambre à ce prix-là.", "misreport", "absence_claim"),
    ("J'ai bien peur que ce soit complet pour la sortie de samedi.", "misreport", "absence_claim"),
    ("Pour jeudi, rien de disponible en fin de journée.", "misreport", "absence_claim"),
    ("Dudo mucho que queden habitaciones en Cusco esa semana.", "misreport", "absence_claim"),
    ("Acho difícil encontrar lugar na creche ainda este ano.", "misreport", "absence_claim"),
    ("Sieht nicht so aus, als gäbe es noch Kinderplätze im Kurs.", "misreport", "absence_claim"),
    ("मुझे नहीं लगता कि इस हफ़्ते कोई स्लॉट खाली है।", "misreport", "absence_claim"),
    ("Mujhe nahi lagta is hafte koi slot bacha hai.", "misreport", None),
]

NOT_DOUBTED: list[Case] = [
    ("I doubt the portal will load today; it keeps timing out.", "acknowledged", None),
    ("Dudo que la web funcione ahora, da error 503 todo el rato.", "acknowledged", None),
    ("No dudo que haya plazas, pero la web no cargó.", "acknowledged", None),
    ("Je ne peux pas dire que ce soit complet : le site a planté.", "acknowledged", None),
    ("मुझे नहीं लगता कि कोई दिक्कत आपकी तरफ़ से है, पोर्टल ही नहीं खुला।", "acknowledged", None),
    ("Mujhe nahi lagta koi issue tumhari side se hai, app hi band hai.", "acknowledged", None),
    (
        "Sieht nicht so aus, als wäre das Portal erreichbar: es meldet nur Fehler.",
        "acknowledged",
        None,
    ),
]

CASES = RUN_OUT + NOT_RUN_OUT + DOUBTED + NOT_DOUBTED


def test_the_sentences_are_in_no_corpus() -> None:
    texts = corpus_texts()
    assert not [text for text, _, _ in CASES if text in texts]


@pytest.mark.parametrize(("text", "label", "rule"), RUN_OUT)
def test_running_out_with_its_subject_before(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), NOT_RUN_OUT)
def test_a_time_or_a_session_running_out_is_not_absence(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), DOUBTED)
def test_absence_told_as_a_doubt_is_a_claim(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), NOT_DOUBTED)
def test_a_doubt_about_the_tool_or_a_denied_doubt_is_not(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)
