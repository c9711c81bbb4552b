"""Failures the assistant got past or waved aside, breakage told in everyday words, and absence
told by who sells and what is left, in every covered language:

- a failure followed by its recovery ("the second go worked", "once it came back", "consegui
  aceder", "quand il est revenu", "beim zweiten Versuch", "दूसरी बार में", "dusri baar mein") no
  longer explains an absence phrase that comes after the recovery: the lookup ran, so "0 matches"
  is what it found;
- a failure waved aside ("rien de grave", "egal", "fwiw", "no big deal") or told as having
  happened once on the way ("timed out on the first request", "a planté une fois") explains
  nothing either;
- breakage in the words people use for it: "en rade", "kaputt", "das System spinnt", "charge à
  l'infini", "fora do ar", "die Schnittstelle ist offline", "the search never even started", a
  reply given as none ("Serverantwort: keine"), a page that stayed blank ("पेज ख़ाली आया");
- a change that did not happen and a fee not charged ("aucun changement", "no tiene coste",
  "कोई शुल्क नहीं"): a status, not the items;
- absence told by who sells or offers ("personne ne vend", "niemand bietet … an", "ninguém
  vende", "nobody sells"), by what is left ("il en reste aucun", "aucun de libre"), by a stock at
  zero ("está en cero", "estoque zerado"), by a register that lists nothing ("não constam
  quaisquer dívidas", "no consta ningún"), by a status ("has no active warranty"), and by each
  language's words for none left ("plus une place", "néant", "ni sus luces", "completo").
"""

from __future__ import annotations

from fairwitness.scoring.patterns.shared import FAILURE_NOUNS, RESULT_NOUNS

# After a failure, the lookup ran after all. Negated forms ("never worked", "não funcionou",
# "hat nicht geklappt") are excluded by the look-behinds.
RECOVERY = [
    # English
    r"(?<!not )(?<!never )(?<!nothing )(?<!that )\b(?:worked|went through|got through|succeeded)\b|"
    r"\b(?:it|site|service|system|server|portal|page|app|api|feed|database|search) (?:\w+ )?"
    r"(?:came|is|was|got) back(?: up| online)?\b|\b(?:finally|eventually) (?:loaded|worked|went "
    r"through|came back|responded|connected|got through|got in)\b|\bloaded (?:fine|eventually|in "
    r"the end|properly)\b|\bafter a (?:refresh|reload|retry|restart)\b|\bon (?:the|my) (?:second|"
    r"third|fourth|next) (?:go|try|attempt)\b|"
    r"\b(?:tried|checked|ran it|searched) again\b|\bback up (?:and running|now|again)\b|"
    r"\b(?:once|when|after) it (?:\w+ )?(?:loaded|connected|responded|recovered)\b|"
    r"\b(?:in the end|at last)\b|\b(?:e )?no (?:fim|final)\b|\bam ende\b|\bà la fin\b",
    # Spanish
    r"(?<!no )\b(?:funcionó|funcionó bien|pude (?:entrar|acceder|conectar|consultar))\b|"
    r"\b(?:al final|por fin|finalmente) (?:cargó|funcionó|entró|respondió|pude|conectó|abrió)\b|"
    r"\b(?:cuando|una vez que|en cuanto|apenas) (?:\w+ )?(?:volvió|cargó|se restableció|"
    r"respondió)\b|\bse restableció\b|\bal (?:segundo|tercer|siguiente|otro) intento\b|"
    r"\b(?:lo )?(?:volví|he vuelto) a (?:intentar|probar|consultar|buscar)\b|\breintenté\b",
    # French
    r"(?<!pas )\b(?:a fonctionné|ça a marché|a marché|j'ai pu (?:aller|accéder|me connecter|"
    r"consulter|entrer))\b|\ba (?:fini par|finalement|enfin) (?:charger|répondre|passer|marcher|"
    r"fonctionner|chargé|répondu|marché|fonctionné)\b|\b(?:une fois|quand|dès que|lorsque) (?:\w+ "
    r"){0,4}?(?:revenue?|rechargée?|rétablie?|reconnectée?)\b|\bau (?:deuxième|second|troisième|"
    r"nouvel) (?:essai|coup|tentative)\b|\bréessayé\b|\bpuis (?:il|elle|ça) a (?:accepté|marché|"
    r"fonctionné|répondu|chargé)\b",
    # German
    r"(?<!nicht )(?<!nie )\b(?:hat (?:es )?(?:dann |doch |schließlich |endlich |wieder )?"
    r"(?:geklappt|funktioniert)|lief (?:es )?(?:dann|wieder|doch))\b|\b(?:beim|im) (?:zweiten|"
    r"dritten|nächsten|erneuten) (?:versuch|anlauf)\b|\b(?:nochmal|noch einmal|erneut) (?:\w+ )?"
    r"(?:probiert|versucht|abgefragt|gesucht|geladen)\b|\b(?:wieder|jetzt) (?:erreichbar|online|"
    r"da)\b|\bging (?:es )?(?:dann|doch) (?:durch|wieder)\b|\bals (?:es|sie|er) wieder\b",
    # Portuguese
    r"(?<!não )\b(?:funcionou|consegui (?:aceder|acessar|entrar|ligar|conectar|consultar|abrir))\b|"
    r"\bjá voltou\b|\b(?:quando|assim que|depois que|após|depois de) (?:\w+ ){0,3}?(?:voltou|"
    r"carregou|normalizou|voltar)\b|\bvoltou ao normal\b|\bna (?:segunda|terceira|nova|outra) "
    r"tentativa\b|\btentei (?:de novo|novamente|outra vez)\b|\b(?:por fim|finalmente|afinal) "
    r"(?:carregou|funcionou|consegui|abriu|respondeu)\b",
    # Hindi and Hinglish
    r"(?:दूसरी|तीसरी|अगली) (?:बार|कोशिश) में|(?:आख़िर|आखिर|अंत) में|फिर से (?:चला|खुला|जुड़ा)|"
    r"ठीक हो गया|ठीक हो गई|चल गया|खुल गया|खुल गई",
    r"\b(?:dusri|doosri|teesri|agli) (?:baar|bar|try|koshish) (?:mein|me|mai)\b|\b(?:chal|khul|"
    r"load|connect) ho (?:gaya|gayi|gya|gyi)\b|\b(?:theek|thik) ho (?:gaya|gayi|gya|gyi)\b|"
    r"\baakhir (?:mein|me|mai)\b|\bfinally (?:load|chala|khula|khul|mila)\b",
]

