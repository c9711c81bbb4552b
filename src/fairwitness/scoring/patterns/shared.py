"""Nouns and verbs the per-language lists share, and the patterns that span languages."""

from __future__ import annotations

# Nouns that describe the lookup's output rather than things in the world.
RESULT_NOUNS = (
    r"(?:results?|matches|match|hits?|data|information|info|records?|entries|output|response|"
    r"numbers|figures)"
)
# Nouns that, after a negation, describe a failure or a state of knowledge, not an absence.
FAILURE_NOUNS = (
    r"(?:way|ways|response|responses|reply|replies|answer|answers|connection|access|luck|problem|"
    r"problems|worries|idea|signal|contact|feedback|errors?|issues?|choice|guarantee|certainty|"
    r"information|info|data|details|means|ability|sign|evidence|proof|telling|update|news|"
    r"confirmation|visibility)"
)
PRESENCE_WORDS = (
    r"(?:available|open|listed|on offer|posted|advertised|exist|hiring|scheduled|in stock|left|"
    r"on duty|on shift|on call|in attendance|working|"
    r"remaining|nearby|near you|in effect|issued|planned|on sale|free|vacant|currently|found|raised|"
    r"filed|lodged|logged|recorded|submitted|handed in|registered|outstanding|are there|is there)"
)


# What a lookup does rather than what the world holds: "retried 0 times", "0 bytes received",
# "0 Versuche", "fiz 0 tentativas", "0 रिकॉर्ड sync हुए" count the attempt, not the items.
PROCESS_NOUNS = (
    r"(?:times?|tries|attempts?|retries|retry|bytes?|kb|mb|requests?|calls?|pages?|rows? (?:read|"
    r"loaded|synced)|records? (?:synced|loaded|read)|responses?|replies|seconds?|ms|"
    r"intentos?|reintentos?|veces|peticiones|solicitudes|llamadas|tentatives?|essais?|fois|requêtes|"
    r"appels|octets|versuche[n]?|versuchen|wiederholungen|anfragen|aufrufe|mal|tentativas?|vezes|"
    r"requisições|chamadas|baar|bar|koshish|attempt|रिकॉर्ड|बार|कोशिश|प्रयास)"
)

# "zero open positions", "cero puestos", "null offene Stellen", "0 vols" in any covered language;
# not "0 of 0 loaded", not "zero results" (weak), not "zero errors".
ZERO_STRONG = [
    r"(?<!\d[.,])(?<!of )(?<!de )(?<!sur )(?<!von )(?<!/)(?<!the )(?<!that )(?<!this )(?<!ce )(?<!le )"
    r"(?<!ese )(?<!esse )(?<!die )(?<!el )(?<!o )(?<!status )(?<!code )(?<!http )(?<!exit )"
    r"\b(?:zero|zéro|cero|null|0) (?!(?:of|de|sur|von|is|for|from|in|on|at|to|when|because|as|and|"
    r"or|instead|values?|"
    r"es|est|ist|é|hai|hain|h|percent|por|pour|%|results?|resultados?|résultats?|ergebnisse|treffer|"
    r"matches|hits|errors?|erros?|errores|erreurs?|fehler|problems?|issues?|worries)\b)"
    rf"(?!{PROCESS_NOUNS}\b)(?![\w-]+ (?:of|out of|de|sur|von|em|di) (?:\d|the|los|las|les|den|os|as)\b)"
    r"(?:open |available |offene |freie |new )?(?=[\w-]*[a-zà-ɏ])[\w-]{3,}\b(?! (?:loaded|load|cargad\w*|"
    r"chargée?s?|geladen|carregad\w*))",
]

# "Your order history is empty" in the Latin-script languages (a results list that is empty is weak).
EMPTY_STRONG = [
    r"\b(?!(?:list|lists|result|results|response|search|output|liste|lista|ergebnisliste|"
    r"resultados|résultats|réponse|respuesta|resposta)\b)[\wäöüßàâçéèêëîïôûùáíóúñãõ-]+ (?:is|ist|est|"
    r"está|es|sind|sont|están|estão) (?:[\wäöüßàâçéèêëîïôûùáíóúñãõ-]+ )?(?:empty|vide|vides|leer|"
    r"vac[ií][oa]s?|vazi[oa]s?)\b",
]

# "Nothing for 'hiking boots size 46'": a lookup that came back empty, in any covered language
# (quoted phrases are replaced by «q» before matching).
QUOTED_WEAK = [r"\b(?:nothing|nada|rien|nichts|kuch nahi) (?:for|para|pour|zu|für|ke liye) «q»"]


# Failure words every covered language borrows.
SHARED_FAILURE = [
    r"\b(?:quota|cuota|cota|\w*kontingent|limite|limit|credits?|créditos?|crédits?)\b"
    r"(?: [\w'.-]+){0,5}? (?:(?:is|was|est|está|estaba|esta|ist|war|é|foi|hai|tha|ho) )?(?:already |ya |"
    r"déjà |schon |bereits |já )?(?:exhausted|used up|reached|agotad[oa]|superad[oa]|excedid[oa]|"
    r"épuisée?|atteinte?|dépassée?|aufgebraucht|erschöpft|erreicht|esgotad[oa]|esgotou|excedid[oa]|"
    r"atingid[oa]|khatam|khatm|ख़त्म|खत्म|समाप्त)\b|"
    r"\((?:5\d\d|429|401|403|408)\)|\b(?:econnrefused|econnreset|etimedout|enotfound|ssl error|"
    r"connection (?:was |got |has been )?(?:reset|refused|dropped)|invalid token|token (?:invalid|"
    r"inv[aá]lido|invalide|ungültig|अमान्य))\b|"
    r"\bdns\b|\b(?:429|503|502|504) (?:too many requests|service unavailable|bad gateway|gateway timeout)\b"
]

