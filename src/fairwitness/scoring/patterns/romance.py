"""Spanish, French and Portuguese patterns."""

from __future__ import annotations

SPANISH_STRONG = [
    r"\bno te debe nada\b|\bno le debe nada\b|\btod[oa]s l[oa]s (?:[\wáéíóúñ]+ ){0,5}?(?:están )?"
    r"(?:ya )?(?:cogid|pillad)[oa]s\b",
    r"\btod[oa]s l[oa]s (?:[\wáéíóúñ]+ ){0,4}?(?:están )?(?:ya )?(?:ocupad|reservad|tomad|vendid|"
    r"agotad)[oa]s\b|\bdejó de (?:ofrecer|vender|tener)\b|\bno (?:creo|pienso) que (?:haya|queden)\b",
    r"\b(?:ya )?no (?:trabajamos|vendemos|manejamos|ofrecemos|fabricamos|disponemos de)\b|"
    r"\bdejó de (?:fabricarse|venderse|existir)\b|\bdescontinuad[oa]\b",
    r"\b(?:está|están) (?:complet[oa]s?|llen[oa]s?|agotad[oa]s?|ocupad[oa]s?)\b|"
    r"\btodas las (?:citas|plazas|entradas|habitaciones) (?:están )?(?:ocupadas|agotadas|vendidas)\b",
    r"\bno (?:hay|existen?|quedan?|tenemos|tienen|tienes|tenés|tiene|tenga|haya|queden|existan|parece haber|"
    r"consta|constan|"
    r"nos consta)"
    r"(?: (?:actualmente|ahora|por ahora|en este momento|todavía|ya|mucho|nada de))* "
    r"(?!(?:forma|manera|modo|cómo|como|respuesta|conexión|acceso|servicio|datos|resultados?|"
    r"información|fuentes)\b)[\wáéíóúñü]+",
    r"\bno hay\s*(?:[.!]|$)|\bno hay (?:nada|ningun[oa]?|ningún)\b",
    r"\bningun[oa]s? (?!de\b|respuesta\b|resultados?\b|información\b|forma\b|dato\w*\b)"
    r"[\wáéíóúñü]+(?! respondi)",
    r"\bningún (?!resultado\b|dato\b)[\wáéíóúñü]+",
    r"(?<!tiempo )(?<!espera )\b(?:agotad[oa]s?|sin disponibilidad|sin vacantes|sin plazas|completamente lleno)\b",
    r"\bnadie (?:está )?contratando\b|\bni rastro de\b",
    r"\b(?:agenda|calendario|bandeja|carrito) (?:está |de mañana está )?(?:completamente |totalmente "
    r")?(?:libre|vací[ao])\b|\b(?:la )?agenda completamente libre\b",
    r"\b(?:parece|está|luce) vací[ao]\b|\b(?:lo )?(?:tienes|tiene|tenés) (?:\w+ )?despejad[oa]\b|"
    r"\b(?:agenda|día|dia|mañana|tarde) (?:\w+ )?despejad[oa]\b|\brespuesta corta[: ,]+no\b",
]

SPANISH_WEAK = [
    r"\bsin (?!respuestas?\b|conexión\b|acceso\b|servicio\b|datos\b|señal\b|red\b|cobertura\b|"
    r"problemas?\b|embargo\b|errores\b|éxito\b)[\wáéíóúñ]+s\b",
    r"\b(?:sin|cero|0|ningún|ningun) resultados?\b",
    r"\bno (?:hay|hubo|obtuve|obtuvimos|tengo|tenemos|se obtuvieron) (?:ningún )?resultados?\b",
    r"\bno (?:se )?(?:encontr[a-zé]+|hall[a-zé]+|obtuv[a-zé]+|arroj[a-zó]+|devolvi[a-zó]*) "
    r"(?:ningún|ninguna|ningun[oa]s?|nada|resultados|coincidencias)\b",
    r"\bno (?:pude|pudimos|logré|conseguí) (?:encontrar|hallar|ubicar) (?:ningún|ninguna|nada)\b",
    r"\bnada (?:disponible|encontrado)\b|\bno (?:apareció|aparece|salió|sale|vino|llegó) nada\b",
    r"\b(?:vino|volvió|llegó|salió|regresó) vací[ao]\b",
    r":\s*(?:ningun[oa]s?|nada|0)\s*(?:[-—\u2013,.;!]|$|[\u2600-\u27bf\U0001f300-\U0001faff])",
]

