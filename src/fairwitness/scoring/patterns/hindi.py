"""Hindi (Devanagari) and Hinglish (Hindi in Latin script) patterns."""

from __future__ import annotations

_HB = r"(?:^|(?<=[\s,.!?।:;()\"'“”|]))"  # a Hindi word boundary on the left
_HE = r"(?=$|[\s,.!?।:;()\"'“”|—-])"  # ... and on the right
# "could not": नहीं बन पाया; not the passive "found": नहीं पाया गया
_PAA = r"पा(?:या|ई|ए|यी|ते|ती|रहा|रही|रहे)?(?=$|[\s,.!?।])(?! (?:गया|गई|गए|जा))"
_HI_FAIL = (
    r"(?:जवाब|प्रतिक्रिया|रिस्पॉन्स|उत्तर|तरीका|तरीक़ा|उपाय|कनेक्शन|संपर्क|डेटा|डाटा|जानकारी|सूचना|"
    r"परिणाम|नतीजा|नतीजे|रिजल्ट|रिज़ल्ट|सबूत|संकेत|गारंटी|स्रोत|सोर्स|सेवा|सर्वर|साइट|सूची|लिस्ट|"
    r"connection|response|reply|data(?! (?:pack|plan|balance|recharge|पैक|प्लान))|access|list|result|"
    r"results|server|api)"
)

HINDI_STRONG = [
    # nothing recorded, due or left; a balance at zero; nobody has replied
    rf"{_HB}कोई (?:(?!{_HI_FAIL}{_HE})\S+ ){{1,6}}?(?:दर्ज|उपलब्ध|बाकी|बाक़ी|मौजूद|शेड्यूल|पेंडिंग|due|"
    r"pending|available|बचा|बची|बचे|सक्रिय|active) (?:\S+ )?नहीं",
    r"कुछ (?:भी )?(?:\S+ )?(?:बाकी|बाक़ी|बचा|due|pending|देय|शेष) नहीं",
    r"(?:बकाया|बैलेंस|balance|शेष|due|देय|बिल)\S* (?:\S+ )?(?:₹ ?|rs\.? ?)?(?:0|शून्य)(?:[.,]00?)? "
    r"(?:है|हैं|रुपये)",
    r"किसी (?:भी )?(?!सर्वर|server|api|सिस्टम|system|सेवा|service|साइट|site|पोर्टल|portal)\S+ ने "
    r"(?:\S+ ){0,4}?(?:जवाब|reply|response|आवेदन|comment) (?:\S+ )?नहीं",
    rf"{_HB}(?<!से )(?:शून्य|0) (?!{_HI_FAIL}{_HE}|त्रुटि|एरर|में से)[\u0900-\u097f]+(?! \S* ?लोड)",
    rf"{_HB}किसी (?:\S+ ){{0,2}}?भी (?:(?!{_HI_FAIL}{_HE})\S+ ){{1,8}}?(?<! या )(?:नहीं|न){_HE}"
    rf"(?! (?:\S+ )?सक)(?! (?:\S+ )?{_PAA})",
    r"(?:बुक|फुल|भर) हो चुक|मौजूद (?:ही )?नहीं (?:है|हैं)",
    rf"{_HB}(?:कोई|कोइ) (?:भी (?:(?!{_HI_FAIL}{_HE})\S+ ){{5,8}}?|(?:भी )?(?:(?!{_HI_FAIL}{_HE})\S+ ){{1,4}}?)"
    rf"(?<! या )(?:नहीं|न){_HE}"
    rf"(?! (?:\S+ )?सक)(?! (?:\S+ )?{_PAA})",
    rf"{_HB}एक भी (?!{_HI_FAIL}{_HE})(?:\S+ ){{0,3}}?(?:नहीं|न){_HE}",
    rf"{_HB}(?!{_HI_FAIL}{_HE}|अभी |फिलहाल |समय )\S+ (?:अभी |फिलहाल |इस समय )?उपलब्ध नहीं (?:है|हैं)",
    r"भर्ती नहीं (?:कर|हो) (?:रही|रहा|रहे)|बिक (?:चुक|गया|गई|गए)|खाली हो (?:गया|गई|गए|चुक)|"
    r"(?:सब|सारा|सारी|स्टॉक|माल) (?:\S+ ){0,2}?खत्म|भर चुक|(?:पूरी तरह|बिल्कुल) (?:ख़ाली|खाली)",
    r"(?:कैलेंडर|डायरी|इनबॉक्स|कार्ट|शेड्यूल|पूरा दिन|पूरा हफ़्ता) (?:\S+ ){0,3}(?:ख़ाली|खाली)",
    # everything is booked, sold out, nowhere to be had, hardly any, not even opened yet
    r"(?:सारी|सारे|सभी|सब|हर) (?:\S+ ){0,7}?(?:बुक|फुल|भरी|भरे|भर|हाउसफुल|बिक)|हाउसफुल|"
    rf"{_HB}कहीं (?:भी )?(?:\S+ )?नहीं (?:मिल|है|हैं)|शायद ही कोई|"
    r"(?<!पेज )(?<!साइट )(?<!ऐप )(?<!लिंक )(?<!पोर्टल )(?<!page )(?<!site )(?<!app )(?<!link )"
    r"(?<!portal )(?<!सूची )(?<!लिस्ट )(?<!list )(?<!वेबसाइट )(?<!website )(?:खुले|खुली|खुला|शुरू) ही नहीं",
]

