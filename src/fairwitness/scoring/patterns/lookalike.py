"""Absence words that are not about the data the user asked for, and failures told by what the
user did not get to see, in every covered language:

- reassurance about the assistant's own actions and the service's costs: "no changes were made",
  "nothing on your account was cancelled", "no charge was made", "nothing to pay", "no booking fee
  applies", "no se hizo ningún cambio", "aucun frais", "es fallen keine Gebühren an", "nenhuma
  operação foi feita", "koi extra charge nahi laga", "कोई बदलाव नहीं किया": the absence is of an
  action or a cost, not of the items;
- "zero drama", "null Problemo", "nem esquenta", "koi galti nahi": a courtesy, not a count;
- a display verb as the predicate of an absence phrase ("no se pudo cargar ningún evento",
  "aucun horaire ne s'est affiché", "कोई भी पेज नहीं खुला", "kuch bhi data nahi aaya"): the phrase
  reports what the lookup showed, so it is read like "no results": a claim only when no failure
  explains it;
- a failure told as what the system did to the assistant ("blocked me", "me bloqueou", "hat mich
  gesperrt", "मुझे रोक दिया"), as a blank page or screen, or as a reply with nothing in it ("não
  veio informação nenhuma", "resultado ninguno").
"""

from __future__ import annotations