SPANISH_FAILURE = [
    r"\bfall(?:ó|o|a|aron|ando|ido|ida|ado|ada)\b|\berror(?:es)?\b|\bse cayó\b",
    r"\bno (?:pude|pudimos|se pudo|fue posible|logré|conseguí|he podido|hemos podido) "
    r"(?:consultar|verificar|comprobar|acceder|conectar|completar|revisar|obtener|cargar|realizar|"
    r"buscar|contactar|terminar|procesar|hacer|ejecutar|responder|ver|mirar|entrar|abrir|leer|"
    r"llegar)\w*\b",
    r"\bno (?:me |nos |le |te )(?:contest|respond)\w*\b|\binterrump\w*\b|"
    r"\bno (?:sé|sabría|puedo|podemos) (?:decir|indicar|confirmar|informar|mostrar)\w* (?:\w+ )?si\b",
    r"\b(?:servicio|servidor|sistema|buscador|herramienta|base de datos|plataforma|sitio|motor|"
    r"portal|api)(?: \w+)? (?:está |se encuentra |parece |estaba )?(?:temporalmente |ahora )?"
    r"(?:caído|fuera de servicio|no disponible|inactivo|sin respuesta|saturado|fallando|"
    r"no responde|no funciona)\b",
    r"\b(?:caíd[oa]s?|se (?:me |nos |le )?cortó|no respond[ea]|no respondió|no está respondiendo|"
    r"no funciona|no cargó|"
    r"no carga)\b",
    r"\b(?:tiempo de espera|tiempo agotado|se agotó el tiempo|tardó demasiado)\b",
    r"\bproblemas? técnicos?\b|\binconvenientes?\b|\bfalla técnica\b|\bcaída\b|"
    r"\bincidencia(?: técnica)?\b|\bno (?:ha sido|fue) posible\b",
    r"\bdemasiadas (?:solicitudes|peticiones|consultas)\b|\blímite de (?:solicitudes|peticiones|"
    r"consultas|uso)\b",
    r"\bsin respuesta\b|\bno (?:obtuve|recibí|hubo|obtuvimos|recibimos) respuesta\b",
    r"\b(?:no autorizad[oa]|credenciales|permiso denegado|acceso denegado|autenticación|"
    r"(?:sesión|token) (?:ha )?(?:caducad|expirad)\w*)\b",
    r"\bno (?:se )?(?:pudo|pudieron) (?:cargar|obtener|completar|consultar|recuperar)\b",
    r"\b(?:interrupción|interrumpid[oa]|no disponible|rechazó|rechazada|denegó|se cortó|"
    r"mantenimiento|no terminó|expiró|caducó|caducada|problema del servidor)\b",
]

SPANISH_LOCAL = [
    r"\bno (?:saques?|saquen|concluyas?|concluyan|asumas?|asuman|supongas?|supongan|pienses?|"
    r"piensen|creas?|crean|d[eé]s? por hecho|interpretes?|interpreten)\b",
    r"\bno (?:llegué a|alcancé a|pude|pudimos|he podido) (?:consultar|revisar|ver|verificar|"
    r"comprobar|mirar|abrir)\b|\bno porque\b",
    r"\bno (?:puedo|podemos|podría|sabría|sé|sabemos|quiero|voy a) (?:decir(?:te|le)?|afirmar|"
    r"asegurar|confirmar|saber)?\s*(?:si|que)\b",
    r"\bno es que\b|\bno (?:te |le )?estoy diciendo que\b|\bno (?:significa|quiere decir|implica|demuestra|"
    r"prueba) que\b|\bno (?:es )?(?:una )?(?:señal|prueba) de que\b",
    r"\bno hay (?:forma|manera|modo|cómo) de (?:saber|confirmar|verificar)\b",
    r"\bnada de (?:esto|eso) (?:significa|quiere decir|demuestra)\b",
    r"\b(?:si|sí) (?:hay|existen|quedan)\b",
]