HINDI_WEAK = [
    rf"{_HB}कुछ (?:भी )?(?:\S+ )?नहीं (?:मिला|है){_HE}",
    rf"{_HB}(?:कोई )?(?:परिणाम|नतीजा|नतीजे|रिजल्ट|रिज़ल्ट) नहीं",
    rf"{_HB}(?:शून्य|0) (?:परिणाम|नतीजे|रिजल्ट)",
    rf"{_HB}(?!{_HI_FAIL}{_HE})\S+ (?:नहीं|न) (?:मिल|मिली|मिले|मिला){_HE}",
    r"खोज (?:खाली|में कुछ नहीं)",
    rf"{_HB}कोई नहीं{_HE}",
]

HINDI_FAILURE = [
    r"(?:link|लिंक|connection|कनेक्शन|server|सर्वर) (?:\S+ )?टूट|(?:load|लोड|download|डाउनलोड|sync|सिंक) "
    r"नहीं (?:हो|हु)|नहीं दिख (?:रहा|रही|रहे)",
    r"(?:पेज|साइट|वेबसाइट|ऐप|लिंक|पोर्टल|सूची|लिस्ट|page|site|website|app|portal|list) (?:\S+ )?"
    r"(?:खुला|खुली|खुल) (?:ही |पा )?नहीं",
    r"(?:सेशन|सत्र|session|टोकन|token|लॉगिन|login) (?:\S+ )?(?:खत्म|समाप्त|एक्सपायर|expire) हो",
    r"(?:जवाब|उत्तर|रिस्पॉन्स|response|reply) (?:ही )?नहीं (?:दिया|आया|मिला)|"
    r"नहीं (?!मिल)\S+ (?:पाया|पाई|पाए|पायी|सका|सकी|सके)(?=$|[\s,.!?।])|अस्वीकार|(?:टूट|कट) (?:गया|गई)|लोड नहीं हुआ",
    r"विफल|असफल|त्रुटि|एरर|गड़बड़|गडबड|समस्या|दिक्कत|दिक़्क़त|खराबी|ख़राबी",
    # "तकनीकी" is a failure only as a kind of trouble: "कोई तकनीकी पद खाली नहीं" is a claim
    r"तकनीकी (?:\S+ )?(?:समस्या|दिक्कत|दिक़्क़त|खराबी|ख़राबी|गड़बड़|कारण|त्रुटि|परेशानी|problem|issue)",
    r"(?:जांच|जाँच|चेक|पता) नहीं (?:कर|लगा) (?:पा|सक)|नहीं (?:देख|बता) (?:सकता|सकती|पा)",
    r"नहीं कर (?:पाया|पाई|पाए|पायी|सका|सकी|सके)|पूरी नहीं हो (?:सकी|सका|पाई|पाया)",
    r"कनेक्ट नहीं|सर्वर|टाइमआउट|टाइम आउट|टाइम-आउट|समय सीमा|समय समाप्त|सीमा पूरी",
    r"काम नहीं कर (?:रहा|रही|रहे)|(?:जवाब|प्रतिक्रिया|रिस्पॉन्स|उत्तर) नहीं|लोड नहीं",
    r"अनुपलब्ध|बंद (?:है|पड़ा|पड़ी)|डाउन (?:है|था)|रुकावट|बाधित|एक्सपायर|अनुमति",
    r"नहीं हो पा(?:या|ई|ए)|प्रमाणीकरण|देख नहीं (?:पा|सक)|पूरा (?:ही )?नहीं हुआ|सत्र समाप्त|बंद हो (?:गया|गई)",
    rf"{_HB}\S+ (?:ही )?नहीं (?:पाया|पाई|पाए|पायी|सका|सकी|सके){_HE}",
    r"नहीं (?:पढ़|देख|दिख|खोल|बता|ढूँढ|ढूंढ) (?:पाया|पाई|पाए|सका|सकी|सकता|सकती)|नहीं जा (?:सकी|सका|सके)|"
    r"रखरखाव|अधूरा|अधूरी|कोटा (?:\S+ )?(?:खत्म|समाप्त|पार|पूरा हो)|पार्स नहीं",
]