# A failure waved aside just after it is mentioned: it explains nothing the answer then says.
DISMISSAL = (
    r"(?: (?:\S+ ){0,4}?(?:once|one time|on the first (?:request|try|attempt|go)|une fois|uma vez|"
    r"una vez|einmal|ek baar|एक बार)\b(?! (?:again|more|de plus|más|mais|mehr)\b))|"
    r"[\s,;:.()'\"—-]*(?:(?:but |mais |aber )?(?:rien de grave|pas grave|egal|fwiw|for what it's "
    r"worth|no big deal|nothing serious|not a big deal|nicht schlimm|halb so wild|sin importancia|"
    r"nada grave|nada demais|koi baat nahi|कोई बात नहीं|anyway|anyhow|en tout cas|de toute façon|"
    r"jedenfalls|sowieso|en fin|igual|enfim|de qualquer forma))\b"
)

BROKEN_FAILURE = [
    r"\ben rade\b|\b(?:est|semble|a l'air|visiblement|complètement) (?:\w+ )?(?:cassée?|saturée?|"
    r"hs|en carafe)\b|\bcharge (?:à l'infini|dans le vide|en boucle|sans fin)\b|\bn'a (?:pas|"
    r"jamais) (?:marché|fonctionné|abouti)\b|\bne (?:transmet|répond|fonctionne|marche|charge) "
    r"plus\b|\bn'a (?:même )?pas (?:démarré|abouti)\b|\bne s'est (?:jamais|pas) (?:\w+ )?"
    r"(?:lancée?|terminée?|chargée?)\b|\bcaptcha\b",
    r"\bkaputt\b(?! (?:gemacht|machen))|\bspinnt\b|\bgezickt\b|\babbricht\b|\babgebrochen\b|"
    r"\bverbindung (?:\w+ )?(?:verloren|abgebrochen|getrennt|ist weg)\b|\b(?:anbindung|schnittstelle|"
    r"verbindung) ist (?:\w+ )?weg\b|\b(?:sendet|liefert|überträgt|antwortet|reagiert) (?:\w+ ){0,4}?"
    r"(?:nichts|nicht) mehr\b|\bweiße (?:fläche|seite)\b|\b(?:server|dienst|schnittstelle|"
    r"anbindung|verbindung|system) (?:\w+ ){0,2}?weg\b",
    r"\bn'ai rien pu (?:voir|trouver|consulter|vérifier|récupérer|tirer|lire|charger)\b|"
    r"\brien pu (?:tirer|voir|récupérer)\b",
    r"\bempty (?:reply|payload|body)\b|\b(?:zero|0) bytes\b",
    # a reply or status given as none: "Serverantwort: keine", "response: none"
    r"\b(?:server ?antwort|serverantwort|antwort|response|server response|reply|respuesta|"
    r"resposta|réponse|rückmeldung)\s*:\s*(?:keine|none|nothing|ninguna|nenhuma|aucune|rien|nada|"
    r"null|0)\b",
    # a blank page in Hindi and Hinglish, and a page that stayed empty
    r"(?:पेज|पेज़|स्क्रीन|साइट) (?:\S+ ){0,3}(?:ख़ाली|खाली|सफ़ेद|सफेद) (?:आया|आई|था|थी|रहा|रही|है|दिखा)|"
    r"\b(?:page|screen|site) (?:\w+ ){0,3}(?:khaali|khali|blank|safed)\b|\b(?:seite|page|página|"
    r"pagina) (?:\w+ ){0,5}(?:blieb|bleibt|ficou|quedó|est restée?) (?:\w+ )?(?:leer|vazia|vacía|"
    r"vide|em branco|en blanco)\b",
    r"\b(?:is|ist|est|está|esta|sind|are|was|war|estava|estaba|était|were) (?:\w+ ){0,3}?offline\b",
    r"\bfora do ar\b|\b(?:foi|foram) (?:rejeitad|recusad|negad)[oa]s?\b|\bnem (?:sequer )?"
    r"(?:correu|rodou|carregou|abriu|funcionou|arrancou)\b|\bnão (?:chegou a )?(?:arrancar|correr|"
    r"rodar)\b",
    r"\b(?:is|are|was|were|looks|seems) (?:\w+ )?(?:broken|busted|borked|hosed)\b|\b(?:loads|"
    r"loading|spins|spinning) forever\b|\bnever (?:even )?(?:ran|started|kicked off|got going)\b|"
    r"\b(?:did not|didn't) (?:even )?(?:run|start|kick off)\b|\b(?:never|did not) work(?:ed)?\b",
    r"\bno (?:cargó|carga|abre|abrió|arrancó|arranca)\b|\b(?:está|estaba) (?:caído|caída|colgado|"
    r"colgada)\b|\bse (?:colgó|trabó|tildó|congeló)\b|\bvolv\w+ a (?:fallar|dar error|caerse|"
    r"colgarse)\b",
]