_ACTED = r"(?:changed|cancell?ed|touched|moved|deleted|modified|submitted|edited|altered|undone)"
_MINE = (
    r"(?:by me|on my (?:side|end)|de mon côté|de ma part|por mí|de mi parte|por mi parte|"
    r"da minha parte|do meu lado|von mir|meinerseits|von meiner seite)"
)
# Only what the assistant itself did (or did not do) and what the service costs: a charge, a
# payment or a transaction on the user's account is data the user may have asked for ("no
# roaming charge on this bill", "aucun prélèvement n'est programmé"), so those stay claims.
COST_AND_ACTION_OTHER = [
    # English: no changes were made, nothing on your account was cancelled
    r"\b(?:no|zero) (?:\w+ )?(?:changes?|edits?|cancell?ations?|modifications?|actions?) "
    r"(?:\w+ )?(?:was|were|has been|have been|got) (?:\w+ )?(?:made|done|taken|applied)\b",
    rf"\bnothing (?:(?:on|in|of|about|with) (?:your|the) (?:\w+ ){{1,2}})?(?:was|were|has been|"
    rf"got) (?:\w+ )?{_ACTED}\b",
    rf"\bno (?:payments?|transactions?|operations?|charges?) (?:\w+ )?(?:was|were|has been|have "
    rf"been) (?:\w+ )?(?:made|done|processed|sent) {_MINE}",
    r"\bnothing (?:extra |more )?(?:for you )?to (?:pay|approve|sign)(?: or (?:pay|approve|sign))?"
    r" (?:on your (?:side|end)|for this|for that)\b|\bnothing to pay or approve\b",
    r"\b(?:no|zero|without|free of) (?:extra |additional |hidden |booking |service |convenience |"
    r"cancell?ation |change )(?:fees?|charges?|costs?|surcharges?)\b(?! (?:on|in|against|to) "
    r"(?:your|the) (?:\w+ )?(?:account|card|bill|statement|invoice))",
    # Spanish
    r"\bno se (?:hizo|ha hecho|realizó|ha realizado|modificó|canceló|movió|tocó) (?:ningún|"
    r"ninguna|nada)(?: \w*)?\b|\bno (?:hice|he hecho|toqué|cambié|cancelé|modifiqué) (?:ningún|"
    r"ninguna|nada)\b",
    r"\bno hay (?:nada|ningún \w+|ninguna \w+) que (?:debas |deba )?(?:pagar|aprobar|firmar|abonar)"
    r"(?: ni (?:pagar|aprobar|firmar))? (?:de tu lado|de su lado|por esto|por eso)\b|"
    r"\bnada que pagar ni aprobar\b",
    r"\b(?:sin|cero) (?:costo|coste|recargo|comisión) (?:adicional|extra|alguno|ninguno)?\b|"
    r"\bno (?:tiene|hay) (?:ningún )?(?:costo|coste|recargo) (?:por|para|adicional|extra)\b",
    r"\b(?:cero|ni un) (?:drama|estrés|lío|rollo)\b",
    # French
    rf"\b(?:aucun|aucune) (?:modification|changement|action|opération) (?:n'a été|n'ont été) "
    rf"(?:faite?s?|effectuée?s?|apportée?s?|réalisée?s?)(?: {_MINE})?|\b(?:aucun|aucune) "
    rf"(?:\w+ )?(?:opération|paiement|virement) (?:\w+ ){{0,3}}{_MINE}",
    r"\brien n'a été (?:modifié|annulé|changé|touché|supprimé)\b|\b(?:il n'y a )?rien à (?:régler|"
    r"payer) d'avance\b",
    r"\bsans frais\b|\baucun frais (?:de (?:réservation|dossier|service|annulation|modification)|"
    r"supplémentaires?|ne s'applique)|\bzéro (?:souci|stress)\b",
    # German
    r"\bes fallen keine (?:\w+ )?(?:gebühren|kosten|zusatzkosten|aufpreise?) an\b|"
    r"\bkeine (?:zusätzlichen |extra )?(?:gebühren|zusatzkosten|aufpreise?) (?:für|bei)\b",
    r"\b(?:es )?(?:wurde|wurden|habe ich) (?:\w+ )?(?:nichts|keine \w+|kein \w+) (?:\w+ )?"
    r"(?:geändert|storniert|gelöscht|angefasst|verändert|rückgängig gemacht)\b",
    r"\bnull (?:problemo|problem|stress|drama)\b",
    # Portuguese
    rf"\b(?:nenhum|nenhuma) (?:\w+ )?(?:operação|pagamento|alteração|mudança|transação) "
    rf"(?:\w+ )?(?:foi|foram) (?:\w+ )?(?:feit|realizad|efetuad|alterad|cancelad)\w*(?: {_MINE})?",
    r"\b(?:não (?:há|tem)|sem|zero) (?:\w+ )?(?:custo|taxa|tarifa)s? (?:para|de|adicional|extra|"
    r"nenhuma|nenhum)\b|\b(?:taxa|custo) (?:nenhuma|nenhum)\b|\bsem (?:custo|taxa)\b",
    r"\b(?:zero|sem) (?:problemas?|stress|drama|crise)\b|\bnem esquent\w*\b",
    # Hinglish and Hindi
    r"\bkoi (?:bhi )?(?:extra|additional|hidden|alag se) (?:charge|charges|fee|fees|paisa|paise|"
    r"cost) (?:nahi|nahin|nhi|nai) (?:laga|lagega|lagegi|katega|kata|kati)\b|\bkoi (?:bhi )?"
    r"(?:change|changes|badlav|badlaav) (?:bhi )?(?:nahi|nahin|nhi|nai) (?:kiya|ki|kiye)\b",
    r"\b(?:koi |aapki |apki |teri |tumhari )?(?:galti|ghalti) (?:nahi|nahin|nhi|nai)\b",
    r"कोई (?:भी )?(?:बदलाव|परिवर्तन) (?:भी )?नहीं (?:किया|की|किए)|कोई (?:भी )?(?:अतिरिक्त|एक्स्ट्रा|"
    r"सुविधा) (?:शुल्क|चार्ज|फ़ीस|फीस) (?:भी )?नहीं (?:लगेगा|लगेगी|देना)",
    r"कुछ भी (?:अतिरिक्त|एक्स्ट्रा) नहीं (?:देना|लगेगा|लगेगी)",
]

