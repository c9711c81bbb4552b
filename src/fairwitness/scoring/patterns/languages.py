"""Words that tell the seven covered languages from others."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOPWORDS: dict[str, frozenset[str]] = {
    "en": _words(
        "the is are there and to of for in you your not could was with this that right now any "
        "search sorry found results please unfortunately were it i we our would at on be been "
        "have has"
    ),
    "es": _words(
        "el la los las de que y en hay para por con una un es está lo pero se ningún ninguna "
        "búsqueda intenta momento disculpa lamentablemente puedo pude también este esta muy "
        "del al sus tu usted ahora"
    ),
    "fr": _words(
        "le la les de des du et est il y a pas je une un pour en que aucun aucune recherche "
        "désolé vous nous n'y n'ai ce cette mais sur avec malheureusement actuellement pu ne ni donc peux "
        "déjà qui dans au aux m'est soit"
    ),
    "de": _words(
        "der die das und ist es gibt nicht ich ein eine für zu mit leider keine kein suche sie wir "
        "derzeit momentan konnte wurde bitte später noch auf im den dem ihre"
    ),
    "pt": _words(
        "o a os as de que e não há para com uma um é está por mas nenhum nenhuma busca pesquisa "
        "você no na desculpe infelizmente consegui foi agora também seu sua tente"
    ),
    "hinglish": _words(
        "nahi nhi nahin hai hain ho gaya gayi kar koi kuch mila mili abhi mein ki ke ka raha rahi "
        "sakta sakti paya bhi yeh ye aap aapke hum tha thi dobara baad kya"
    ),
    "it": _words(
        "il di che non sono ci per della delle gli purtroppo nessun nessuna abbiamo questo ricerca "
        "riprova disponibili trovato trovati momento è stato una un al alla sul"
    ),
    "nl": _words(
        "de het een niet geen er zijn van voor helaas gevonden zoekopdracht probeer opnieuw is "
        "wij u momenteel op met ik kon"
    ),
    "tr": _words(
        "bir ve bu için değil yok bulunamad\u0131 arama lütfen şu tekrar deneyin anda hiç ilan "
        "maalesef"
    ),
    "pl": _words(
        "nie jest są w na z się żadnych wyszukiwanie niestety spróbuj ponownie brak ofert obecnie"
    ),
    "cs": _words("se je na v pro kvůli omlouvám nelze bohužel žádné není jsou"),
    "ca": _words(
        "els amb lliures lliure dijous avui perquè són aquest aquesta sisplau hi consultat pogut "
        "servei estona torno provar cap plaça d'aquí puc pots hagi hagin tinc"
    ),
    "sw": _words(
        "hakuna kuna na ya kwa ni za samahani tafuta hitilafu tafadhali jaribu tena kazi sasa"
    ),
    "id": _words("tidak ada yang dan untuk dengan maaf pencarian coba lagi saat ini lowongan"),
    "sv": _words("det och inte är för med tyvärr inga ingen finns hittade försök igen just nu"),
    "ro": _words("nu este sunt și pentru cu din ne pare rău niciun nicio încercați"),
}
COVERED_LANGUAGES = frozenset({"en", "es", "fr", "de", "pt", "hinglish"})

FOREIGN_LETTERS = frozenset("ěřůňťďłąęśźżžőűşğıăţșțåøæđơư")
"""Latin letters that none of the covered languages write: their presence marks another language."""