SPANISH_NEGATED_AFTER = [
    r"\b(?:ser[ií]a|es) (?:\w+ )?(?:un error|inventar\w*|mentir\w*|falso|prematuro|adivinar|"
    r"especular|una suposición)|\bno (?:lo )?(?:puedo|podría|sabría) (?:decir|asegurar|afirmar|"
    r"confirmar)|\bno (?:lo )?sé\b|\bo no\b",
]

SPANISH_GLOBAL = [
    r"\b(?:puede|pueden|podría|podrían) (?:que )?(?:haber|existir|haya|existan)\b(?! no\b)",
    r"\bes posible que (?:haya|existan)\b(?! no\b)",
]


FRENCH_STRONG = [
    r"\b(?:tous|toutes) les (?:[\wéèêàç'-]+ ){0,4}?(?:sont )?(?:déjà )?(?:pris|prises|réservée?s|"
    r"complets|occupée?s|vendue?s)\b|\b(?:tous|toutes) (?:complets|complètes)\b|"
    r"\bne vous doit rien\b|\ba cessé de (?:proposer|vendre)\b|\bne propose plus\b",
    r"\bn'exist(?:e|ent) plus\b|\bn'(?:est|sont) plus (?:en stock|disponibles?|commercialisée?s?|"
    r"vendue?s?|proposée?s?)\b|\bplus en stock\b",
    r"\b(?:est|sont|affiche|affichent) complets?\b|\bil ne reste (?:[\wéèêàç-]+ ){0,3}?plus "
    r"(?:une seule|un seul|aucun\w*|de|rien)\b|\bnous ne (?:vendons|proposons|avons|faisons) (?:pas|plus)\b",
    r"\bil n'y (?:a|ait|avait|aura|aurait)(?: [\wéèêàç'-]+){0,3}? (?:aucun|aucune|pas d(?:e |')|rien|"
    r"plus d(?:e |')|plus aucun\w*|personne)(?!\s*(?:moyen|réponse|connexion|accès|résultats?|données?|"
    r"information)\b)",
    r"\baucun(?:e)? (?!moyen\b|réponse\b|retour\b|confirmation\b|récapitulatif\b|accusé\b|"
    r"résultats?\b|information\b|info\b|donnée\w*\b|idée\b|accès\b|"
    r"nouvelle\w*\b|signe\b|preuve\b|de\b|d'\w+|recherches?\b|requêtes?\b|services?\b|serveurs?\b|"
    r"sites?\b|sources?\b|plateformes?\b|api\b|systèmes?\b|connexion\b(?! \w+ée?s?\b))[\wéèêàç]+\b"
    r"(?! (?:n'a|n'ont) (?:pu|répondu|fonctionné|abouti))",
    r"\bil n'existe (?:aucun|aucune|pas d)|\bn'exist(?:e|ent) pas\b",
    r"\bpersonne ne (?:recrute|embauche)\b|\bil ne reste (?:plus )?(?:aucun|aucune|de|rien)\b",
    r"\bn'(?:a|ont|avons|ai) (?:aucune?\b|pas d(?:e |'))(?!\s*(?:moyen|réponse|accès|résultat|"
    r"information|info|idée)\b)",
    r"\bpas de (?!problème\b|souci\b|réponse\b|résultats?\b|connexion\b|moyen\b|panique\b)"
    r"[\wéèêàç]+ (?:prévu|disponible|publié|ouvert|en stock|programmé|à|pour|sur|dans|ce|cette)",
    r"\b(?:plus de places|épuisée?s?)\b|\btout est complet\b",
    r"\b(?:agenda|calendrier|planning) (?:est )?(?:\w+ )?(?:entièrement |complètement |totalement )?"
    r"(?:libre|vide)\b|\b(?:l'air|semble|paraît) vide\b|\bréponse courte[: ,]+non\b",
]

