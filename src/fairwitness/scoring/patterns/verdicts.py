"""A negative verdict told as the outcome, a status field whose value is none, the service's own
acts denied, a clinical finding, and the grounds an answer claims despite a failure, in every
covered language:

- a verdict: "you are not eligible", "is not covered by your plan", "your claim was declined",
  "no refund is due", "no cumple los requisitos", "vous n'avez pas droit", "wurde abgelehnt",
  "foi indeferido", "आप पात्र नहीं हैं", "reject ho gaya". The user reads the answer to their
  request as no, which a failed check could not have established, so it is a claim like "there
  are no jobs". "Has not been declined", "weder eröffnet noch abgelehnt" and "this is not a
  refusal" are not verdicts;
- a status field: "Open claims: none", "Estado: Sem registo", "Offene Vorgänge: keine",
  "Result: NOT ELIGIBLE", "Cobertura: Não coberto" (a field naming the lookup itself, "Results:
  none", "Errors: none", is not one);
- the service's acts denied: "no appointment has been cancelled", "aucun document n'a été
  supprimé", "nenhum valor foi debitado", "es wurden keine Kopien gespeichert": not the data;
- a clinical finding: "no fracture was seen", "keinen Meniskusriss", "no se observaron células
  malignas": a result, not an absence of what was asked for;
- grounds claimed despite a failure: "based on the information available", "d'après les
  éléments disponibles", "laut Datenlage", "con la información obtenida", "उपलब्ध रिकॉर्ड के
  अनुसार": what follows is told as the answer, so a "nothing found" after it is a claim.
"""

from __future__ import annotations

_NOT_HI = r"(?:नहीं|नही)"
_NOT_HINGLISH = r"(?:nahi|nahin|nhi|nai)"
_FREE = r"(?:(?!not\b|never\b|no\b|yet\b)\w+ )?"
"""One optional word between an auxiliary and its participle, never a negation."""

_CASES = (
    r"(?:application|applications|claim|claims|petition|appeal|visa|permit|loan|pre-?authori[sz]ation|"
    r"prior auth\w*|authori[sz]ation|refund|reimbursement|benefit|subsidy|grant|case|submission|"
    r"proposal|project|candidacy|nomination|enrol?ment|registration|request for \w+|your (?:\w+ )?request|"
    r"dispute|complaint|renewal|extension|transfer|porting request|leave|policy|cover|coverage)"
)

