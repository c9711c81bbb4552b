"""Absence told by a list, a release or a stock figure; absence words about the assistant's own
acts and the service's costs in more words; readings the user is told not to make; and a
recovery told in two words, in every covered language:

- a name or number not on a list ("your roll number isn't on the qualified list", "सूची में आपका
  नाम दर्ज नहीं है", "voter list me aapka naam nahi hai") and a result not yet declared or
  published ("परिणाम अभी घोषित नहीं हुआ है", "result declare nahi hua"): the user acts on both;
- a place or seat not vacant ("3AC खाली नहीं", "CC khali nhi"), a stock that is none ("stock
  nahi hai", "existencia 0", "Bestand 0", "available slots = 0"), a place booked out, "in keiner
  der vier Apotheken lagernd", "nirgends lieferbar";
- "je n'ai touché à aucune configuration", "no he tocado ninguna", "não mexi em nenhuma", "ich
  habe keine Einstellungen geändert", "não há nenhum custo": the assistant's acts and the costs,
  not the items;
- "no lo interpretes como que no hay", "ne l'interprétez pas comme", "não interprete isso como",
  "das heißt aber nicht, dass": an absence the user is told not to read;
- "erst Timeout, dann OK", "then fine", "kam ich durch", "finally I could see", "al repetir la
  consulta ha respondido": the failure got past.
"""

from __future__ import annotations

_NOT_HI = r"(?:नहीं|नही)"
_NOT_HINGLISH = r"(?:nahi|nahin|nhi|nai|nahee)"
_LISTS = (
    r"(?:list|lists|roll|rolls|register|shortlist|short-list|merit list|rank list|results|"
    r"selection list|waitlist|roster)"
)
_RELEASED = r"(?:declared|published|released|announced|out|put out|issued|uploaded)"
_RESULT = (
    r"(?:results?|rank lists?|merit lists?|scorecards?|score cards?|answer keys?|admit cards?|"
    r"hall tickets?|cut-?offs?|allotments?|marksheets?)"
)