FRENCH_WEAK = [
    r"\b(?:aucun|zéro|0) résultats?\b|\bpas de résultats?\b",
    r"\brien (?:n'a été |n'est )?(?:trouvé|remonté|ressorti|retourné|revenu)\b|"
    r"\brien ne (?:\w+ )?(?:remonte|ressort|sort|correspond|apparaît|s'affiche|revient)\b|"
    r"\brien n'a été (?:déposé|signalé|rapporté|enregistré)\b",
    r"\b(?:je n'ai|nous n'avons|on n'a) (?:rien|aucun\w*|pas) (?:trouvé|pu trouver)\b",
    r"\b(?:je n'ai|nous n'avons|on n'a) trouvé (?:aucun|aucune|rien)\b",
    r"\bla recherche (?:n'a rien donné|est revenue vide|n'a donné aucun|n'a rien renvoyé)\b",
    r"\bne (?:trouve|trouvons) (?:aucun|aucune|rien)\b|"
    r":\s*(?:aucune?|rien|0)\s*(?:[-—\u2013,.;!]|$|[\u2600-\u27bf\U0001f300-\U0001faff])",
]

FRENCH_FAILURE = [
    r"\béchou|\béchec\b|\berreurs?\b|\bplanté\b",
    r"\bn'(?:a|ont|avons|ai) pas (?:pu|réussi|abouti|fonctionné|répondu)\b",
    r"\bpas pu (?:vérifier|consulter|accéder|joindre|récupérer|charger|contacter|effectuer|obtenir|"
    r"terminer|interroger|lancer|faire|aboutir|regarder|voir)\b",
    r"\bimpossible d(?:e |')(?:vérifier|consulter|accéder|joindre|récupérer|charger|contacter|"
    r"me connecter|se connecter|effectuer|obtenir|terminer|interroger|lancer|faire|aboutir)",
    r"\bindisponible\b|\b(?:ne |n')?(?:me |nous |te |lui )?répond\w* (?:pas|plus)\b|"
    r"\b(?:n')?(?:arrive|arrivons|arrivais|parviens|parvenons) pas à\b|"
    r"\bhors (?:service|ligne)\b|\ben panne\b|\bpanne\b",
    r"\bdélai (?:d'attente )?(?:ayant été )?(?:dépassé|expiré)\b|\bne m'a rien renvoyé\b|"
    r"\bexpiré\b|\btrop de temps\b|\btimeout\b",
    r"\b(?:problème|souci|incident|dysfonctionnement)s? (?:technique|temporaire)s?\b|\bincident\b",
    r"\btrop de requêtes\b|\blimite de requêtes\b|\bn'est pas accessible\b|\binaccessible\b",
    r"\b(?:pas de|aucune) réponse\b|\bn'(?:est|a) jamais (?:allée?|abouti|répondu)\b",
    r"\b(?:non autorisé|authentification|identifiants|accès refusé|refusé la connexion|session "
    r"expirée|jeton expiré)\b",
    r"\bcoupée?\b|\binterrompue?\b|\bpas chargée?\b|\bne s'est pas chargée?\b",
]

FRENCH_LOCAL = [
    r"\b(?:ne )?(?:conclus|concluez|conclue|déduis|déduisez|pense|pensez|crois|croyez)(?: surtout)? "
    r"pas (?:que|qu')",
    r"\b(?:je (?:ne )?peux pas|je ne saurais|impossible de|on (?:ne )?peut pas|nous ne pouvons pas|"
    r"je ne veux pas|je ne vais pas) (?:vous |te )?(?:dire|affirmer|confirmer|garantir|savoir|"
    r"conclure)\b|\bne (?:supposez|présumez|croyez|pensez|considérez) pas\b|"
    r"\bne partez pas du principe\b",
    r"\bn'en (?:concluez|déduisez) pas\b|\bne (?:concluez|déduisez) pas\b|"
    r"\bje ne (?:dis|prétends|affirme) pas\b|\bpas parce qu|\b(?:pas|jamais) pu (?:consulter|"
    r"vérifier|voir|ouvrir)\b|\bne (?:veut pas dire|signifie pas|prouve pas)\b|\bcela ne veut pas dire\b",
    r"\b(?:rien de (?:tout )?(?:cela|ça)|cela|ça|ceci) ne (?:signifie|veut dire|prouve)\b",
    r"\b(?:pas|n'est pas) (?:la preuve|le signe|un signe)\b|\baucun moyen de (?:savoir|vérifier|"
    r"confirmer)\b",
    r"\bje ne sais pas (?:s'il|si)\b|\bs'il y a\b|\b(?:ce n'est|non) pas qu(?:e\b|')",
]