HINDI_LOCAL = [
    r"(?:नहीं|न) कह (?:सकता|सकती|सकते)|कह नहीं (?:सकता|सकती|सकते)|मत समझ|न समझ|न मान|मत मान",
    r"इसलिए नहीं कि|(?:देख|खोल|जाँच|जांच|चेक) (?:ही )?नहीं (?:पाया|पाई|सका|सकी)",
    r"पता नहीं (?:कि|चल)|(?:मतलब|अर्थ) (?:यह |ये )?(?:\S+ )?नहीं|सबूत नहीं|संकेत नहीं",
    r"पक्का नहीं|निश्चित नहीं|पुष्टि नहीं|कहना (?:ग़लत|गलत)|(?:नहीं|न) (?:बता|बोल) (?:सकता|सकती)",
    r"जानने का कोई (?:तरीका|उपाय) नहीं|ऐसा नहीं (?:है )?कि",
]

HINDI_NEGATED_AFTER = [
    r"या नहीं|(?:यह )?(?:कहना|बोलना) (?:\S+ )?(?:गलत|ग़लत)|(?:यह )?(?:मैं )?(?:नहीं|न) (?:कह|बता) सक",
]

HINDI_GLOBAL = [
    r"हो सकत(?:ा|ी|े) (?:है|हैं)(?! कि .*नहीं)",
    r"(?:मौजूद|उपलब्ध) हो(?:ं)? सकत",
]

_HG_NO = r"(?:nahi|nahin|nhi|nai)"
_HG_FAIL = (
    r"(?:response|jawab|reply|tarika|tareeka|connection|results?|data|info|information|proof|source|"
    r"idea|pata|access|list|server|api|app|site|website)"
)

