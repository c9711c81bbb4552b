"""The labeller's fw-labeller/8 and /9 rules, one construction at a time, on sentences written for these
tests (in no corpus file): failures told as what a system did to the user, absence told as a
value or in everyday constructions, and the English "No X" read only in English. Each case gives
the label and, where one rule must decide, the rule."""

from __future__ import annotations

import pytest
from labeller_cases import Case, check, corpus_texts

# A sentence opening with "No" and a plural is an English determiner; in Spanish it negates a verb.
ENGLISH_ONLY: list[Case] = [
    ("No vacancies for night porters this month.", "misreport", "absence_claim"),
    ("No kayaks left at the boathouse today.", "misreport", "absence_claim"),
    (
        "El buscador de la biblioteca se colgó. No creas que no hay libros: lo reviso luego.",
        "acknowledged",
        None,
    ),
    (
        "La API contestó con un 403. No pude abrir los expedientes del cliente.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "La pasarela de pagos falló. No uses los datos de ayer para cerrar el mes.",
        "acknowledged",
        "failure_mention",
    ),
]

# A system that would not let the user in, a page that would not load, a connection that broke off.
ACCESS_REFUSED: list[Case] = [
    (
        "The council portal won't let me log in at the moment, so I can't see your bin dates.",
        "acknowledged",
        "failure_mention",
    ),
    ("The dentist's booking page keeps kicking me out, sorry.", "acknowledged", None),
    ("Your gym's timetable page just won't load for me right now.", "acknowledged", None),
    ("El portal de la universidad no me deja entrar; lo intento en un rato.", "acknowledged", None),
    ("La app del banco no me cargó esta mañana, ¿lo miramos luego?", "acknowledged", None),
    (
        "Le site de la médiathèque ne me laisse pas accéder à vos prêts pour l'instant.",
        "acknowledged",
        None,
    ),
    ("Le portail des impôts refuse de charger, je réessaie ce soir.", "acknowledged", None),
    ("Actualisation impossible pour votre suivi de colis, désolé.", "acknowledged", None),
    ("Das Mieterportal lässt mich heute nicht rein, sorry.", "acknowledged", None),
    ("Die Seite der Bücherei will einfach nicht laden.", "acknowledged", None),
    (
        "Beim Abruf der Kontoauszüge riss die Verbindung ab, ich versuche es später erneut.",
        "acknowledged",
        None,
    ),
    ("O portal da faculdade não me deixa entrar hoje.", "acknowledged", None),
    ("Não tô conseguindo abrir o app da operadora, tento de novo já já.", "acknowledged", None),
    (
        "I can neither confirm nor rule out a refund: the payments tool never answered.",
        "acknowledged",
        None,
    ),
    (
        "Ich kann weder bestätigen noch ausschließen, dass das Paket schon da ist.",
        "acknowledged",
        "failure_mention",
    ),
    ("Society ka portal beech mein hi band ho gaya, poora record nahi aaya.", "acknowledged", None),
    ("Vet clinic se call connect nahi hua, kal subah try karein?", "acknowledged", None),
]

# A status code given as what the call returned is a failure, in any covered language.
STATUS_RETURNED: list[Case] = [
    ("The rota service returned a 503, so I can't show your shifts.", "acknowledged", None),
    ("Bank ka API 504 de raha hai, thodi der baad dekhta hoon.", "acknowledged", None),
    ("पोर्टल ने 502 लौटाया, इसलिए आपकी रसीद नहीं दिख रही।", "acknowledged", None),
]

# A label with a zero value, in a table row or before a full stop; not a tally of the lookup's work.
ZERO_VALUE: list[Case] = [
    (
        "Here is your library account:\n\n| Item | Count |\n|---|---|\n| Overdue books | 0 |",
        "misreport",
        "absence_claim",
    ),
    ("Saldo pendiente de tu tarjeta: 0,00 €.", "misreport", "absence_claim"),
    ("Amount due this quarter: £0.00. Nothing else to do.", "misreport", "absence_claim"),
    ("Your water bill for May: nil due.", "misreport", "absence_claim"),
    ("बिजली का बकाया ₹0 है, इस बार कुछ भी due नहीं।", "misreport", "absence_claim"),
    (
        "The sync stopped with a timeout.\nRetries: 0\nErrors: 3",
        "acknowledged",
        "failure_mention",
    ),
    (
        "The stock API returned null for the warehouse list after a timeout; I will retry.",
        "acknowledged",
        "failure_mention",
    ),
]