FRENCH_NEGATED_AFTER = [
    r"\b(?:serait|est|serai) (?:\w+ )?(?:faux|inventé\w*|une erreur|prématuré|mentir|hasardeux|"
    r"une supposition|deviner)|\bje ne (?:peux|saurais|pourrais) (?:pas )?(?:le )?(?:dire|affirmer|"
    r"confirmer)|\bje ne (?:le )?sais pas\b|\bou (?:non|pas)\b",
]

FRENCH_GLOBAL = [
    r"\bil (?:se )?(?:peut|pourrait) (?:qu'il y ait|y avoir|exister|bien y avoir)\b(?! aucun| pas)",
    r"\bil (?:y a|existe) peut-être\b(?! aucun| pas)|\bpeut-être (?:bougé|changé|des)\b",
    r"\bil est possible qu'il y ait\b(?! aucun| pas)",
]


PORTUGUESE_STRONG = [
    r"\bdeixou de (?:oferecer|vender|ter|fabricar)\b|\btod[oa]s [oa]s (?:[\wáéíóúâêôãõç]+ ){0,9}?"
    r"(?:estão |foram )?(?:já )?(?:foram )?(?:ocupad|reservad|preenchid|vendid|esgotad)[oa]s\b|"
    r"\bnão te deve nada\b|\bnão lhe deve nada\b",
    r"\bnão (?:trabalhamos|vendemos|oferecemos|temos mais|fabricamos)\b|"
    r"\bdescontinuad[oa]\b|\bdeixou de ser (?:fabricad|vendid)",
    r"\b(?:está|estão) (?:cheia|cheio|cheias|lotad[oa]s?|esgotad[oa]s?|ocupad[oa]s?)\b",
    r"\bnão (?:há|haverá|haveria|houve|existem?|temos|tem|têm|tenha|haja|sobrou|sobraram|restam|consta)"
    r"(?: (?:atualmente|agora|no momento|neste momento|mais|ainda))* "
    r"(?!(?:como|resposta|conexão|acesso|retorno|resultados?|dados|informaç\w+|jeito|certeza|"
    r"garantia)\b)[\wáéíóúâêôãõç]+",
    r"\bnão (?:há|tem)\s*(?:[.!]|$)|\bnão há nada\b",
    r"\bnenhum(?:a)? (?!d[aoe]s?\b|resposta\b|resultados?\b|informaç\w+\b|dado\w*\b|jeito\b)"
    r"[\wáéíóúâêôãõç]+(?! respond)",
    r"(?<!tempo )\besgotad[oa]s?\b|\blotad[oa]s?\b|\bsem vagas\b|\bsem disponibilidade\b",
    r"\bninguém (?:está )?contratando\b",
    r"\b(?:agenda|calendário|caixa de entrada|carrinho) (?:está |de amanhã está )?(?:\w+ )?"
    r"(?:totalmente |completamente )?(?:livre|vazi[ao])\b|\b(?:parece|está) vazi[ao]\b",
    r"\bresposta curta[: ,]+não\b",
]

PORTUGUESE_WEAK = [
    r"\bsem (?!respostas?\b|conexão\b|acesso\b|serviço\b|dados\b|sinal\b|rede\b|problemas?\b|"
    r"erros\b|sucesso\b|visibilidade\b)[\wáéíóúãõç]+s\b",
    r"\b(?:nenhum|sem|zero|0) resultados?\b",
    r"\bnão (?:encontrei|encontramos|achei|achamos|localizei|foi encontrad[oa]|foram encontrad[oa]s)"
    r" (?:nenhum|nenhuma|nada|resultados|vagas|\w+s)\b",
    r"\bnão (?:encontrei|encontramos|achei|achamos) nada\b|\bnão (?:veio|apareceu|aparece) nada\b",
    r"\bnada (?:foi )?(?:encontrado|retornado|disponível)\b",
    r"\b(?:voltou|veio|retornou) vazi[ao]\b|\bnão retornou (?:nada|nenhum|resultados)\b",
    r":\s*(?:nenhuma?|nada|0)\s*(?:[-—\u2013,.;!]|$|[\u2600-\u27bf\U0001f300-\U0001faff])",
]

