"""Constructions that say nothing exists without a plain "no": the same few shapes in every
covered Latin-script language (Hindi and Hinglish forms are in hindi.py).

- everything is taken: a universal subject with a word for full, booked or gone ("everything near
  the harbour is booked out", "tout est pris", "alles belegt", "está tudo cheio");
- none of the N have it: a partitive "none of" with a verb of having or offering ("none of the 12
  branches has", "ninguna de las 15 sucursales tiene", "keine der 14 Filialen hat");
- not a single one, hardly any, nobody has one;
- nothing new arrived ("no te ha llegado nada nuevo", "nichts Neues");
- a container at zero ("inbox zero", "a caixa de entrada está a zeros").

Failures the lookup itself reports are listed with them, in the same shapes: a file or page that
came back cut off ("llegó incompleto", "arrivé tronqué", "abgeschnitten", "chegou cortado"), a
status code given as what an attempt ended in ("todos terminaron en 503", "jedes Mal 502"), and
"0 of 4 attempts succeeded".
"""

from __future__ import annotations

from fairwitness.scoring.patterns.shared import CONTAINERS, FAILURE_NOUNS, RESULT_NOUNS

_FULL = (
    r"(?:taken|booked(?: out| up)?|full|gone|sold(?: out)?|reserved|pris|prises|plein|pleine|complet|"
    r"complète|réservée?s?|occupée?s?|vendue?s?|parti|belegt|ausgebucht|voll|weg|vergeben|reserviert|"
    r"ausverkauft|verkauft|lleno|llena|ocupad[oa]s?|reservad[oa]s?|agotad[oa]s?|vendid[oa]s?|"
    r"complet[oa]|cheio|cheia|lotad[oa]|esgotad[oa])"
)
_HAVE = (
    r"(?:have|has|had|stock|stocks|carry|carries|offer|offers|sell|sells|tiene|tienen|ofrece|"
    r"ofrecen|vende|venden|dispone|disponen|hat|haben|führt|führen|bietet|bieten|verkauft|tem|têm|"
    r"oferece|oferecem|vende|vendem|dispõe|n'a|n'ont|ne (?:propose|proposent|vend|vendent))"
)
_NOT_A_CLAUSE = r"(?!(?:and|but|then|so|et|y|und|e|mais|pero|aber|mas|ou|or|oder|o)\b)"
_TRIES = (
    r"(?:attempts?|tries|requests?|calls?|retries|intentos?|peticiones|tentatives?|essais?|versuche\w*|"
    r"anfragen|tentativas?|requisições)"
)
_NONE = r"(?:0|zero|cero|zéro|null|none|ningun[oa]|aucune?|keine[rs]?|nenhum[a]?)"
# where the data comes from: "none of the sources answered" is a failure, not an absence
_SOURCES = (
    r"(?:sources?|quellen|fuentes|fontes|servers?|servidores|serveurs|services?|servicios|serviços|"
    r"dienste|providers?|anbieter|proveedores|fournisseurs|sites?|apis?|systems?|systeme|sistemas|"
    r"systèmes|endpoints?)"
)
_OF_THE = (
    r"(?:none of|not one of|ningun[oa] de|ningún de|keine[rs]? (?:der|von den)|nenhum(?:a)? d[oa]s|"
    r"aucun(?:e)? (?:des|de nos|de vos|de ces))"
)

CONSTRUCTIONS_STRONG = [
    rf"\b(?:everything|every \w+|all|tout|todo|alles|tudo)\b(?: {_NOT_A_CLAUSE}[\w'-]+){{0,5}}? "
    rf"(?:is|are|was|were|est|était|semble|está|estaba|ist|war|sind|tá|ta)? ?(?:already |all |"
    rf"completely |fully |déjà |ya |schon |já )?{_FULL}\b(?! of| de\b| d')",
    rf"\b(?:tout|alles|tudo) {_FULL}\b|\bc'est (?:tout )?(?:plein|complet)\b",
    rf"\b{_OF_THE} (?:the |l[oa]s |les |den |[oa]s )?(?:\d+ )?(?!{_SOURCES}\b)(?:[\w-]+ ){{0,2}}?{_HAVE}\b"
    r"(?! (?:\w+ ){0,2}?(?:ge\w+(?:t|en)|responded|answered|replied|loaded|worked|respondido|"
    r"contestado|funcionado|répondu|fonctionné|respondeu|funcionou)\b)",
    rf"\b(?:not a single|not one single|pas un seul|pas une seule|ni un solo|ni una sola|"
    rf"kein einziger|keine einzige|kein einziges|nem um único|nem uma única|nem um só|nem uma só) "
    rf"(?!{FAILURE_NOUNS}\b|{RESULT_NOUNS}\b|réponse|résultat|respuesta|resultado|antwort|"
    r"ergebnis|treffer|resposta|zeile|line|row|ligne|fila|linha|byte|octet|dato|daten|donnée|dado)"
    r"[\w-]+",
    r"\b(?:hardly|barely|scarcely) (?:any|anything)\b|\b(?:quasiment|presque) (?:aucun|rien)\b|"
    r"\bquase (?:nenhum|nada)\b|\bkaum (?:noch )?(?:\w+ )?(?:frei|verfügbar|da)\b",
    r"\b(?:nobody|no one|nadie|ninguém|niemand) (?:\w+ )?(?:has|have|offers|tiene|ofrece|tem|oferece|"
    r"hat|bietet)\b|\bil n'y a personne\b|\bpersonne n'a\b",
    r"\b(?:nothing new|nada nuevo|nada novo|rien de (?:nouveau|neuf)|nichts neues)\b",
    r"\b(?:rupture de stock|sin existencias|nicht (?:mehr )?vorrätig|sem stock|sem estoque)\b",
    rf"\b{CONTAINERS} (?:is |ist |est |está |esta )?(?:at |a |à |en |auf )?(?:zero|zeros|cero|zéro|"
    r"null)\b",
]

CONSTRUCTIONS_FAILURE = [
    r"\b(?:arrived|came back|came in|was|is|llegó|vino|está|arrivée?|est|kam|ist|chegou|veio|está)"
    r"(?: \w+){0,2}? (?:truncated|incomplete|cut off|corrupt(?:ed)?|incomplet[oa]|cortad[oa]|"
    r"truncad[oa]|corrupt[oa]|dañad[oa]|tronquée?|incomplète|corrompue?|abgeschnitten|unvollständig|"
    r"beschädigt|corrompid[oa])\b|\babgeschnittene\b|\bunvollständige antwort\b|\bhalbe antwort\b",
    r"\b(?:will not|does not|would not|can not|could not) open\b|\bno se (?:puede|pudo) (?:abrir|leer)\b|"
    r"\bne s'ouvre pas\b|\blässt sich nicht (?:öffnen|lesen|laden)\b|\bnão (?:abre|abriu)\b",
    r"\b(?:ended|failed|came back|terminaron|terminó|acabaron|toutes|tous|jedes mal|each time|"
    r"every time|cada vez|chaque fois|todas|todos|sempre) (?:in |with |en |con |avec |mit |em |com )?"
    r"(?:an? |un |une |um |uma |einem )?(?:error )?(?:5\d\d|429)(?:er)?\b",
    rf"\b{_NONE} (?:{_TRIES} (?:of|out of|de|sur|von|em) \d+|(?:of|out of|de|sur|von|em) \d+ {_TRIES})\b",
]