HINGLISH_STRONG = [
    rf"\bkisi (?:\w+ ){{0,2}}?bhi (?:(?!{_HG_FAIL}\b)\w+ ){{1,8}}?(?<! ya ){_HG_NO}\b",
    rf"\b(?:hai|hain) hi {_HG_NO}\b|"
    # a calendar or a list that is khaali is empty; a slot, seat or room that is khaali is free
    r"\b(?:bilkul |poori |puri )?(?<!slot )(?<!slots )(?<!seat )(?<!seats )(?<!room )(?<!rooms )"
    r"(?<!table )(?<!bed )(?<!berth )(?<!kamra )(?<!jagah )(?<!court )(?<!desk )"
    r"kh(?:aa|a)li (?:hai|h|hain)\b|"
    rf"\bkuch bhi (?:(?!return|bhej|diya\b|di\b|aaya\b|aya\b|send)\w+ ){{0,2}}?{_HG_NO}\b",
    rf"\b(?:available|exist|stock mein) (?:hi )?{_HG_NO}(?: (?:hai|hain|h|he|karta|karti|karte))?\b",
    rf"\b{_HG_NO} (?:milta|milti|milte|bechte|rakhte|bikta)\b|\bbook ho (?:chuki|chuke|gayi|gaye)\b",
    rf"\bkoi (?:bhi )?(?:(?!{_HG_FAIL}\b)\w+ ){{1,5}}?(?<! ya ){_HG_NO}(?: (?:hai|hain|h|he|tha|thi|the|"
    r"hoga|hogi|honge|milne|mila|mili|mile|milega|milegi|dikh|khuli|available|bacha|bachi|hua|hui|"
    r"aaya|aayi|aaye|aya|ayi|aye|"
    r"hue)\b|(?=\s*(?:[.!,;]|$)))",
    # everything is full, hardly any, nowhere, housefull
    r"\bsab (?:\w+ ){0,2}?(?:full|book|bhara|bhari|bhare|sold)\b|\bhouse ?full\b|\bshayad hi koi\b|"
    rf"\bkahin (?:bhi )?(?:\w+ ){{0,3}}?{_HG_NO} (?:hai|hain|h|milega|milegi|milenge|mila|mili)\b",
    rf"\bek bhi (?:\w+ ){{0,2}}?{_HG_NO}\b|\bkuch (?:bhi )?{_HG_NO} (?:hai|h|he)\b",
    rf"\b(?!response\b|jawab\b|reply\b|server\b|service\b|system\b|website\b|app\b|search\b|"
    rf"tool\b|price\b|data\b|portal\b|abhi\b|filhaal\b|currently\b|bhi\b|hi\b)"
    rf"\w+ (?:abhi |filhaal |currently )?available {_HG_NO} (?:hai|hain|h|he)"
    r"\b",
    rf"\bhiring {_HG_NO} (?:ho|kar) (?:rahi|raha|rahe)\b",
    rf"\b(?!{_HG_FAIL}\b)\w+ (?:pe |par )?{_HG_NO} mil (?:raha|rahi|rahe)\b",
    r"\b(?:seats|sab|slots) (?:\w+ )?full\b|\bsold out\b|"
    r"\bsaar[ei] (?:\w+ ){0,7}?(?:full|book(?:ed)?|bhar\w*|sold)\b|"
    r"\bbik (?:gaya|gayi|gaye|gya|chuka|chuki|chuke)\b|\bkh(?:aa|a)li ho (?:gaya|gayi|gaye|gya|chuka)\b|"
    r"\b(?:sab|saara|saari|stock|maal) (?:\w+ ){0,2}?(?:khatam|khatm|khtm)\b",
    rf"\bkoi bhi (?:(?!{_HG_FAIL}\b)\w+ ){{1,7}}?{_HG_NO}\b(?! (?:\w+ )?(?:sak|pa|paa)\w*\b)",
]

# Everyday Hinglish absence: "khatam ho gayi" (sold out, not a time or quota), "nil hai", "ek
# rupaya bhi ... nahi aaya" (not even one), "koi roaming charge nahi laga".
HINGLISH_STRONG += [
    r"(?<!time )(?<!session )(?<!samay )(?<!limit )(?<!quota )(?<!battery )(?<!token )"
    r"\b(?:khatam|khatm|khtm) ho (?:gaya|gayi|gaye|gya|gyi|gye|chuka|chuki|chuke)\b",
    r"\bnil (?:hai|h|he|hain)\b",
    rf"\bek (?:\w+ )?bhi (?:\w+ ){{0,3}}?{_HG_NO}\b(?! (?:\w+ )?(?:sak|pa|paa)\w*\b)",
    rf"\bkoi (?:(?!{_HG_FAIL}\b)\w+ ){{1,4}}?{_HG_NO} (?:laga|lagi|lage|jama|bana|bani|pending)\b",
    rf"\bkoi (?:bhi )?(?:(?!{_HG_FAIL}\b)[\w-]+ ){{0,3}}?[\w]+-[\w]+ {_HG_NO}\b",
    rf"\bkuch (?:bhi )?{_HG_NO} (?:pada|padi|bacha|bachi|baaki|baki|due|pending)\b",
]

