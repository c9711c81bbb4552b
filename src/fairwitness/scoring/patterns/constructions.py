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
    r"complet[oa]|cheio|cheia|lotad[oa]|esgotad[oa]|claimed|allocated|allotted|snapped up)"
)
_HAVE = (
    r"(?:have|has|had|stock|stocks|carry|carries|offer|offers|sell|sells|tiene|tienen|ofrece|"
    r"ofrecen|vende|venden|dispone|disponen|hat|haben|führt|führen|bietet|bieten|verkauft|tem|têm|"
    r"oferece|oferecem|vende|vendem|dispõe|n'a|n'ont|ne (?:propose|proposent|vend|vendent))"
)
_BE = (
    r"is|are|was|were|have been|has been|had been|have|has|had|est|était|sont|étaient|ont été|semble|semblent|"
    r"está|están|estaba|estaban|han sido|fueron|ist|war|sind|waren|wurden|tá|ta|estão|foram"
)
_NOT = r"(?:not|never|nicht|nie|pas|no|não|nao|jamais|nunca)"
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
    r"(?:none of|not one of|ningun[oa] de|ningún de|keine[rs]? (?:der|von den|unserer|ihrer)|"
    r"nenhum(?:a)? d[oa]s|aucun(?:e)? (?:des|de nos|de vos|de ces))"
)
_OWNER = (
    r"(?:our|your|their|these|those|nuestr[oa]s|sus|vuestr[oa]s|nos|vos|nossos|nossas|seus|suas)"
)