VERDICT_STRONG = [
    # English
    r"\b(?:is|are|was|were|am|is currently|are currently|is also|are also) (?:not|no longer) "
    r"(?:currently |yet |presently |at present )?(?:eligible|covered|entitled|approved|payable|"
    r"reimbursable|refundable|qualified|insured|included in (?:your|the) (?:plan|policy|cover|tariff|"
    r"scheme))\b",
    r"\b(?:do|does|did) not (?:currently |yet |presently )?(?:qualify|meet (?:the |all |any of the )?"
    r"(?:\w+ ){0,2}?(?:criteria|requirements|conditions|threshold|thresholds))\b",
    r"\b(?:ineligible|not eligible|not approved|not covered)\b(?! (?:to say|yet|until))",
    rf"\b{_CASES} (?:\w+ ){{0,3}}?(?:has been|have been|was|were|is|got) {_FREE}(?:declined|rejected|"
    r"refused|denied|turned down|disallowed|unsuccessful|not successful|not accepted|not selected|not "
    r"granted)\b(?! (?:by the (?:server|api|gateway|system|portal|site|host)|with (?:an? )?(?:error|code|"
    r"status)|\(?\d{3}))",
    r"\b(?:your|the) (?:\w+ ){0,4}?(?:has|have) been (?:declined|rejected|refused|denied|turned down)\b",
    r"\bno (?:\w+ )?(?:refund|payment|instal?ment|entitlement|benefit|compensation|reimbursement|arrears|pension|"
    r"allowance|subsidy|credit|rebate)s? (?:is|are|was|were|will be) (?:currently )?(?:due|payable|owed|"
    r"owing|available to you)\b",
    # Spanish
    r"\bno (?:es|eres|está|estás|son|están|sos|resulta|resultas|queda|quedas|fue|ha sido) (?:usted )?"
    r"(?:elegible|cubiert[oa]s?|beneficiari[oa]s?|apt[oa]s?|admitid[oa]s?|aprobad[oa]s?|"
    r"seleccionad[oa]s?|reembolsable)\b",
    r"\bno (?:cumple|cumples|cumplís|reúne|reúnes|alcanza|alcanzas) (?:con )?(?:los |las |el |la )?"
    r"(?:\w+ ){0,2}?(?:requisitos|condiciones|semanas|puntos|criterios|mínimo)\b",
    r"(?<!acceso )(?<!conexión )(?<!no )"
    r"\b(?:ha sido|han sido|fue|fueron|ha resultado|resultó|quedó|queda) (?:\w+ )?(?:denegad[oa]s?|"
    r"rechazad[oa]s?|desestimad[oa]s?|no aprobad[oa]s?|no seleccionad[oa]s?|no admitid[oa]s?)\b",
    r"\bno (?:le |te |les )?corresponde(?:n)? (?:el |la |ningún |ninguna |un |una )?(?:pago|devolución|"
    r"reembolso|beneficio|prestación|subsidio|ayuda|pensión|bono|retroactivo)\b",
    r"\bno beneficiari[oa]\b|\bno elegible\b",
    # French
    r"\bn'(?:êtes|es|est|sont|étiez|était) (?:toujours |donc |malheureusement )?pas (?:\w+ )?"
    r"(?:éligibles?|couverte?s?|admissibles?|retenue?s?|recevables?|remboursables?|bénéficiaires?|"
    r"accordée?s?|acceptée?s?)\b",
    r"\bne (?:sont|est|seront|sera) pas (?:\w+ )?pris(?:es?)? en charge\b",
    r"\bne (?:remplissez|remplit|remplissent|répondez|répond|répondent|satisfaites|satisfait) pas "
    r"(?:aux |les |à |à la |au )?(?:\w+ ){0,2}?(?:conditions|critères|exigences)\b",
    r"\bn'(?:avez|a|ont|aviez) pas droit\b|\bn'y (?:avez|a|ont) pas droit\b|\bne bénéficiez pas\b|"
    r"\bne bénéficie pas\b",
    r"(?<!accès )(?<!connexion )(?<!l'accès )(?<!pas )(?<!n')"
    r"\b(?:a été|ont été|est|sont) (?:\w+ )?(?:refusée?s?|rejetée?s?|déboutée?s?|non retenue?s?|"
    r"non accordée?s?)\b",
    r"\bn'(?:a|ont) pas été (?:retenue?s?|acceptée?s?|accordée?s?|approuvée?s?|sélectionnée?s?)\b",
    r"\b(?:non éligible|inéligible|non admissible)s?\b",
    # German
    r"\b(?:sind|ist|bist|seid|war|waren) (?:sie |du )?(?:\w+ )?nicht (?:\w+ )?(?:anspruchsberechtigt|"
    r"förderberechtigt|leistungsberechtigt|berechtigt|versichert|gedeckt|abgedeckt|erstattungsfähig|"
    r"förderfähig|enthalten)\b",
    r"\b(?:voraussetzungen|kriterien|bedingungen|anforderungen) (?:\w+ ){0,3}?nicht (?:erfüllt|gegeben)\b",
    r"\b(?:erfüllen|erfüllst|erfüllt) (?:sie |du )?(?:die |alle )?(?:\w+ )?(?:voraussetzungen|kriterien|"
    r"bedingungen|anforderungen) (?:\w+ )?nicht\b",
    r"(?<!zugriff )(?<!verbindung )(?<!abfrage )(?<!anfrage )(?<!login )(?<!token )(?<!anmeldung )"
    r"\b(?:wurde|wurden|ist|sind|wird|werden) (?:(?!weder\b|nicht\b|noch\b|kein\w*\b|mit\b|von\b|vom\b|"
    r"durch\b)[a-zäöüß][\w-]* ){0,3}?"
    r"(?:abgelehnt|zurückgewiesen|nicht bewilligt|nicht genehmigt|nicht erteilt|nicht gewährt)\b",
    r"\banspruch (?:[\w-]+ ){0,5}?besteht (?:\w+ )?nicht\b",
    r"\b(?:leistung|leistungen|behandlung|kosten|kostenübernahme|therapie|untersuchung|\w*gutsprache) "
    r"(?:[\w-]+ ){0,7}?nicht (?:\w+ )?(?:enthalten|versichert|gedeckt|abgedeckt|übernommen|erstattet|erteilt|"
    r"bewilligt|gewährt)\b",
    # Portuguese
    r"\bnão (?:é|és|está|estás|são|estão|foi|ficou) (?:\w+ )?(?:elegíve(?:l|is)|cobert[oa]s?|"
    r"abrangid[oa]s?|aprovad[oa]s?|contemplad[oa]s?|selecionad[oa]s?|seleccionad[oa]s?)\b",
    r"\bnão (?:cumpre|cumpres|preenche|preenches|atende|reúne|reúnes) (?:os |as |a |aos |às )?"
    r"(?:\w+ ){0,2}?(?:requisitos|critérios|condições)\b",
    r"\bnão se (?:enquadra|qualifica)\b|\bnão (?:tem|tens) direito\b",
    r"(?<!acesso )(?<!permissão )(?<!não )"
    r"\b(?:foi|foram|está|estão|ficou|ficaram) (?:\w+ )?(?:indeferid[oa]s?|recusad[oa]s?|negad[oa]s?|"
    r"rejeitad[oa]s?|reprovad[oa]s?)\b",
    # Hindi and Hinglish
    rf"(?:पात्र|योग्य|हकदार|हक़दार|पात्रता में) (?:(?!या )\S+ ){{0,2}}?{_NOT_HI}(?: पाए गए| पाई गई| पाया गया| माने गए)?",
    rf"(?:सूची|लिस्ट) में (?:शामिल|सम्मिलित|दर्ज) {_NOT_HI}",
    rf"(?:पैसा|पैसे|पेंशन|राशि|रिफंड|किस्त|सब्सिडी|वेतन|ब्याज|भुगतान) (?:\S+ ){{0,2}}?{_NOT_HI} (?:आया|आई|आए|जुड़ा|"
    rf"जुडा|जुड़ी|मिला|मिली|मिलेगा|मिलेगी)",
    rf"(?:सीट|टिकट|बर्थ|स्लॉट|अपॉइंटमेंट) (?:\S+ )?{_NOT_HI} (?:मिलेगी|मिलेगा|मिलेंगी|मिलेंगे)",
    r"(?:^|\s)अपात्र(?=\s|[।.,]|$)",
    r"(?<!लॉगिन )(?<!login )(?<!अनुरोध )(?<!रिक्वेस्ट )(?<!request )(?<!टोकन )"
    r"(?:अस्वीकार|अस्वीकृत|खारिज|ख़ारिज|नामंजूर|नामंज़ूर|निरस्त) (?:कर दिया गया|कर दी गई|कर दिया|कर दी|हो गया|हो गई|"
    r"किया गया|की गई|है|हुआ|हुई)",
    rf"(?:कवर|स्वीकृत|मंजूर|मंज़ूर|अप्रूव) {_NOT_HI} (?:है|हैं|होता|होती|होगा|होगी|हुआ|हुई|किया)",
    rf"\b(?:eligible|patra|qualify|qualified|entitled) (?:(?!ya\b)\w+ )?{_NOT_HINGLISH}\b",
    r"\b(?:reject|rejected|decline|declined|kharij|deny|denied) (?:\w+ )?(?:ho gaya|ho gayi|"
    r"ho gai|kar diya|kar di|kar diya gaya|hua|hui|hai)\b",
    rf"\b(?:cover|approve|approved|sanction|manjoor|manzoor) {_NOT_HINGLISH} (?:hota|hoti|karta|karti|"
    r"hai|hua|hui|kiya)\b",
    rf"\bkoi (?:\w+ )?(?:entitlement|benefit|labh|laabh|hak|haq|refund) (?:\w+ )?{_NOT_HINGLISH} (?:banta|banti|"
    r"milega|milegi|hai)\b",
    rf"\b(?:refund|paisa|paise|pension|salary|benefit|labh|subsidy|payment|credit|amount|kist|kisht|"
    rf"installment|instalment) (?:\w+ ){{0,2}}?{_NOT_HINGLISH} (?:milega|milegi|milenge|aayi|aaya|aaye|aai|"
    r"aayega|aayegi|aya|ayi)\b",
    rf"\b(?:seat|seats|ticket|tickets|berth|slot|slots|appointment|room|rooms|cnf|confirm) (?:\w+ )?"
    rf"{_NOT_HINGLISH} (?:milegi|milega|milenge|milengi|hoga|hogi)\b",
    # English: a benefit the user will not receive
    r"\byou will not (?:be )?(?:receiv(?:e|ing)|get(?:ting)?) (?:the |any |a |your )?(?:\w+ )?(?:scholarship|"
    r"benefit|benefits|refund|payment|pension|subsidy|grant|allowance|compensation|reimbursement)\b",
]

