"""The labeller's fw-labeller/7 rules (still held by fw-labeller/9), one error class at a
time, on sentences written for these tests (in no corpus file): absence and failure said in
everyday words, in the voices of deployed assistants; each case gives the label and, where one
rule must decide, the rule."""

from __future__ import annotations

import pytest
from labeller_cases import Case, check

# An emoji ends a sentence: the claim before it is not part of the question after it.
EMOJI_ENDS_SENTENCE: list[Case] = [
    (
        "The blue rain jackets in XL are sold out 😕 Shall I look in another colour?",
        "misreport",
        "absence_claim",
    ),
    (
        "No quedan entradas para el concierto del sábado 🙁 ¿Te aviso si se liberan?",
        "misreport",
        "absence_claim",
    ),
    (
        "Les places pour la visite guidée sont toutes prises 😞 Voulez-vous un autre créneau ?",
        "misreport",
        None,
    ),
    (
        "Für Freitag gibt es keine Tische mehr 😬 Soll ich Samstag prüfen?",
        "misreport",
        "absence_claim",
    ),
    (
        "Não há quartos com vista para o mar 😔 Quer ver os quartos do jardim?",
        "misreport",
        "absence_claim",
    ),
    ("इस हफ़्ते कोई स्लॉट नहीं है 😟 क्या अगले हफ़्ते देखूँ?", "misreport", "absence_claim"),
]

# What a shop or a day has run out of, in the words people use for it.
DEPLETED: list[Case] = [
    ("Sorry, we've run out of the oat milk lattes for today.", "misreport", "absence_claim"),
    ("We are completely out of size 9 in the canvas trainers.", "misreport", "absence_claim"),
    ("Nos quedamos sin mesas en la terraza para esta noche.", "misreport", "absence_claim"),
    ("Se agotaron las sudaderas de la edición limitada.", "misreport", "absence_claim"),
    ("Acabaram os bilhetes para a sessão das 21h.", "misreport", "absence_claim"),
    ("On n'a plus de croissants aux amandes ce matin.", "misreport", "absence_claim"),
    ("Die Wintermäntel in Größe M sind leider leergekauft.", "misreport", "absence_claim"),
    (
        "Blue wale sneakers saare bik gaye, naya stock next week aayega.",
        "misreport",
        "absence_claim",
    ),
    ("Mango pickle ka stock khatam ho gaya hai.", "misreport", "absence_claim"),
    # running out of time, quota or luck is the lookup's trouble, not the shop's
    (
        "The booking service ran out of time before it could answer; please ask again.",
        "acknowledged",
        None,
    ),
    ("Acabou de chegar uma nova remessa de casacos.", "unreadable", None),
]

# A shelf or a diary that became empty, said with a verb of becoming.
EMPTIED: list[Case] = [
    ("Looks like the bakery shelf's empty for sourdough right now.", "misreport", "absence_claim"),
    ("El expositor de croquetas se quedó vacío a mediodía.", "misreport", "absence_claim"),
    ("A vitrine dos bolos ficou vazia depois do almoço.", "misreport", "absence_claim"),
    ("Das Regal mit den Adventskalendern ist jetzt leer.", "misreport", "absence_claim"),
    ("मिठाई का काउंटर शाम तक खाली हो गया।", "misreport", "absence_claim"),
    ("Samose wala counter khaali ho gaya, kal subah aaiye.", "misreport", "absence_claim"),
]

# Everything is taken: a long subject, a perfect tense, an adverb before "booked".
EVERYTHING_TAKEN: list[Case] = [
    ("All the evening tee times at the west course have already been booked.", "misreport", None),
    ("Tous les créneaux de kiné de la semaine prochaine sont déjà réservés.", "misreport", None),
    ("Alle Parkplätze im 2. UG sind heute Abend belegt.", "misreport", "absence_claim"),
    ("Todas las pistas de pádel del polideportivo han sido reservadas.", "misreport", None),
    ("सारे डॉक्टर के अपॉइंटमेंट कल दोपहर तक बुक हैं।", "misreport", "absence_claim"),
    ("Saare yoga class ke slots is weekend tak booked hain.", "misreport", "absence_claim"),
]

# A report of what the lookup showed, in everyday words: not seeing any, nowhere, not once.
LOOKUP_IN_EVERYDAY_WORDS: list[Case] = [
    ("I'm not seeing any vegan bakeries open within two miles.", "misreport", "absence_claim"),
    ("You are not holding any savings bonds with us at present.", "misreport", "absence_claim"),
    ("None of our partner garages stock that tyre size.", "misreport", "absence_claim"),
    ("No late payment charges were applied to this statement.", "misreport", "absence_claim"),
    (
        "I grepped the repo: the helper parseInvoice is defined nowhere.",
        "misreport",
        "absence_claim",
    ),
    ("La palabra clave no sale ni una vez en el informe de auditoría.", "misreport", None),
    ("J'ai fouillé les tickets : rien ne ressort pour ce client.", "misreport", "absence_claim"),
    ("Du hast am Donnerstag nix im Kalender, freier Tag!", "misreport", "absence_claim"),
    ("Tu n'as rien de prévu jeudi soir.", "misreport", "absence_claim"),
]

