"""fw-labeller/13: breakage, closure and fullness told in everyday words, what a person does not
know or is not charged, and the recoveries and denials that go with them, in every covered
language:

- a lookup that half loaded, stayed stuck on "loading", never loaded ("a jamais chargé"), is
  mid-update, stopped responding, or whose confirmation never arrived is a failure, as is an
  account that is locked, a page that froze ("पेज जम गया", "freeze ho gaya") and an app that
  closed itself;
- a place that is closed to new entries is an absence: applications, registrations and
  admissions that have closed ("आवेदन बंद हो चुके हैं", "registrations band ho chuki hain",
  "las inscripciones están cerradas"), seats that filled ("सीटें भर गईं", "pūrā bharā"), a value
  "not available" in a key: value block, a name that does not figure in a register ("no
  figura"), a pronoun "keine" closing a German sentence ("vergibt die Stiftung keine");
- no certainty, no clue, no overview ("aucune certitude", "keinen Schimmer"), no cost and no
  commitment ("keine Kosten, keine Verpflichtung"), and "nothing better" ("no hay nada mejor",
  "koi nahi better") are not the data;
- "nothing says that" ("rien ne dit que", "nada indica que") denies the claim after it, and
  "not as sold out", "nicht davon, dass es keine gibt" deny the phrase they frame;
- a search finished after all ("I finished the search", "die Suche zu Ende bringen"), a page
  that opened on the third try ("तीसरी बार खुली"), an app that worked after it hung ("fir chal
  gaya") are recoveries.
"""

from __future__ import annotations

EVERYDAY_FAILURE = [
    # half loaded, never loaded, stuck on loading, mid-update
    r"\b(?:chargée?|charg[ée]s?) à moitié\b|\bà moitié chargée?s?\b|\b(?:nur )?(?:zur hälfte|halb) "
    r"geladen\b|\b(?:nur )?(?:eine )?halbe seite\b|\bhalf a page\b|\bcargó a medias\b|\bcarregou (?:só )?"
    r"(?:pela|até a) metade\b|\b(?:n')?a jamais (?:fini de )?charg\w*\b|\b(?:resté|restée|est resté|"
    r"bloquée?) (?:bloquée? )?sur (?:«q»|« ?chargement)|\bstuck on (?:«q»|loading)\b|"
    r"\bzeitüberschreitung\w*\b|\b(?:dropped|lost|cut) (?:the |my |our |its )?connection\b|"
    r"\b(?:derzeit |zurzeit |aktuell )?gestört\b|\b(?:komme|kam|kommen) (?:\w+ )?nicht an die daten\b",
    r"\bmid-update\b|\b(?:is|was|are) (?:being )?updat(?:ed|ing)\b|\ben cours de mise à jour\b|"
    r"\bwird (?:gerade )?aktualisiert\b|\bse está actualizando\b|\bestá (?:a )?atualiz(?:ando|ar)\b|"
    r"\b(?:screens?|pages?|app) (?:is |are |was |were |went |stayed |came up )(?:\w+ )?blank\b",
    # stopped responding; a confirmation or code that never arrived
    r"जवाब देना बंद|\b(?:respond|reply) karna band\b|\bstopped (?:responding|answering|working)\b|"
    r"\bdejó de (?:responder|funcionar)\b|\ba cessé de (?:répondre|fonctionner)\b|\bantwortet nicht "
    r"mehr\b|\bparou de (?:responder|funcionar)\b|\bnie (?:\w+ ){0,3}?an(?:kam|gekommen)\b|"
    r"\bnever (?:arrived|came through)\b|\bn'est jamais (?:arrivée?|parvenue?)\b|\bnunca (?:llegó|chegou)\b",
    # an account locked, a view refused
    r"\b(?:konto|kundenkonto|zugang|account|compte|cuenta|conta) (?:\w+ ){0,3}?(?:gesperrt|locked|"
    r"bloqué|bloquée|bloqueada|bloqueado)\b|\b(?:kann|konnte|könnte) (?:ich )?(?:\w+ ){0,4}?nicht "
    r"(?:einsehen|abrufen|aufrufen)\b|\bkeinen zugriff\b",
    # a system that is down, in any language's sentence
    r"\b(?:\w*(?:system|server|portal|dienst|plattform|website|seite)\w*|app|api) [^.!?;:\n]{0,60}?"
    r"\bdown\b(?! (?:the|to|from|by|in|at)\b)",
    # "no invoice could be downloaded", "aucune facture n'a pu être téléchargée": the absence is
    # the subject of an inability to retrieve, so the whole is a failure (not "could be found")
    r"\b(?:no|ningun[oa]|ningún|aucune?|kein\w*|nenhum[a]?) (?:[\w'-]+ ){0,4}?(?:could|can|se pudo|se "
    r"puede|pudo|pudieron|n'a pu|n'ont pu|n'a pas pu|n'ont pas pu|konnte|konnten|kann|können|pôde|"
    r"puderam|pode) (?:be |être |ser )?(?:\w+ )?(?:retrieved|downloaded|loaded|fetched|shown|displayed|"
    r"read|opened|accessed|descargar|cargar|recuperar|mostrar|consultar|leer|abrir|téléchargée?s?|"
    r"chargée?s?|récupérée?s?|affichée?s?|consultée?s?|ouverte?s?|heruntergeladen|geladen|"
    r"abgerufen|angezeigt|geöffnet|baixad[oa]s?|carregad[oa]s?|recuperad[oa]s?|mostrad[oa]s?|"
    r"consultad[oa]s?|abert[oa]s?)\b",
    # Hindi and Hinglish: froze, hung, closed itself, the page would not open
    r"(?:पेज|पन्ना|ऐप|साइट|स्क्रीन) (?:\S+ ){0,3}?(?:जम|अटक|हैंग) (?:गया|गई|गयी)|"
    r"(?:ऐप|साइट) (?:\S+ ){0,8}?(?:ख़ुद को |खुद को )?बंद कर (?:लिया|दिया)|पन्ना (?:\S+ )?खुल (?:ही )?नहीं|"
    r"पुष्टि (?:\S+ )?(?:प्राप्त )?नहीं (?:हुआ|हुई|आई|आया|मिली|मिला)|कोई पुष्टि नहीं",
    r"\b(?:freeze|freez|hang|atak) (?:ho )?(?:gaya|gayi|gya|gyi|hua|hui)\b",
    # a result called worthless
    r"\b(?:ergebnis|resultat) ist (?:also |damit )?(?:wertlos|unbrauchbar)\b|\bresult is (?:useless|"
    r"worthless|meaningless)\b|\ble résultat ne vaut rien\b|\bel resultado no sirve\b",
]