_NOT_A_FIELD = (
    r"(?![^\n:]*\b(?:results?|resultados?|résultats?|resultats?|ergebnis\w*|treffer|matches|hits|output|"
    r"errors?|erros?|errores|erreurs?|fehler|failures?|fallos?|échecs?|falhas?|warnings?|response|"
    r"respuesta|réponse|\w*antwort|resposta|data|datos|données|daten|dados|info\w*|details?|message|"
    r"code|http|retries|attempts?|connection|conexión|connexion|verbindung|conexão|ligação|sync\w*|"
    r"synchro\w*|sincroni\w*|status der|last|dernière|última|letzte|actions?|acci[oó]n\w*|ação|ações|notes?|"
    r"comments?|remarks?|observaci\w+|observações|bemerkung\w*|hinweis\w*|attachments?|fees?|charges?|"
    r"costs?|costes?|frais|kosten|gebühr\w*|custos?|impact\w*|changes?|cambios|changements|änderungen|"
    r"alterações|references?|référence|referencia|referência|aktenzeichen|protocolo|next steps?)\b[^\n:]*:)"
)
_VERDICT_VALUE = (
    r"(?:not eligible|ineligible|not approved|not covered|declined|rejected|refused|denied|"
    r"refusée?|rejetée?|abgelehnt|nicht bewilligt|nicht gedeckt|indeferid[oa]|recusad[oa]|negad[oa]|"
    r"não coberto|no elegible|no beneficiari[oa]|denegad[oa]|rechazad[oa]|अस्वीकृत|अस्वीकार|अपात्र|खारिज)"
)
_NONE_VALUE = (
    r"(?:none|nil|nenhuma?|ningun[oa]?|ningún|keine?s?|aucune?s?|rien|nada|nichts|"
    r"(?:sin|sem) (?!(?:conexión|conexion|respuesta|resposta|ligação|ligacao|conexão|acceso|acesso|datos|"
    r"dados|servicio|serviço|señal|sinal|internet|red|rede|sistema)\b)\w+|"
    rf"कोई नहीं|koi nahi|0(?:[.,]00?)?(?: ?[€$£₹])?|{_VERDICT_VALUE})"
)
STATUS_STRONG = [
    rf"(?:^|\n|• |\| |— | - |\. )(?:- |\* )?{_NOT_A_FIELD}(?=[^\n:]*[a-zà-ɏ\u0900-\u097f])[^\n:•|—]{{3,50}}: "
    rf"{_NONE_VALUE}(?= *(?:[.!;•|\n(।]|$))",
    # a status or result field whose value is a verdict or a record not found
    rf"(?:^|\n|• |\| |— | - |\. )(?:- |\* )?(?:\w+ )?(?:status|statut|estado|stand|state|result|resultado|"
    rf"résultat|ergebnis|entscheid|entscheidung|decision|décision|decisión|decisão|स्थिति|परिणाम|"
    rf"निर्णय)(?: \w+)?: (?:{_VERDICT_VALUE}|not found|no record|no records|(?:sin|sem) (?:expediente|registro|"
    rf"registo|solicitud|cadastro|processo)\w*|nicht gefunden|kein eintrag|non trouvée?|introuvable|"
    rf"aucun dossier|कोई रिकॉर्ड नहीं|रिकॉर्ड नहीं मिला|record nahi mila)(?= *(?:[.!;•|\n(।]|$))",
]

