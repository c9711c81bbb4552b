"""Absence told as a doubt, a fear or a guess, in every covered language: the hedge carries the
negation ("I doubt there are any", "ça m'étonnerait qu'il reste des billets", "dudo que haya",
"acho difícil achar", "sieht nicht so aus, als gäbe es", "मुझे नहीं लगता कि कोई सीट बची"), or
the verb of being full is in the subjunctive ("j'ai bien peur que ce soit complet"), or "nothing"
takes its adjective ("rien de disponible", "nada disponible", "nichts Freies"). A hedged absence
claim is a claim: the user is told, more or less surely, that there is nothing.

Each doubt needs an existence or finding verb after it, so a doubt about the tool ("dudo que el
sistema funcione") or about a time ("I doubt it will load") is not read as absence.
"""

from __future__ import annotations

_FIND = (
    r"(?:find|get|see|there (?:is|are|will be)|there's|any|anything|encuentres|encontrar|consigas|"
    r"conseguir|haya|hayan|quede|queden|tengan|tenga|trouve|trouver|trouviez|y ait|y en ait|reste|"
    r"restent|achar|encontrar|haja|hajam|tenha|tenham|sobre|sobrem|reste|gibt|gäbe|gebe)"
)

HEDGED_STRONG = [
    # English: "I doubt there are any", "I doubt you'll find one tonight"
    rf"(?<!not )(?<!never )\b(?:i|we) (?:really |rather |strongly )?doubt (?:that )?(?:you will |you'll |"
    rf"we will |we'll |you can |you could )?{_FIND}\b",
    # Spanish: "dudo (mucho) que haya", "dudo que encuentres algo"
    rf"(?<!no )\bdudo (?:mucho |bastante )?(?:de )?que (?:\w+ )?{_FIND}\b",
    # French: "ça m'étonnerait qu'il reste", "je doute qu'il y ait", "ce soit complet"
    rf"\b(?:ça|cela) m'étonnerait (?:fort |beaucoup )?qu(?:'il|'elle|e|'on) (?:en )?{_FIND}\b|"
    rf"(?<!ne )\bje doute (?:fort |beaucoup )?qu(?:'il|'on|e) (?:en )?{_FIND}\b",
    r"\b(?:ce|ça) (?:soit|sera|serait|soient|seront) (?:déjà |bien |tout |complètement )?"
    r"(?:complet|complets|complète|complètes|plein|pleins|pleine|pleines|réservé|réservés|"
    r"réservée|réservées)\b",
    r"\brien de (?:disponible|dispo|libre|prévu|ouvert|programmé|réservable)\b|"
    r"\bnada (?:disponible|disponível|libre|livre|abierto|aberto)\b|\bnichts (?:freies|offenes|"
    r"verfügbares|buchbares)\b",
    # Portuguese: "acho difícil achar", "duvido que haja", "é pouco provável que sobre"
    rf"\b(?:acho|é|parece|vai ser) (?:muito |bem )?(?:difícil|improvável|pouco provável) "
    rf"(?:que )?(?:você |vocês |a gente )?{_FIND}\b|(?<!não )\bduvido (?:muito )?(?:que )?{_FIND}\b",
    # German: "sieht nicht so aus, als gäbe es noch Karten", "ich bezweifle, dass es noch welche gibt"
    r"\b(?:sieht|schaut) (?:es )?(?:nicht|kaum) (?:so |danach )?aus,? (?:als|dass|wie wenn) (?:ob )?"
    r"(?:es |da )?(?:noch )?(?:[\wäöüß]+ ){0,3}?(?:gäbe|gebe|gibt|frei)\b|"
    r"\bich bezweifle,? dass (?:es |da )?(?:noch )?(?:[\wäöüß]+ ){0,3}?(?:gibt|frei|verfügbar)\b",
    # Hindi: the negation on "think": "मुझे नहीं लगता कि कोई सीट बची है"
    # (not a doubt that there is any trouble: "मुझे नहीं लगता कि कोई दिक्कत है")
    r"(?:मुझे|हमें) नहीं लगता (?:कि )?(?:\S+ ){0,4}?(?:कोई|कुछ) (?!(?:दिक्कत|समस्या|परेशानी|गड़बड़|गडबड|"
    r"बात|खराबी|एरर|त्रुटि|problem|issue|dikkat)(?:$|[\s,.!?।]))",
    r"\b(?:mujhe|humein|hume|mujhko) (?:nahi|nhi|nahin) lagta (?:ki |k )?(?:\w+ ){0,4}?(?:koi|kuch)\b"
    r"(?! (?:dikkat|problem|issue|tension|baat|gadbad|error)\b)",
]