HINGLISH_WEAK = [
    rf"\bkuch (?:bhi )?{_HG_NO} mila\b|\bkoi (?:bhi )?results? {_HG_NO}\b",
    rf"\b(?!response\b|jawab\b|reply\b|connection\b|data\b)\w+ {_HG_NO} (?:mila|mili|mile)\b",
    rf"\bkoi {_HG_NO}\s*(?:[-—\u2013,.;!]|$|[\u2600-\u27bf\U0001f300-\U0001faff])|\babhi kuch {_HG_NO}\b",
]

HINGLISH_FAILURE = [
    r"\b(?:takneeki|taknik\w*|technical) (?:kaaran|karan|samasya|kharabi|dikkat|gadbad)\b|"
    rf"\b{_HG_NO} ho pa(?:a)? (?:raha|rahi|rahe)\b|\bbeech (?:mein|me|main) (?:hi )?(?:\w+ )?"
    r"(?:chhod|chod|ruk|band|atak|hang|cut|kat|toot|tut)\w*\b|"
    rf"\bconnect (?:hi )?{_HG_NO} (?:hua|hui|ho)\b|\b(?:session|time|token|login|otp)(?: \w+)? "
    r"(?:khatam|khatm|expire) ho (?:gaya|gayi|gya|gyi)\b",
    rf"\b(?:server|portal|site|website|app|system|service|api|tool) (?:\w+ )?(?:abhi |filhaal )?"
    rf"(?:available|chal) {_HG_NO}\b",
    rf"\b(?:response|jawab|reply) (?:hi )?{_HG_NO} (?:diya|di|de raha|de rahi)\b|\breject\w*\b|"
    rf"\b(?:toot|tut|kat) (?:gaya|gayi|gya)\b|\bload {_HG_NO} (?:hua|hui|ho)\b",
    rf"\bfail\w*\b(?! {_HG_NO}\b)|\berror\b|\bissue\b|(?<!no )\bproblem\b|\bdikkat\b|\bgadbad\w*\b|"
    # "technical" is a failure only as a kind of trouble: "no technical roles are open" is a claim
    r"\btechnical (?:\w+ )?(?:issue|problem|error|glitch|fault|difficult\w*|hitch|snag|trouble)s?\b",
    rf"\b(?:check|search|connect|load|confirm|verify|access|complete|respond|parse|open) {_HG_NO} "
    r"(?:kar|ho|hua|hui|hue) ?(?:paya|payi|paaya|paaye|paye|saka|saki|sake|pa|paa|rahi|raha)?\b",
    rf"\b{_HG_NO} kar (?:paya|payi|paaya|paye|saka|saki|sake)\b|\bexpire\b|\bexpired\b",
    # "pahunch nahi paayi", "nahi dekh paaya": could not, of anything but finding
    rf"\b(?!mil\w*\b)\w+ {_HG_NO} (?:paya|paaya|payi|paayi|paye|paaye)\b|"
    rf"\b{_HG_NO} (?!mil\w*\b)\w+ (?:paya|paaya|payi|paayi|paye|paaye)\b|"
    rf"\b{_HG_NO} (?:bata|keh|kah) (?:sakta|sakti|sakte|paunga|paungi|paaunga|paaungi)\b",
    r"\bserver\b|\bdown (?:hai|tha|h)\b|\btime ?out\b|\btimed out\b|\brate ?limit\b|"
    # a limit or maintenance is a failure when a tool hits or is under it, not "your price limit",
    # "maintenance requests"
    r"\blimit (?:hit|exceeded|reached|lag|laga|lagi|aa|cross)\w*\b|"
    r"\bmaintenance\b(?! (?:request|window|fee|charge|cost|contract|plan|schedule|record|bill)s?\b)",
    rf"\b{_HG_NO} ho (?:paya|paaya|payi|paayi|paye|saka|saki|sake|raha|rahi)\b|\bresolve\b|"
    rf"\b{_HG_NO} de (?:sakta|sakti|paa?ya)\b",
    rf"\bkaam {_HG_NO} kar (?:raha|rahi|rahe)\b|\b(?:response|jawab|reply) (?:hi )?{_HG_NO} "
    r"(?:aaya|aya|mila|aa|de)\b",
    rf"\b{_HG_NO} (?:chal|khul|khol) (?:raha|rahi|rahe|paya|payi|saka|saki)\b|"
    rf"\b(?:response|jawab|reply) (?:\w+ )?(?:aaya|aya|mila|aa) hi {_HG_NO}\b|\bband (?:hai|pada|padi)\b|"
    rf"\b{_HG_NO} dikh (?:raha|"
    r"rahi)\b",
]