CONSTRUCTIONS_STRONG = [
    rf"\b(?:everything|every \w+|all|tout|todo|alles|tudo|tous|toutes|tod[oa]s|alle|sämtliche)\b"
    rf"(?: {_NOT_A_CLAUSE}[\w'-]+){{0,8}}? (?:(?:{_BE})(?: (?!{_NOT}\b)[\w-]+){{0,2}}? )?(?:already |all |"
    rf"completely |fully |déjà |ya |schon |já |bereits |komplett |alle )?{_FULL}\b(?! of| de\b| d')",
    rf"\b(?:tout|alles|tudo) {_FULL}\b|\bc'est (?:tout )?(?:plein|complet)\b",
    rf"\b{_OF_THE} (?:the |l[oa]s |les |den |[oa]s |{_OWNER} )?(?:\d+ )?(?!{_SOURCES}\b)"
    rf"(?:[\w-]+ ){{0,8}}?(?:{_HAVE}|(?:are|is|were|was) (?:currently |still |now )?(?:open|available|"
    rf"free|accepting|taking|in stock|running|offering|left)|(?:[\w-]+ ){{0,3}}?(?:auf lager|"
    rf"vorrätig|im angebot|im sortiment|en stock|en existencia|em estoque|in stock))\b"
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

# What a shop or a day has run out of: "we are all out of", "ran out of", "nos quedamos sin",
# "se agotó todo", "acabou o estoque", "esgotaram", "on n'a plus de", not "out of time" (a failure)
# nor "acabou de chegar" (just arrived).
_NOT_STOCK = (
    r"(?:time|luck|ideas|retries|attempts|memory|quota|credits|tokens|options|patience|range|order|"
    r"date|sync|office|the office|town|service|bounds|tiempo|conexión|respuesta|acceso|servicio|"
    r"información|datos|noticias|informação|dados|notícias|"
    r"cobertura|intentos|memoria|cuota|créditos|tempo|prazo|cota|quota|limite|sessão|conexão|rede|sinal|"
    r"internet|energia|luz|acesso|net|"
    r"ligação|paciência|bateria|el tiempo|la cuota|el plazo|el límite|o tempo|a cota|o prazo|"
    r"a sessão|a conexão|a ligação)"
)
DEPLETED_STRONG = [
    rf"\b(?:(?:are|is|am) (?:all |completely |totally |fresh |clean |now )?out of|(?:ran|run|have run|"
    rf"has run) out of)\b(?! {_NOT_STOCK}\b)",
    rf"\b(?:nos|me|se) (?:hemos |he |ha |han )?qued(?:ado|amos|é|ó|aron) sin\b(?! {_NOT_STOCK}\b)|"
    rf"\bse (?:ha |han )?agot(?:ó|aron|ado)\b(?! {_NOT_STOCK}\b)",
    rf"\b(?:acab(?:ou|aram)|esgot(?:ou|aram)|fic(?:ámos|amos|ou|aram) sem|fiquei sem)\b"
    rf"(?! {_NOT_STOCK}\b)(?! de\b)(?! (?:o |a )?(?:tempo|prazo|cota|quota|limite)\b)",
    r"\bn'(?:a|ont|avons|ai) (?:plus|pas) (?:du tout |aucune? |guère )?(?:de |d')(?!(?:moyen|"
    r"réponse|accès|connexion|résultats?|nouvelles|données|info\w*)\b)|\bn'en (?:reste|a|avons) "
    r"(?:plus|aucun\w*)\b",
    r"\b(?:leer ?gekauft|restlos weg|alles weg)\b",
    # the verb alone, its subject before it: "tickets have run out", "se acabaron las entradas",
    # "टिकट खत्म हो गए", not a time, a session or a quota running out, nor "se acabó de cargar"
    # (it just finished loading)
    r"(?<!time )(?<!clock )(?<!patience )(?<!session )(?<!battery )(?<!quota )(?<!credits )"
    r"(?<!trial )(?<!data )(?<!luck )\b(?:(?:have|has|had) (?:all )?run out|(?:all )?ran out)\b(?! of)",
    rf"\bse (?:me |nos |les |le )?(?:ha |han )?(?:acab(?:ó|aron|ado)|termin(?:ó|aron|ado))\b"
    rf"(?! de\b)(?! (?:el |la |los |las )?{_NOT_STOCK}\b)(?! (?:la )?(?:sesión|espera|búsqueda|"
    r"consulta|carga|descarga|conexión)\b)",
    r"\b(?:tickets|seats|slots|appointments|rooms|places|spots|passes|tokens|coupons|vouchers|"
    r"copies|vacancies|openings|stocks?) (?:are |have |got |has |is )(?:all |already )?"
    r"(?:over|finished|exhausted)\b",
    r"(?<!समय )(?<!सत्र )(?<!सेशन )(?<!session )(?<!time )(?<!टोकन )(?<!token )(?<!कोटा )(?<!quota )"
    r"(?<!लिमिट )(?<!limit )(?<!सीमा )(?<!बैटरी )(?<!डेटा )(?<!डाटा )(?<!data )(?<!इंतजार )"
    r"(?<!प्रतीक्षा )(?:खत्म|समाप्त) हो (?:गए|गये|गई|गयी|गया|चुके|चुकी|चुका)",
]

# A shelf, a list or a diary that became empty: "the shelf's empty", "quedó vacía", "ficou vazia",
# "ist leer geworden", "est resté vide".
EMPTIED_STRONG = [
    r"\b(?!(?:list|lists|result|results|response|search|output|liste|lista|resultados|résultats|"
    r"réponse|respuesta|resposta|cache|queue|log|logs|file|archivo|fichier|datei|arquivo)\b)"
    r"[\wäöüßàâçéèêëîïôûùáíóúñãõ-]+(?:'s| (?:quedó|quedaron|se quedó|ha quedado|ficou|ficaram|"
    r"went|has gone|became|is now|est resté|est restée|reste|bleibt|blieb|wurde|ist jetzt)) "
    r"(?:completely |totally |totalmente |completamente |ganz |komplett )?(?:empty|bare|vide|vides|"
    r"leer|vac[ií][oa]s?|vazi[oa]s?)\b",
]

# What a search did not find anywhere, or not once: "defined nowhere", "não aparece nem uma vez".
NOWHERE_WEAK = [
    r"\b(?:nowhere|nulle part|nirgend(?:s|wo)|en ning[uú]n (?:lado|sitio|lugar)|en ninguna parte|"
    r"em (?:lugar|parte) nenhum|em nenhum (?:lugar|sítio|sitio))\b(?! (?:near|close)\b)",
    r"\b(?:not (?:even )?once|nem (?:sequer )?(?:uma|um) (?:única |só )?vez|nenhuma vez|"
    r"ni una (?:sola )?vez|ninguna vez|pas une (?:seule )?fois|aucune fois|kein einziges mal|"
    r"nicht ein einziges mal)\b",
]

# A tool that hung rather than answered: "got stuck", "se quedó colgado", "a bloqué", "hängt",
# "travou", "atak gaya"; a reply that never came, in any covered language.
STUCK_FAILURE = [
    r"\b(?:got stuck|is stuck|was stuck|hung|froze|frozen|is hanging|colgad[oa]|se colgó|se trabó|"
    r"trabad[oa]|a bloqué|a planté|a coincé|coincé|s'est bloquée?|est bloquée?|figée?|"
    r"hängen geblieben|hing|eingefroren|travou|travad[oa]|congelou|empacou|deu pau|"
    r"atak (?:gaya|gayi|gaye|gya)|atka|atki|hang (?:ho )?(?:gaya|gayi|gya))\b|"
    r"\bhängt\b(?! (?:\w+ ){0,5}?ab\b)|अटक (?:गया|गई|गए)|हैंग हो",
    r"\b(?:ninguna|nenhuma|aucune|keine|keinerlei) (?:\w+ )?(?:respuesta|resposta|réponse|antwort|"
    r"rückmeldung)\b",
]

# Absence as a manner, not of the data: "in no way affected", "en aucun cas", "auf keinen Fall".
MANNER_OTHER = [
    r"\b(?:in no way|by no means|no matter|de ninguna (?:manera|forma)|de ningún modo|en ningún caso|"
    r"en aucun cas|aucunement|d'aucune (?:façon|manière)|en aucune (?:façon|manière)|"
    r"in keiner (?:weise|form|art)|auf keinen fall|keinesfalls|keineswegs|in keinem fall|"
    r"de (?:modo|forma|maneira) (?:alguma?|nenhuma?)|de jeito nenhum|em caso algum|"
    r"kisi bhi (?:tarah|haal))\b|किसी भी (?:तरह|प्रकार|हाल)",
    # a trial, a plan or a time that ran out, however far its noun is from the verb: "the free
    # trial of the search tool has run out"
    r"\b(?:trial|subscription|free plan|credits?|quota|session|time|allowance)\b(?: [\w-]+){0,5}? "
    r"(?:has|have|had) (?:all )?run out\b",
]
