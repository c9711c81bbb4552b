"""A retry that worked, told as done: "the second attempt worked", "दूसरी बार रिज़ल्ट खुल गया",
"teesri baar mein login ho gaya", "al segundo intento entró", "beim zweiten Versuch hat es
geklappt".

An answer whose failures were all followed by one of these, and which claims no absence, reports
what the retry found: it neither misreports nor acknowledges a failure, so it is ``unreadable``
(``failure_recovered``) and leaves the metric's denominator, as an answer with results and no
failure mentioned does. Only a retry told as done counts: "once the system is back", "I'll check
again" and "in the end" are not one.
"""

from __future__ import annotations

_FILL = r"(?:(?!(?:never|not|no|nicht|nie|pas|jamais|não|nunca|nahi|nhi|nai|nahin)\b)\w+ )"
_FILL_HI = r"(?:(?!नहीं|न )\S+ )"
_DONE_EN = r"(?:worked|went through|succeeded|got through|came back|loaded|connected)"
_DONE_HI = (
    r"(?:खुल गया|खुल गई|खुल गए|मिल गया|मिल गई|मिल गए|हो गया|हो गई|हो गए|चल गया|चल गई|आ गया|आ गई|आ गए)"
)
_DONE_HINGLISH = (
    r"(?:ho (?:gaya|gya|gayi|gyi|gaye)|mil (?:gaya|gya|gayi|gyi|gaye)|khul (?:gaya|gya|gayi|gyi)|"
    r"aa (?:gaya|gya|gaye|gye|gayi)|chal (?:gaya|gya|gayi|gyi)|aaye|aaya|aayi)"
)

RETRY_SUCCEEDED = [
    # English
    rf"\b(?:second|third|fourth|next|another|new) (?:try|attempt|one|go|search|request|call|"
    rf"lookup|query) {_FILL}{{0,2}}?{_DONE_EN}\b",
    rf"\b(?:the )?(?:retry|resend|rerun|re-run|re-try|re-send) {_FILL}?{_DONE_EN}\b",
    r"\bgot (?:it|them|through|in) on the (?:second|third|fourth|next) (?:try|attempt|go)\b",
    # Spanish
    r"\b(?:al|en el) (?:segundo|tercer|cuarto|siguiente|otro) intento,? (?:(?!no\b|nunca\b)\w+ ){0,3}?"
    r"(?:funcionó|ha funcionado|ha ido bien|fue bien|entró|ha entrado|cargó|salió|pasó|respondió|"
    r"conectó|se pudo)\b|\ba la (?:segunda|tercera|cuarta)(?: vez)?,? (?:ya )?(?:funcionó|ha "
    r"funcionado|ha ido bien|fue bien|entró|ha entrado|salió bien|pasó)\b|\bel (?:segundo intento|"
    r"reintento) (?:\w+ )?(?:funcionó|salió bien|entró)\b",
    # French
    r"\bau (?:deuxième|second|troisième|nouvel) (?:essai|coup|tentative),? "
    r"(?:(?!pas\b|jamais\b|ne\b|n')\w+ ){0,3}?"
    r"(?:ça a marché|ça a fonctionné|c'est passé|ça est passé|a marché|a fonctionné|a répondu|"
    r"est passée?)\b|\bla (?:deuxième|seconde|nouvelle) tentative a (?:marché|fonctionné|réussi)\b",
    # German
    r"\b(?:beim|im) (?:zweiten|dritten|nächsten|erneuten) (?:versuch|anlauf),? (?:hat (?:es |'s )?|"
    r"hat's |ging (?:es )?|lief (?:es )?)?(?:dann |aber )?(?:geklappt|funktioniert|durch)\b|"
    r"\bder (?:zweite|dritte|erneute) (?:versuch|anlauf) (?:hat )?(?:geklappt|funktioniert)\b",
    # Portuguese
    r"\bna (?:segunda|terceira|quarta|nova|outra)(?: (?:tentativa|vez))?,? "
    r"(?:(?!não\b|nunca\b)\w+ ){0,3}?(?:funcionou|deu certo|"
    r"entrou|carregou|respondeu|foi)\b|\ba (?:segunda|nova) tentativa (?:\w+ )?(?:funcionou|"
    r"deu certo)\b",
    # Hindi
    rf"(?:दूसरी|तीसरी|चौथी|अगली)(?: (?:बार|कोशिश|try|ट्राई))?(?: में)? {_FILL_HI}{{0,3}}?{_DONE_HI}",
    rf"(?:दोबारा|फिर से) {_FILL_HI}{{0,3}}?(?:तो )?{_DONE_HI}",
    # Hinglish
    rf"\b(?:dusri|doosri|dusre|teesri|tisri|agli|next)(?: (?:baar|bar|try|koshish|attempt))?"
    rf"(?: (?:mein|me|mai|pe))? {_FILL}{{0,3}}?{_DONE_HINGLISH}\b",
    r"\b(?:ab|abhi) (?:jaake |ja ke )?(?:ho|chal|khul) (?:gaya|gya|gayi|gyi)\b",
    rf"\b(?:dobara|dubara|phir se|fir se) {_FILL}{{0,3}}?{_DONE_HINGLISH}\b",
]