RECORDS_STRONG = [
    # a name or number not on a list
    rf"\b(?:name|names|roll number|roll no|registration number|registration no|application "
    rf"number|application no|application|enrol?ment number|candidate number|number|id) (?:is|was|"
    rf"are|were) not (?:yet )?(?:on|in|part of|among|listed (?:on|in)|included in|there in) "
    rf"(?:the |this |that |your |any )?(?:\w+ ){{0,4}}?{_LISTS}\b",
    rf"\b(?:does|do|did) not (?:yet )?(?:appear|figure|feature|show up) (?:on|in) (?:the |this |"
    rf"that |any )?(?:\w+ ){{0,4}}?{_LISTS}\b",
    rf"(?:सूची|लिस्ट) में (?:\S+ ){{0,3}}?(?:नाम|अनुक्रमांक|रोल नंबर|आवेदन|क्रमांक)(?: \S+){{0,2}}? "
    rf"(?:दर्ज |सम्मिलित |शामिल |मौजूद |उपलब्ध )?{_NOT_HI}",
    rf"(?:नाम|अनुक्रमांक|रोल नंबर|आवेदन संख्या) (?:\S+ ){{0,5}}?(?:सूची|लिस्ट) में (?:\S+ )?"
    rf"(?:दर्ज |सम्मिलित |शामिल |मौजूद )?{_NOT_HI}",
    rf"(?:का|की) चयन {_NOT_HI} (?:हुआ|हुई|हो पाया)",
    rf"\b(?:list|suchi|lists) (?:me|mein|mai|mei|pe|par) (?:\w+ ){{0,3}}?(?:naam|name|roll no|roll "
    rf"number|application no|number) (?:\w+ )?{_NOT_HINGLISH}\b",
    rf"\b(?:naam|name) (?:\w+ ){{0,3}}?(?:list|suchi) (?:me|mein|mai|mei|pe|par) (?:\w+ )?"
    rf"{_NOT_HINGLISH}\b",
    # a result not declared or published
    rf"\b{_RESULT} (?:for \w+ |of \w+ )?(?:has|have|is|are) not (?:yet |even )?(?:been )?"
    rf"{_RELEASED}\b",
    rf"\b(?:has|have) not (?:yet )?(?:put out|released|published|declared|issued) (?:the |your |"
    rf"its )?(?:\w+ ){{0,4}}?{_RESULT}\b",
    rf"(?:परिणाम|रिज़ल्ट|रिजल्ट|नतीजा|नतीजे|मेरिट सूची|मेरिट लिस्ट|स्कोरकार्ड|कटऑफ|चयन सूची) "
    rf"(?:\S+ ){{0,3}}?(?:घोषित|जारी|प्रकाशित) {_NOT_HI} (?:हुआ|हुए|हुई|किया|किए|की)",
    rf"\b(?:result|results|scorecard|rank list|merit list|cutoff|cut off) (?:\w+ ){{0,3}}?"
    rf"(?:declare|declared|publish|published|release|released|jaari|ghoshit|generate|generated) "
    rf"(?:hi )?{_NOT_HINGLISH} (?:hua|hue|hui|kiya|kia|ki|hai)\b",
    rf"\b(?:board|university|commission|nta|board ne) (?:\w+ )?(?:ne )?(?:declare|publish|release) "
    rf"{_NOT_HINGLISH} (?:kiya|kia)\b",
    # not vacant, no stock
    rf"(?:^|\s)(?:खाली|ख़ाली) {_NOT_HI}(?= |[।.,!]|$)(?! (?:पता|बता|दिख))",
    rf"\b(?:khali|khaali|khaalee) {_NOT_HINGLISH}\b",
    rf"\b(?:stock|stok) (?:\w+ )?{_NOT_HINGLISH}\b(?! (?:pata|bata|dikh|mil raha|load))",
    rf"(?:स्टॉक|स्टाक) (?:\S+ )?{_NOT_HI} (?:है|हैं|बचा|बची)",
    r"\b(?:bestand|lagerbestand|existencia|existencias|estoque|stock|inventory|inventario) (?:de |"
    r"von |of |is |ist |es |é )?0\b(?![.,:]\d)",
    r"\b(?:available|free|open|disponibles?|libres?|frei|verfügbar|disponíveis|livres)(?: \w+){0,5}?"
    r" ?= ?0\b(?![.,]\d)",
    r"\b(?:are|is|were|was|both|all) (?:\w+ )?(?:all |both |completely |fully |totally )?booked out\b",
    r"\bneither (?:\w+ ){0,3}?(?:has|have|carries|stocks) (?:it|them|any|one)(?: \w+)? (?:in stock|"
    r"available|left)\b",
    r"\bin keine[mr] (?:der |von )?(?:\w+ ){0,4}?(?:lagernd|vorrätig|verfügbar|lieferbar|auf lager|"
    r"erhältlich|zu haben)\b",
    r"\b(?:nirgends|nirgendwo) (?:\w+ )?(?:lieferbar|verfügbar|vorrätig|lagernd|erhältlich|auf "
    r"lager|zu bekommen|zu haben)\b",
    # a value given as full, zero left, none among the places looked at
    r"(?:[:|] *)(?:voll|full|pleine?s?|complets?|cheia|cheio|llenos?|llenas?)\b(?! (?:refund|price|"
    r"day|time|details|name|address|stop))",
    r"(?:^|\s)(?:जीरो|ज़ीरो|शून्य|0) (?:\S+ )?(?:बचे|बची|बचा|उपलब्ध)(?= |[।.,!]|$)",
    r"\b(?:vacancy|vacancies|seat|seats|slot|slots|job|jobs|room|rooms|ticket|tickets|option|"
    rf"options|doctor|doctors) (?:\w+ ){{0,2}}?koi (?:bhi )?{_NOT_HINGLISH}(?: hai| h| he| hain)?\b",
    r"(?:बिकना|बिक्री) (?:\S+ )?बंद|\b(?:bikna|bikri) band\b",
    rf"(?:लिस्ट|सूची|मेन्यू|मेनू) में (?:ही |भी )?{_NOT_HI} (?:है|हैं)",
]

RECORDS_FAILURE = [
    r"\b(?:otp|code|sms|email|e-mail|verification code|confirmation) (?:\w+ )?(?:did not|never) "
    r"(?:arrive|come|come through)\b",
    r"\b(?:kept|keeps|just kept) (?:spinning|timing out|crashing|freezing|erroring|failing)\b",
    r"(?:^|\s)पता नहीं चल(?:ा|ी| पाया| पाई| सका| सकी)(?=[\s।.,!]|$)",
    rf"\bpata {_NOT_HINGLISH} (?:chala|chal paya|chal saka|lag paya)\b",
]