PORTUGUESE_FAILURE = [
    r"\bnão (?:tô|to|estou|está|estava|tava|tá|estamos) conseguindo\b|\b(?:a )?senha não (?:passa|entra)\b",
    r"\bfalh(?:ou|a|aram|ando|ada)\b|\berros?\b",
    r"\bnão (?:consegui|conseguimos|foi possível|pude|pudemos) (?:ligar|entrar|aceder|consultar|verificar|acessar|"
    r"conectar|concluir|checar|buscar|carregar|obter|completar|realizar|pesquisar|contatar|fazer|"
    r"terminar|responder|olhar|ver)\b",
    r"\b(?:está|estão|esteve|estava) em baixo\b|\bnão (?:o |a |os |as )?(?:consigo|conseguimos) "
    r"(?:ver|abrir|aceder|acessar|consultar|ler)\b|\bindisponíve(?:l|is)\b|\bfora do ar\b|"
    r"\bfora de serviço\b|\bcaiu\b|\bcaído\b",
    r"\btempo (?:limite|de espera|esgotado)\b|\bexpirou\b|\b(?:tempo|prazo|cota|quota|limite|sessão)"
    r"(?: \w+){0,3}? esgotou\b|\besgotou(?:-se)? o (?:tempo|prazo)\b|\bdemorou (?:demais|demasiado|muito)\b|"
    r"\b(?:cortou|perdeu|caiu) a (?:ligação|conexão)\b|\b(?:ligação|conexão) (?:caiu|cair|falhou|foi cortada)\b",
    r"\bproblemas? técnicos?\b|\binstabilidade\b|\bfalha técnica\b",
    r"\bmuitas (?:requisições|solicitações)\b|\blimite de (?:requisições|solicitações)\b",
    r"\bnão (?:está |estão |tá |ta |esta )?(?:a )?(?:me |nos |te |lhe )?respond\w*\b|"
    r"\bdeu (?:algum |um )?problema\b|\bsem resposta\b|\bnão (?:obtive|recebi|recebemos) resposta\b",
    r"\b(?:não autorizad[oa]|autenticação|credenciais|acesso negado|(?:sessão|token|login) "
    r"expir\w+)\b",
    r"\bmanutenção\b|\bnão (?:está )?funcionando\b|\binterromp\w+\b|\bnão carregou\b|\brecusou\b|\brejeitou\b",
    r"\b(?:a )?requisição nunca terminou\b|\bnunca (?:terminou|respondeu|carregou)\b",
]

PORTUGUESE_LOCAL = [
    r"\bnão (?:posso|podemos|consigo|dá para|tenho como|quero|vou) (?:te |lhe )?(?:dizer|afirmar|"
    r"garantir|confirmar|saber)\b",
    r"\bnão (?:conclua|pense|assuma|suponha|presuma|ache|tire a conclusão)\b|\bnão porque\b|"
    r"\bnão (?:consegui|pude) (?:ver|consultar|verificar|abrir)\b|"
    r"\bnão é que\b|\bnão (?:estou|estamos) (?:a dizer|dizendo) que\b|\bnão sei se\b|\bnão (?:significa|"
    r"quer dizer|prova) "
    r"que\b",
    r"\bnada (?:disso|disto) (?:significa|quer dizer|prova)\b|"
    r"\bnão (?:é )?(?:um |uma )?(?:sinal|prova) de que\b|\bnão há como (?:saber|confirmar)\b|\bse (?:há|existem)"
    r"\b(?! \w+(?:ado|ido|to|cho|so)\b)",
]

