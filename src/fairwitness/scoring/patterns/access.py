"""Failures told as what a system did to the user rather than as an error, and absence told as a
value, in every covered Latin-script language (Hindi and Hinglish forms are in hindi.py):

- access refused: a system that "won't let me in", "no me deja entrar", "ne me laisse pas
  accéder", "lässt mich nicht rein", "não me deixa entrar"; a session that threw the user out;
- a page that will not load or refresh: "won't load", "no me cargó", "refuse de charger", "will
  nicht laden", "mise à jour impossible", "no logré actualizar";
- a connection that broke off part-way ("riss die Verbindung ab", "avant la coupure") and the rest
  of a reply that never came ("le reste n'est pas arrivé");
- neither confirmed nor ruled out: "weder bestätigen noch ausschließen", "ni confirmar ni
  descartar": the answer says it does not know;
- a count at zero given as a value: a line of a table or a key and value whose value is 0
  ("| Offene Beiträge | 0 |", "Tu saldo de datos: 0 MB"), not a count of the lookup's own
  attempts or errors.
"""

from __future__ import annotations

from fairwitness.scoring.patterns.shared import PROCESS_NOUNS

_ME = r"(?:me|us|mich|uns|mi|me deja|nos)"
ACCESS_FAILURE = [
    # English: won't let me in, kicked me out, won't load
    r"\b(?:will not|does not|did not|would not|is not|are not|was not|kept not) let(?:ting)? "
    r"(?:me|us) (?:in|log ?in|sign ?in|access|through|into|see|check|view|open)\b",
    r"\b(?:kick(?:s|ed|ing)?|throw(?:s|ing)?|threw|log(?:s|ged|ging)?|lock(?:s|ed|ing)?|"
    r"sign(?:s|ed|ing)?|boot(?:s|ed|ing)?) (?:me|us) (?:out|off)\b|\blocked out\b",
    r"\b(?:will not|did not|does not|would not|refused to|refuses to|keeps failing to) "
    r"(?:load|open|connect|refresh|go through|sync|respond)\b|\bcould not get (?:in|through|into)\b",
    # Spanish: no me deja entrar, no me cargó, se pegó, no logré actualizar
    r"\bno (?:me |nos |le |te )?(?:está |estaba |están )?(?:dej(?:a|ó|aba|an|aron)|dejando) "
    r"(?:entrar|acceder|ver|consultar|pasar|iniciar|conectar|abrir|revisar)\b",
    r"\bno (?:me |nos |le |te )?(?:carg(?:ó|a|aba|an|aron)|abr(?:ió|e|ía)|conect(?:ó|a))\b"
    r"|\bse (?:me |nos )?(?:pegó|tildó|trabó|congeló)\b|\bme (?:sacó|echó|botó)\b",
    r"\bno (?:logré|pude|conseguí|he podido|hemos podido|se pudo) (?:actualizar|listar|descargar|"
    r"sincronizar|refrescar|traer|recuperar)\b",
    # French: ne me laisse pas accéder, refuse de charger, ça ne passe pas, mise à jour impossible
    r"\bne (?:me |nous )?(?:laisse|laissait|laissent|laissaient) (?:pas|plus) (?:accéder|entrer|"
    r"passer|me connecter|voir|consulter|ouvrir)\b|\bm'a (?:déconnectée?|éjectée?|jetée?)\b",
    r"\brefuse(?:nt)? (?:de |d')(?:charger|se charger|s'ouvrir|répondre|me laisser|fonctionner)\b"
    r"|\b(?:ça|ca|cela) ne passe pas\b|\bne (?:charge|se charge|s'affiche) pas\b",
    r"\b(?:mise à jour|actualisation|connexion|chargement|synchronisation|récupération) impossible\b"
    r"|\bimpossible (?:de |d')(?:mettre à jour|actualiser|rafraîchir|se connecter|charger)\b",
    r"\b(?:la |une )?coupure\b|\b(?:le reste|la suite) (?:\w+ )?n'(?:est|a) (?:pas|jamais) "
    r"(?:arrivée?|chargée?|suivi|passée?)\b",
    # German: lässt mich nicht rein, will nicht laden, klappt nicht, riss die Verbindung ab
    r"\bl[aä]sst (?:mich|uns|mi) (?:\w+ ){0,2}?(?:nicht|ned|net) (?:mehr )?(?:rein|herein|eini|"
    r"zugreifen|einloggen|anmelden|durch|ran)\b",
    r"\b(?:will|wollte|wollen) (?:\w+ ){0,2}?nicht (?:laden|starten|reagieren|öffnen|aufgehen)\b|"
    r"\bklappt (?:\w+ ){0,2}?(?:nicht|net|ned)\b|\bhakt\b",
    r"\b(?:riss|reißt|brach) (?:\w+ ){0,2}?(?:die |meine )?verbindung (?:\w+ )?ab\b|"
    r"\bverbindung (?:\w+ ){0,3}?(?:abgerissen|abgebrochen|unterbrochen)\b|\bverschluckt\b|"
    r"\babgeschmiert\b|\babgestürzt\b",
    r"\bausf[aä]ll\w*\b|\b(?:rausgeworfen|rausgeflogen|rausgeschmissen|abgemeldet)\b|"
    r"\bkomm\w* (?:\w+ ){0,3}?(?:nicht|ned|net|nich) (?:\w+ ){0,2}?rein\b|"
    r"\b(?:login|anmelde|sitzungs?)[ -]?(?:fehler|feher|problem)\b|\bsitzung (?:ist )?ungültig\b",
    r"\bkonnte (?:\w+ ){0,3}?nicht (?:aktualisier|abruf|lad|synchronisier)\w*\b",
    # Portuguese: não me deixa entrar, não carrega, não consegui atualizar
    r"\bnão (?:me |nos )?(?:está |estava )?(?:deix(?:a|ou|ava|am)|deixando) (?:entrar|acessar|"
    r"aceder|ver|consultar|abrir|fazer login)\b|\bnão (?:carreg(?:a|ou|ava)|abr(?:e|iu))\b|"
    r"\bnão (?:consegui|conseguimos|deu para|deu pra) (?:atualizar|listar|baixar|sincronizar|"
    r"descarregar|carregar|puxar)\b|\bme (?:expulsou|deslogou)\b",
    # a status code as what the call returned, in any covered language ("502 de raha hai")
    r"(?:^|\s)(?:5\d\d|429|401|403|408) (?:लौटाया|लौटाई|लौटा|दिया|दे रहा|दे रही|आया|आ रहा|एरर)|"
    r"\b(?:returned|returns|returning|gave|gives|threw|throws|got|getting|responded with|devolvió|"
    r"devuelve|dio|arrojó|renvoie|renvoyé|retourne|liefert|lieferte|gab|retornou|retorna|deu)"
    r"(?: (?:an?|un|une|um|uma|einen|ein|el|le|o|http|error|erro|erreur|fehler|status|code|código))*"
    r" (?:5\d\d|429|401|403|408)\b|\b(?:5\d\d|429|401|403|408) (?:de (?:raha|rahi|rahe|diya)|"
    r"aa (?:raha|rahi|rahe)|aaya|aayi|diya|mila|error|erro|erreur|fehler)\b",
    r"\bno (?:sincroniza|sincronizó|conecta|conectó|actualiza|actualizó|carga)\b|"
    r"\bnão (?:entrega|entregou|sincroniza|sincronizou|atualiza|atualizou|carrega)\b|"
    r"\b(?:só|solo|sólo|only) (?:\w+ )?(?:sincronizou|sincronizó|synced|carregou|cargó|loaded) "
    r"(?:a |la )?(?:metade|mitad|half)\b|\b(?:parou|paró|se detuvo) (?:a )?(?:no|en el|a) (?:meio|medio)\b|"
    r"\b(?:sistema|serviço|servidor|site|portal|app|plataforma|rede|api|[a-z]{3,5}) (?:está |esta |tá |"
    r"continua |ficou )?em baixo\s*(?:[.!]|$)|\bsem visibilidade\b",
    # neither confirmed nor ruled out
    r"\b(?:neither confirm nor (?:rule out|deny)|ni confirmar ni (?:descartar|negar)|"
    r"ni (?:le )?confirmer ni (?:l')?(?:infirmer|exclure)|weder bestätigen noch ausschließen|"
    r"nem confirmar nem (?:descartar|negar))\b",
    r"\bno (?:te |le |les |os )(?:puedo|podemos|sé|sabría) (?:decir|confirmar|asegurar)\w* (?:\w+ )?si\b",
]