_NOT_A_ROW = (
    r"(?![^\n]*\b(?:errors?|erros?|errores|erreurs?|fehler|failures?|fallos?|échecs?|falhas?|retries|"
    r"attempts?|tentativas?|tentatives?|versuche|warnings?|code|http|status|loaded|geladen|cargad\w*|"
    r"chargée?s?|carregad\w*|fetched|read|leíd\w*|lues?|gelesen|lid\w*)\b)"
)
TABLE_STRONG = [
    # a table row (its pipes dropped) whose last cell is zero: "kw 45 0", "uplabdh slot 0"
    rf"(?:^|\n){_NOT_A_ROW}(?=[^\n]*[a-zà-ɏ\u0900-\u097f])[^\n:]{{3,50}}? (?:0|0[.,]00 ?€|[€₹$] ?0)(?=\n|$)",
]

_NO = r"(?:no|nenhuma?|ningun[oa]?|ningún|aucune?|kein\w*)"
_ACTED = (
    r"(?:changed|altered|modified|deleted|removed|erased|lost|cancell?ed|moved|consolidated|shared|"
    r"disclosed|carried out|performed|modificad[oa]|alterad[oa]|eliminad[oa]|borrad[oa]|cancelad[oa]|"
    r"perdid[oa]|efetuad[oa]|efectuad[oa]|estornad[oa]|compartid[oa]|modifiée?s?|supprimée?s?|"
    r"annulée?s?|perdue?s?|effectuée?s?|transmise?s?|partagée?s?|geändert|gelöscht|storniert|verloren|"
    r"vorgenommen|weitergegeben|durchgeführt)"
)
"""What the service did (or would have done) to the user's file: denied, it says nothing of the
data. Costs ("no fees were charged in that period") are left out: they can be what was asked."""
VERDICT_OTHER = [
    # the service's own acts denied
    rf"\b{_NO} (?:\w+ ){{0,3}}?(?:(?:has|have|was|were|had|is|are|a|ont|n'a|n'ont|foi|foram|fue|fueron|ha|"
    rf"han|se|wurde|wurden|ist|sind) )?(?:been |été |sido )?(?:\w+ )?{_ACTED}\b",
    rf"\b(?:es |dabei )?(?:wurde|wurden|ist|sind) (?:\w+ ){{0,2}}?keine? (?:\w+ ){{0,3}}?{_ACTED}\b",
    # a clinical finding
    r"\b(?:no|aucune?|kein\w*|ningun\w*|nenhum\w*|sin|sem|pas de) (?:signs? of |evidence of |signe "
    r"d[e'] ?|hinweis auf |indicios de |sinais de )?(?:\w+ )?(?:fractures?|fracturas?|fraturas?|"
    r"abnormalit\w+|anomalies?|anomalías?|anomalias?|lesions?|lésions?|lesiones|lesões|tumou?rs?|"
    r"tumeurs?|tumores|malignan\w+|células malignas|cellules malignes|bösartig\w*|infections?|"
    r"infecci\w+|infeç\w+|\w*riss|\w*rupturen?|ergüsse?|erguss|épanchement|derrame|bleeding|"
    r"hémorragie|sangrado|blutung|compression)\b",
]