EVERYDAY_STRONG = [
    # applications, registrations and admissions closed
    r"\b(?:applications?|registrations?|admissions?|enrol(?:l)?ments?|sign-?ups|entries|bookings) "
    r"(?:\w+ ){0,5}?(?:(?:are|is|have|has|got) (?:now |already |all )?(?:been )?closed|(?:band|close) "
    r"(?:ho )?(?:gaya|gayi|gaye|chuka|chuki|chuke|hai|hain|h))\b|"
    r"(?:आवेदन|पंजीकरण|रजिस्ट्रेशन|एडमिशन|दाखिला|दाख़िला|बुकिंग|काम) (?:\S+ ){0,6}?बंद हो (?:चुके|चुका|चुकी|गए|गया|गई)",
    r"\b(?:inscripciones|matrículas|postulaciones|reservas|inscriptions|candidatures|anmeldungen?|"
    r"bewerbungen|inscrições|candidaturas|matrículas) (?:\w+ ){0,6}?(?:ya |déjà |schon |já )?(?:están |"
    r"sont |sind |estão |se |foram )?(?:cerrad[oa]s|cerraron|closes|fermées|geschlossen|beendet|"
    r"encerrad[oa]s|encerraram)\b",
    # seats that filled, fully booked, no room, not in stock (Hindi, Hinglish)
    r"(?<!फॉर्म )(?<!फार्म )(?<!फ़ॉर्म )(?:भर (?:गई|गईं|गए|गया|चुकी|चुके)|पूरा भरा|पूरी भरी|(?:फुल|फ़ुल) (?:है|हैं|हो))",
    r"\b(?:jagah|seat|seats|room) (?:\w+ )?(?:nahi|nahin|nhi) (?:hai|hain|h|bachi|bacha)\b|"
    r"\bstock (?:me|mein|main) (?:nahi|nahin|nhi)\b|\b(?:allot|book|full) ho (?:chuki|chuke|chuka|gayi|gaye)\b",
    # a key given the value "not available" or "full"
    r"(?:^|\n)[^\n:]{2,40}: ?(?:not available(?: in [\w ]{1,30})?|full|उपलब्ध नहीं|नहीं है|भर गईं?|फुल)"
    r"[.!]?\s*(?=\n|$)",
    r"(?<!समय )(?<!सत्र )(?<!सेशन )(?<!टोकन )(?<!कोटा )(?<!डेटा )(?:खत्म|समाप्त) (?:हैं|है)",
    r"\b(?:branch|store|shop|library|pharmacy|office|clinic|location|outlet) (?:\w+ )?(?:does not|did not|"
    r"doesn't) (?:have|stock|carry) (?:a|an|any)\b",
    # a name that does not figure in a register; closed colloquial French; a stockout
    r"\bno (?:figura|figuran|aparece en el (?:censo|padrón|registro))\b|\bne figure (?:pas|plus)\b|"
    r"\b(?:ils|elles|on) (?:en )?(?:a|ont) plus (?:de |d'|aucun)|\brupture (?:totale|complète)\b",
    # German: the pronoun "keine" closes the sentence; "von keinem Anbieter"
    r"\b(?:gibt es|gibt's|vergibt|vergeben|bietet|bieten|führt|verkauft|hat|haben) (?:[\wäöüß-]+ ){1,8}?"
    r"(?:keine|keinen|keines)(?=\s*[.!]|$)|\b(?:von|bei|in|an) keinem (?:einzigen )?(?:anbieter|händler|"
    r"geschäft|laden|markt|standort)\b",
]