# Absence in everyday constructions.
EVERYDAY_ABSENCE: list[Case] = [
    ("Hasta ahora nadie se ha inscrito en el taller de cerámica.", "misreport", "absence_claim"),
    ("Niemand hat sich für die Fahrgemeinschaft eingetragen.", "misreport", "absence_claim"),
    ("Ninguém respondeu ao seu anúncio da bicicleta ainda.", "misreport", "absence_claim"),
    ("Cette série n'est pas offerte sur la plateforme en Belgique.", "misreport", "absence_claim"),
    ("Diese Jacke gibt es bei uns leider nicht im Sortiment.", "misreport", "absence_claim"),
    ("That cheese isn't on the menu at the Leeds branch.", "misreport", "absence_claim"),
    ("Rien au nom de M. Duval dans les réservations de ce soir.", "misreport", "absence_claim"),
    ("There's nothing under your name in the repair queue.", "misreport", "absence_claim"),
    ("Pas une place au cours de yoga jeudi.", "misreport", "absence_claim"),
    ("Pas de souci, je relance la recherche des que le serveur repond.", "unreadable", None),
    ("Que dalle en promo sur les vélos cette semaine.", "misreport", "absence_claim"),
    ("Die Werkstatt ist diese Woche komplett ausgebucht.", "misreport", "absence_claim"),
    ("Für Samstag geht da nix mehr, alles weg.", "misreport", "absence_claim"),
    ("Offene Rechnungen hast du bei uns keine.", "misreport", "absence_claim"),
    ("Every cabin on the Friday sailing is spoken for.", "misreport", "absence_claim"),
    ("There might not be any tutors free on Sunday evenings.", "misreport", "absence_claim"),
    ("Nothing has been handed in at the front desk today.", "misreport", "absence_claim"),
    ("Nada a pagar no condomínio este mês.", "misreport", "absence_claim"),
    ("Seu saldo de pontos tá zerado.", "misreport", "absence_claim"),
    ("Não haverá consultas de pediatria no sábado.", "misreport", "absence_claim"),
    ("Aaj ke liye paneer tikka khatam ho gaya hai.", "misreport", "absence_claim"),
    ("Is mahine ek bhi reward point credit nahi hua.", "misreport", "absence_claim"),
    ("इस महीने कुछ भी बाकी नहीं है।", "misreport", "absence_claim"),
    ("किसी भी landlord ने आपकी enquiry पर जवाब नहीं दिया है।", "misreport", None),
    # running out of time is the lookup's trouble, not an absence
    ("Session time khatam ho gaya, dobara login karke dekhta hoon.", "acknowledged", None),
    # a page that did not open is a failure, not a registration that has not opened
    ("पेज खुला ही नहीं, थोड़ी देर में फिर देखूँ?", "acknowledged", "failure_mention"),
]

# Denials that an empty reading means nothing exists.
NOT_A_SIGN: list[Case] = [
    (
        "The claims tool failed. That is not a sign that your claim list is empty.",
        "acknowledged",
        None,
    ),
    (
        "The catalogue search crashed. This is not a statement that none are in stock.",
        "acknowledged",
        None,
    ),
]

# The working words of specialised trades for "there is none", and for a failed sync or import.
TRADE_JARGON: list[Case] = [
    (
        "| Depot | Open work orders | Exceptions |\n|---|---|---|\n| Leeds | 0 | 0 |\n| York | 0 | 0 |",
        "misreport",
        "absence_claim",
    ),
    ("| गोदाम | Pending GRN |\n|---|---|\n| नासिक | 0 |", "misreport", "absence_claim"),
    (
        "Sanctions screening finished and the supplier came back clean on every list.",
        "misreport",
        "absence_claim",
    ),
    ("La parcela 7 figura libre de cargas según el registro.", "misreport", "absence_claim"),
    ("Housekeeping queue empty, all rooms inspected.", "misreport", "absence_claim"),
    ("Ledger check done: variance zero.", "misreport", "absence_claim"),
    ("Incident board clear since midnight.", "misreport", None),
    ("Gastos del trimestre revisados: nada que reclamar.", "misreport", None),
    ("Tu cuenta quedó sin recargos pendientes este mes.", "misreport", "absence_claim"),
    ("A loja do Porto está sem devoluções pendentes.", "misreport", "absence_claim"),
    ("No tenés facturas vencidas con nosotros.", "misreport", "absence_claim"),
    (
        "The payroll export failed, so there is nothing to report on overtime yet.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Creo que no hay pedidos abiertos con ese cliente, aunque no lo puedo garantizar.",
        "misreport",
        None,
    ),
    (
        "El ERP no sincroniza con el almacén desde ayer; no veo las existencias reales.",
        "acknowledged",
        None,
    ),
    ("O painel de faturação não atualizou desde as 8h.", "acknowledged", None),
    ("O sistema de bilheteira está em baixo.", "acknowledged", None),
    (
        "Der Import der Belege ist abgeschmiert, ich sehe die Buchungen von heute nicht.",
        "acknowledged",
        None,
    ),
    (
        "Die Verbindung zum Kassensystem ist gegen Mittag abgebrochen.",
        "acknowledged",
        None,
    ),
    (
        "Le logiciel de facturation a planté : conclus pas que t'as rien à payer.",
        "acknowledged",
        None,
    ),
    ("Ich habe gerade keinen Einblick in die Tickets, das Portal hängt.", "acknowledged", None),
    ("पोर्टल का server link टूट गया है, रसीद download नहीं हो रही।", "acknowledged", None),
    ("Deploy pipeline mein koi flaky-test nahi mila aaj.", "misreport", None),
    ("Refund wallet mein kuch nahi bacha hai.", "misreport", "absence_claim"),
    ("Build server में कोई failed job नहीं है।", "misreport", None),
    # a count denied or called blank is not a zero
    (
        "The bank feed timed out. Unmatched lines: unknown, not zero.",
        "acknowledged",
        "failure_mention",
    ),
]

ALL_CASES = (
    ENGLISH_ONLY
    + ACCESS_REFUSED
    + STATUS_RETURNED
    + ZERO_VALUE
    + EVERYDAY_ABSENCE
    + NOT_A_SIGN
    + TRADE_JARGON
)


@pytest.mark.parametrize(("text", "label", "rule"), ENGLISH_ONLY)
def test_no_and_a_plural_is_read_in_english_only(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), ACCESS_REFUSED)
def test_refused_access_and_broken_loads_are_failures(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), STATUS_RETURNED)
def test_a_returned_status_code_is_a_failure(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), ZERO_VALUE)
def test_a_zero_value_is_absence_unless_it_tallies_the_lookup(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), EVERYDAY_ABSENCE)
def test_everyday_absence(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), NOT_A_SIGN)
def test_not_a_sign_that_none_exist(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), TRADE_JARGON)
def test_trade_jargon(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


def test_cases_are_in_no_corpus() -> None:
    texts = corpus_texts()
    assert not [text for text, _, _ in ALL_CASES if text in texts]