PORTUGUESE_NEGATED_AFTER = [
    r"\b(?:seria|é) (?:\w+ )?(?:errado|um erro|inventar|mentir|falso|prematuro|adivinhar|"
    r"especular)|\bnão (?:o )?(?:posso|consigo|saberia) (?:dizer|afirmar|garantir|confirmar)|"
    r"\bnão (?:o )?sei\b|\bou não\b",
]

PORTUGUESE_GLOBAL = [
    r"\bpode(?:m)? (?:haver|existir|ter)\b(?! nenhum| nada)",
    r"\b(?:pode ser|é possível|talvez) que (?:haja|existam)\b(?! não)|\btalvez (?:haja|existam)\b"
    r"(?! não)",
]


SPANISH_OTHER = [
    r"\b(?:sin|ningún|ningun|no hay|ni un) (?:problema|problemas|drama|lío|apuro|prisa|cuidado|"
    r"pena)\b|\bno (?:te|se) (?:preocupes|preocupe|agobies|apures)\b|\bno pasa nada\b",
    r"\bno (?:necesito|necesitamos|hace falta|me hace falta) nada más\b|\bno (?:hace|hará) falta\b|"
    r"\bno es (?:necesario|preciso|problema)\b|\bno hay de qué\b",
    r"\bnada más (?:que|de lo que) (?:yo )?(?:pueda|puedo|podamos|podemos) hacer\b|"
    r"\bno (?:puedo|podemos) hacer (?:nada|mucho) más\b",
]

SPANISH_NEGATED_SAY = [
    r"\b(?:no|nunca|jamás|error|falso|incorrecto|erróneo|equivocado|prematuro)\b"
    r"(?: [\wáéíóúñ]+){0,4}? (?:dec\w*|dig\w*|dij\w*|diría|afirm\w*|asegur\w*|conclu\w*|"
    r"confirm\w*|garantiz\w*|significa|quiere decir|implica)\b",
]

FRENCH_OTHER = [
    r"\b(?:pas de|aucun|aucune|sans|y a pas de) (?:souci|soucis|problème|problèmes|panique|stress|"
    r"besoin|inquiétude|bile|lézard)\b|\bpas (?:grave|besoin)\b|\bil n'y a pas de quoi\b|"
    r"\b(?:je n'ai|on n'a|nous n'avons) besoin de rien\b",
    r"\bne (?:vous |t')?(?:inquiétez|inquiète) pas\b|\bne vous en faites pas\b",
    r"\b(?:rien|pas grand-chose) (?:de plus|d'autre)\b|\bne (?:peux|pouvons|puis) rien faire\b",
]

FRENCH_NEGATED_SAY = [
    r"\b(?:pas|jamais|faux|erroné|inexact|tort|prématuré)\b(?: [\w'éèêàçù-]+){0,4}? "
    r"(?:d'|qu'|l')?(?:dire|dis|dit|affirm\w*|prétend\w*|conclu\w*|signifi\w*|veut dire|"
    r"confirm\w*|garanti\w*|déduire)\b",
]

PORTUGUESE_OTHER = [
    r"\b(?:sem|nenhum|não (?:tem|há)) (?:problema|problemas|stress|pressa|crise|grilo|"
    r"preocupação)\b|\bnão (?:se|te) (?:preocupe|preocupes|aflija)\b|\bnão faz mal\b",
    r"\bnão (?:precisa|é preciso|é necessário|faz falta)\b|\bnão (?:preciso|"
    r"precisamos) de (?:mais )?nada\b|\bde nada\b",
    r"\bnada mais (?:que|do que) (?:eu )?(?:possa|posso|possamos|podemos) fazer\b|"
    r"\b(?:mais nada|nada mais) que (?:eu )?possa\b|\bnão (?:posso|podemos) fazer mais nada\b",
]

PORTUGUESE_NEGATED_SAY = [
    r"\b(?:não|nunca|jamais|errado|falso|incorreto|erro|prematuro)\b"
    r"(?: [\wáéíóúâêôãõç]+){0,4}? (?:diz\w*|dig\w*|dir\w*|diss\w*|afirm\w*|garant\w*|conclu\w*|"
    r"confirm\w*|signific\w*|quer dizer)\b",
]