RECORDS_OTHER = [
    # the assistant's own acts
    r"\b(?:je )?n'ai (?:\w+ )?(?:touché|modifié|changé|supprimé|annulé|effacé) (?:à )?(?:aucune?|"
    r"rien)\b",
    r"\bno (?:he )?(?:tocado|modificado|cambiado|borrado|cancelado|eliminado) (?:ningún|ninguna|"
    r"nada)\b",
    r"\bnão (?:mexi|alterei|toquei|apaguei|cancelei|modifiquei|mudei) (?:em )?(?:nenhum|nenhuma|"
    r"nada)\b",
    r"\bich habe (?:\w+ )?(?:keine|keinen|kein|nichts) (?:\w+ )?(?:geändert|angefasst|gelöscht|"
    r"storniert|verändert)\b",
    r"\bi (?:did not|have not|never) (?:\w+ )?(?:touch|touched|change|changed|modify|modified|delete|"
    r"deleted|cancel|cancell?ed) (?:any|anything)\b",
    # the service's costs
    r"\bnão (?:há|tem|terá|haverá|vai ter|vai haver) (?:nenhum|nenhuma|qualquer) (?:custo|"
    r"penalização)(?: (?:nem|ou) \w+)? (?:pra|para|por|nem|adicional|extra)\b",
    r"\bno (?:hay|tiene|habrá|tendrá|va a haber) (?:ningún|ninguna) (?:costo|coste|penalización)"
    r"(?: (?:ni|o) \w+)? (?:para|por|ni|adicional|extra)\b",
    r"\b(?:no|zero|without any) (?:cost|penalty|penalties)\b(?! (?:on|in|to) (?:your|the) "
    r"(?:\w+ )?(?:account|card|bill|statement|invoice))",
    # a reference the failed action would have given
    r"कोई (?:\S+ )?(?:संख्या|नंबर|आईडी|रसीद)(?: \S+)? नहीं (?:मिली|मिला|आई|आया|बनी|बना)",
    r"\bno (?:reference|ticket|complaint|confirmation|booking|order|tracking|request) (?:number|id|"
    r"code)s? (?:was |were |has been |got )?(?:generated|issued|received|created|given)\b",
]

RECORDS_NEGATED_SAY = [
    r"\bno (?:lo |la |los |las )?(?:interpretes|interprete|interpreten|tomes|tome|entiendas|"
    r"entienda|leas|lea) como (?:que|si|señal de que)\b",
    r"\bne (?:l'|le |la |les )?(?:interprétez|interprète|prenez|prends|lisez|lis) pas comme\b",
    r"\bnão (?:o |a )?(?:interprete|interpretes|entenda|entendas|leia|leias|tome|tomes) (?:isso |"
    r"isto )?como\b",
    r"\b(?:das )?(?:heißt|bedeutet) (?:aber |doch |allerdings )?nicht,? dass\b",
    # after "das heißt aber", a clause break, the frame left is "nicht, dass"
    r"^ ?nicht,? dass\b",
    r"\bnot (?:a )?(?:sign|signal|proof|evidence) (?:that )?\b",
]

RECORDS_RECOVERY = [
    r"जब (?:\S+ )?(?:खुली|खुला|खुल गई|खुल गया|चली|चला|लोड हुई|लोड हुआ) तो|\bjab (?:\w+ )?(?:khuli|"
    r"khula|chala|chali|load hua|load hui) (?:to|toh)\b",
    r"(?:तत्पश्चात|उसके बाद|फिर|बाद में) (?:\S+ )?(?:परिणाम|रिज़ल्ट|जवाब|डेटा|जानकारी) (?:प्राप्त हुआ|"
    r"प्राप्त हुई|मिल गया|मिल गई|मिला|मिली|आ गया|आया)",
    r"\b(?:dann|danach|then|luego|después|ensuite|puis|depois|phir|fir) (?:war es |was it |it was |"
    r"ging es |lief es )?(?:ok|okay|fine|gut|bien|alright)\b",
    r"\bkam ich (?:\w+ )?durch\b|\b(?:finally|eventually|then) i (?:could|was able to) (?:see|get "
    r"in|access|load|check|open)\b",
    r"\bal (?:repetir|reintentar|volver a (?:lanzar|hacer|intentar))(?: la consulta| la búsqueda)?,?"
    r" (?:ya )?(?:ha respondido|respondió|funcionó|ha funcionado)\b|\b(?:finalmente|por fin|al "
    r"final) se (?:completó|ha completado)\b",
]