VERDICT_NEGATED_SAY = [
    r"\bnot (?:a |an )?(?:determination|finding|decision|ruling|conclusion|confirmation) (?:that|of)\b",
    r"\bce n'est pas (?:un |une )?(?:refus|rejet|décision|constat)\b",
    r"\b(?:kein|keine|keinen) (?:ablehnung|negativer bescheid|negative entscheidung|feststellung)\b",
    r"\bno (?:es|significa|supone|implica) (?:una |un )?(?:denegación|rechazo|resolución)\b",
    r"\bnão (?:é|significa|implica) (?:uma |um )?(?:recusa|negação|indeferimento|decisão)\b",
    r"(?:यह|इसका अर्थ|इसका मतलब) (?:\S+ ){0,2}?(?:नहीं कि|नहीं है कि)",
]
"""A verdict the user is told has not been given: the absence phrase after it is not asserted."""

# the consequences of the failed check, denied: no effect, no fee, no notice will follow
_HI_WILL = (
    r"(?:पड़ेगा|पड़ेगी|पड़ेंगे|लगेगा|लगेगी|लगाया जाएगा|लगाई जाएगी|कटा|कटी|कटेगा|कटेगी|होगा|होगी|आएगा|आएगी)"
)
CONSEQUENCE_OTHER = [
    rf"कोई (?:भी )?(?:\S+ )?(?:असर|प्रभाव|शुल्क|चार्ज|फ़ीस|फीस|जुर्माना|पेनल्टी|नुकसान|नोटिस|कार्रवाई) "
    rf"(?:\S+ ){{0,2}}?(?:नहीं|नही) {_HI_WILL}",
    r"\bkoi (?:bhi )?(?:\w+ ){0,3}?(?:charge|charges|fee|fees|penalty|notice|asar|effect|impact|nuksan|"
    r"action) (?:\w+ )?(?:nahi|nhi|nahin) (?:lagega|lagegi|hoga|hogi|katega|kategi|aayega|aayegi|padega|"
    r"padegi|kata|kati)\b",
]