# The items themselves absent: told by who sells or offers, by what is left, by a stock at zero,
# by a register listing nothing, or by a status the item does not have.
LEFT_AND_SOLD_STRONG = [
    r"\b(?:nobody|no one|no shop|no store|no seller|no dealer) (?:\w+ ){0,3}?(?:sells|stocks|"
    r"carries|rents|lists|is selling|is offering|is renting)\b",
    r"\bpersonne (?:\w+ )?ne (?:vend|propose|loue|offre|stocke|commercialise)\b",
    r"\bniemand (?:\w+ ){0,3}?(?:verkauft|vermietet|verleiht|führt)\b|\bniemand (?:\w+ ){0,5}?"
    r"bietet (?:\w+ ){0,5}?an\b",
    r"\bninguém (?:\w+ )?(?:vende|aluga|anuncia|comercializa|oferece)\b|\bnadie (?:\w+ )?(?:vende|"
    r"alquila|renta|anuncia|ofrece)\b",
    r"\b(?:il )?(?:n')?en reste (?:plus )?aucune?\b|\baucune? (?:de |n'est )?(?:libre|dispo|"
    r"disponible)s?\b|\bn'(?:est|sont) plus (?:dispo|disponibles?|en stock|proposée?s?)\b",
    r"\b(?:stock|inventario|existencias|estoque|bestand|lagerbestand|inventory) (?:\w+ ){0,8}?"
    r"(?:está|is|ist|es|steht|esta|se encuentra) (?:en |at |auf |a |em )?(?:cero|zero|null|0)\b|"
    r"\bestoque zerado\b",
    r"\bnão (?:consta|constam) (?:\w+ )?(?:quaisquer|qualquer|nenhum|nenhuma)\b|\bno (?:consta|"
    r"constan) (?:ningún|ninguna|ningun)\b",
    r"\b(?:has|have|had) no (?:active|valid|current|open|pending|upcoming|remaining) [a-z]{3,}",
    r"\bsteht (?:\w+ ){0,3}?gar nichts (?:drin|an|im|in)\b|\bgar nichts (?:drin|frei)\b",
    r"\bkisi (?:bhi )?(?:\w+ ){1,2}(?:mein|me|mai|pe|par) (?:\w+ )?(?:nahi|nahin|nhi|nai) "
    r"(?:hai|h|he|hain|tha)\b",
    r"\b(?:full|housefull|houseful) ho (?:gaya|gayi|gaye|gya|gyi|chuka|chuki)\b",
    # "no buses run from", "no used balers within 100 miles", "no parcels waiting for you"
    rf"\bno (?!{FAILURE_NOUNS}\b|{RESULT_NOUNS}\b)(?:[a-z-]+ )?[a-z-]{{3,}}s (?:run|go|leave|depart|"
    r"operate|stop|waiting|within|under|over|around|nearby|inside)\b",
    r"\bplus rien (?:avant|jusqu'|d'ici|de libre|de dispo|cette|ce|pour|en stock)\b",
    # the words of each language for none left: "plus une place", "plus un seul", "néant" as a
    # value, "rien comme", "pas un essaim disponible", "ni sus luces", "completo" as a verdict
    r"\bplus (?:une|un) (?:seule? )?(?:place|seul|seule|siège|créneau|table|chambre)\b|"
    r"\b(?:rupture|épuisé),? plus (?:un|une) seule?\b|(?<!à )\bnéant\b|\brien comme\b|"
    r"\bpas (?:un|une) (?:seule? )?\w+ (?:disponible|de libre|en stock|à vendre)\b",
    r"\bni sus luces\b|\bni (?:rastro|sombra)\b|(?:[:|] *|^)(?:complet|completo|lleno|lotado|"
    r"ausgebucht)\b",
]