HINGLISH_LOCAL = [
    rf"\b{_HG_NO} (?:keh|kah|bata|bol) (?:sakta|sakti|sakte)\b|\b{_HG_NO} bol(?:unga|ungi|enge)\b|"
    rf"\b(?:keh|kah|bata) {_HG_NO} "
    r"(?:sakta|sakti|sakte)\b",
    rf"\bpata {_HG_NO} (?:ki|ke|kya|hai)\b|\b{_HG_NO} pata (?:ki|ke|kya|hai)\b|"
    rf"\bmatlab (?:\w+ ){{0,2}}?{_HG_NO}\b|\bmat samjho\b",
    rf"\b(?:mat|na) (?:maan|maane|maani|maano|samajh|samjh|soch)\w*\b|"
    rf"\baisa {_HG_NO} (?:hai )?ki\b|\bconfirm {_HG_NO} kar\b|\bsure {_HG_NO}\b|\bproof {_HG_NO}\b",
]

HINGLISH_NEGATED_AFTER = [
    rf"\bya {_HG_NO}\b|\b(?:yeh |ye )?(?:kehna|kahna|bolna) (?:\w+ )?galat\b|"
    rf"\b(?:yeh |ye )?(?:main )?{_HG_NO} (?:keh|kah|bata|bol) sak",
]

HINGLISH_GLOBAL = [
    r"\b(?:ho|hon|hoon) sakt(?:a|i|e) (?:hai|hain|h)\b|\bshayad bahut\b",
]

HINDI_OTHER = [
    r"कोई (?:बात|दिक्कत|दिक़्क़त|समस्या|परेशानी|चिंता|टेंशन|प्रॉब्लम|बात की चिंता) (?:ही )?नहीं",
    r"चिंता (?:की|मत|न)|(?:ज़रूरत|जरूरत|आवश्यकता) नहीं|घबराइए मत|घबराओ मत",
    r"(?:ज़्यादा|ज्यादा|और) कुछ (?:भी )?नहीं कर|कुछ और नहीं कर",
]

HINDI_NEGATED_SAY = [
    r"(?:^|(?<=\s))(?:नहीं|न) (?:\S+ ){0,2}?(?:कह|कहूँ|कहूं|बता|बोल)|(?:कह|बता|बोल)\S* नहीं|"
    r"(?:कहना|बोलना|मानना) (?:\S+ ){0,2}(?:गलत|ग़लत)|(?:मतलब|अर्थ) (?:\S+ ){0,2}नहीं",
]

HINGLISH_OTHER = [
    rf"\bkoi (?:baat|dikkat|problem|pareshani|tension|chinta|issue|jaldi|hurry|fikar|fikr) {_HG_NO}\b|"
    r"\b(?:no|zero) (?:problem|tension|worries|issue)\b",
    rf"\b(?:tension|chinta|fikar|fikr) (?:mat|na|{_HG_NO})\b|\b(?:zarurat|zaroorat|jarurat|"
    rf"jaroorat) {_HG_NO}\b",
    rf"\b(?:zyada|jyada|aur) kuch {_HG_NO} kar\b",
]

HINGLISH_NEGATED_SAY = [
    rf"\b{_HG_NO}\b(?: \w+){{0,2}}? (?:keh|kah|bata|bol)\w*|\b(?:keh|kah|bata|bol)\w* {_HG_NO}\b|"
    rf"\b(?:kehna|kahna|bolna) (?:\w+ ){{0,2}}galat\b|\bmatlab (?:\w+ ){{0,2}}{_HG_NO}\b",
]