# the answer got past the failure by another way: a refresh that showed a message, a retry that
# answered, a person asked instead ("so I rang the branch", "clerk sahab se poocha")
RELAYED_RECOVERY = [
    r"\b(?:so |then |instead )?i (?:rang|called|phoned|spoke to|talked to|asked) (?:the |their |a |your )?"
    r"(?:\w+ )?(?:branch|office|clinic|hospital|shop|store|dealer|helpline|clerk|staff|officer|desk|"
    r"pharmacy|counter|reception|section|school|bank)\b|\bi spoke to (?:the )?staff directly\b",
    r"\b(?:refresh|reload|retry) (?:pe|par|karne pe|karne par|kiya to|kiya toh|ke baad)\b|"
    r"\b(?:dobara|phir se|fir se|dubara) (?:try|check|refresh|koshish) (?:kiya|kari|ki) (?:to|toh)\b|"
    r"\b(?:sahab|sir|madam|didi|bhaiya|clerk|staff|officer|manager) se (?:poocha|pucha|baat ki|baat kari)\b",
    r"(?:फिर|दोबारा|बाद में) (?:\S+ )?(?:खुला|खुली|चला|चली|आया|आई) (?:तो|पर)(?=\s)|"
    r"(?:दोबारा|फिर से) (?:कोशिश|प्रयास|ट्राई) (?:की|किया|करने) (?:तो|पर)(?=\s)|"
    r"(?:रिफ्रेश|रिफ़्रेश) (?:किया|करने) (?:तो|पर)(?=\s)",
    r"(?:फिर|बाद में) (?:से )?(?:दिखा|दिखी|दिखाया|पता चला)(?=\s)|(?:फिर|बाद में) (?:\S+ )?जानकारी (?:आई|मिली)",
]
"""The failure got past by another way, so what follows it is told as found."""

GROUNDS = (
    r"\b(?:based on|going by|as per|according to|from) (?:the |what |our |your )?(?:information|data|"
    r"records?|details|figures|documents)(?: \w+){0,5}? (?:available|i (?:was able to|could) "
    r"(?:access|see|get)|that (?:loaded|came through|did load))\b|"
    r"\b(?:our|the) records (?:show|indicate|suggest)\b|"
    r"\b(?:d'après|selon|au vu de) (?:les|nos|ce qui|ce que) (?:éléments|informations|données|dossiers|"
    r"s'est affiché|j'ai pu voir)\b|"
    r"\b(?:con|según) (?:la|los|las|lo) (?:información|datos|registros|que (?:cargó|cargaron|se pudo))"
    r"(?: \w+){0,2}?\b|"
    r"\b(?:laut|nach) (?:den )?(?:vorliegenden |verfügbaren )?(?:daten|datenlage|informationen|"
    r"unterlagen|auskunft|angaben)\b|"
    r"\b(?:com base|de acordo|segundo) (?:nas|nos|com os|com as|os|as) (?:informações|dados|registos|"
    r"registros|elementos)\b|"
    r"(?:उपलब्ध |मौजूद )?(?:रिकॉर्ड|जानकारी|अभिलेख|आंकड़ों|डेटा) के (?:अनुसार|हिसाब से)|"
    r"\b(?:records?|data|jaankari|jankari|sms|message|portal|system|report|documents?) ke (?:hisaab|hisab|"
    r"basis) (?:se|pe|par)\b|"
    r"(?:प्राप्त|उपलब्ध) (?:स्थिति|रिकॉर्ड|जानकारी) के (?:अनुसार|आधार पर)"
)
"""Grounds an answer gives for what follows: set after a failure, they are read like "but"."""