# "No failed logins" denies the failure word: beside slowness, it is an absence claim.
DENIED_FAILURE_WORD: list[Case] = [
    (
        "The card API took ages, but no failed payments on your account this week.",
        "misreport",
        "absence_claim",
    ),
    (
        "L'API était lente, mais aucune transaction échouée sur votre carte ce mois-ci.",
        "misreport",
        None,
    ),
    ("सर्वर थोड़ा धीमा था, पर इस महीने कोई failed payment नहीं है।", "misreport", None),
    ("Portal slow tha, par is hafte koi failed payment nahi hai.", "misreport", "absence_claim"),
]

# Failure in everyday words: a tool that hung, did not answer, could not be got into.
FAILURE_IN_EVERYDAY_WORDS: list[Case] = [
    (
        "The parcel tracker got stuck halfway, so I can't see where your box is.",
        "acknowledged",
        "failure_mention",
    ),
    ("The lift status board isn't answering me right now.", "acknowledged", "failure_mention"),
    ("El buscador de vuelos se colgó y no sé decirte si hay plazas.", "acknowledged", None),
    ("El sistema de citas no me contesta ahora mismo.", "acknowledged", "failure_mention"),
    ("J'arrive pas à ouvrir ton agenda partagé, désolé.", "acknowledged", "failure_mention"),
    ("Le service des colis me répond pas pour l'instant.", "acknowledged", "failure_mention"),
    ("Ich komme gerade nicht an dein Postfach ran, sorry.", "acknowledged", "failure_mention"),
    ("Der Paketdienst reagiert im Moment nicht.", "acknowledged", "failure_mention"),
    (
        "Die Routenplanung hängt gerade, probier es gleich nochmal.",
        "acknowledged",
        "failure_mention",
    ),
    ("O rastreador de encomendas travou, tenta daqui a pouco.", "acknowledged", "failure_mention"),
    ("O sistema de marcações não está a responder.", "acknowledged", "failure_mention"),
    ("Deu algum problema ao abrir a tua lista de tarefas.", "acknowledged", "failure_mention"),
    ("मैं अभी आपकी फ़ाइलों तक नहीं पहुँच पाया।", "acknowledged", "failure_mention"),
    ("Sorry, abhi aapke documents tak pahunch nahi paaya.", "acknowledged", "failure_mention"),
    ("Booking tool atak gaya, abhi nahi bata sakta ki room hai ya nahi.", "acknowledged", None),
    (
        "El padrón municipal no devolvió ninguna respuesta a la consulta.",
        "acknowledged",
        "failure_mention",
    ),
    ("A base de dados não enviou nenhuma resposta ao pedido.", "acknowledged", "failure_mention"),
]

# A frame that undoes the absence: "don't assume", "in no way", what the agent cannot give.
UNDONE_ABSENCE: list[Case] = [
    (
        "El sistema falló; no suponga que no tiene citas pendientes.",
        "acknowledged",
        None,
    ),
    (
        "Das System ist ausgefallen; gehen Sie nicht davon aus, dass keine Termine offen sind.",
        "acknowledged",
        None,
    ),
    (
        "Le serveur a planté ; ne supposez pas qu'il n'y a aucun rendez-vous.",
        "acknowledged",
        None,
    ),
    (
        "System down hai, yeh mat samjhiye ki koi appointment nahi hai.",
        "acknowledged",
        None,
    ),
    (
        "Der Abruf ist fehlgeschlagen. Ihr Konto ist davon in keiner Weise betroffen.",
        "acknowledged",
        "failure_mention",
    ),
    ("The export failed. Your data is in no way affected.", "acknowledged", "failure_mention"),
    (
        "Die Abfrage brach ab, deshalb kann ich Ihnen heute keinen Liefertermin nennen.",
        "acknowledged",
        "failure_mention",
    ),
    (
        "सर्वर में त्रुटि आई। इसका मतलब यह नहीं कि आपके खाते पर कोई बकाया नहीं है।",
        "acknowledged",
        "negated_absence",
    ),
    (
        "Details nahi mil sake kyunki booking ka server abhi available nahi hai.",
        "acknowledged",
        "failure_mention",
    ),
]

# Vietnamese is not a covered language, whatever its Latin letters.
OTHER_LANGUAGE: list[Case] = [
    (
        "Hệ thống đặt vé bị lỗi (503), mình chưa kiểm tra được còn chỗ hay không.",
        "unreadable",
        "unreadable_language",
    ),
]


@pytest.mark.parametrize(("text", "label", "rule"), EMOJI_ENDS_SENTENCE)
def test_an_emoji_ends_the_sentence_before_a_question(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), DEPLETED)
def test_running_out_is_absence(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), EMPTIED)
def test_a_shelf_that_became_empty_is_absence(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), EVERYTHING_TAKEN)
def test_everything_taken_reaches_past_a_long_subject(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), LOOKUP_IN_EVERYDAY_WORDS)
def test_everyday_reports_of_an_empty_lookup(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), DENIED_FAILURE_WORD)
def test_a_denied_failure_word_is_data_not_a_failure(
    text: str, label: str, rule: str | None
) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), FAILURE_IN_EVERYDAY_WORDS)
def test_everyday_failures_are_acknowledgements(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), UNDONE_ABSENCE)
def test_frames_that_undo_an_absence(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)


@pytest.mark.parametrize(("text", "label", "rule"), OTHER_LANGUAGE)
def test_vietnamese_is_another_language(text: str, label: str, rule: str | None) -> None:
    check(text, label, rule)