# what came back was an empty list: "khaali list aayi", "khaali page mila"
EVERYDAY_WEAK = [
    r"\bkh(?:aa|a)li (?:list|result|results|page) (?:aayi|aaya|aa|mili|mila|dikhi|dikha)\b",
]

# nouns for what a lookup returns: "no usable results", "kein echtes Ergebnis", "aucun résultat
# exploitable" report the lookup's output, like "no results", whatever adjective they take
RESULT_WORDS = (
    r"(?:no|zero|null|0|kein\w*|aucune?|ningun[oa]|ningún|nenhum[a]?) (?:[\w-]+ )?(?:results?|figures|"
    r"numbers|data|matches|hits|résultats?|données|chiffres|resultados?|datos|cifras|ergebnis(?:se)?|"
    r"treffer|daten|zahlen|dados|números)\b"
)

EVERYDAY_OTHER = [
    r"\b(?:aucune|nulle) (?:certitude|idée|visibilité)\b|\bkeinen (?:schimmer|überblick|plan)\b|"
    r"\b(?:ninguna|nenhuma) (?:certeza|idea|ideia)\b|\bno (?:certainty|clue)\b",
    r"\bkeine (?:kosten|verpflichtung)\b|\b(?:sans|aucun) engagement\b|\bsin compromiso\b|"
    r"\bsem compromisso\b|\bno (?:obligation|commitment)\b",
    r"\b(?:nothing|no hay nada|nada|rien de|nichts) (?:better|mejor|melhor|mieux|besseres)\b|"
    r"\b(?:better|behtar|accha|achha) (?:\w+ ){0,3}?koi (?:nahi|nahin|nhi)\b|बेहतर (?:\S+ )?(?:कोई|कुछ) नहीं",
]

EVERYDAY_NEGATED_SAY = [
    r"\b(?:rien|nada|nothing|nichts) (?:ne )?(?:dit|indique|prouve|indica|dice|diz|says|suggests|"
    r"shows|deutet darauf hin),? (?:que|qu'|dass|that)\b",
    r"\bnicht (?:davon|daher|deshalb),? dass\b|\bnot because there (?:are|is|were|was)\b|"
    r"\bpas parce qu'il n'y\b|\bno porque no (?:haya|hay)\b|\bnão porque não (?:haja|há)\b",
    r"\b(?:nicht|not|pas|no|não) (?:als|as|comme|como)\s*$",
]

EVERYDAY_RECOVERY = [
    r"\b(?:finished|completed) the search\b|\b(?:suche|abfrage) (?:\w+ )?zu ende (?:bringen|gebracht)\b|"
    r"\bbin (?:\w+ )?durch(?:gekommen)?\b|\bdas passt jetzt\b|\bj'ai (?:pu )?terminé la recherche\b|"
    r"\bterminé la búsqueda\b|\bterminei a (?:busca|pesquisa)\b",
    r"\b(?:outage|problem|issue|glitch|error|panne|störung|fallo|falha) (?:is|was|est|ist|está) (?:now |"
    r"maintenant |jetzt |ya |já )?(?:over|fixed|resolved|sorted|finie|réglée|behoben|vorbei|resuelto|"
    r"resolvido)\b",
    r"(?:दूसरी|तीसरी|चौथी) बार (?:में )?(?:खुली|खुला|खुल गई|खुल गया|चली|चला)|\b(?:fir|phir|then) "
    r"(?:\w+ )?(?:chal gaya|chal gya|chal gayi|loaded|worked)\b",
]