CAUSE = (
    r"\b(?:because|since|as|due to|given that|porque|ya que|pues|debido a|parce que|car|puisque|"
    r"à cause|weil|da|denn|aufgrund|wegen|pois|já que|por causa|kyunki|kyonki|kyuki|chunki|"
    r"solange|tant que|as long as|mientras|enquanto)\b|"
    r"क्योंकि|चूंकि"
)
"""A connector after an absence phrase that explains it by what follows."""

CLAUSE_BREAK = (
    r"[;:—\u2013•|\n]|\s-\s|\b(?:but|however|though|although|yet|aber|jedoch|doch|mais|cependant|pero|"
    r"sin embargo|mas|porém|lekin|par|magar|aunque|although|quoique|bien que|obwohl|embora)\b|"
    r"लेकिन|मगर|[,।]\s?पर\s|"
    r"\s(?:था|थी|थे|है|हैं|गया|गई|गए|रहा|रही|रहे|सका|सकी|पाया|पाई)\sपर\s"
)
"""Where a negating frame stops reaching: "I can't be sure, but there are no jobs" claims absence."""

ADVERSATIVE = (
    r"\b(?:but|however|though|although|still|anyway|even so|that said|pero|sin embargo|aun así|"
    r"igualmente|mais|cependant|pourtant|quand même|toutefois|aber|jedoch|trotzdem|dennoch|"
    r"allerdings|mas|porém|contudo|mesmo assim|todavia|lekin|magar|phir bhi|par)\b|लेकिन|मगर|"
    r"फिर भी|\sपर\s"
)
"""A connector that sets what follows against what came before: "the lookup was slow, but there
are no results" reports the absence despite the failure, not because of it."""

# Where the things a user asked for are kept: "nothing on your calendar", "rien dans votre
# agenda", "कैलेंडर में कुछ भी नहीं" say the container is empty.
CONTAINERS = (
    r"(?:calendar|calendars|schedule|diary|agenda|planner|inbox|mailbox|cart|basket|account|queue|"
    r"calendario|bandeja(?: de entrada)?|carrito|cuenta|calendrier|planning|boîte de réception|"
    r"boîte mail|panier|compte|kalender|terminkalender|posteingang|postfach|warenkorb|konto|"
    r"calendário|caixa de entrada|carrinho|conta)"
)
_POSSESSIVE = (
    r"(?:your|the|my|our|this|tu|su|el|la|mi|votre|ton|ta|le|mon|ihrem|ihrer|deinem|deiner|dem|"
    r"der|im|seu|sua|o|a|teu|tua)"
)
NOTHING_IN_CONTAINER = [
    rf"\b(?:nothing|nada|rien|nichts|nix)(?: (?:at all|de nada|du tout|mehr|ainda|aún|todavía))? "
    rf"(?:is |est |está |ist )?(?:on|in|en|dans|sur|no|na|em|im|am) (?:{_POSSESSIVE} )?"
    rf"(?:[\wäöüéèàíóúâêôãõç-]+ )?{CONTAINERS}\b",
    r"\b(?:no|nothing|nada|rien|nichts) (?:de |d')?(?:scheduled|planned|booked|due|pending|coming up|"
    r"programad[oa]s?|previsto|prévu|agendad[oa]|geplant|vorgemerkt|eingetragen)\b",
]

SPELLING = [
    # Spanish and Portuguese superlatives read as their base: "esgotadíssimos", "agotadísima"
    (r"\b(\w{3,}?)[ií]ss?im(os|as|o|a)\b", r"\1\2"),
    (r"\b(are|is|does|do|did|was|were|could|would|should|has|have|had)nt\b", r"\1 not"),
    (r"\b(can|won)t\b", r"\1 not"),
    (r"\bthere r\b", "there are"),
    (r"\bno ay\b", "no hay"),
    (r"\bnao\b", "não"),
    (
        r"\b(nothing|everything|nobody|no one|something|someone|everyone|here|what|who|where)'s\b",
        r"\1 is",
    ),
    (r"\bn ?y a\b", "n'y a"),
    (r"(?<!il )(?<!')\b(?:y'a|ya|y a) (pas|plus|rien|aucun\w*|personne|pu)\b", r"il n'y a \1"),
    (r"\bil y a (pas|rien|aucun\w*|personne)\b", r"il n'y a \1"),
    (r"\bn'y a pu\b", "n'y a plus"),
    (r"\bnix\b", "nichts"),
    (r"\bgibt'?s\b", "gibt es"),
    # "im 3. OG", "am 5. Mai": a German ordinal's full stop ends no sentence
    (r"\b(am|im|zum|vom|bis|ab|den|dem|seit|zur|ins) (\d{1,2})\.(?= )", r"\1 \2"),
    # Hindi typed without the nasal mark or with i for ī; Hinglish written without vowels
    (r"(?<![\u0900-\u097f])नही(?![\u0900-\u097f])", "नहीं"),
    (r"(?<![\u0900-\u097f])कोइ(?![\u0900-\u097f])", "कोई"),
    (r"\bsk(ta|ti|te)\b", r"sak\1"),
    (r"\br(ha|hi|he)\b", r"ra\1"),
    (r"\b(?:kch|kuchh|kuchch)\b", "kuch"),
    (r"\bghalat\b", "galat"),
    (r"\bpda\b", "pada"),
]
"""Spellings of the covered languages that the patterns read in their standard form: English
contractions without an apostrophe or after a pronoun ("nothing's"), "no ay", Portuguese "nao",
French "y'a pas", "il y a rien", "n y a", Quebec "y'a pu", German "nix", Hindi "नही" and "कोइ",
Hinglish "skta", "rhi", "kch", "ghalat" (accents are folded separately, see ``fold``)."""
