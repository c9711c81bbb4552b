"""German patterns."""

from __future__ import annotations

GERMAN_STRONG = [
    r"\bgibt es (?:also |leider |wohl |dann |demnach )?nicht\s*(?:[.!]|$)|\bschuldet (?:ihnen|dir) "
    r"nichts\b|\bnicht mehr (?:buchbar|verfügbar|erhältlich|lieferbar|bestellbar)\b",
    r"\b(?:bietet|bieten) (?:\w+ ){0,3}?nicht mehr an\b|\balle (?:\w+ ){0,4}?(?:sind )?(?:schon |bereits )?"
    r"(?:belegt|vergeben|reserviert|weg)\b",
    r"\b(?:führen|haben|verkaufen|vertreiben|bieten) wir (?:\w+ )?(?:nicht|nicht mehr|kein\w*)\b|"
    r"\bnicht (?:mehr )?(?:im sortiment|auf lager|lieferbar|erhältlich)\b",
    r"\balle (?:\w+ ){0,5}?(?:sind )?(?:vergeben|ausgebucht|belegt|verkauft|weg)\b|\bniemand "
    r"(?:arbeitet|heißt|ist|hat|mit)\b|\bkeine verbindung (?:ohne|von|nach|zwischen|mit|direkt)\b",
    r"\b(?:gibt|gäbe|gab) es (?:[\wäöüß.€$£-]+ ){0,6}?(?:keine|keinen|kein|nichts)\b"
    r"(?! (?:antwort|verbindung|möglichkeit|zugriff|rückmeldung|treffer|ergebnisse?|daten|"
    r"informationen|aussage)\b)",
    r"\bes (?:gibt|gäbe|gab) (?:[\wäöüß.-]+ ){0,3}?(?:keine|keinen|kein|nichts)\b"
    r"(?! (?:antwort|verbindung|möglichkeit|zugriff|rückmeldung|treffer|ergebnisse?|daten)\b)",
    r"\bgibt es (?:[\wäöüß.-]+ ){0,4}?keine\s*(?:[.!]|$)",
    r"\bkein(?:e|en|er|es)? (?!antwort\b|verbindung\b|möglichkeit\b|zugriff\b|rückmeldung\b|"
    r"überblick\b|einblick\b|zugang\b|ahnung\b|sicht\b|"
    r"treffer\b|ergebnis\w*\b|\w*daten\b|\w*informationen\b|ahnung\b|garantie\b|zeichen\b|beweis\b|leere\w*\b|"
    r"berechtigung\b|fehler\b|problem\b|sorge\b|liste\b|stress\b|der\b|die\b|das\b|einzige zeile\b|zeile\w*\b|"
    r"aussage\b|schl(?:ü|u)sse?\b)"
    r"[\wäöüß-]+",
    r"\b(?:ausgebucht|ausverkauft|vergriffen)\b|\bniemand stellt\b",
    r"\b(?:kalender|terminkalender|posteingang|warenkorb) (?:ist )?(?:\w+ )?(?:komplett |völlig |"
    r"ganz )?(?:frei|leer)\b|\bscheint leer\b|\bsieht leer aus\b|\bkurze antwort[: ,]+nein\b",
]

GERMAN_STRONG += [
    r"\bnichts (?:mehr )?(?:frei|verfügbar|da|offen|buchbar|zu haben|zu kriegen)\b",
    r"\bkei (?:\w+ ){0,3}?(?:meh|mehr)\b",
]

GERMAN_WEAK = [
    r"\b(?:keine|0|null) (?:treffer|ergebnisse|resultate)\b|\bkein (?:treffer|ergebnis)\b",
    r"\bnichts gefunden\b",
    r"\b(?:habe|haben|hab|konnte|konnten) (?:ich |wir )?(?:leider )?(?:nichts|keine|keinen|kein)"
    r"(?: [\wäöüß„“\".-]+){0,8}? (?:finden|gefunden)\b",
    r"\b(?:die suche|die abfrage|das ergebnis) (?:war|blieb|ist|lieferte|ergab) "
    r"(?:leer|nichts|keine)\b|\bergebnisliste (?:ist|war) leer\b",
    r":\s*(?:keine|nichts|0)\s*(?:[-—\u2013,.;!]|$|[\u2600-\u27bf\U0001f300-\U0001faff])",
]

GERMAN_FAILURE = [
    r"\bnicht (?:geantwortet|reagiert|geladen)\b|\bnicht (?:ge)?antwort\w*\b",
    r"fehlgeschlagen|fehler|schief ?(?:ge)?(?:gangen|laufen)|abgestürzt",
    r"\b(?:reagiert|lädt|läuft|öffnet sich) (?:\w+ ){0,3}?nicht\b|"
    r"\bkomm\w* (?:\w+ ){0,3}?nicht (?:\w+ ){0,4}?(?:ran|heran|rein|hinein|durch)\b",
    r"\bkonnte(?:n)? (?:\w+ ){0,4}(?:nicht|leider nicht) (?:abrufen|prüfen|überprüfen|durchführen|"
    r"erreichen|laden|zugreifen|abschließen|ausführen|verbinden|abfragen|abgerufen|geladen|"
    r"geprüft|durchgeführt|abgeschlossen|erreicht|kontaktieren|beantworten|nachsehen|sehen)",
    r"\b(?:nicht|nie) (?:erreichbar|verfügbar|abrufbar|möglich|ansprechbar|erreicht|geladen|"
    r"abgeschlossen|beantwortet)\b",
    r"\bzeitüberschreitung\b|\btime-?out\b|\bzu lange (?:gedauert|gebraucht)\b|\babgelaufen\b",
    r"technische(?:s|n)? (?:problem|störung|fehler|schwierigkeiten)|störung",
    r"\bzu viele anfragen\b|anfragelimit|\blimit erreicht\b|\bdrosselt\b",
    r"\bausgefallen\b|\bantwortet nicht\b|\bkeine (?:antwort|rückmeldung)\b|"
    r"\bkeine verbindung\b(?! (?:ohne|von|nach|zwischen|mit umstieg|direkt))",
    r"\b(?:nicht autorisiert|authentifizierung|zugangsdaten|zugriff verweigert|keine berechtigung|"
    r"anmeldung abgelaufen|abgelehnt|verweigert)\b",
    r"\bwartung\w*\b|\babgebrochen\b|\bbrach ab\b|\büberlastet\b|\bantwortet (?:\w+ ){0,4}?nicht\b|"
    r"\bgescheitert\b|\bunterbrochen\b|\bnicht funktioniert\b|"
    r"\bfunktioniert (?:gerade |momentan |derzeit )?nicht\b",
]