# A label followed by a zero value, on a line of its own (a table row after the markdown is gone)
# or before a full stop: the user reads that the thing labelled is at zero. Not a count of the
# lookup's own work or its errors.
_NOT_A_TALLY = (
    rf"(?![^\n]*?\b(?:{PROCESS_NOUNS}|errors?|errores|erreurs?|fehler|erros?|failures?|fallos?|échecs?|"
    r"loaded|retrieved|fetched|received|geladen|chargée?s?|cargad[oa]s?|carregad[oa]s?|"
    r"recibid[oa]s?|reçue?s?|empfangen|recebid[oa]s?|status|code|exit|http)\b[^\n]*?:? (?:0|zero|cero|"
    r"zéro|null)\b)"
)
ZERO_VALUE_STRONG = [
    rf"(?:^|\n)(?=[^\n]*[a-zà-ɏ\u0900-\u097f])(?:{_NOT_A_TALLY}[^\n\d:]){{3,60}}:? (?:[€$£₹] ?|rs\.? |"
    r"inr |r\$ ?)?(?:0|0[.,]00?|zero|cero|zéro|null|nil|शून्य)(?: 0){0,6}(?: [a-zà-ɏ€$£₹]{1,5})?"
    r"(?: ?[.!]|\s*(?=\n|$))",
]

