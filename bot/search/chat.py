"""Chat spelling made plain before the question rules read it.

People in a Discord chat type "wat r logits", "y does my loss go up tho", "hola! how does rag
work", "whaaat is an embedding lol". The rules that find the term in a question (`query`) know
"what", "why", "are", greetings in English and "please"; they do not know "wat", "y", "r",
"hola", "ngl" or "whaaat". `plain_chat` rewrites those words, and only those, into what the
rules know: the chat spellings of function words, fillers that say nothing (dropped), greetings
and fillers in other languages (dropped) and letters stretched for emphasis. Names are never
touched: a word is rewritten only when it is, whole, one of the chat words below, and none of
those is a name in the glossary (tests/search/test_chat_style.py checks). Punctuation stays: the
clause rules read it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from string import ascii_lowercase

from bot.search.everyday import common_words
from bot.search.foreign import SPACELESS, english_terms, unread_dropped
from bot.search.query import PICTOGRAPHS, quote_split

# Chat spellings of function words, whole words only. "y", "r", "u" and "n" are also letters
# (x and y, the r language, u-net, top n) and "ppl" is Perplexity's acronym: see `_plain_word`.
_SPELLINGS = {
    "wat": "what",
    "wut": "what",
    "wht": "what",
    "waht": "what",
    "wats": "what's",
    "wuts": "what's",
    "whatis": "what is",
    "ur": "your",
    "shud": "should",
    "shld": "should",
    "cud": "could",
    "wud": "would",
    "kno": "know",
    "knw": "know",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "arent": "aren't",
    "cant": "can't",
    "wont": "won't",
    "im": "i'm",
    "ive": "i've",
    "idk": "i don't know",
    "abt": "about",
    "b4": "before",
    "bc": "because",
    "cuz": "because",
    "coz": "because",
    "thru": "through",
    "smth": "something",
    "sth": "something",
    "sum1": "someone",
    "some1": "someone",
    "any1": "anyone",
    "every1": "everyone",
    "rly": "really",
    "rlly": "really",
    "prolly": "probably",
    "gonna": "going to",
    "wanna": "want to",
    "diff": "difference",
    "btwn": "between",
    "plz": "please",
    "thx": "thanks",
    "w/": "with",
    "w/o": "without",
    "hows": "how is",
    "whys": "why is",
    "wheres": "where is",
    "whos": "who is",
    "thats": "that's",
    "dat": "that",
    "dis": "this",
    "wen": "when",
    "wher": "where",
    "nd": "and",
    "bcoz": "because",
    "bcuz": "because",
    "becuz": "because",
    "gud": "good",
    "howto": "how to",
}
# ML shorthand, written out where the long form is (part of) a name in the glossary and the
# short form is none ("attn heads", "max ctx len", "embs"; tests/search/test_hardchat.py checks
# both). Not "toks" (Throughput's alias), "lr", "ckpt" (names), nor shorthand that is as often
# something else: "bs", "ft", "inf" (infinity), "arch" (the Linux), "acc" (account); not "eval"
# (a step of its own: "data b4 eval" is no Evaluation question).
SHORTHAND = {
    "attn": "attention",
    "ctx": "context",
    "emb": "embedding",
    "embs": "embeddings",
    "optim": "optimizer",
    "grads": "gradients",
    "params": "parameters",
    "param": "parameter",
    "quant": "quantization",
    "mem": "memory",
}
# "grad" is a gradient unless it is the university kind
_NOT_AFTER_GRAD = {"school", "student", "students", "program", "degree", "life"}
# Not "icl" ("I can't lie"): ICL is In-Context Learning's acronym, and a name always wins.
# Fillers that say nothing about what is asked, in English chat ...
_FILLERS = {
    "ngl", "tbh", "tbf", "fr", "frfr", "lol", "lmao", "lmfao", "rofl", "smh", "bruh", "tho",
    "rn", "imo", "imho", "fwiw", "pls", "plz", "plss", "plzz", "xd", "omg", "ikr", "tldr",
    "afaik", "iirc", "tia", "tysm", "ty", "nvm", "asap", "thnx", "yall", "bro", "bruv", "dude",
    "fam", "lowkey", "highkey", "deadass", "istg", "af", "hmu", "oof", "welp", "lmk",
}  # fmt: skip
# ... and greetings, forms of address and fillers in other languages (Spanish, French, German,
# Portuguese, Hindi, Indonesian, Italian): none of them is an English word.
_FOREIGN = {
    "hola", "holaa", "oye", "bueno", "pues", "amigos", "chicos", "gracias", "bonjour", "salut",
    "coucou", "alors", "merci", "hallo", "moin", "servus", "genau", "leute", "danke", "zusammen",
    "oi", "olá", "ola", "galera", "gente", "tipo", "né", "obrigado", "obrigada", "namaste",
    "namaskar", "yaar", "bhai", "ji", "acha", "accha", "achha", "arre", "arey", "matlab", "halo",
    "semua", "ciao", "grazie", "bitte", "quoi", "hein", "svp", "wey", "güey", "lah", "sih", "ye",
    "yeh",
}  # fmt: skip
# Greetings of more than one word in those languages, dropped where they stand.
_FOREIGN_PHRASES = re.compile(
    r"\b(?:que tal|qué tal|ça va|ca va|tout le monde|guten (?:morgen|tag|abend)|"
    r"buen(?:os|as) (?:d[ií]as|tardes|noches)|bom dia|boa (?:tarde|noite)|du coup|en fait|"
    r"por favor|s'il (?:te|vous) pla[iî]t)\b",
    re.IGNORECASE,
)
# `(?:(?<!\s)\s*|(?<=\s))`: the spaces before, taken from a run's start only (a match
# inside a run is the same match from its start): a pattern opening "\s*" tried at each
# space of a long run is quadratic (4,000 spaces, 0.2 s)
_RUN_START = r"(?:(?<!\s)\s*|(?<=\s))"
# Hindi's "what is" comes after its subject ("rag kya hai"): the clause asks
_KYA = re.compile(
    _RUN_START + r"\bkya (?:hai|hain|hota hai|hote hai|hote hain|hoti hai)\b\??", re.IGNORECASE
)
# ... as are Japanese's, Chinese's, Korean's, Thai's and Hindi's ("過学習とは何ですか", "幻觉是什么",
# "양자화가 뭐예요", "explain": "어텐션을 설명해줘", "RAG คืออะไร", "RAG क्या है"),
# and their question words need no space after them ("什么是蒸馏", "为什么")
_ASKS_AFTER = re.compile(
    _RUN_START + r"(?:とは(?:何(?:ですか|でしょうか)?)?|って何(?:ですか)?|是什么(?:意思)?|คืออะไร|"
    r"(?<=\w) क्या (?:है|हैं|होता है|होती है|होते हैं)|"
    r"(?<=[\w가-힣])\s?(?:뭐(?:예요|에요|야|죠|냐|인가요)|무엇인가요|뭔가요|"
    r"(?:설명해|알려)\s?(?:줘|주세요|줄래요?)))\s*[?？]?"
)
_SCRIPT_ASKING = [
    (re.compile(pattern), english)
    for pattern, english in (
        (r"什么是|什麼是", "what is "), (r"为什么|為什麼|なぜ|どうして", "why "),
        (r"如何|怎么|怎麼", "how "),
    )
]  # fmt: skip
# A question's first words in those languages, at the start of a clause: "que es rag", "was
# ist ein tokenizer", "c'est quoi le rag", "como funciona lora".
_FOREIGN_ASKING = [
    (re.compile(rf"(^|[,;:!?.]\s*){pattern}\s", re.IGNORECASE), rf"\1{english} ")
    for pattern, english in (
        (r"(?:qu[eé] (?:es|son)|qu'est[- ]ce que|c'est quoi|cest quoi|was (?:ist|sind)|"
         r"kann (?:mir )?(?:jemand|einer|wer) erkl(?:ä|ae)ren,? was|"
         r"o que (?:é|e|são|sao)|cos'è|cosa (?:è|e)|apa itu|cu[aá]l es|qual (?:é|e)|что такое|"
         r"מה (?:זה|זאת|זו)|מה(?:ו|י)|ما (?:هو|هي)|ماهو|ماهي)"
         # an article after them is English "a" or "the", which the names do without
         r"(?: (?:un|una|el|la|los|las|une|le|les|ein|eine|der|die|das|um|uma|il|lo|gli))?",
         "what is"),
        (r"(?:alguien (?:me )?(?:puede )?explica(?:r)?|algu[eé]m (?:me )?(?:pode )?explica(?:r)?|"
         r"quelqu'un (?:peut|pourrait) (?:m'|me )?expliquer|"
         r"qualcuno (?:mi )?(?:pu[oò] )?spiega(?:re)?)", "can someone explain"),
        (r"(?:c[oó]mo funcionan?|wie funktionier(?:t|en)|comment (?:fonctionne|marche)|"
         r"como funciona(?:m)?|come funziona(?:no)?|как работа(?:е|ю)т)", "how does"),
        (r"(?:por qu[eé]|pourquoi|warum|kyun|kyu|почему|зачем)", "why"),
        (r"(?:para qu[eé] sirven?|pra que serve(?:m)?|à quoi sert|a cosa serve|wof(?:ü|ue)r (?:ist|sind))",
         "what is the use of"),
    )
]  # fmt: skip
# A tag that makes a statement a question: "lora is enough for this or nah", "..., right" (with
# its comma: "from left to right" is no question)
_TAG_QUESTION = re.compile(
    r"(?:,\s*(?:right|rite|amirite)|,?\s+(?:or nah+|or not|or no|or what|or wat|yes or no))"
    r"\s*[?!.]*$",
    re.IGNORECASE,
)
# A last clause of a word or two and a question mark, after a comma, is a guess ("how do i ship
# my model server, dokcer?"): written as the tag question the rules read ("..., is it dokcer?")
_BARE_GUESS = re.compile(r",\s*(?P<guess>[^\s,;:!?.]+(?: [^\s,;:!?.]+)?)\s*\?+\s*$")
_DROPPED = _FILLERS | _FOREIGN
# Words after which a lone "y" asks why and a lone "r" is "are"; "u" and "n" need a word on
# either side that is not part of a name ("u net", "top n").
_AUXILIARIES = {
    "do", "does", "did", "is", "are", "r", "was", "were", "would", "should", "shud", "can",
    "cant", "can't", "isnt", "isn't", "doesnt", "doesn't", "dont", "don't", "not", "u", "you",
    "we", "they", "i", "it", "my", "the", "people", "ppl", "everyone", "every1", "so", "use",
}  # fmt: skip
_ASKING = {"what", "wat", "how", "why", "y", "where", "which", "who", "when", "these", "those",
           "they", "we", "you", "u", "there"}  # fmt: skip
_BEFORE_PEOPLE = {"do", "did", "why", "y", "how", "most", "some", "many", "other", "these",
                  "those", "all", "r", "are", "when", "help", "explain", "hey", "hi", "yo"}  # fmt: skip
_AFTER_PEOPLE = {"use", "say", "keep", "do", "think", "are", "r", "mean", "talk", "mention",
                 "like", "want", "call", "who", "in", "here", "always", "still", "trust"}  # fmt: skip
_ENDS_CLAUSE = set(",;:!?.")
# Words read by the words around them (`_plain_word`), where a name was weighed already: "ppl"
# is Perplexity's acronym alone and "people" in "why do ppl use rag"
_READ_BY_NEIGHBOURS = {"y", "r", "ppl", "u", "n", "grad", "len"}
_NOT_AFTER_N = {"top", "the", "of", "size", "first", "last", "=", "and"}
_NOT_BEFORE_U = {"net", "nets", "shape", "shaped", "turn"}
_NOT_BEFORE_R = {"vs", "or", "and", "language", "programming", "studio", "package", "script"}

# The words the question rules read (`query._SUBJECT_AFTER`, `_OPENER`) and a few more, whose
# typos ("shoud", "whcih", "diffrence") leave a question without its frame.
_FRAME_WORDS = (
    "should", "would", "could", "which", "what", "where", "when", "does", "really", "because",
    "difference", "between", "explain", "people", "about", "someone", "anyone",
)  # fmt: skip
# "i still don't get why ...", "idk how ...": a statement that asks; the asking word stays.
_LEAD_IN = re.compile(
    r"^(?:i (?:still |just |really |honestly )?(?:don't|do not|can't|cannot|didn't) "
    r"(?:get|understand|see|know|grasp|figure out)|i don't know|i wonder|wondering) "
    r"(?=(?:why|how|what|when|which|where|whether|if) )",
)

# Greetings in English at the start: `query` strips them from the term, but every rule that
# reads the whole text (the clause, the leading name, the question's first word) stumbles on
# "hey guys, why does ...", "yo ddpm paper summary anyone".
_GREETING = re.compile(
    r"^(?:(?:hey|hi|hello|yo|sup|gm|heya|hiya|howdy|greetings|good (?:morning|evening|afternoon)|"
    r"morning|evening)(?: (?:all|guys|everyone|everybody|folks|team|people|peeps|bot|there|"
    r"friends|y'all|yall|gang|chat|fam))?[\s,;:!.\-]+)+(?=\S)",
    re.IGNORECASE,
)
# What people say about themselves or their question before asking it ("yo new here, what is
# ...", "hi guys lurker here, total noob, how do i ...", "sorry dumb q but ..."): no topic, and
# the question's first word after it is what makes the text a question.
_PREAMBLE = re.compile(
    r"^(?:(?:(?:i'?m |i am )?(?:new|a noob|a newbie|a beginner)|(?:long ?time )?lurker|"
    r"noob|newbie|beginner) here|(?:long ?time )?lurker|first (?:time )?posting(?: here)?|"
    r"(?:a )?(?:total|complete|absolute) (?:noob|newbie|beginner)(?: here)?|"
    r"(?:sorry,? )?(?:a )?(?:dumb|stupid|noob|newbie|quick|random|silly) (?:q|question)(?: here)?"
    r")(?:[\s,;:!.\-]+but)?[\s,;:!.\-]+(?=\S)"
    # a word that only opens, with the punctuation or "but" that sets it apart ("ok so, ...")
    r"|^(?:sorry|ok(?:ay)?(?: so)?|so|(?:ok(?:ay)?,? )?(?:so,? )?long story(?: short)?)(?:[,;:!.\-]+\s*|\s+but\s+)(?=\S)",
    re.IGNORECASE,
)

# Chat words that only open a short question ("wait so what's ...", "nvm i mean how does X
# work", "sorry one more q, what is ..."): dropped only before "what" or "how" and a question of
# at most _SHORT_QUESTION words. A longer question keeps them: dropped there, it is read as a
# question naming what it describes, and loses the meaning's card (dev19, task "opener55").
_CHAT_OPENER = (
    r"(?:wait|oh|ah+|um+|uh+|hm+|lol|lmao|ok(?:ay)?|so|like|btw|also|anyway|nvm|never ?mind|"
    r"i mean|real talk|sorry|(?:a )?(?:dumb|stupid|quick|silly) follow[- ]?up|"
    r"follow[- ]?up(?: q| question)?|quick q|one more(?: q| question| thing)?|another (?:q|question))"
)
_OPENS_SHORT_QUESTION = re.compile(
    rf"^{_CHAT_OPENER}(?:[\s,;:!.\-]+{_CHAT_OPENER})*[\s,;:!.\-]+"
    r"(?=(?:what|what's|whats|how)\b)",
    re.IGNORECASE,
)
_SHORT_QUESTION = 8

_STRETCHED = re.compile(r"([a-z])\1{2,}")
_WORD = re.compile(r"^(\W*)(.*?)(\W*)$")
# Punctuation or a greeting can be left at the start: "que tal! what ..." -> "what ..."
_LEADING = re.compile(r"^[\s,;:!.\-]+")


def plain_chat(text: str, names: Callable[[str], bool] = lambda word: False) -> str:
    """`text` with chat spellings of function words written out, fillers and foreign greetings
    dropped, foreign question words and tag questions written in English and stretched letters
    shrunk, the field's words in other languages written in English (`english_terms`); one word
    alone, or text left empty, as it was but for those. A word for which `names` is true (a
    server's alias "ngl", its term "Attn") is a name, never chat: it stays as typed."""
    if (replied := quote_split(text)) is not None:
        # a thread reply's quote and the reply keep the line between them: which message
        # writes a name is read later (`QuestionRules._replied_to`); the first quote only
        return "\n".join(_plain_part(part, names) for part in replied)
    return _plain_part(text, names)


def _plain_part(text: str, names: Callable[[str], bool]) -> str:
    """`plain_chat` of one message, or of a quote or the reply after it."""
    typed = text
    if len(text.split()) < 2 and not SPACELESS.search(text):  # "过拟合是什么" is one "word"
        return english_terms(typed)
    if not text.isascii():
        # emoji and other pictographs ("explain rag 🙏") say nothing about the term (`query`
        # drops them in some places; here, for every rule); combining marks stay, the text is
        # not normalised yet: an accent may be one
        text = "".join(" " if unicodedata.category(c) in PICTOGRAPHS else c for c in text)
        # Spanish opens a question with ¿ (the rules read its end); CJK writes a wide ？, Arabic ؟
        text = text.replace("¿", "").replace("¡", "").replace("？", "?").replace("؟", "?")
    text = _opening_dropped(text)
    for pattern, english in _FOREIGN_ASKING:
        text = pattern.sub(english, text)
    read = english_terms(text)
    translated, text = read != text, read
    if not text.isascii():
        for pattern, english in _SCRIPT_ASKING:
            text = pattern.sub(english, text)
        text = _ASKS_AFTER.sub("?", text)
        if translated:  # "트랜스포머의 구조": "transformer", not "transformer 구조" read as a typo
            text = unread_dropped(text)
    tokens = _FOREIGN_PHRASES.sub(" ", _KYA.sub("?", text)).split()
    parts = [_WORD.match(token).groups() for token in tokens]  # type: ignore[union-attr]
    words = [word.lower() for _, word, _ in parts]
    # where a clause starts: the text's start and after punctuation ("..., y does it")
    starts = {0} | {at + 1 for at, (_, _, after) in enumerate(parts) if _ENDS_CLAUSE & set(after)}
    out: list[str] = []
    for at, (before, word, after) in enumerate(parts):
        plain = _plain_word(words, at, at in starts)
        if plain != words[at] and words[at] not in _READ_BY_NEIGHBOURS and names(words[at]):
            plain = words[at]
        if plain is None:  # dropped; its punctuation ends the word before: "annoying ngl, why"
            if out and after.strip():
                out[-1] += after.strip()
            continue
        out.append(before + (word if plain == words[at] else plain) + after)
    plain_text = _LEADING.sub("", " ".join(out)).replace(" ,", ",").replace("?,", "?")
    plain_text = _TAG_QUESTION.sub("?", _LEAD_IN.sub("", plain_text))
    guess = _BARE_GUESS.search(plain_text)
    first = guess["guess"].split()[0].lower() if guess else ""
    if guess and first[:1].isalpha() and first not in common_words():
        plain_text = f"{plain_text[: guess.start()]}, is it {guess['guess']}?"
    return plain_text if plain_text.strip() else typed


def _opening_dropped(text: str) -> str:
    """`text` without the greetings and preambles it starts with ("hey all, new here, ...")."""
    while True:
        shorter = _greetings_dropped(text)
        # Once the greetings are gone: it reads to the first "what"/"how", so tried after each
        # of 570 "ok so, " it made a 4,000-character message quadratic (0.4 s; hostile_bench)
        shorter = _short_question_opener_dropped(shorter)
        if shorter == text:
            return text
        text = shorter


def _greetings_dropped(text: str) -> str:
    """`text` without the greetings and preambles it starts with, one after the other."""
    while True:
        shorter = _PREAMBLE.sub("", _GREETING.sub("", text.lstrip()))
        if shorter == text:
            return text
        text = shorter


def _short_question_opener_dropped(text: str) -> str:
    """`text` without the chat words before a short "what ..." or "how ..." question."""
    opener = _OPENS_SHORT_QUESTION.match(text)
    if opener is None or len(text[opener.end() :].split()) > _SHORT_QUESTION:
        return text
    return text[opener.end() :]


def _plain_word(words: list[str], at: int, starts: bool) -> str | None:
    """The plain form of `words[at]` (`starts` a clause), None to drop it."""
    word = words[at]
    before = words[at - 1] if at else ""
    after = words[at + 1] if at + 1 < len(words) else ""
    word = _unstretched(word)
    if word in _DROPPED:
        return None
    if word in _SPELLINGS:
        return _SPELLINGS[word]
    if word in SHORTHAND:
        return SHORTHAND[word]
    if word == "grad" and after not in _NOT_AFTER_GRAD:
        return "gradient"
    if word == "len" and before in ("ctx", "context"):
        return "length"
    if word in _frame_typos():
        return _frame_typos()[word]
    if word == "y" and (starts or after in _AUXILIARIES):
        return "why"
    if word == "r" and after and after not in _NOT_BEFORE_R and (starts or before in _ASKING):
        return "are"
    if word == "ppl" and (before in _BEFORE_PEOPLE or after in _AFTER_PEOPLE):
        return "people"  # "ppl" alone is Perplexity's acronym
    if word == "u" and after and after not in _NOT_BEFORE_U:
        return "you"
    if word == "n" and before and after and before not in _NOT_AFTER_N:
        return "and"
    return word


def _unstretched(word: str) -> str:
    """Letters stretched for emphasis ("whaaat", "sleeeep"): runs of three or more of one
    letter shrunk to one, else to two, whichever is a known word first (one if neither is;
    most stretched words have the letter once)."""
    if not _STRETCHED.search(word):
        return word
    double = _STRETCHED.sub(r"\1\1", word)
    single = _STRETCHED.sub(r"\1", word)
    known = common_words()
    for form in (single, double):
        if form in known or form in _SPELLINGS or form in _DROPPED:
            return form
    return single


@cache
def _frame_typos() -> dict[str, str]:
    """One typo of each `_FRAME_WORDS` word: a letter left out or two swapped, and in a word of
    five letters or more one letter changed too; the first letter kept (a typo rarely hits it)
    and never an English word ("hat", "dose", "cloud")."""
    known = common_words()
    typos: dict[str, str] = {}
    for word in _FRAME_WORDS:
        ends = range(1, len(word))
        forms = {word[:i] + word[i + 1 :] for i in ends}
        forms |= {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(1, len(word) - 1)}
        if len(word) >= 5:
            forms |= {word[:i] + c + word[i + 1 :] for i in ends for c in ascii_lowercase}
        for form in forms - known - {word}:
            if len(form) >= 3:
                typos.setdefault(form, word)
    return typos