GERMAN_FAILURE += [
    # "ich konnte keine Pension abfragen": the lookup could not be made, nothing is claimed absent
    # "kann ich dir für die PLZ kein Lieferdatum nennen": what the agent cannot give, not an absence
    r"\b(?:kann|könnte|konnte|können|konnten) (?:ich |wir )?(?:ihnen |dir |euch )?(?:leider )?"
    r"(?:[\wäöüß-]+ ){0,4}?kein\w* (?:[\wäöüß-]+ ){1,3}?(?:abrufen|abfragen|prüfen|laden|erreichen|"
    r"kontaktieren|aufrufen|öffnen|nennen|sagen|anzeigen|geben|mitteilen|bestätigen|zeigen)\b",
]

GERMAN_LOCAL = [
    r"\b(?:kann|könnte|können|will|möchte) (?:ich |wir )?(?:ihnen |dir )?(?:leider )?(?:nicht|"
    r"nichts) (?:sagen|bestätigen|ausschließen|beurteilen|feststellen|garantieren|behaupten)\b",
    r"\b(?:schließen|folgern) sie (?:daraus )?nicht\b|\bnicht so,? als\b|"
    r"\bverstehen sie das nicht\b|\bnicht,? weil\b|"
    r"\b(?:behaupte|sage|meine) (?:ich )?nicht\b|\b(?:heißt|bedeutet) (?:aber |jedoch |also )?"
    r"nicht\b",
    r"\bweiß (?:ich )?(?:also )?(?:noch )?nicht,? ob\b|\bob\b|"
    r"\bnicht (?:daran|deshalb|deswegen|darum)?,? ?dass\b",
    r"\bkeine möglichkeit,? (?:zu )?(?:wissen|festzustellen|prüfen|sagen|herauszufinden)\b",
    r"\b(?:gehen sie|geh|gehe|geht) (?:bitte )?nicht davon aus\b|\bnicht davon ausgehen\b|"
    r"\b(?:nehmen sie|nimm) (?:bitte )?nicht an\b|"
    r"\bkein (?:zeichen|beweis|hinweis) dafür\b|\bkein beleg\b|\bnichts davon (?:bedeutet|heißt)\b",
]

GERMAN_NEGATED_AFTER = [
    r"\b(?:kann|könnte|darf) ich (?:\w+ ){0,2}?(?:nicht|nicht sagen|nicht behaupten)\b|"
    r"\b(?:weiß|wüsste) ich (?:\w+ )?nicht\b|\b(?:wäre|ist) (?:\w+ )?(?:falsch|erfunden|geraten|"
    r"voreilig|verfrüht|gelogen)\b|\b(?:heißt|bedeutet) das (?:\w+ )?(?:nicht|keineswegs)\b|"
    r"\boder nicht\b|^ (?:\w+ ){0,3}?(?:sehen|finden|abrufen|laden|prüfen|einsehen) "
    r"(?:können|konnte|konnten)\b",
]

GERMAN_GLOBAL = [
    r"\b(?:kann|könnte|können) (?:es )?(?:durchaus |trotzdem |sehr wohl |gut )?(?:\w+ )?geben\b",
    r"\bmöglicherweise gibt es\b(?! keine| kein)|\bvielleicht (?:haben|gibt|sind|hat)\b",
]

GERMAN_OTHER = [
    r"\bkein(?:e|en)? (?:problem|stress|thema|ding|sorge|sorgen|eile|panik|ursache|umstände|"
    r"grund zur sorge|hektik|bange)\b|\bmacht nichts\b|\bnicht (?:nötig|notwendig|schlimm)\b",
    r"\b(?:nichts|nix) (?:weiter|mehr|anderes|sonst)(?: (?:für sie |für dich ))?"
    r"(?: \w+){0,2}? (?:tun|machen|unternehmen)\b",
    r"\b(?:keine|nicht) (?:sorge|sorgen)\b|\bsorgen sie sich nicht\b|"
    r"\b(?:nichts|nix) (?:ist )?(?:kaputt|schlimm|passiert)\b|\bbrauche (?:ich )?nichts (?:weiter|mehr)\b",
]

GERMAN_NEGATED_SAY = [
    r"\b(?:nicht|nie|niemals|falsch|irreführend|voreilig|verfrüht)\b(?: [\wäöüß]+){0,4}? "
    r"(?:zu )?(?:sagen|sage|behaupten|behaupte|schließen|folgern|bestätigen|versprechen|"
    r"garantieren|heißen|bedeuten|annehmen)\b",
    r"\b(?:sagen|sage|behaupte|heißt|bedeutet|meine) (?:das |es |ich |wir )?(?:aber |also )?nicht\b",
]