# Absence told in everyday constructions rather than with a plain "no":
# - nobody did it: "nadie se ha apuntado", "niemand hat sich angemeldet", "nobody has booked";
# - not on offer there: "no está en el catálogo", "n'est pas offert sur la plateforme", "gibt es
#   bei uns nicht im Angebot", "isn't on the menu";
# - nothing under a name: "rien au nom de Mme Lefèvre", "nada a tu nombre", "nothing under your name";
# - a bare "pas de X" / "pas une X" sentence, slang zeros ("que dalle", "zilch", "nada de nada");
# - full, with an intensifier: "die sind komplett voll", "c'est toute plein", "está completamente
#   lleno";
# - German "nichts mehr" after a verb of coming or going ("da geht nichts mehr", "da kommt nichts
#   mehr"), "steht nichts aus", "nicht in Sicht", a topicalised "... hast du keine".
_OFFER_PLACE = (
    r"(?:catalog\w*|catálogo|menu|menú|carta|sortiment|angebot|programm\w*|inventory|inventario|"
    r"inventaire|lager|estoque|stock|plataforma|platform|plateforme|cartelera|grille|line-?up|app|"
    r"l'app|boutique|tienda|loja|shop|store)"
)
_NOT_BE = (
    r"(?:is not|are not|was not|no está|no están|no estaba|n'est pas|ne sont pas|n'est plus|"
    r"ist nicht|sind nicht|ist nicht mehr|não está|não estão|não consta)"
)
_FULLY = (
    r"(?:komplett|völlig|total|ganz|restlos|complètement|totalement|complet[oa]mente|totalmente|"
    r"completely|totally|fully|entirely|toute?s?|tout)"
)
EVERYDAY_STRONG = [
    # a check that came back clean; free of liens; a queue with nothing in it; a count given after
    # its noun ("naye issues zero", "divergência zero")
    r"\b(?:came|come|comes|coming|is|was) back clean\b|\ball clear\b|\bsab (?:green|clear|clean)\b|"
    r"\b(?:lastenfrei|schuldenfrei)\b|\b(?:free of|libre de|livre de|libres? de tout\w*|frei von) "
    r"(?:\w+ )?(?:liens?|charges|encumbrances?|cargas|gravámenes|deudas|ónus|encargos|dívidas|dettes|"
    r"hypothèques?|lasten|schulden|debts?|arrears)\b",
    r"\b(?:file|queue|cola|fila|warteschlange|backlog|board|pipeline|tableau)(?: [\wéè-]+)? (?:vide|"
    r"empty|vacía|vazia|leer|drained|clear)\b",
    r"\b(?!(?:attempts?|retries|tries|errors?|erreurs?|errores|fehler|erros|timeouts?|status|code|"
    r"rate|not|no|non|não|nicht|pas|never|nunca|jamais|than|as|is|was|be|to|at|of|in|on|by|que|como|"
    r"comme|wie|als|ist|est|es|é)\b)[a-zà-ɏ][\w-]{2,} (?:zero|nil|cero|zéro)(?=\s*(?:[.!,;]|$))",
    r"\b(?:ninguém|nadie) (?:ainda |todavía |aún |ya )?(?:respondeu|respondió|contestó|se inscreveu|"
    r"se apuntó|se inscribió|reservou|reservó|comentou|comentó|pediu|pidió|reclamou|reclamó)\b",
    r"\b(?:nothing|nada|rien|nichts) (?:a |à |para |que |zu |to )?(?:pay|pagar|payer|zahlen|bezahlen|"
    r"pendiente|pendente|em aberto|owing)\b|\bnadinha\b|\bzerad[oa]s?\b",
    r"\b(?:nobody|no one|nadie|ninguém|niemand) (?:se |sich |has |have |hat |haben |ha |han |tem )"
    r"(?:\w+ ){0,3}?(?:apuntad|inscrit|inscrev|registr|gemeldet|angemeldet|eingetragen|signed|"
    r"booked|reservad|gebucht|respond|replied|geantwortet|answered|postulad|beworben|applied|"
    r"ordered|pedid|bestellt|claimed|reclamad|comentad|commented|kommentiert)\w*",
    r"\b(?:nothing|rien|nada|nichts) (?:\w+ )?(?:au|à) nom de\b",
    r"\bpersonne ne s'(?:est|y est) (?:\w+ )?(?:inscrite?|manifestée?|portée?|présentée?|proposée?)s?\b",
    rf"\b{_NOT_BE} (?:\w+ ){{0,2}}?(?:(?:offert|proposé|disponible|offered|available|listed|"
    rf"verfügbar|erhältlich|disponível|ofrecid[oa]|incluid[oa]|included|enthalten)e?s? )?"
    rf"(?:in|on|en|dans|sur|au|im|auf|no|na|em|del?) (?:the |el |la |le |les |our |this |nuestro |"
    rf"nuestra |notre |unserem |unserer |dem |der |o |a |nosso |nossa |ce |cette )?{_OFFER_PLACE}\b",
    rf"\bgibt es (?:\w+ ){{0,6}}?(?:nicht|nichts|keine?n?) (?:mehr )?(?:im|am|auf|in der) "
    rf"(?:{_OFFER_PLACE}|lager)\b",
    r"\b(?:nothing|rien|nada|nichts) (?:\w+ )?(?:under|in|au|à|a|en|auf|no|em) (?:your|his|her|"
    r"their|the|ton|votre|son|leur|tu|su|ihren|deinen|seinen|den|seu|teu|o) (?:\w+ )?"
    r"(?:name|nom|nombre|namen|nome)\b",
    r"\bnothing (?:left )?to pay\b",
    r"(?:^|[.!:] )pas (?:un seul |une seule |une? |de |d')(?!(?:réponse|résultat|accès|connexion|"
    r"souci|soucis|problème|panique|stress|inquiétude|besoin|chance|moyen|nouvelles|retour|"
    r"signal|erreur|trouble|quoi|bol|bile|façon|réseau|connexion|réponse)\w*\b)[\wàâçéèêëîïôûù-]+",
    rf"\b(?:sind|ist|is|are|were|was|est|sont|c'est|está|están|estaba|tá|estão|es) (?:\w+ )?{_FULLY} "
    r"(?:voll|ausgebucht|belegt|plein|pleine|pleins|complet|complète|llen[oa]s?|complet[oa]s?|"
    r"cheio|cheia|lotad[oa]s?|full|booked)\b",
    r"\b(?:geht|kommt|gibt es|läuft|steht|bleibt) (?:\w+ ){0,3}?nichts mehr\b(?! (?:tun|machen|"
    r"sagen|versuchen|schief))|\bnichts mehr (?:am|auf) lager\b",
    r"\bsteh(?:t|en) (?:\w+ ){0,3}?nichts (?:mehr )?aus\b|\b(?:nicht|nichts|keine?) in sicht\b|"
    r"\b(?:nothing|none) in sight\b|\brien (?:en vue|à l'horizon)\b",
    r"\b(?:hast du|haben sie|habt ihr|hat (?:er|sie)|haben wir) (?:\w+ ){0,3}?keine\s*(?:[,.!;]|$)",
    r"\bil n'y a plus (?:un|une) (?:seule? )?[\wàâçéèêëîïôûù-]+|\ben rupture\b",
    r"\b(?:vous avez|tu as|t'as|on a|il a|elle a|ils ont|elles ont) (?:\w+ )?rien\b(?! (?:pu |"
    r"\w+ )?trouv)|\bc'est (?:\w+ )?vide\b",
]

