"""The labeller's fw-labeller/11 rules, one construction at a time, on sentences written for these
tests (in no corpus file): absence words that are about the assistant's own actions or the
service's cost, absence phrases whose predicate is what the lookup showed, failures told as a
block or a blank page, and the genuine claims each must leave alone. Each case gives the label
and, where one rule must decide, the rule."""

from __future__ import annotations

import pytest
from labeller_cases import Case, check, corpus_texts

# What the assistant did not do, and what the service does not cost, is not the data.
ACTION_AND_COST: list[Case] = [
    (
        "The clinic's booking system timed out, so I couldn't move your appointment. No changes "
        "were made to it.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Nothing on your reservation has been cancelled; the hotel's API just returned a 502.",
        "acknowledged",
        "failure_mention",
    ),
    ("No booking fee applies, and I found three courts free on Sunday.", "unreadable", None),
    (
        "El sistema de la aseguradora no respondió. No se hizo ningún cambio en tu póliza.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Le serveur de la mutuelle est en panne ; aucune modification n'a été faite sur votre dossier.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Das Portal der Stadtwerke war nicht erreichbar. Es wurde nichts an Ihrem Vertrag geändert.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Es fallen keine Gebühren an, und ich habe zwei Termine am Freitag gefunden.",
        "unreadable",
        None,
    ),
    (
        "O portal da escola deu erro 500. Nenhuma alteração foi feita na matrícula do seu filho.",
        "acknowledged",
        "failure_mention",
    ),
    ("Troca sem custo: encontrei o tênis no tamanho 42 na loja do centro.", "unreadable", None),
    (
        "Paytm ka server down tha, koi extra charge nahi laga. Main thodi der mein try karta hoon.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "बिजली विभाग की साइट नहीं खुली। मैंने आपके कनेक्शन में कोई बदलाव नहीं किया।",
        "acknowledged",
        None,
    ),
    ("Cero drama: ¿prefieres la cancha de las 6 o la de las 7?", "unreadable", None),
    ("Null Problemo, die Werkstatt hat morgen um 9 Uhr einen Termin frei.", "unreadable", None),
]

# A charge, a payment or a transaction on the user's account is data: the claims stay claims.
ACCOUNT_DATA: list[Case] = [
    ("There are no late fees on your library account this term.", "misreport", None),
    (
        "No se preocupe: no tiene ningún cargo pendiente en la tarjeta de la gasolinera.",
        "misreport",
        None,
    ),
    ("Aucun prélèvement n'est prévu sur votre compte joint en mars.", "misreport", None),
    ("Is mahine ke bill mein koi late charge nahi laga hai.", "misreport", None),
    ("No card payments were made at that shop last week.", "misreport", None),
]

# An absence phrase whose predicate is what the lookup showed reads like "no results": a claim
# only when no failure mentioned explains it.
SHOWN: list[Case] = [
    (
        "La sesión con el portal del SAT caducó y no se pudo cargar ningún comprobante.",
        "acknowledged",
        None,
    ),
    (
        "Le site de la préfecture a renvoyé une erreur 503 et aucun créneau ne s'est affiché.",
        "acknowledged",
        None,
    ),
    (
        "Die Buchungsseite ist abgestürzt, deshalb zeigt die Karte keine Ladepunkte an.",
        "acknowledged",
        None,
    ),
    ("Zomato ka server timeout ho gaya, menu ka kuch bhi data nahi aaya.", "acknowledged", None),
    ("रेलवे की साइट पर एरर आया, कोई भी ट्रेन नहीं दिखी।", "acknowledged", None),
    # no failure: what the lookup showed is the claim
    ("Hmm, aaj ke liye koi cab nahi dikh rahi aapke area mein.", "misreport", None),
    ("Au final, aucun créneau ne s'est affiché pour jeudi.", "misreport", None),
    # an existential still claims, whatever the lookup showed
    (
        "The app crashed twice, and there were no buses showing after eleven.",
        "misreport",
        "absence_beside_failure",
    ),
    # "affiche complet" is sold out, not a display
    ("La billetterie a renvoyé une erreur 429, mais le match affiche complet.", "misreport", None),
]

# Failures told as a block, a blank page, a reply with nothing in it, zero replies.
FAILURES: list[Case] = [
    (
        "Booking.com blocked me after a few searches, so I have nothing on Porto yet.",
        "acknowledged",
        None,
    ),
    ("O Idealista me bloqueou por excesso de buscas, não veio nada.", "acknowledged", None),
    ("The council's permit page stays blank whatever I try.", "acknowledged", "failure_mention"),
    (
        "Das Portal hat mich nach drei Suchen gesperrt, ich schaue später nochmal.",
        "acknowledged",
        None,
    ),
    (
        "Liguei para a farmácia e não obtive resposta nenhuma. Não sei se o remédio chegou.",
        "acknowledged",
        None,
    ),
    (
        "Le standard de la mairie : zéro réponse depuis ce matin, je rappelle à 14 h.",
        "acknowledged",
        None,
    ),
    # a decimal is not a zero; a zero count of failures is a claim about the data, not a failure
    ("Found two scooters: a 2019 1.0 Vespa for 1,900 and a 2020 for 2,400.", "unreadable", None),
    ("Nightly backup report: 0 failed jobs, 42 succeeded.", "misreport", None),
    ("**Deploys today:** 0 failed. Nothing to look into.", "misreport", None),
]

# What the assistant knows is not what exists; "it's not that ..." undoes the claim after it.
KNOWLEDGE: list[Case] = [
    (
        "The transit API returned a 500, so I don't have any information about delays on your line.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "La web del ayuntamiento no cargó y me quedé sin información de las piscinas de verano.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Le suivi Colissimo ne donne aucun retour pour ce numéro, le service est en maintenance.",
        "acknowledged",
        None,
    ),
    ("The ferry tickets for Saturday are all gone, every one of them.", "misreport", None),
    ("Entradas para el clásico: agotadísimas, no queda ni una.", "misreport", None),
]

ALL_CASES = ACTION_AND_COST + ACCOUNT_DATA + SHOWN + FAILURES + KNOWLEDGE


@pytest.mark.parametrize(("text", "label", "rule"), ACTION_AND_COST)
def test_actions_and_costs_are_not_the_data(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), ACCOUNT_DATA)
def test_account_data_stays_a_claim(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), SHOWN)
def test_what_the_lookup_showed(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), FAILURES)
def test_failures_told_by_what_was_not_seen(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), KNOWLEDGE)
def test_knowledge_and_claims(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


def test_cases_are_in_no_corpus() -> None:
    texts = corpus_texts()
    assert not [text for text, _, _ in ALL_CASES if text in texts]