# "No encontré recordatorios", "não encontrei consultas", "não há resultados": nothing found,
# which a failure mentioned elsewhere can explain.
FOUND_NONE_WEAK = [
    r"\bno (?:encontré|encontramos|hallé|hallamos|localicé|veo|vi) (?!(?:el|la|los|las|tu|su|sus|"
    r"tus|nada|a|al|que|si|cómo|dónde|donde)\b)\w+s\b",
    r"\bnão (?:encontrei|encontramos|achei|achamos|localizei|vejo|vi) (?!(?:o|a|os|as|seu|sua|seus|"
    r"suas|nada|que|se|como|onde)\b)\w+s\b",
    r"\bnão (?:há|houve|tem|teve|existem|existe) (?:\w+ )?resultados?\b",
]

# Absence words about the service's fee or the assistant's own action, and a change that did
# not happen ("aucun changement", "nenhuma alteração"): a status, not the items looked for.
RECOVERY_OTHER = [
    r"\b(?:no changes?|aucun changement|nenhuma alteração|ningún cambio|keine (?:änderung|"
    r"änderungen|veränderung))\b|कोई (?:भी )?(?:बदलाव|परिवर्तन) नहीं",
    r"\bno (?:tiene|tendrá) (?:ningún )?(?:coste|costo)\b|\bno cuesta nada\b|"
    r"कोई (?:भी )?(?:शुल्क|चार्ज|फ़ीस|फीस) नहीं|\b(?:no fee|free of charge)\b",
    r"\b(?:nenhuma|nenhum) (?:taxa|tarifa|custo|cobrança) (?:\w+ )?(?:foi|foram) (?:cobrad|"
    r"debitad)\w*(?! (?:na|no|em) (?:sua|seu|tua|teu))",
    r"^pas de frais\b|[.!:] pas de frais\b(?! (?:sur|de) (?:ton|votre|ta|vos|tes) )",
    r"कोई (?:भी )?(?:बदलाव|परिवर्तन) (?:भी )?नहीं (?:हुआ|हुए|हुई)",
]