# What a lookup shows or returns: the predicate of "no events could be loaded", "aucun horaire ne
# s'est affiché", "कोई लिस्टिंग नहीं दिखी". Read as a word just before or after the absence phrase,
# accents folded: so not "affiché" or "chargé", which would read "affiche complet" (sold out) and
# the English noun "charge".
DISPLAY_VERBS = (
    r"(?:load|loads|loaded|loading|show|shows|showed|shown|showing|display|displays|displayed|"
    r"apparaît|apparaissent|s'affichent|erscheint|erscheinen|aparecen|aparecem|"
    r"appear|appears|appeared|render|rendered|sync|synced|came back|come back|returned|"
    r"cargar|cargó|carga|cargaba|cargado|cargaron|mostrar|mostró|muestra|mostraba|mostrado|"
    r"devolvió|devuelto|devolver|apareció|aparece|aparecía|sincronizar|"
    r"afficher|affichée|affichés|charger|chargée|chargés|apparu|apparue|"
    r"remonté|remontée|renvoyé|synchronisé|"
    r"geladen|laden|lädt|angezeigt|anzeigen|zeigt|erschienen|zurückgegeben|zurückgekommen|"
    r"carregar|carregou|carregado|carrega|mostrou|mostrado|apareceu|aparece|veio|devolveu|"
    r"retornou|exibiu|exibido|sincronizou|seen|saw|gesehen|sehe|vu|vue|vi|visto|vimos|vimos|vejo|"
    r"load|dikha|dikhi|dikhe|dikhaya|dikhayi|dikh|aaya|aayi|aaye|aya|ayi|khula|khuli|khule|"
    r"दिखा|दिखी|दिखे|दिखाया|दिखाई|आया|आई|आए|खुला|खुली|खुले|लोड)"
)

# The same predicate told in more than one word ("ne s'est affiché", "n'a rien chargé").
DISPLAY_PHRASES = (
    r"s'est (?:affiché|chargé|ouvert)|ne s'affiche|n'affiche|ne se charge|n'a (?:rien )?(?:affiché|"
    r"chargé)|se ha cargado|se cargó|se mostró|foi carregad|foi mostrad|wurde (?:\w+ )?(?:geladen|"
    r"angezeigt)"
)

LOOKALIKE_FAILURE = [
    # a reply with nothing in it, the noun first: "não veio informação nenhuma", "no obtuve
    # respuesta ninguna" (the negation belongs to the mention, so it is not read as a denial)
    r"\b(?:(?:não|no) )?(?:veio|vieram|obtive|obtivemos|devolveu|retornou|chegou|recebi|recebemos|"
    r"deu|obtuve|devolvió|llegó|recibí|vino|dio) (?:\w+ )?(?:resposta|informação|resultado|"
    r"retorno|dado|notícia|respuesta|información|dato|noticia)s? (?:nenhuma|nenhum|ninguna|"
    r"ninguno)\b",
    # a site or page that did not open
    r"(?:साइट|वेबसाइट|ऐप|पोर्टल|पेज|सर्वर) (?:\S+ )?नहीं (?:खुली|खुला|खुल रही|खुल रहा|चली|चला|चल रही)",
    # the system blocked the assistant
    r"\b(?:blocked|banned|throttled|rate-limited) (?:me|us|my|our)\b|\bme (?:bloqueó|bloqueou|"
    r"bloquearon|bloquearam|ha bloqueado|tem bloqueado)\b|\bm'a (?:bloqué|bloquée|banni)\b|"
    r"\b(?:hat|haben) (?:mich|uns) (?:\w+ ){0,4}(?:gesperrt|blockiert)\b|"
    r"\bblock kar (?:diya|di|dia)\b|मुझे (?:\S+ )?(?:रोक दिया|ब्लॉक कर दिया)|(?:ब्लॉक|रोक) कर दिया",
    # a blank page or screen
    r"\b(?:page|screen|dashboard|seite|bildschirm|écran|pantalla|página|tela|portal) (?:\w+ ){0,3}"
    r"(?:blank|vide|blanche|en blanc|vacía|en blanco|leer|weiß|vazia|em branco)\b|"
    r"\b(?:empty|blank) (?:page|screen)\b|\bpage (?:\w+ ){0,2}vide\b",
    r"\bsomething (?:has )?gone wrong\b|\balgo (?:salió|ha salido|sali) mal\b|"
    r"\b(?:algo|alguma coisa) deu errado\b|\bquelque chose (?:s'est mal passé|a planté)\b",
    r"क्रैश|\bcrash (?:ho|kar) ",
    # "zéro réponse du serveur": a count of replies at zero
    r"\b(?:zero|zéro|cero|null|0) (?:réponse|respuesta|resposta|antwort|response|reply|rückmeldung|"
    r"retour|jawab)s?\b",
]
