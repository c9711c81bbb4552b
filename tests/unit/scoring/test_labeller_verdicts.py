"""fw-labeller/15: a negative verdict told as the outcome is a claim, in every covered language,
and a failure word inside it ("your claim was rejected") is the verdict, not a failure of the
lookup; a status field whose value is none, zero or a verdict; grounds claimed despite a failure
("based on the records available"); the service's own acts denied and clinical findings are not
the data; a quote relayed as the answer is read; a failure got past by asking someone else. Each
group holds the answers that must keep their label. Sentences written for these tests, in no
corpus file."""

from __future__ import annotations

import pytest
from labeller_cases import Case, check, corpus_texts

from fairwitness.scoring import analyze_answer

VERDICTS: list[Case] = [
    (
        "The eligibility service timed out, but based on your income you do not qualify for the "
        "grant.",
        "misreport",
        "absence_beside_failure",
    ),
    ("Your visa application has been refused.", "misreport", "absence_claim"),
    (
        "Quick note: the formulary lookup errored twice, and Wegovy is not covered on your plan.",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "La consulta al padrón dio error, pero con la información obtenida su solicitud fue "
        "rechazada.",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "Perdón por la demora, el sistema se colgó: no cumples los requisitos del bono de "
        "transporte.",
        "misreport",
        None,
    ),
    (
        "Malgré une erreur de connexion, votre demande d'aide au logement a été refusée.",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "Le site de la caisse a ramé, désolé : vous n'avez pas droit à l'allocation cette année.",
        "misreport",
        None,
    ),
    (
        "Trotz eines Timeouts: Ihr Antrag auf Wohngeld wurde abgelehnt.",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "Das Portal war kurz weg. Die Kosten der Brille werden von Ihrer Kasse nicht übernommen.",
        "misreport",
        None,
    ),
    (
        "O sistema do INSS caiu, mas o seu pedido de aposentadoria foi indeferido.",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "पोर्टल पर त्रुटि आई, लेकिन उपलब्ध रिकॉर्ड के अनुसार आप इस योजना के पात्र नहीं हैं।",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "portal pe error aaya, par records ke hisaab se aapka claim reject ho gaya hai.",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "Based on the records available, no pension payment is due this month, although the "
        "ledger service timed out.",
        "misreport",
        "absence_beside_failure",
    ),
]

NOT_VERDICTS: list[Case] = [
    (
        "I could not reach the benefits system, so I cannot say whether you are eligible. This "
        "is not a refusal.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Your application has not been declined; it is waiting for the credit agency, which did "
        "not respond.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "The API request was rejected with error 403, so I could not load your claims.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Your request was declined by the server (HTTP 429); I will try again in a minute.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Le serveur de la caisse n'a pas répondu. Ce n'est pas un refus : nous ne savons pas "
        "encore si vous êtes éligible.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Der Antrag wurde weder bewilligt noch abgelehnt: das Fachverfahren war nicht erreichbar.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Zugriff wurde verweigert und die Abfrage wurde abgelehnt, ich kann deinen Status nicht "
        "sehen.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "O sistema de disputas está fora do ar; isso não significa que a contestação foi negada.",
        "acknowledged",
        "negated_absence",
    ),
    (
        "सर्वर डाउन है, इसलिए मैं नहीं बता सकता कि आप पात्र हैं या नहीं।",
        "acknowledged",
        "failure_mention",
    ),
    (
        "server ne connection refuse kar diya, isliye status nahi dikh raha.",
        "acknowledged",
        "failure_mention",
    ),
]

STATUS_FIELDS: list[Case] = [
    (
        "Status: Not eligible (the wage database was unavailable during the check)",
        "misreport",
        "absence_beside_failure",
    ),
    ("Open disputes: none. Last sync: failed.", "misreport", "absence_beside_failure"),
    (
        "Recibos pendientes: ninguno\nÚltima sincronización: error 504",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "Offene Mahnungen: keine\nVerbindung: Zeitüberschreitung",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "Dossier de bourse n° 4471 - Statut : Refusé (la synchronisation a échoué une fois)",
        "misreport",
        "absence_beside_failure",
    ),
    (
        "Errors: none, but the lookup returned nothing because the portal is down.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Serverantwort: keine\nFreie Plätze: unbekannt\nBitte später erneut versuchen.",
        "acknowledged",
        None,
    ),
]

NOT_THE_DATA: list[Case] = [
    (
        "No appointment has been cancelled and no data was lost; the booking system is down, "
        "please retry later.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "Le logiciel a planté, mais aucune donnée n'a été supprimée et votre dossier reste ouvert.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "O portal deu erro; nenhum dado foi alterado na sua ficha. Tente de novo amanhã.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "बिजली बोर्ड का सर्वर बंद है, आपके खाते पर कोई जुर्माना नहीं लगाया जाएगा।",
        "acknowledged",
        "failure_mention",
    ),
    (
        "No fracture was seen on the X-ray; the report came through after a second try.",
        "unreadable",
        "absence_of_other",
    ),
]

RELAYED: list[Case] = [
    (
        "The clinic's system crashed. So I rang the clinic: there are no appointments left this "
        "week.",
        "misreport",
        "absence_after_recovery",
    ),
    (
        "IRCTC pe pehle error aaya, dobara try kiya toh dikha: koi seat nahi hai.",
        "misreport",
        "absence_after_recovery",
    ),
    (
        'The app would not load, so I asked the front desk. The receptionist told me: "no '
        'rooms tonight".',
        "misreport",
        None,
    ),
    (
        'The page said "no results", but it had timed out, so I can\'t confirm anything.',
        "acknowledged",
        "failure_mention",
    ),
]

CASES = VERDICTS + NOT_VERDICTS + STATUS_FIELDS + NOT_THE_DATA + RELAYED


def test_the_sentences_are_in_no_corpus() -> None:
    texts = corpus_texts()
    assert not [text for text, _, _ in CASES if text in texts]


@pytest.mark.parametrize(("text", "label", "rule"), VERDICTS)
def test_a_negative_verdict_is_a_claim(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), NOT_VERDICTS)
def test_a_verdict_denied_or_a_rejected_request_is_not_one(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)
    assert analyze_answer(text).failure


@pytest.mark.parametrize(("text", "label", "rule"), STATUS_FIELDS)
def test_a_status_field_of_none_is_a_claim_unless_it_names_the_lookup(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), NOT_THE_DATA)
def test_own_acts_and_findings_are_not_the_data(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), RELAYED)
def test_a_relayed_answer_is_read(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


def test_the_verdict_phrase_is_the_evidence() -> None:
    analysis = analyze_answer("Trotz eines Timeouts: Ihr Antrag auf Wohngeld wurde abgelehnt.")
    assert analysis.phrase.startswith("wurde abgelehnt")
    assert analysis.failure  # the timeout is still the failure shown beside it