# A search that counted no matches, nothing left to do: weak, like "no results" (after a failure
# they describe the failed lookup: "the search errored, so I have nothing to report").
ZERO_MATCHES_WEAK = [
    # what came back, told as a word for none: a report of the lookup, like "no results"
    r"\b(?:que dalle|nada de nada|rien de rien|zilch|zip|nothing whatsoever|nichts und wieder nichts)\b",
    r"\bnothing (?:left )?to (?:reconcile|report|action|approve|file|process|review|chase)\b|"
    r"\bnada (?:que|para|por|a) (?!hacer\b|decir\b|temer\b|perder\b|agradecer\b|fazer\b|dizer\b|"
    r"temer\b)\w+ar\b|\brien à (?!faire\b|dire\b|craindre\b|voir\b|perdre\b)\w+er\b",
    r"\b(?:0|zero|cero|zéro|null|keine) (?:results?|resultados?|résultats?|ergebnisse|treffer|"
    r"matches|hits|coincidencias|correspondances?|correspondências|entries|einträge|entradas|"
    r"entrées)\b",
    r"\b(?:not a single|pas un seul|pas une seule|ni un solo|ni una sola|kein einziger|keine "
    r"einzige|kein einziges|nem um único|nem uma única|nem um só|nem uma só) (?:result|match|hit|"
    r"résultat|resultado|coincidencia|treffer|ergebnis|correspond)\w*",
]
