"""What a query asks for once the phrasing around the term is gone.

People type "what's a KV cache?", "define rag", "how does speculative decoding work",
"what does RLHF stand for". The term is the part in the middle; these helpers peel the rest off a
`normalize`d query and produce the singular/plural spellings worth trying.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Literal

from bot.glossary.keys import normalize
from bot.glossary.keys import plural_variants as plural_variants  # its home: `check` reads it too
from bot.glossary.markup import without_chat_markup as without_chat_markup  # as search reads

# Words that name no term (also left out of the description index).
_STOPWORDS_TEXT = """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each either else etc
    ever every few for from further get gets got had has have having he her here hers him his how
    i if in into is it its itself just like may me might more most much must my no nor not now of
    off often on once one only or other our ours out over own per rather same she should so some
    such than that the their theirs them then there these they this those through thus to too
    under until up upon us used uses using very via was we were what whats when where whether
    which while who whom whose why will with within without would you your yours s t re ve ll d m
    term thing things stuff called name mean means meaning define definition explain kind sort
    type way something someone somebody anything lets let
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())

# The field itself named after a term ("temperature in llms"): no other field's sense, so said
# away like "please" (`_CLOSER`), after a whole-query shape too ("what does rag mean in ai").
_IN_THE_FIELD = (
    r"in (?:ml|ai|llms?|nlp|ml ai|ai ml|deep learning|machine learning|this context|practice|"
    r"simple terms|plain english|simple words)"
)
# Whole-query shapes whose middle is the term: "what does X mean", "how does X work".
_FRAMES = [
    re.compile(p + rf"(?: {_IN_THE_FIELD})?$")
    for p in (
        r"^(?:what|wat) (?:does|do|did) (?P<t>.+?) (?:mean|means|stand for|stands for|do)",
        r"^how (?:does|do|did|is|are|can) (?P<t>.+?) (?:work|works|working|function|help)",
        r"^what (?:is|are) (?P<t>.+?) (?:used for|for|good for|about)",
        r"^what (?:is|are) meant by (?P<t>.+?)",
        r"^(?:tell me|explain|show me|i wonder) how (?P<t>.+?) (?:works|work)",
    )
]
# "difference between X and Y", "X vs Y": the answer is X's card, with Y offered beside it.
_COMPARISONS = [
    re.compile(p)
    for p in (
        r"^(?:what s |what is |whats |what's )?(?:the )?(?:difference|differences) between "
        r"(?P<t>.+?) and (?P<o>.+)$",
        r"^(?P<t>[^ ]+(?: [^ ]+){0,2}) (?:vs|versus|compared to|compared with) "
        r"(?P<o>[^ ]+(?: [^ ]+){0,2})$",
        # "is lora the same as qlora", "is rag better than fine tuning"
        r"^(?:is|are|isn t|isn't|isnt) (?P<t>[^ ]+(?: [^ ]+){0,2}?) (?:the same as|the same thing as|"
        r"same as|better than|worse than|different from|different to|different than|"
        r"similar to|related to) (?P<o>[^ ]+(?: [^ ]+){0,2})$",
    )
]
# "X vs Y", the one shape read in a text's first clause alone ("X vs Y, <a remark>"): "is that the
# same thing as ai safety, or ..." names no first side
_VERSUS = _COMPARISONS[1:2]
# Words without which no text is a comparison: most queries need not try the patterns.
COMPARING = frozenset(
    {"vs", "versus", "or", "compared", "between", "than", "as", "from", "to", "into", "instead"}
)
# ... and the words of two names set side by side ("kv cache and prefix caching, is ..."):
# `compared_sides` may read a pair
PAIRING = COMPARING | {"and"}
# "ppo vs dpo for a tiny chat model", "gguf or safetensors for sharing": a comparison that
# goes on to say what for ("lora instead of fine-tuning?", "dpo or rather ppo" too). Not a
# whole-query shape: the first side counts only if it is a name.
_LEADING_COMPARISON = re.compile(
    r"^(?P<t>[^ ]+(?: [^ ]+){0,2}?) (?:vs|versus|or rather|or|instead of|compared to|compared with) "
    r"(?P<o>[^ ]+(?: [^ ]+){0,2}?)"
    r"(?: (?:for|on|in|with|when|at|to|which|what|and|but|is|are|so|if) .+)?$"
)
# A side of a first clause that sets two names together: a name of up to three words, not a
# pronoun ("is this the same as 'ai safety' or narrower" names one side only), no "same", "as" or
# "and" inside
_A_SIDE = r"(?!(?:this|that|it|they|these|those|same|as) )[^ ]+(?: (?!(?:same|as|and) )[^ ]+){0,2}?"
# "reranking is the same as semantic search again? why ...", "checkpoint and weights is the same
# file or ...": a text's first clause asks whether two names are one thing
_SAME = [
    re.compile(
        rf"^(?P<t>{_A_SIDE}) (?:is|are) (?:the )?same (?:thing )?as (?P<o>{_A_SIDE})(?: or .*)?$"
    ),
    re.compile(rf"^(?P<t>{_A_SIDE}) and (?P<o>{_A_SIDE}) (?:is|are) (?:the )?same\b.*$"),
]
# "kv cache and prefix caching, is prefix caching just ...": a first clause of two names set side
# by side, then a question about them
_SIDE_BY_SIDE = re.compile(rf"^(?P<t>{_A_SIDE}) and (?P<o>{_A_SIDE})$")
# Words that end the name a comparison's side starts with: "lora with rank 8 vs full ...".
QUALIFIERS = frozenset({"with", "without", "on", "in", "for", "at", "plus", "and"})

# What people say before a question in a chat, one home for both uses below: greetings, to a
# group or not ("hey all", "gm"), and interjections ("ok so", "btw").
_GREETINGS = ("hey", "hi", "hello", "yo", "gm")
_GROUPS = ("all", "guys", "everyone", "folks", "team")
_INTERJECTIONS = ("ok", "okay", "so", "but", "um", "uh", "hmm", "btw")
# Skipped before a question's first word ("ok but why ...", "hey all, how ..."); "and" too.
_FILLERS = frozenset((*_GREETINGS, *_GROUPS, *_INTERJECTIONS, "and"))
_GREETING = rf"(?:{'|'.join(_GREETINGS)})(?: (?:{'|'.join(_GROUPS)}))?"

# Openers, repeated away: "hey bot can you please explain what a" -> "". "and", "what about"
# open a follow-up under a card ("and rag?").
_OPENER = re.compile(
    r"^(?:what even is|what even are|what counts as one|what counts as|what qualifies as|wtf is|wtf are|wth is|what the heck is|what the hell is|can someone explain|can anyone explain|someone explain|"
    r"can somebody explain|anyone know what|what about|how about|and|what is|what are|what was|what s|what's|whats|wats|wat is|whta is|waht is|what|who is|"
    r"define|definition of|defintion of|meaning of|explain|describe|eli5|eli5 of|"
    r"tell me about|tell me what|talk about|info on|information on|info about|help with|"
    r"what do you mean by|what do we mean by|do you know|can you explain|could you explain|"
    r"can you define|could you define|can you tell me about|i don't know what|can u explain|"
    r"could u explain|"
    rf"please|pls|plz|{_GREETING}|{'|'.join(_INTERJECTIONS)}|bot|"
    r"in simple terms|in plain english|simply put|quick question|dumb question|noob question|"
    r"the term|the word|the concept of|the concept|concept of|the idea of|the meaning of|"
    r"point of|the point of|purpose of|the purpose of|deal with|the deal with|"
    r"pros and cons of|pros cons of|"  # "pros and cons of hnsw vs lsh": the comparison
    r"a|an|the)\s+"
)
# Closers, repeated away: "kv cache in llms please" -> "kv cache".
_CLOSER = re.compile(
    r"\s+(?:mean|means|meaning|definition|defined|stand for|stands for|explained|explanation|"
    rf"{_IN_THE_FIELD}|"
    r"for me|to me|pls|please|plz|exactly|again|actually|anyway|thanks|thx|lol|eli5|"
    r"means what|is what)$"
)


# An embedded question, what is left once a request before it is said away ("can someone explain
# what rag is", "eli5 what a transformer is"): its middle is the term. Only after the opener loop
# has begun, so the request's own "what" is kept apart from the name's "is".
_EMBEDDED = re.compile(r"^what (?:a |an |the )?(?P<t>[^ ]+(?: [^ ]+){0,4}?) (?:is|are)$")

# What may remain of a question with no term in it ("what is", "define it").
_LEFTOVERS = frozenset({"is", "are", "it", "this", "that", "a", "an", "the", "what", "define"})


def _without_symbols(text: str) -> str:
    """Emoji and other pictographs said around a term ("explain rag 🙏") are not part of it."""
    if text.isascii():  # most texts: one table, not a category look-up a character (speed51)
        return " ".join(text.translate(_ASCII_SYMBOLS).split())
    kept = "".join(" " if unicodedata.category(c) in _SYMBOLS else c for c in text)
    return " ".join(kept.split())


# Emoji and other pictographs (Unicode categories): `plain_chat` blanks them in the text as typed
PICTOGRAPHS = frozenset({"So", "Sk", "Cs", "Co"})
# ... and, in a normalised text (accents composed), combining marks too: the emoji presentation
# selector after "❤" is one
_SYMBOLS = PICTOGRAPHS | {"Mn"}
# ... of which ASCII has two, "^" and "`" (Sk): blanked by `str.translate`
_ASCII_SYMBOLS = {i: " " for i in range(128) if unicodedata.category(chr(i)) in _SYMBOLS}


# The verbs a question opens with: "does x work with y", "is it ...".
_AUXILIARIES = frozenset(
    ["is", "are", "was", "were", "does", "do", "did", "can", "could", "should", "would", "will"]
)
# How a question starts, in a chat: "how was clip trained", "does x work with y", "eli5 x".
_ASKING = frozenset(
    [
        "what",
        "whats",
        "what's",
        "wat",
        "wtf",
        "how",
        "why",
        "when",
        "where",
        "which",
        "who",
        "whose",
        *_AUXILIARIES,
        "eli5",
        "explain",
        "define",
        "anyone",
        "someone",
    ]
)


# After "when", the words that make it a question ("when should i ...", "when to ..."); any
# other word starts the situation a thing happens in: "when the model states ..." describes.
_WHEN_ASKS = _AUXILIARIES | {"shall", "might", "must", "to"}


# ... asked later in a "when" text: a question word before an auxiliary ("why would"), or an
# auxiliary before a pronoun ("do i", "do you"); "forgets what it learned" asks nothing
_ASKED_LATER = frozenset({"what", "whats", "what's", "why", "how", "which", "who", "where"})
_ASKED_OF = frozenset({"i", "you", "we", "it", "they", "he", "she", "u"})


def is_question(query: str) -> bool:
    """Does the text ask something (a question mark, or a question's first word)?"""
    text = _without_symbols(query.lower())  # "tips for cost optimization? 💸"
    words = [w.strip(",!.:;") for w in text.split()]  # "hello! what's ..."
    while len(words) > 1 and words[0] in _FILLERS:  # "ok but why ...", "so how does ..."
        words = words[1:]
    if not words or text.endswith("?"):
        return bool(words)
    if words[0] == "when" and len(words) > 1 and words[1] not in _WHEN_ASKS:
        # a situation described, unless it asks later: "when the loss goes nan, what ...",
        # "when a lab releases the weights what files do i get", "... do you double the time"
        later = _CLAUSE_END.split(text)[1:]
        return any(part.split()[:1] and part.split()[0] in _ASKING for part in later) or any(
            (word in _ASKED_LATER and after in _WHEN_ASKS)
            or (word in _WHEN_ASKS and after in _ASKED_OF)
            for word, after in pairwise([*words[2:], ""])
        )
    return words[0] in _ASKING


# A chat often sets the scene or names its topic in a clause of its own, then asks in the next:
# "running llama on my laptop, do i have to quantize it?", "swiglu activation, why is everyone
# using it". Clauses end at punctuation (which `normalize` drops, so this reads the raw text).
_CLAUSE_END = re.compile(r"[,;:!?]+(?:\s+|$)|\s+[-\u2013\u2014]+\s+|\.\s+")
# A clause that only greets ("morning all", "sup") is no scene.
_SALUTATIONS = frozenset({"good", "morning", "afternoon", "evening", "sup", "hiya", "howdy"})


def _opening_clause(query: str) -> str:
    """The (raw) text's first clause, `normalize`d: "safetensors vs ckpt" of "safetensors vs
    ckpt, my friend says ckpt is dangerous, why"."""
    return normalize(_CLAUSE_END.split(_without_symbols(query.lower()), maxsplit=1)[0])


def clauses_of(text: str) -> list[str]:
    """The (raw) text's clauses, each `normalize`d, the empty left out: a long chat message's
    clue sits in one of them, the others are chat ("my boss asked me", "any ideas")."""
    return [clause for clause, _ in _clauses_read(text) if clause]


def clauses_asking(text: str) -> list[tuple[str, bool]]:
    """`clauses_of`'s clauses, each with whether it asks: a question mark ends it or it opens
    as a question does ("what is a kv cache", "how do people call this")."""
    return [(clause, ends or is_question(clause)) for clause, ends in _clauses_read(text) if clause]


def _clauses_read(text: str) -> list[tuple[str, bool]]:
    """The (raw) text's clauses, each `normalize`d (the empty too), with whether a question mark
    ends it."""
    text = _without_symbols(text.lower())
    ends = [*_CLAUSE_END.findall(text), ""]
    return [
        (normalize(part), "?" in end)
        for part, end in zip(_CLAUSE_END.split(text), ends, strict=True)
    ]


def asked_clause(query: str) -> tuple[str, str] | None:
    """(scene, question) of chat whose question is a later clause than its first: what comes
    before the first clause that starts with a question's first word ("how", "do", "why"),
    and that clause with the rest of the text, both `normalize`d; None where the text starts
    by asking (a question of one piece) or asks in no later clause."""
    clauses = [
        (clause, asked)
        for clause, asked in _clauses_read(query)
        if clause and not set(clause.split()) <= _FILLERS | _SALUTATIONS
    ]
    for at, (clause, asked) in enumerate(clauses):
        if asked or (is_question(clause) and not _reports_a_mention(clause)):
            words = [each for each, _ in clauses]
            return (" ".join(words[:at]), " ".join(words[at:])) if at else None
    return None


# "someone mentioned bm25 in the search channel": who said a name, no question ("someone explain")
_SOMEONE = frozenset({"someone", "somebody"})


def _reports_a_mention(clause: str) -> bool:
    """Does a clause (`normalize`d) that starts like a question only report that someone said,
    mentioned or wrote a name (`mentioned_at`)?"""
    words = clause.split()
    starts = [at + 1 for at, letter in enumerate(clause) if letter == " "]
    return words[0] in _SOMEONE and any(mentioned_at(clause, at) for at in starts)


def quote_split(text: str) -> tuple[str, str] | None:
    """(quote, reply) as typed of a thread reply that opens with a Discord quote of the message
    it answers ("> you need cuda 12.1 for that wheel" and, on the next line, "what even is
    that"): the quote ends at the line break, or at a run of spaces where a line break was
    flattened; None where the text opens with no quote or nothing follows it."""
    text = text.lstrip()
    if not text.startswith(">"):
        return None
    ends = [at for at in (text.find("\n"), text.find("  ")) if at > 1]
    if not ends:
        return None
    quote, reply = text[: min(ends)].strip(), text[min(ends) :].strip()
    return (quote, reply) if quote.strip("> ") and reply else None


def quoted_reply(query: str) -> tuple[str, str] | None:
    """`quote_split`'s (quote, reply), both `normalize`d."""
    split = quote_split(query)
    if split is None:
        return None
    quote, reply = normalize(split[0]), normalize(split[1])
    return (quote, reply) if quote and reply else None


# A question asking for a remedy: what fixes, stops or avoids what the text describes ("my gpu
# runs out of memory, how do i fix it", "is there a trick to speed up decoding"). Not "is there a
# way to ...", which asks for a method by its goal, nor "what's the deal with ...", which asks
# what a thing is (task fix74).
_REMEDY = re.compile(
    r"\b(?:(?:how (?:do|can|could|would|should) (?:i|we|you|u|people|they|folks|labs|teams)"
    r"|how to) (?:fix|stop|avoid|prevent|get rid of|deal with|speed up)"
    r"|(?:what(?:'s| is|s) the|any|is there an?y?) (?:fix|trick|workaround|remedy|cure))\b"
)


def asks_remedy(normalized: str) -> bool:
    """Whether the `normalize`d text asks for a remedy (`_REMEDY`)."""
    return _REMEDY.search(normalized) is not None


# Who asks only frames a question from a server not about AI ("our soccer parents asked which
# programming language ..."): the asker's words pull the meaning away from what is asked
# (issue #12, task offer24; an owner's possessive, "our bakery's bot", measured and left out).
_REPORTED = re.compile(
    r"^(?!(?:how|why|what|which|when|who|is|are|do|does|can|should)\b).*?\b(?:asked|asks|wondered|wonders|wants? to know)\s+"
    r"(?=(?:if|whether|why|how|which|what|when|who)\b)"
)


def without_framing(normalized: str) -> str | None:
    """The `normalize`d text from its reported question on ("a parent in our school group
    asked if the ai can forget ..." reads "if the ai can forget ..."); None where it reports
    none, or asks first ("why does it ignore what i asked when ...")."""
    text = _REPORTED.sub("", normalized, count=1)
    return text if text != normalized else None


# The speaker's opening ("accountant here,", "chef, long one, sorry:", "nurse:", "PM here -"):
# who asks or how, before the question; words about nothing asked that thin the meaning's
# cosines (semantic.md, "cause57"). Letters and spaces only, so no log's label ("eval:
# pass@1=0.42", "TLA+ homework:"), and a short one. Cut from the text as a whole it traded
# held-out right cards for wrong ones (task voice59): it is only the meaning's second reading.
_SPEAKER = re.compile(
    r"^(?P<who>[a-z][a-z ,'-]{0,48}?)(?P<here> here\s*[,.:!-]|:)\s+(?=\S)", re.IGNORECASE
)
# A label of more words before its ":", with no comma setting off how one asks, names a topic
# or a scene ("documentation for a dataset:", "in our investing club:"), not who asks.
_LABEL_WORDS = 2
_SPEAKER_CUTS = 2  # "barista here, long story short: what ..."


def without_speaker(text: str, names: Callable[[str], bool]) -> str | None:
    """`text` without the speaker's opening (`_SPEAKER`) where the rest asks (a "?" or a
    question's first word) in three words or more; None where it has none. Not where the
    opening itself asks, writes a name (`names`: "kv cache: why does it grow?", "attention: why
    softmax?"), sets a word in mixed case ("RuntimeError:") or is a log's level ("WARNING:");
    nor a label of more than `_LABEL_WORDS` words without a comma or "here" first (after who
    asks, how: "barista here, long story short: what ...")."""
    rest = text
    for cut in range(_SPEAKER_CUTS):
        found = _SPEAKER.match(rest)
        if found is None:
            break
        who, after = found["who"], rest[found.end() :]
        words = who.split()
        if len(after.split()) < 3 or not ("?" in after or is_question(after)):
            break
        if not cut and found["here"] == ":" and "," not in who and len(words) > _LABEL_WORDS:
            break
        if not all(w.islower() or w.isupper() or w.istitle() for w in words):
            break
        if is_question(who) or re.fullmatch(_LOG_LEVELS, who, re.IGNORECASE) or names(who):
            break
        rest = after
    return rest if rest != text else None


# "keep only the correct answers and finetune on those, name?": the text describes a thing and
# asks what it is called ("what's that ordering called"), perhaps asking more about it after an
# "and"; the names it writes only describe it.
_NAME_ASKED = re.compile(
    r"^(?:name|the name|(?:what s|what's|whats|what is) (?:that|this|it)(?: [a-z]+){0,2} called|"
    r"(?:is there|any) (?:a )?(?:name|term|word) for (?:that|this|it)|"
    r"what do (?:you|we|people|they) call (?:that|this|it))"
    r"(?: and (?:how|what|do|does|is|are|can) .*)?$"
)


def asks_for_name(clause: str) -> bool:
    """Is a question's clause (`normalize`d) asking what the thing before is called ("what is
    that technique called", "... and do i need a special server for it")?"""
    return _NAME_ASKED.match(clause) is not None


# "... and my code ran it and sent back the result. what is this feature called in their docs?":
# a long message tells what happened, then asks what it is called, perhaps with more after
# ("what's the standard name, and does it change ..."); the asking may sit anywhere after the
# story, so it is searched for, not matched from the clause's start.
_NAME_ASKED_ANYWHERE = re.compile(
    r"\b(?:what(?: s|'s|s| is| are) (?:the |that |this |those |these |it |its )?(?:[a-z']+ ){0,4}"
    r"called|what(?: s|'s|s| is) the (?:[a-z']+ ){0,3}(?:name|term|word|acronym)|"
    r"(?:is there|there s|there's|any) (?:a |an )?(?:[a-z]+ ){0,2}(?:name|term|word)\b|"
    r"what (?:the|that|this|these|those) (?:[a-z']+ ){0,3}(?:is|are) called|"
    r"what do (?:you|we|people|they|i) call|which (?:word|term|name)\b|"
    r"(?:which|what) [a-z]+ is (?:this|that|it) called)"
)
# words of story before the asking: "what is that called" alone, or after a few words ("the
# trick where you merge two models, what's it called"), is `asks_for_name`'s
STORY_WORDS = 12


def asks_name_after_story(normalized: str) -> bool:
    """Does a `normalize`d text tell a story of `STORY_WORDS` or more words and then ask what
    the thing it tells of is called ("we tried X and it kept doing Y ... what is that called")?"""
    found = _NAME_ASKED_ANYWHERE.search(normalized)
    return found is not None and len(normalized[: found.start()].split()) >= STORY_WORDS


# "our rag bot pulls chunks out of the vector database. what stage puts the best ones on top?":
# a question that asks which or what KIND of thing does something asks for a thing the scene
# before it only places; "what technique is that" points back at the scene and is not read here.
_KINDS = (
    "algorithm|approach|architecture|attack|chip|component|curve|document|engine|feature|file|"
    "flag|format|framework|hyperparameter|image|input|kernel|knob|label|law|layer|library|limit|"
    "list|measure|mechanism|method|metric|module|network|number|option|part|pattern|phase|piece|"
    "program|property|protocol|quantity|risk|schedule|setting|software|stage|standard|step|"
    "strategy|technique|term|tool|trick|value|variant|vector"
)
_KIND_ASKED = re.compile(
    r"^(?:(?:so|and|but|ok|then) )?(?:which|what)(?: s|'s|s| is| are)?(?: the| that| this)? "
    rf"(?:(?:[a-z0-9]+ )?(?:{_KINDS})s?|(?:kind|type|sort) of)\b"
)
_POINTS_AT_SCENE = re.compile(
    r"\b(?:(?:is|are|was) (?:it|that|this|those|these|they)|"
    r"(?:in|of|for|on|inside|from|with|by) (?:that|this|those|these|its|their))\b"
)


def asks_kind(clause: str) -> bool:
    """Does a question's clause (`normalize`d) ask which or what kind of thing does something
    ("what format should i convert the weights to", "which rl algorithm"), not what the thing
    before it is ("what technique is that")?"""
    found = _KIND_ASKED.match(clause)
    return found is not None and not _POINTS_AT_SCENE.search(clause, found.end())


# A later clause asking what the scene's name is, pointing back at it (task asked71): "what's
# that", "is that a library" (`_clause_subject` reads "what is that" and "what does it mean" from
# the subject's words; these it reads no subject in). "what kind of file is that" was measured
# and left out: one tuning right card for one held-out wrong card.
_POINTED_BACK = re.compile(
    r"^(?:(?:what's|whats) (?:that|it|this)(?: (?:exactly|again|even|actually|then|now))?$"
    r"|(?:is|are) (?:that|it|this|those|these|they) (?:a|an) )"
)
# The words that report a name someone used before it ("my lead keeps saying rag", "heard about
# speculative decoding at a meetup", "i keep seeing temperature in the api settings"): of the
# scene's names, the one a pronoun after it points back at.
_MENTIONED_BEFORE = re.compile(
    r"\b(?:mention(?:s|ed|ing)?|say(?:s|ing)?|said|talk(?:s|ed|ing)? about|heard(?: about| of)?"
    r"|hear(?:s|ing)? about|read(?:ing)? about|see(?:s|ing)?|saw|brought up|bring(?:s|ing)? up)"
    r"(?: the (?:word|term|phrase|name))?(?: (?:a|an|the|this|that|some))? $"
)


def asks_what_it_is(clause: str) -> bool:
    """Does a question's later clause (`normalize`d) ask what the thing before it is, by a
    pronoun pointing back ("what's that", "is that a library")?"""
    return _POINTED_BACK.match(clause) is not None


def mentioned_at(scene: str, start: int) -> bool:
    """Is the name at `scene[start:]` (`normalize`d) written as what someone said, mentioned,
    heard or saw ("my teammate keeps mentioning hnsw")?"""
    return _MENTIONED_BEFORE.search(scene[:start]) is not None


# A short question's name written where, not what, is asked (task passing37): the question opens
# with a setting word and the name ("in pytorch what computes the gradients"), asks for a thing
# inside it ("what's the timestep in a diffusion model"), places a thing against it ("the numbers
# right before softmax", "cheaper than dpo") or owns one with it ("vllm's docs mention ...").
PASSING_WORDS = 20  # words of a short question; a longer one is a story's or a scene's (story27)
_PASSING_OPENER = re.compile(r"^(?:in|inside|within|during|with|for) (?:the |a |an )?$")
_PASSING_INSIDE = re.compile(
    r"^(?:what|which)(?:'s| s| is| are)? (?:the|a|an) (?P<thing>[a-z0-9' -]{1,30}?) "
    r"(?:in|inside|within) (?:the |a |an )?$"
)
_PASSING_AGAINST = re.compile(r"\b(?:before|after|than) (?:the |a |an )?$")
_PASSING_THAN = re.compile(r"\bthan (?:the |a |an )?$")
# "deepseek v3 has 671b parameters ...", "hugging face has a library for ...": the name owns what
# is asked, as "X's" does. Not "has to", "has been", "has changed" (no owning: a state of X's),
# nor a closing "has" ("how many layers gpt-2 has"); "does X have", "which X has" ask about X.
_PASSING_HAS = re.compile(
    r"^(?: [a-z]?\d[a-z0-9.]{0,4})? (?:has|have|had) "
    r"(?!(?:to|been|become|got|gotten|[a-z]+ed|[a-z]+en)\b)[a-z0-9]"
)
_ASKING_DOES = re.compile(r"\b(?:does|do|did|which|what|whose)(?: the| a| an)? $")
# "is this the same as ai safety or narrower": what the thing asked is set beside, as "than X"
_PASSING_SAME = re.compile(
    r"\b(?:(?:the )?same(?: thing)? as|similar to|(?:an )?alternative to|something like) "
    r"(?:the |a |an )?$"
)


def in_passing(normalized: str, start: int, end: int) -> bool:
    """Is the name written at `normalized[start:end]` (a short question, `normalize`d) its
    setting, not what it asks about: after a setting opener with a question of its own after
    it, as the place of a thing asked for that is no word of the name, after "before", "after"
    or "than", or owning a thing ("X's ...")?"""
    before, name, after = normalized[:start], normalized[start:end], normalized[end:]
    if after.startswith("'s ") or name.endswith("'s"):
        return True
    if _owns(before, after):
        return True
    if _PASSING_SAME.search(before):
        return True
    if _PASSING_OPENER.match(before):
        return len(after.split()) >= 3  # "in pytorch how": the question says nothing else
    inside = _PASSING_INSIDE.match(before)
    if inside:  # "what is the judge in llm as a judge": the thing is the name's own
        return set(inside["thing"].split()).isdisjoint(name.split())
    return _PASSING_AGAINST.search(before) is not None


# A question that describes a thing and closes asking what it is ("ggerganov's project for
# running gguf files on a macbook cpu, what's it called again?") or what acts on it ("vram goes
# up and up as my chat gets longer, what's eating it?") asks for something the description only
# places: a name it writes is where or what with (task passing41). "residual stream in interp,
# what is it" asks about the name: it says little else. A kind named ("what is that metric")
# is left out: the asked entry's own alias ("tokens per second") is often written before it.
_WHAT_IT_IS = re.compile(
    r"\b(?:what(?: s|'s|s| is| was) (?:it|that|this)(?:(?: [a-z]+)? called)?(?: again)?|"
    r"what do (?:you|we|people|ppl|they|i) call (?:it|that|this)(?: again)?|"
    r"what(?: s|'s| is)? (?!does |means |is )(?:[a-z]+ing|[a-z]+s) (?:it|that|this|them))$"
)
DESCRIBING_WORDS = 8  # words besides its names: a description, not a name and its place


# "someone at the meetup mentioned mcp for hooking chatbots up to tools, what is that": the plain
# "what is it/that" points back at the name someone was heard saying, not at the words around it
# (task misses73). Not "what's it called" (a name is asked for) nor "what's eating it".
_WHAT_IS_THAT = re.compile(r"\bwhat(?: s|'s|s| is| was) (?:it|that|this)(?: again)?$")


def asks_what_mentioned_is(normalized: str, start: int) -> bool:
    """Does a `normalize`d question close asking plainly what "it" or "that" is, the name at
    `normalized[start:]` written as what someone said or mentioned (`mentioned_at`)?"""
    closing = _WHAT_IS_THAT.search(re.sub(r"\W+$", "", normalized))
    return closing is not None and start < closing.start() and mentioned_at(normalized, start)


def asks_what_described(normalized: str, names: Sequence[tuple[int, int]]) -> bool:
    """Does a `normalize`d question close asking what the thing before is, or what acts on it
    (`_WHAT_IT_IS`), after a description of `DESCRIBING_WORDS` or more words besides the
    `names` (start, end) it writes?"""
    found = _WHAT_IT_IS.search(re.sub(r"\W+$", "", normalized))  # "... again? 😭"
    if found is None:
        return False
    scene = normalized[: found.start()]
    for start, end in sorted(names, reverse=True):
        if end <= len(scene):
            scene = scene[:start] + " " + scene[end:]
    return len(scene.split()) >= DESCRIBING_WORDS


# A text that opens with a pasted log or error line ("Epoch 12: train_loss=0.08 ...", "sampler:
# dpmpp_2m, scheduler: karras ...", "ALERT: burn rate 14.4x ...", "llama_model_load: error ...")
# and asks about it: a name the line writes as a field's label (a value after it, or part of a
# code identifier) says where the numbers come from, not what is asked (task written45). "KV
# cache is full", "No module named 'numpy'" write the name as the line's subject: not read here.
_LOG_LEVELS = "info|warn|warning|error|alert|debug|critical|fatal"
_PASTED_LINE = re.compile(
    r"^\s*(?:\[[^\]\n]{1,30}\]:?\s*)*(?:"
    rf"(?i:{_LOG_LEVELS})\s*[:\]|]|"  # a level
    r"[\w.]*(?:Error|Exception|Warning)\b|"  # an exception's class
    r"(?i:epoch|step|iter|iteration)\s*\d|"  # a progress counter
    r"[a-z][\w.]*\s*:\s*[^\n]*?(?:\d|=)|"  # a logger or key, then numbers or settings
    # a setting's number ("global_step=1200, epoch=0.4"), a printed dict ("{'loss': 0.81, ...")
    r"[a-z_][\w.]*\s*=\s*[-+]?\.?\d|\{\s*['\"][a-z_][\w.]*['\"]\s*:\s*[-+]?\.?\d"
    r")"
)
# after the name: a number (optionally after ":", "=", "<", "|", "->"), a value holding a digit
# ("eval: pass@1=0.42", "sampler: dpmpp_2m"), or the rest of a code identifier ("llama_model_load")
_LABEL_AFTER = re.compile(r"(?:\s*(?:(?:[:=<>|]|->)\s*)?[-+~]?\d|\s*[:=]\s*[^\s,]*\d|[._][A-Za-z])")


def pastes_log(query: str) -> bool:
    """Does the (raw) text open with a pasted log or error line (`_PASTED_LINE`)?"""
    return _PASTED_LINE.match(query) is not None


# a question's word anywhere in a text: a pasted line's own words seldom are ("... which memory
# is full, the 32gb of system ram or something else" asks, with no "?" and no opening question)
_ASKING_ANYWHERE = re.compile(
    r"\b(?:what|whats|why|how|which|where|who|explain|mean|means|meaning|name|called)\b",
    re.IGNORECASE,
)


def asks_nothing(query: str) -> bool:
    """Does the (raw) text ask nothing: no "?", no question's first word (`is_question`) and no
    question's word anywhere (`_ASKING_ANYWHERE`)?"""
    return "?" not in query and not is_question(query) and not _ASKING_ANYWHERE.search(query)


def pasted_label(query: str, name: str) -> bool:
    """Is the written `name` (as `normalize`d) a field's label wherever the raw text writes it
    (`_LABEL_AFTER`: "Epoch 12:", "p95 latency < 800ms", "llama_model_load"), never plainly
    ("Epoch 3/10 ... what is an epoch")? False where the raw text does not show it."""
    words = r"[\W_]+".join(re.escape(word) for word in name.split())
    spans = list(re.finditer(rf"(?<![A-Za-z0-9]){words}(?![A-Za-z0-9])", query, re.IGNORECASE))
    return bool(spans) and all(_LABEL_AFTER.match(query, found.end()) for found in spans)


# A pasted log, error or code line, then what is asked about it (task pasted55): the line in
# backticks ("`loss = F.cross_entropy(logits[:, :-1], ids[:, 1:])` why is everything shifted by
# one here"), or a log line (`pastes_log`) set off from the question by two spaces or " -- ".
_BACKTICKED_THEN_ASKED = re.compile(r"\s*`(?P<paste>[^`\n]+)`\s*(?P<ask>\S.*)", re.DOTALL)
_LOG_THEN_ASKED = re.compile(r"(?P<paste>[^\n]*?\S)(?: {2,}| -- )(?P<ask>\S.*)", re.DOTALL)
# the name inside code: a module's or object's part ("F.cross_entropy", "vllm.entrypoints"), a
# call ("cross_entropy(") or an identifier's start ("vllm_config")
_IN_CODE_AFTER = re.compile(r"\(|[._][A-Za-z]")


def pasted_then_asked(query: str) -> tuple[str, str] | None:
    """The (raw) text's pasted line and what it asks after it (`_BACKTICKED_THEN_ASKED`,
    `_LOG_THEN_ASKED`), else None."""
    found = _BACKTICKED_THEN_ASKED.fullmatch(query)
    if found is None and pastes_log(query):
        found = _LOG_THEN_ASKED.fullmatch(query)
    return None if found is None else (found.group("paste"), found.group("ask"))


def pasted_in_code(paste: str, name: str) -> bool:
    """Is the written `name` (as `normalize`d) part of code wherever the raw `paste` writes it
    (after a ".", or `_IN_CODE_AFTER`: "F.cross_entropy(", "vllm.entrypoints")? False where
    the paste does not show it."""
    words = r"[\W_]+".join(re.escape(word) for word in name.split())
    spans = list(re.finditer(rf"(?<![A-Za-z0-9]){words}(?![A-Za-z0-9])", paste, re.IGNORECASE))
    return bool(spans) and all(
        paste[: found.start()].endswith(".") or _IN_CODE_AFTER.match(paste, found.end())
        for found in spans
    )


def _owns(before: str, after: str) -> bool:
    """Is a name the subject of "has" / "have" / "had" ("diffusers has DPMSolver..."), not
    asked about with "does X have"?"""
    return _PASSING_HAS.match(after) is not None and _ASKING_DOES.search(before) is None


def plainly_in_passing(normalized: str, start: int, end: int) -> bool:
    """Is the name at `normalized[start:end]` plainly not what a short question asks, whatever
    its meaning puts first: what it is measured against ("cheaper than dpo"), or its opening
    setting before a question asking which or what kind of thing (`asks_kind`: "in a
    transformer block what's the part that ...")?"""
    before = normalized[:start]
    if _PASSING_THAN.search(before):
        return True
    if _owns(before, normalized[end:]):
        return True
    if _PASSING_SAME.search(before):
        return True
    return bool(_PASSING_OPENER.match(before)) and asks_kind(normalized[end:].strip())


# "rag vs lora which one": the question after the other side is no part of its name
_ASKED_AFTER = re.compile(r" (?:which|what)\b.*")


def compared(
    normalized: str, patterns: list[re.Pattern[str]] = _COMPARISONS
) -> tuple[str, str] | None:
    """The two terms of a comparison ("difference between X and Y", "X vs Y"), else None."""
    text = _without_symbols(normalized)
    for pattern in patterns:
        found = pattern.match(text)
        if found:
            return found.group("t"), _ASKED_AFTER.sub("", found.group("o"))
    return None


# "gguf/safetensors which one", "rlhf > dpo?": a sign between two names written for "vs", which
# `normalize` drops. Only the text's one such sign, between words (not "i/o", "w/ rank 8", a
# link, a quote's "> " at a line's start), and only where the clause goes on to ask "which" (or,
# for ">", ends in "?") within a few words ("tokens/sec, is that good?" weighs nothing).
_SAME_CLAUSE = r"(?:(?![,;:!?\n]|\.\s).)*?"
_SIGNS_VERSUS = (
    (
        "/",
        re.compile(r"(?<=\S[a-z0-9])(?:/| / )(?=[a-z]\S)"),
        re.compile(rf"{_SAME_CLAUSE}\bwhich\b"),
    ),
    (
        ">",
        re.compile(r"(?<=\S[a-z0-9.)])(?: ?> ?)(?=[a-z]\S)"),
        re.compile(rf"{_SAME_CLAUSE}(?:\bwhich\b|\?)"),
    ),
)
# the words between the sign and what asks: the other side, and what for ("for reranking")
_SIGNED_SIDE_WORDS = 5


def spelled_versus(text: str) -> str:
    """The text with its one "/" or ">" between two names written "vs" where it weighs them
    ("top-k/top-p which", "adamw > adam?"), else the text as it is."""
    lowered = text.lower()
    for sign, between, asks in _SIGNS_VERSUS:
        if lowered.count(sign) != 1 or "://" in lowered or "and/or" in lowered:
            continue
        found = between.search(lowered)
        then = asks.match(lowered, found.end()) if found else None
        if found and then and len(then.group().split()) <= _SIGNED_SIDE_WORDS:
            return f"{text[: found.start()]} vs {text[found.end() :]}"
    return text


def compared_sides(
    query: str, normalized: str, core: str, clauses: tuple[str, str] | None
) -> tuple[str, str] | None:
    """The two sides a (raw) text compares: its whole (`compared`), else the scene before its
    question ("layernorm vs batchnorm, why do transformers use it": `asked_clause`), else its
    first clause ("safetensors vs ckpt, my friend says ckpt is dangerous"), else a comparison its
    core (`query_core`) starts with and goes on from, saying what for ("X or Y for Z"). A clause
    ends the other side: "rlaif vs rlhf, only the feedback differs?" compares RLAIF and RLHF."""
    pair = compared(normalized) or (compared(clauses[0]) if clauses else None)
    opening = _opening_clause(query)
    pair = pair or compared(opening, _VERSUS)
    if pair is None and (found := _LEADING_COMPARISON.match(core)):
        pair = found["t"], found["o"]
    # the first clause "X is the same as Y", "X and Y, <question>"
    side_by_side = [_SIDE_BY_SIDE] if len(opening.split()) < len(normalized.split()) else []
    for pattern in [*_SAME, *side_by_side]:
        if pair is None and (found := pattern.match(opening)):
            pair = found["t"], found["o"]
    return pair


def read_alone(name: str) -> str:
    """How search reads `name` typed alone: normalised, then its core (`query_core`): "the
    Zorb ★" and "what is zorb" -> "zorb". The checks of a server's terms and waiting suggestions
    take it (`server_terms.NameReading`): the glossary layer cannot import search."""
    return query_core(normalize(name))


def read_otherwise(normalized: str) -> str | None:
    """What search reads a `normalize`d name typed alone as (`read_alone`), where that is
    another key: "the zorbler" -> "zorbler", "what is zorb" -> "zorb"; None where it is the same
    name ("zorb ★" is read as "zorb", the key of both). A question asking it is read so, so a
    server's alias, a title and an other name are each found by it too (`names.entry_names`,
    `ServerAliases`): one reading for the three, the one the checks of a server's names refuse
    clashes on (`server_terms.NameReading`)."""
    core = query_core(normalized) if normalized else ""
    squeezed = core.replace(" ", "").replace("'", "")
    return core if squeezed and squeezed != normalized.replace(" ", "").replace("'", "") else None


# A made-up term put beside a name to see whether search leaves the name out (`only_framing`).
_PROBE_TERM = "zorbquux"


def only_framing(name: str) -> bool:
    """Whether `name` holds no term for search: only a question's frame or chat filler ("what
    is", "explain", "pls", "the", "it"), which search leaves out around the term asked ("what
    is zorb", "pls zorb"). A server alias so named is found in "what is it" or "what is that"
    and offers its term there; `/alias add` and alias imports refuse it. Read as search reads
    a message: "# what is" (a heading mark) is "what is"."""
    normalized = normalize(without_chat_markup(name))
    core = _bare_core(normalized)
    if not core or core in _LEFTOVERS:
        return True
    # Before a term only, and not a greeting: words said to the bot ("thanks", "lol", "hi",
    # "ok", "bot") may be a server's names (README: such an alias opens its card).
    if set(core.split()) <= _FILLERS | {"bot"}:
        return False
    return query_core(f"{normalized} {_PROBE_TERM}") == _PROBE_TERM


def query_core(normalized: str) -> str:
    """The term inside a normalised question, or the query itself if nothing is left."""
    core = _bare_core(normalized)
    return normalized if not core or core in _LEFTOVERS else core


# Two single letters with a slash between them ("A/B testing", "I/O"), which `normalize` writes
# apart ("a b testing"): one name, whose "a" the openers read as the article (task tidy76).
_LETTER_SLASH = re.compile(r"(?<![^\W_])([^\W\d_])/([^\W\d_])(?![^\W_])")


def typed_core(normalized: str, typed: str) -> str:
    """`query_core` of `normalized` (of the text `typed`), a slash `typed` writes between two
    single letters kept as part of a name: "what is A/B testing" is "a b testing", not "b
    testing"."""
    if "/" not in typed:
        return query_core(normalized)
    kept, at = normalized, 0
    for found in _LETTER_SLASH.finditer(typed):
        pair = normalize(f"{found[1]} {found[2]}")
        if len(pair) != 3:  # a letter `normalize` writes as more than one ("ß")
            continue
        written = re.compile(rf"(?<!\S){re.escape(pair)}(?!\S)").search(kept, at)
        if written is not None:
            kept = f"{kept[: written.start()]}{pair[0]}/{pair[2]}{kept[written.end() :]}"
            at = written.end()
    if kept == normalized:
        return query_core(normalized)
    return query_core(kept).replace("/", " ")


def _bare_core(normalized: str) -> str:
    """What `query_core` leaves of a question once its frame is taken away: "" or a leftover
    word ("it", "the") when the question holds no term."""
    core = _without_symbols(normalized) or normalized
    pair = compared(core)
    if pair:
        core = pair[0]
    for frame in _FRAMES:
        found = frame.match(core)
        if found:
            core = found.group("t")
            break
    while True:
        if found := _EMBEDDED.match(core):
            core = found.group("t")
        shorter = _CLOSER.sub("", _OPENER.sub("", core))
        if shorter == core or not shorter.strip():
            break
        core = shorter
    return core.strip()


# "what's a safetensors file", "what are gguf files": the kind of thing a name is read after it
# (task file56); the name alone is what is asked. Only a name outright is looked up with it.
_FILE_AFTER = re.compile(r"(?P<name>\S.*?) files?")


def file_named(core: str) -> str | None:
    """The name a question's core (`query_core`) writes before "file" or "files", else None."""
    found = _FILE_AFTER.fullmatch(core)
    return None if found is None else found.group("name")


# "what's a model card, every hugging face repo has one", "what's backend.ai? it keeps coming
# up": what is asked first, set apart, then a remark on it (task file56, dev19's shape E)
_ASKED_FIRST = re.compile(
    r"\s*(?:what's|whats|what is|what are)\s+(?:an?\s+|the\s+)?"
    r"(?P<name>[^\s,?;!][^,?;!\n]{0,39}?)\s*[,?;]\s*\S",
    re.IGNORECASE,
)


def asked_first(query: str) -> str | None:
    """The (raw) text's name asked about before a comma, "?" or ";" that a remark follows
    (`_ASKED_FIRST`), `normalize`d, else None."""
    found = _ASKED_FIRST.match(query)
    return None if found is None else normalize(found.group("name"))


# A list of three or more alternatives (task first61): "should i use mlx, llama.cpp or core ml",
# "dpo vs ppo vs grpo", "adam or adamw or sgd", "top-p/top-k/temperature", bullet lines. An item
# is up to three words (the first may take words from before the list: "i use mlx"), the last up
# to four ("a plain kv cache"); "and" joins alternatives only where the text chooses ("between
# x, y and z"), not parts of a whole ("the attention, mlp and norm layers").
_ITEM = r"[^\s,;:!?()`/]+(?: [^\s,;:!?()`/]+){0,2}"
_LAST = r"[^\s,;:!?()`/]+(?: [^\s,;:!?()`/]+){0,3}"
_COMMA_LIST = re.compile(rf"(?<!\S)({_ITEM}(?:, {_ITEM})+),? (or|and) ({_LAST})")
_CHAIN_ITEM = r"[^\s,;:!?()`]+(?: (?!or |vs |vs\. |versus )[^\s,;:!?()`]+){0,2}"
_CHAIN_LAST = r"[^\s,;:!?()`]+(?: (?!or |vs |vs\. |versus )[^\s,;:!?()`]+){0,3}"
_CHAIN = re.compile(
    rf"(?<!\S)({_CHAIN_ITEM}(?: (?:or|vs\.?|versus) {_CHAIN_ITEM})+) (?:or|vs\.?|versus) "
    rf"({_CHAIN_LAST})"
)
_SLASHED = re.compile(r"(?<![\S/])([^\s/,;:!?()`]+(?:/[^\s/,;:!?()`]+){2,})(?=[\s,;:!?)]|$)")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(\S.*?)\s*$")
_CHOOSING = re.compile(
    r"\b(?:between|among|amongst|compare|comparing|compared|choose|choosing|pick|picking"
    r"|deciding|which|difference|differences|vs|versus)\b"
)
# Words that weigh a list's items against each other though the text asks nothing ("choosing
# between flashattention, pagedattention and a plain kv cache for our server", "hbm vs dram vs
# sram, explain like i'm five")
WEIGHING = re.compile(
    r"\b(?:between|among|amongst|compare|comparing|choose|choosing|pick|picking|deciding|vs"
    r"|versus)\b"
)


def alternatives(query: str) -> list[tuple[tuple[str, ...], str]]:
    """The items of each list of three or more alternatives the (raw) text writes (`_COMMA_LIST`,
    `_CHAIN`, `_SLASHED`, three bullet lines or more) in the order written, and the text
    without that list, all `normalize`d."""
    text = query.lower()
    spans: list[tuple[tuple[str, ...], int, int]] = []
    # each pattern only where the words it needs are written: every search reads this
    joined = " or " in text or " and " in text
    if ", " in text and joined:
        choosing = _CHOOSING.search(text) is not None
        for found in _COMMA_LIST.finditer(text):
            items = (*found.group(1).split(", "), found.group(3))
            if (found.group(2) == "and" and not choosing) or any(" vs" in i for i in items):
                continue
            spans.append((items, found.start(), found.end()))
    separators = sum(text.count(f" {word} ") for word in ("or", "vs", "vs.", "versus"))
    for found in _CHAIN.finditer(text) if separators >= 2 else ():
        items = (*re.split(r" (?:or|vs\.?|versus) ", found.group(1)), found.group(2))
        spans.append((items, found.start(), found.end()))
    for found in _SLASHED.finditer(text) if text.count("/") >= 2 else ():
        if "://" not in found.group(1) and "www." not in found.group(1):
            spans.append((tuple(found.group(1).split("/")), found.start(), found.end()))
    bullets: list[str] = []
    at = 0
    for line in [*text.splitlines(keepends=True), ""] if "\n" in text else ():
        item = _BULLET.match(line)
        if item is not None:
            bullets.append(item.group(1))
        else:
            if len(bullets) >= 3:
                spans.append((tuple(bullets), text.rfind(bullets[0], 0, at), at))
            bullets = []
        at += len(line)
    return [
        (tuple(normalize(item) for item in items), normalize(f"{text[:start]} , {text[end:]}"))
        for items, start, end in spans
    ]


# A list of commas alone that opens the text (task which62): "adam, sgd, rmsprop", "lora, qlora,
# peft differences", "bm25, hnsw, cross-encoder: when to use each?". Anchored at the start, so a
# long comma run is read once, not from every word.
_OPENING_COMMAS = re.compile(rf"\s*({_ITEM}(?:, {_ITEM})+), ({_LAST})(?=$|[\s,;:!?.])")


# A list of commas alone with at most this many words after it asks about its items, though it
# writes no question ("top-k, top-p, temperature explained", "cpu, gpu, tpu, npu differences")
LIST_HEADING_WORDS = 3


def opening_list(query: str) -> tuple[tuple[str, ...], str] | None:
    """The items of a list of three or more joined by commas alone that opens the (raw) text
    (`_OPENING_COMMAS`), and the text after it, all `normalize`d; else None."""
    text = query.lower()
    found = _OPENING_COMMAS.match(text) if text.count(", ") >= 2 else None
    if found is None:
        return None
    items = (*found.group(1).split(", "), found.group(2))
    return tuple(normalize(item) for item in items), normalize(text[found.end() :])


# "which of these optimizers ...", "which loss function should i use: ...": the kind a "which"
# question over a list asks for is the words right after it (task which62)
_WHICH_KIND = re.compile(
    r"\bwhich\s+(?:(?:one\s+)?of\s+(?:these|those|the|the following)\s+)?"
    r"(?P<kind>[^\s,;:!?()]+(?: [^\s,;:!?()]+){0,2})"
)


def which_kind(query: str) -> str | None:
    """The (raw) text's words after "which" (and "of these"), where a kind may be named,
    `normalize`d; None where it writes no "which"."""
    text = query.lower()
    found = _WHICH_KIND.search(text) if "which" in text else None
    return None if found is None else normalize(found.group("kind"))


# The items of a list read for entries: more than the offers hold, fewer than a long comma run
LISTED_ITEMS = 8


# Words before a listed name that keep it the item ("or a plain kv cache", "or just temperature")
LIST_ITEM_LEADS = frozenset({"a", "an", "the", "plain", "just", "full", "regular", "vanilla"})


# A model's version written after its name: "3.5" (normalised to "3 5"), "4o", "70b", "8x7b",
# "v3". A unit after the number makes it a quantity, not a version ("4 bit", "7b params").
_VERSION = re.compile(r"v?\d+(?:[a-z]|x\d+b)?")
_UNITS = frozenset(
    {"bit", "bits", "byte", "bytes", "gb", "mb", "tb", "k", "b", "m", "billion", "million"}
    | {"params", "parameters", "tokens", "layers"}
)


def without_versions(core: str, is_name: Callable[[str], bool]) -> str:
    """`core` without the version numbers written after a name ("gpt 3 5", "claude 3 5 sonnet",
    "llama 3 70b"): digits are no words of a description, and a name with a version is no
    sentence. A number that makes a name with the word before it stays ("gpt 2", "llama 3":
    `is_name` of the two run together)."""
    words = core.split()
    kept: list[str] = []
    after_name = False  # the word before is a name's word, or a version of one
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if after_name and _VERSION.fullmatch(word) and following not in _UNITS:
            if not is_name(words[i - 1] + word):
                continue  # a version: after_name holds for the next number ("3 5", "3 70b")
            kept.append(word)
            continue
        kept.append(word)
        after_name = word not in STOPWORDS and not word.isdigit()
    return " ".join(kept) or core


def written_with_version(text: str, start: int, end: int) -> bool:
    """Is the name written at `text[start:end]` (normalized) written with its version: a number
    of one or two digits joined to it ("gpt2", "llama3", "flashattention2"), or a dotted version
    after it ("cuda 12.4", "python 3.11": "12 4" once normalized) or one led by "v" ("gguf v3")?
    A lone number after a name may be a count or a season ("mlp 4", "ppo 2"), a four-digit one a
    year; a dotted version is software's or a model's (task offer77)."""
    if re.search(r"[a-z]\d{1,2}$", text[start:end]):
        return True
    after = text[end:].split()[:2]
    if after and re.fullmatch(r"v\d{1,2}", after[0]):
        return True
    return len(after) == 2 and all(re.fullmatch(r"\d{1,2}", w) for w in after)


# A version that is a parameter count, "7b" or "8x7b": a language model's size.
_PARAMETER_COUNT = re.compile(r"\d+(?:x\d+)?b")


def sized_model(core: str, versionless: str) -> bool:
    """Did `without_versions` drop a parameter count from `core` ("mistral 7b")? Then a
    language model was named, whether or not it has an entry."""
    dropped = set(core.split()) - set(versionless.split())
    return any(_PARAMETER_COUNT.fullmatch(word) for word in dropped)


# Where a chat question puts what it asks about: right after its asking words. "how does
# sampling work when ...", "why is hbm the bottleneck ...", "which optimizer should i use ...",
# "how do i reduce latency in ...", "how long does training take", "is rag still worth it": the
# name that starts there is the question's subject, whatever else the sentence names. Not after
# "do i need" / "should we use" at the start: those weigh one thing against another (measured:
# a wrong card more on the test slice, nothing gained on dev or calib).
_AUXILIARY = r"(?:does|do|did|is|are|was|were|can|could|should|would|will|has|have)"
_HEDGE = r"(?:(?:even|really|actually|exactly|just|still|ever|usually|typically) )?"
# "how do i have to set it", "do we need to quantize it": the verb after the obligation
_OBLIGED = r"(?:(?:have|need|want|got) to )"
_DOER = (
    rf"(?:i|we|you|one|people|someone) {_HEDGE}{_OBLIGED}?"
    r"(?!is |are |was |were |do |does )(?P<verb>[a-z]+)"
    r"(?: up| down| out)?"
)
_SUBJECT_AFTER = re.compile(
    rf"^(?:(?:how|why|when|where|what|which)(?: long| much| often| exactly| else)? {_AUXILIARY}"
    rf"(?: {_DOER})?|{_AUXILIARY}|which|why|when|who (?:first )?[a-z]+(?: up with)?) {_HEDGE}"
    r"(?:(?:a|an|the|my|our|your|this|these|those|some|all) )?(?P<rest>.+)$"
)


# "how do i convert safetensors to gguf", "porting our pytorch code to mlx": what the thing is
# turned into is asked about, what it comes from is offered beside it. Anywhere in the text:
# the asking words before the verb ("how do i", "easiest way to") say nothing about which.
_SIDE = r"[^ ]+(?: [^ ]+){0,2}?"
_CONVERSION = re.compile(
    r"\b(?:convert|converting|converted|export|exporting|port|porting|migrate|migrating|"
    r"switch|switching|move|moving|translate|translating)"
    r"(?: (?:my|our|your|a|an|the|this|these|some))?(?: from)? "
    rf"(?!(?:on|up|away|back|ahead|forward|over) )(?P<o>{_SIDE}) (?:over )?(?:to|into) "
    rf"(?:(?:a|an|the|my|our) )?(?P<t>{_SIDE})"
    r"(?: (?:for|on|in|with|so|and|but|using|without|what|which|how|is|are|any|or)\b.*)?$"
)
# "does vllm run on rocm", "is mlx compatible with gguf": whether two things go together. Either
# may be the one the asker does not know: a question for both, not a card for one.
_COMPATIBILITY = re.compile(
    r"^(?:does|do|will|would|can|could|is|are)(?: (?:a|an|the|my|our))? "
    rf"(?P<a>{_SIDE}) {_HEDGE}(?:work|run|play|support|compatible)s?(?: well| nicely)?"
    r"(?: together)?(?: with| on| in)? (?:(?:a|an|the|my|our) )?"
    rf"(?P<b>{_SIDE})(?: (?:yet|now|already|at all|in|for|on|with|or|and|out of)\b.*)?$"
)


# "why is vllm so fast, is it the paged attention?": a statement or question, then a tag that
# guesses its cause. The guess is what the asker wants explained. Normalised text has no comma,
# so the tag must follow some words and end the text, naming at most four words.
_TAG = re.compile(
    r"^(?:[^ ]+ ){2,}(?:or )?(?:is it|is that|was it|was that|isn t it|could it be|maybe it s) "
    r"(?:(?:because of|due to) )?(?:(?:a|an|the|my|our) )?(?P<t>[^ ]+(?: [^ ]+){0,3})$"
)


def tagged(core: str) -> str | None:
    """The guess a tag question ends with ("..., is it the kv cache?": "kv cache"), as
    written, else None."""
    found = _TAG.match(core)
    return found["t"] if found else None


# "how does vllm fit so many requests, the paged attention trick": a question, then an aside
# after a comma that says which part of it is meant. Read from the raw text (normalised text
# has no comma); the aside names at most five words and ends the text.
_ASIDE = re.compile(r",\s+(?:the|that|this)\s+(?P<t>[^,;:!?.]+?)\s*[!?.]*$")


def aside(query: str) -> str | None:
    """The closing aside of a question ("..., the paged attention trick": "paged attention
    trick"), `normalize`d, else None."""
    found = _ASIDE.search(_without_symbols(query.lower()))
    if found is None or len(found["t"].split()) > 5:
        return None
    return normalize(found["t"]) or None


def conversion(core: str) -> tuple[str, str] | None:
    """(what it becomes, what it comes from) of a conversion the text asks about, as written
    (each side may run on past its name: "safetensors weights"), else None."""
    found = _CONVERSION.search(core)
    return (found["t"], found["o"]) if found else None


def compatibility(core: str) -> tuple[str, str] | None:
    """The two things a "does X work with Y" question asks about together, as written, else
    None."""
    found = _COMPATIBILITY.match(core)
    return (found["a"], found["b"]) if found else None


# "is my model overfitting", "are the weights exploding": whether a thing is in some state; the
# state is what is asked about.
_STATE = re.compile(
    r"^(?:is|are|was|were|isn t|isnt) (?:my|our|your|the|this|these|those|their) [a-z0-9]+ "
    r"(?P<state>[a-z]+(?:ing|ed))(?: |$)"
)


def asked_state(core: str) -> str | None:
    """The state a yes/no question asks about ("is my lora overfitting ..."), else None."""
    found = _STATE.match(core)
    return found.group("state") if found else None


def subject_words(core: str) -> list[str]:
    """The words a question's subject starts at (`query_core` already dropped "what is",
    "explain", greetings): after a question frame ("how does X ...", "which X should ..."),
    else the core itself. Empty for a core that is one word (that word is the whole query)."""
    return asked_subject(core)[1]


def asked_subject(core: str) -> tuple[str | None, list[str]]:
    """`subject_words`, with the asker's own verb before them if the question has one ("how do
    i tokenize my data": "tokenize"): its noun may be what is asked about."""
    if meant := _MEANT.match(core):  # "what does it mean to distill a model": to distill
        return meant["verb"], meant["rest"].split()
    found = _SUBJECT_AFTER.match(core) or _INSIDE.match(core)
    words = (found.group("rest") if found else core).split()
    verb = found.groupdict().get("verb") if found else None
    if found and verb is None and (obliged := _OBLIGED_DOER.match(found.group("rest"))):
        verb, words = obliged["verb"], obliged["rest"].split()  # "do i have to quantize it"
    return verb, words if len(words) > 1 or found else []


# "what does it mean to distill a model" (`query_core` took "what"): the act is asked about,
# unless what it is done to is everyday ("... to distill water": `SearchIndex._meant_everyday`)
_MEANT = re.compile(
    rf"^(?:(?:does|do|did) )?it {_HEDGE}mean(?:s)? to (?P<verb>[a-z]+)"
    r"(?: (?:a|an|the|my|our|your|this|these|those|it|them))?(?P<rest>(?: .*)?)$"
)


def meant_act(core: str) -> tuple[str, str] | None:
    """The verb and what it is done to, of a question asking what it means to do something
    ("it mean to distill water": "distill", "water"), else None."""
    meant = _MEANT.match(core)
    return (meant["verb"], meant["rest"].strip()) if meant else None


# "what's inside a single transformer block" (`query_core` took "what's"): what holds the parts
_INSIDE = re.compile(
    r"^(?:inside|within|behind) (?:(?:a|an|the|one|my|our|your|this) )?(?:single )?"
    r"(?P<rest>.+)$"
)


# "do i have to quantize it first": a yes/no question whose asker must do something
_OBLIGED_DOER = re.compile(
    rf"^(?:i|we|you|one) {_HEDGE}{_OBLIGED}(?P<verb>[a-z]+)"
    r"(?: (?:a|an|the|my|our|your|this|these|those|it|them))?(?P<rest>(?: .*)?)$"
)


# Verb and adjective endings whose noun is an entry's name: "decontaminate" -> decontamination,
# "quantized" -> quantization, "overfit" -> overfitting, "distill" -> distillation, "refuse" ->
# refusal.
_VERB_ENDINGS = ("ated", "ating", "ized", "izing", "ised", "ising", "ed", "ing", "es", "s", "e")
_NOUN_ENDINGS = ("ation", "ion", "ing", "ment", "al")


def derived_forms(word: str) -> list[str]:
    """Nouns a verb or adjective form may name (`word` is compact, at least five letters):
    candidates to look up, most of them not words at all."""
    if len(word) < 5 or not word.isalpha():
        return []
    stems = {word}
    for ending in _VERB_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            stem = word[: -len(ending)]
            stems.update((stem, stem + "e"))
            if ending in ("ated", "ating"):
                stems.add(stem + "ate")
            if ending in ("ized", "izing", "ised", "ising"):
                stems.add(stem + "ize")
    forms = []
    for stem in stems:
        base = stem[:-1] if stem.endswith("e") else stem
        forms += [base + ending for ending in _NOUN_ENDINGS]
        if stem.endswith(("ize", "ise")):
            forms.append(stem[:-3] + "ization")
        if len(stem) > 2 and stem[-1] not in "aeiouwxy" and stem[-2] in "aeiou":
            forms.append(stem + stem[-1] + "ing")  # overfit -> overfitting
    return [f for f in dict.fromkeys(forms) if f != word]


_AGENT_ENDINGS = ("ers", "er")


def name_forms(word: str, *, agents: bool = True) -> list[str]:
    """Names a whole query written as a verb, adjective or agent form may be (`word` is compact):
    its stems ("sandboxed" -> sandbox, "prefilling" -> prefill) and their nouns ("quantized" ->
    quantization, "red teamers" -> red teaming; `agents`: the doer's forms too). Candidates to
    look up, most no words at all."""
    if len(word) < 5 or not word.isalpha():
        return []
    endings = ("ed", "ing", *(_AGENT_ENDINGS if agents else ()))
    # a bare stem only from endings that leave the verb itself ("tokenizing" names no Token)
    stems = [word[: -len(e)] for e in endings if word.endswith(e) and len(word) - len(e) >= 4]
    doers = [
        word[: -len(e)]
        for e in (_AGENT_ENDINGS if agents else ())
        if word.endswith(e) and len(word) > len(e) + 4
    ]
    forms = [*stems, *derived_forms(word), *(f for d in doers for f in derived_forms(d))]
    return [f for f in dict.fromkeys(forms) if f != word]


# Where a name stands in a question, from the words before it (`name_setting`): words that
# start a clause saying when, why or despite what, after the question's own start ...
_CLAUSES = frozenset({"when", "while", "whenever", "because", "although", "unless", "whereas"})
_TWO_WORD_CLAUSES = frozenset({"now that", "even though", "so that", "given that"})
# ... words that make what follows a qualifier of the question's thing ...
_QUALIFYING = frozenset({"for", "in", "with", "on", "inside", "using", "via", "into", "from"})
# ... of them, those that say what it is for or used with ("what learning rate for lora")
_PURPOSE = frozenset({"for", "with", "using", "via"})
_DETERMINERS = frozenset({"a", "an", "the", "my", "our", "your", "their", "its", "this", "these"})

NameSetting = Literal["clause", "purpose", "qualified", "rival", "plain"]


def name_setting(before: str) -> NameSetting:
    """What the text `before` a name in a question makes of it: the setting of a clause saying
    when, why or despite what ("... when calling the openai api", "... now that"), what the
    thing asked about is for or used with ("... for an llm", "... with lora"), another
    qualifier ("... in rag"), what it is weighed against ("... compared to", "than"), or
    none of these."""
    words = before.split()
    pairs = (" ".join(words[i : i + 2]) for i in range(1, len(words) - 1))
    if not _CLAUSES.isdisjoint(words[1:]) or not _TWO_WORD_CLAUSES.isdisjoint(pairs):
        return "clause"
    qualifier = words[-2:] if words[-1:] and words[-1] in _DETERMINERS else words[-1:]
    if qualifier and qualifier[0] in _PURPOSE:
        return "purpose"
    if qualifier and qualifier[0] in _QUALIFYING:
        return "qualified"
    if words[-1:] in (["vs"], ["versus"], ["than"]) or words[-2:-1] == ["compared"]:
        return "rival"
    return "plain"


# "how many tokens does one image cost", "2b tokens of court filings", "thousands of gpus": the
# words before a name that ask or give how many of it there are (`counted`)
_COUNTING = re.compile(
    r"(?:\bhow (?:many|much)|(?<![\w.-])\d[\d.,]*(?:[kmbt]|bn)?"
    r"|\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|dozens|hundreds|thousands|millions"
    r"|billions|trillions|few|several|many|more|fewer|multiple)(?: of)?)"
    r"(?: (?:more|extra|fewer|additional|whole))? $"
)


COUNTED_TAIL = 64  # characters: "how many", a number or a quantity and two words after it


def counted(before: str) -> bool:
    """Whether the text `before` a name counts it: "how many", a number or a quantity just
    before ("how many tokens", "2b tokens", "so many more tokens", "hundreds of gpus"), so the
    name is the unit a question measures in, not the thing it asks about."""
    # Only the words just before the name can count it: read the tail, so that a long run of
    # digits and commas before it is not searched from every position (4,000 characters of
    # "1," took 0.6 s whole, 0.03 ms as a tail).
    return _COUNTING.search(before[-COUNTED_TAIL:]) is not None


# "how many tokens is a typical english word", "how many tokens should my prompt be": the count
# is what another thing comes to, so the unit is what is asked (`counted_as_measure`)
_MEASURES = re.compile(r"^ (?:is|are|was|were)\b|^[^?.,;:!]*\bbe\b *(?:[?.,;:!]|$)")


def counted_as_measure(after: str) -> bool:
    """Whether the text `after` a counted name says what a thing comes to in it ("how many tokens
    IS a word", "how many tokens should my prompt BE"): the name is the measure asked about, not
    the unit of another thing's size ("how many tokens does one image cost")."""
    return _MEASURES.search(after) is not None


# "2b tokens of court filings", "500 gpu hours of training", "three thousand tokens of rules": a
# name written as the amount of some other thing, which is what the text is about
# (`counted_material`). One of it ("1 token of english", "a token of thanks") is not an amount,
# nor a single digit that is a version ("gpt 2 embeddings of words").
_SCALE = r"(?:hundred|thousand|million|billion|trillion)"
_AMOUNT = re.compile(
    rf"(?:(?<![\w.-])(?:\d[\d.,]*(?:[kmbt]|bn)|\d\d[\d.,]*|\d[\d.,]*(?= {_SCALE}))"
    rf"|\b(?:two|three|four|five|six|seven|eight|nine|ten|a|one|a few)(?= {_SCALE}))"
    rf" (?:{_SCALE} )?$"
)
_OF_MATERIAL = re.compile(r" (?:(?:hours?|days?|weeks?|months?|years?|worth) )?of \w")


def counted_material(before: str, after: str) -> bool:
    """Whether a name between the text `before` and `after` it is written as the amount of
    something else: an amount just before it (a number of two digits or more, or with a scale:
    "2b", "500", "3 million") and "of" just after ("2b tokens OF court filings", "500 gpu hours
    OF training"), so the text is about that thing, not the name."""
    # the tail only, as `counted`: a long run of digits is not searched from every position
    return _AMOUNT.search(before[-COUNTED_TAIL:]) is not None and bool(_OF_MATERIAL.match(after))


# "when i need structured outputs how does ...", "when meta releases llama what is in ...": a
# clause that opens by setting the scene and writes the name, then what is asked (`scene_only`).
# Up to `_SCENE_LEAD_WORDS` words between the opener and the name.
_SCENE_LEAD_WORDS = 4
_SCENE_OPENING = re.compile(
    r"^(?:(?:so|ok|okay|and|but|hey|also) )?"
    r"(?P<opener>when|after|while|if|once|before|with|using|for)"
    rf"(?P<lead>(?: [^ ]+){{0,{_SCENE_LEAD_WORDS}}}) $"
)
# "when should i use rag": the opener asks; "when a diffusion model generates an image, how does
# it ...": the scene is the name at work, likely what is asked about
_SCENE_ASKS = _AUXILIARIES | {"to", "a", "an", "the"}


def scene_only(before: str, after: str) -> bool:
    """Whether a name between the text `before` and `after` it is written only to set the scene
    of what is asked: in a leading clause opened by when / after / while / if / once / before /
    with / using / for ("when i need structured outputs how does the library stop ...", "when
    meta releases llama what is actually in those files", "when samplers are deterministic like
    ddim, what kind of math ..."), no question word between the opener and the name and one
    after it. The name is the scene; another thing may be asked (task context69)."""
    found = _SCENE_OPENING.match(before)
    if found is None:
        return False
    lead = found["lead"].split()
    if (lead and lead[0] in _SCENE_ASKS) or _QUESTION_WORD.search(found["lead"]):
        return False
    return _QUESTION_WORD.search(after) is not None


# "we serve llama 3 with vllm ... how does it skip ...", "... this lablup thing to book gpus what
# is it": the speaker, or "to", then one verb just before the name (`spoken_object`).
_SPEAKERS_VERB = re.compile(r"(?:^| )(?:i|we|they|you|to) (?P<verb>[a-z]+) $")
# Words that are no verb after a speaker ("we all ...", "i just ...", "to the ...")
_NOT_VERBS = frozenset(
    {"a", "an", "the", "my", "our", "your", "their", "his", "her", "its", "this", "that"}
    | {"these", "those", "some", "any", "each", "every", "no", "which", "what", "whats", "how"}
    | {"why", "when", "where", "who", "whom", "whose", "is", "are", "was", "were", "be", "been"}
    | {"am", "do", "does", "did", "can", "could", "should", "would", "will", "shall", "may"}
    | {"might", "must", "i", "we", "you", "they", "he", "she", "it", "me", "us", "them", "of"}
    | {"in", "on", "at", "to", "for", "with", "by", "from", "into", "onto", "about", "as"}
    | {"than", "vs", "versus", "and", "or", "but", "if", "so", "not", "like", "just", "really"}
    | {"even", "still", "also", "only", "there", "here", "then", "all", "both"}
)
_QUESTION_WORD = re.compile(
    r"\b(?:what|whats|how|why|which|where|who|when|does|do|is|are|can|should)\b"
)


def spoken_object(before: str, after: str) -> bool:
    """Whether a name between the text `before` and `after` it is only the object of the
    speaker's verb in a statement a question follows: "i", "we", "they", "you" or "to", one
    verb, the name ("we serve llama 3 with vllm ... how does it skip redoing that", "this
    lablup thing to book gpus what is it"), no question word before it and one after. The
    statement sets the scene; the question asks about something in it (task object65)."""
    # the tail only, as `counted`: the frame is the two words just before the name
    found = _SPEAKERS_VERB.search(before[-COUNTED_TAIL:])
    if found is None or found["verb"] in _NOT_VERBS:
        return False
    return _QUESTION_WORD.search(before) is None and _QUESTION_WORD.search(after) is not None


# A part, step or piece of a thing, said in the singular: "which part of a transformer block",
# "in rlhf what's the first stage". The plural ("what are the steps of rlhf") asks for the whole.
_PIECE = (
    r"(?:part|piece|bit|step|stage|phase|layer|component|half|module|algorithm|function|term"
    r"|network|trick|knob|mechanism)"
)
# ... or a kind of it ("which kind of attention does llama use"): not after "in X", where "what
# kind of file is that" asks about X itself
_PART = rf"(?:{_PIECE}|kind|type|sort|variant)"
_DETERMINER = r"(?:(?:a|an|the|my|our|your|their|its) )?"
# "which part of a ", "the stage of ", "which algorithm does the rl stage of ": the text just
# before the name
_PART_OF = re.compile(
    rf"(?:^| )(?:which|what|whats|the)(?: [a-z0-9-]+){{0,5}}? {_PART} (?:of|in|inside|within)"
    rf" {_DETERMINER}$"
)
# "in rlhf what's the first stage", "in a vision language model which bit ...", "in rlhf
# there's a penalty term": the name as the place, a part of it asked or pointed at just after
_IN_PLACE = re.compile(rf"(?:^| )(?:in|inside|within|during) {_DETERMINER}$")
_PART_ASKED = re.compile(
    r"^ (?:so )?(?:(?:which|what|whats)(?:'s|’s| is| are| does| do| s)?|there(?:'s|’s| is|s| s))"
    rf"(?: [a-z0-9-]+){{0,3}}? {_PIECE}\b"
)
# "llama's normalisation layer"
_OWN_PART = re.compile(rf"^(?:'s|’s|s) (?:[a-z0-9-]+ ){{0,2}}{_PART}\b")


def part_setting(before: str, after: str) -> bool:
    """Whether a name between the text `before` and `after` it is only the thing a question
    asks a part of: "which part of a transformer block normalises ...", "in rlhf what's the
    first stage ...", "hybrid search's keyword half": the part asked is another thing, the
    name its setting (task part69)."""
    tail = before[-COUNTED_TAIL:]
    return (
        _PART_OF.search(tail) is not None
        or (_IN_PLACE.search(tail) is not None and _PART_ASKED.match(after) is not None)
        or _OWN_PART.match(after) is not None
    )


# "how does pytorch KNOW the derivatives", "how does llama ENCODE where ...": a doer's name as
# the subject of a verb of working something out (`mechanism_setting`)
_HOW_DOES = re.compile(r"(?:^| )how (?:does|do|did|can|would) (?:the |a |an )?$")
_WORKS_OUT = re.compile(
    r"^(?:s)? (?:actually |really |even |just )?(?:know|knows|work out|figure out|decide|tell"
    r"|keep track|remember|choose|pick|handle|deal with|avoid|stop|compute|calculate|encode"
    r"|represent|store|turn|squeeze|fit|get)\b"
)
# "what is this object", "what kind of reward did it ...", "the 70 part counts what": a part,
# object or kind pointed at beside the name, not named (the name just before "part" is asked;
# "what kind of file is safetensors" asks about the name)
_POINTED_PART = re.compile(
    r"\bwhat(?: is|'s|’s| s|s) (?:this|that) (?:[a-z0-9-]+ )?(?:object|thing)\b"
    r"|\bwhat (?:kind|type|sort) of [a-z0-9-]+ (?:does|did|do)\b"
    r"|\bthe [a-z0-9-]+ (?:part|bit|piece)\b"
)


def mechanism_setting(before: str, after: str) -> bool:
    """Whether a name between the text `before` and `after` it is only the setting of a
    question about how it works out something or about a part of it the text does not name:
    the subject of "how does X know / work out / encode ..." ("how does pytorch know the
    derivatives"), or beside "what is this object", "what kind of reward did it ...", "the 70
    part" in a text that compares nothing. For a tool or model's name (task part72)."""
    if not COMPARING.isdisjoint(f"{before} {after}".split()):
        return False
    if _HOW_DOES.search(before[-COUNTED_TAIL:]) and _WORKS_OUT.match(after):
        return True
    return _POINTED_PART.search(before) is not None or _POINTED_PART.search(after) is not None


# "in llava, which part ...", "which part of llava ...", "how does gpt 4o read ...", "llava's
# vision tower": a product's name as the place a question is set (`product_setting`)
_IN_PRODUCT = re.compile(r"(?:^| )(?:in|inside|within) (?:the |a |an )?$")
_ASKS_AFTER = re.compile(r"^(?: [^ ]+){0,2}? (?:which|what|whats|what's|what’s|how|where)\b")
_PART_OF_PRODUCT = re.compile(
    r"\b(?:which|what) (?:[a-z-]+ )?(?:part|parts|piece|bit|component|module|layer|thing)"
    r" (?:[a-z-]+ )?(?:of|in|inside) (?:the |a |an )?$"
)
_POSSESSIVE = re.compile(r"^(?:'s|’s) [a-z]")
_WORKS = re.compile(r"\bwork(?:s|ing)?\b")


def product_setting(before: str, after: str) -> bool:
    """Whether a product's name between the text `before` and `after` it is the place a question
    is set, another thing asked: after "in" with a question following ("in llava, which part
    looks at the picture"), after "which part of" ("which part of llava ..."), the subject of
    "how does X ..." but not of "... work" ("how does gpt 4o read an image"), or owning
    something ("llava's vision tower"). What the place holds is then asked about, not the place
    (task setting75)."""
    if _IN_PRODUCT.search(before) and _ASKS_AFTER.match(after):
        return True
    if _PART_OF_PRODUCT.search(before[-COUNTED_TAIL:]):
        return True
    if _HOW_DOES.search(before[-COUNTED_TAIL:]) and after.startswith(" "):
        # "how do midjourney / stable diffusion type generators actually work": itself asked
        return _WORKS.search(after) is None
    return _POSSESSIVE.match(after) is not None


# "without a graphics card", "skip hbm", "far slower than a graphics card", "unlike throughput",
# "instead of ddpm", "like layernorm but ...": the name as what the thing asked about is not, is
# without, replaces or is measured against (`contrast_only`). "vs" / "versus" set two sides side
# by side, either may be asked: not read here. Nor "not using the gpu": the name is the topic.
_CONTRAST_BEFORE = re.compile(
    r"(?:^| )(?:without|w o|no|skip|skips|skipping|skipped|drop|drops|dropping|dropped|ditch"
    r"|ditches|ditching|get rid of|(?:doesn['’]?t|don['’]?t|does not|do not|never|no longer|not)"
    r" (?:need"
    r"|needs|require|requires)|instead of|rather than|in place of|replace|replaces|replaced"
    r"|replacing|alternative to|alternatives to|unlike|compared to|compared with|different from"
    r"|differs from|than)"
    r"(?: (?:a|an|the|any|my|its|their|plain|regular|normal|ordinary|vanilla|classic|old|whole))?$"
)
# "like layernorm but without centering": a likeness the text then takes back
_LIKE_BEFORE = re.compile(r"(?:^| )like(?: (?:a|an|the))?$")
_BUT_AFTER = re.compile(r"^(?:s)?(?: [^ ]+){0,3}? but\b")
_YES_NO = re.compile(
    r"^(?:(?:so|ok|and|but|hey) )?(?:is|are|was|were|would|will|does|do|can|could)\b"
)
# "a gpt-2 level model", "a gpt-2 sized model": the name as a yardstick of size or skill ("grade"
# and "class" are verbs too: "how does a process reward model grade ...")
_YARDSTICK_AFTER = re.compile(r"^ (?:level|sized)\b")


def contrast_only(before: str, after: str) -> bool:
    """Whether a name between the text `before` and `after` it is written only as what the
    thing asked about is not, is without, replaces or is compared against ("an old pc without
    a graphics card", "groq skips hbm", "far slower than a graphics card", "unlike throughput
    it's felt by one user", "like layernorm but without centering"), or as a yardstick of its
    size ("a small gpt-2 level model supervised gpt-4"): the text is about another thing (task
    contrast73)."""
    tail = before[-COUNTED_TAIL:].rstrip()
    if _YARDSTICK_AFTER.match(after):
        return True
    found = _CONTRAST_BEFORE.search(tail)
    if found is not None:
        # "is gpt4 better than llama 3": a yes-or-no question weighs both sides, as "vs" does
        return not (found[0].lstrip().startswith("than") and _YES_NO.match(before))
    return _LIKE_BEFORE.search(tail) is not None and _BUT_AFTER.match(after) is not None


# "optimizer state sharding", "system prompt caching": a name, then a word that is no function
# word, the head noun of a compound the name only modifies (`modifies_head`)
_HEAD_AFTER = re.compile(r" (?P<head>[a-z]{2,})\b")
# "a model card file": the name's own file (`file_named`), no other thing
_FILE_HEADS = frozenset({"file", "files"})
# "what is", "what's a", "explain the": a frame whose subject is a noun phrase, so a word after
# the name is a noun of the phrase, not a verb ("does gradient descent ALWAYS find ...")
_WHAT_IS = re.compile(
    r"(?:^| )(?:what(?:'s| s|s)|what (?:is|are)|which (?:is|are)|explain|define)"
    r"(?: (?:exactly|even|really))?(?: (?:a|an|the))? $"
)


def modifies_head(before: str, after: str) -> bool:
    """Whether a name between the text `before` and `after` it starts the subject of "what is
    ..." and is followed by a word that is no function word ("what is optimizer STATE
    sharding", "what's embedding DRIFT"): the name may be the modifier of a compound whose head
    says what is asked."""
    found = _HEAD_AFTER.match(after)
    if found is None or found["head"] in STOPWORDS | COMPARING | _FILE_HEADS:
        return False
    # "what is the learning rate supposed to be": a participle after the name, no head noun
    participle = found["head"].endswith("ed") and not found["head"].endswith("eed")
    return not participle and _WHAT_IS.search(before[-COUNTED_TAIL:]) is not None


def head_words(after: str) -> list[str]:
    """The words of the text `after` a name up to the first function word, numbers left out:
    the head of the compound the name modifies (" state sharding for ...": state, sharding)."""
    words = []
    for word in after.split():
        if word in STOPWORDS or not word.isalnum():
            break
        words.append(word)
    return [word for word in words if word.isalpha()]


# "what does mt mean in raid chat", "whats kv cache on the vllm server", "lora means what in
# peft": a short thing asked about, then the place it was met. The place only says where: what
# is asked about decides (`SearchIndex._asked_over_setting`).
_ASKED_IN_SETTING = re.compile(
    r"^(?:(?:so|ok|hey|and) )?(?:"
    rf"what (?:does|do|did) {_HEDGE}(?P<a>[^ ]+(?: [^ ]+){{0,3}}?) (?:mean|stand for)"
    r"|what(?: is|'s|’s|s| s) (?:(?:a|an|the) )?(?P<b>[^ ]+(?: [^ ]+){0,3}?)"
    r"|(?P<c>[^ ]+(?: [^ ]+){0,3}?) (?:means?|stands? for)(?: what)?"
    r") (?:in|on|inside|within) (?P<setting>.+)$"
)


# The same written the other way round, the place first: "in vllm what is paged attention",
# "with llama.cpp how does quantization work", "using pytorch, what is autograd" (task mirror69).
# A pronoun or a plain word after the place ("in vllm what is it for", "in rlhf what is the
# point") names no entry, so the place stays what is asked about.
_WORDS = r"[^ ]+(?: [^ ]+){0,3}?"
_DET = r"(?:(?:a|an|the) )?"
_SETTING_THEN_ASKED = re.compile(
    rf"^(?:(?:so|ok|hey|and) )?(?:in|with|for|inside|within|using) (?P<setting>{_WORDS}) (?:"
    rf"what(?: is|'s|’s|s| s| are) {_DET}(?P<b>{_WORDS})"
    rf"|what (?:does|do) {_DET}(?P<a>{_WORDS}) (?:do|mean|stand for)"
    rf"|how (?:does|do|is|are) {_DET}(?P<c>{_WORDS}) work"
    rf"|explain {_DET}(?P<d>{_WORDS})"
    r")(?: (?:exactly|actually|really|again))?$"
)


def asked_in_setting(normalized: str) -> tuple[str, str] | None:
    """(what is asked about, where it was met) of "what does X mean in Y", "in Y what is X"
    and their kin (X of up to four words), else None."""
    found = _ASKED_IN_SETTING.match(normalized) or _SETTING_THEN_ASKED.match(normalized)
    if found is None:
        return None
    asked = next(found[group] for group in "abcd" if group in found.re.groupindex and found[group])
    return asked, found["setting"]


# A short clause that asks outright what one thing is, anywhere in a long message ("... so,
# plainly: what is perplexity?", "what's a system prompt, exactly?", "can someone tell me what
# beam search is"): the thing, up to `_OUTRIGHT_NAME` characters, is the whole rest of the clause
# (task long75). Read on `normalize`d clauses (no punctuation; "what's" stays).
_OUTRIGHT_NAME = 40
_OUTRIGHT_OPENERS = frozenset(
    (*_FILLERS, "anyway", "also", "then", "now", "plainly", "honestly", "seriously", "simply")
)
_ASKED_OUTRIGHT = re.compile(
    r"(?:what(?: exactly| even| actually)? (?:is|are|means)|what's|whats|what s|what exactly's)"
    rf" (?:an? |the )?(?P<name>\S.{{0,{_OUTRIGHT_NAME - 1}}}?)"
    r"(?: exactly| actually| again| even)?(?: in (?:the |these |this |an? )?(?:chatbots?|models?"
    r"|llms?|ai|ml|machine learning|language models?|context))?"
    r"|what does (?:an? |the )?(?P<meant>\S.{0,39}?) (?:mean|stand for)"
    r"|(?:can|could) (?:someone|anyone|somebody|you)(?: please)? (?:tell me|explain) what"
    r" (?:an? |the )?(?P<told>\S.{0,39}?) (?:is|are|means)"
)
_WORDLIKE = re.compile(r"\w")
# Clauses read for such a question: a 4,000-character message holds ~60 (task long75)
OUTRIGHT_CLAUSES = 80


def asked_outright(text: str) -> list[str]:
    """The things the (raw) text's clauses ask outright what they are (`_ASKED_OUTRIGHT`), each
    `normalize`d, in the order asked, each once; the clauses past `OUTRIGHT_CLAUSES` unread."""
    asked: list[str] = []
    if "what" not in text.lower():  # every shape asks "what": most texts are not split at all
        return asked
    for clause, _ in _clauses_read(text)[:OUTRIGHT_CLAUSES]:
        words = clause.split()
        # fillers and markup kept by `normalize` ("# what is rag", "> so what is gguf")
        while len(words) > 2 and (words[0] in _OUTRIGHT_OPENERS or not _WORDLIKE.search(words[0])):
            words = words[1:]
        found = _ASKED_OUTRIGHT.fullmatch(" ".join(words))
        if found is not None:
            name = found.group("name") or found.group("meant") or found.group("told")
            if name not in asked:
                asked.append(name)
    return asked


# A name asked beside a second name, the tool, model or product it is used with (task names77):
# "how does quantization work in llama.cpp", "what does temperature do on llama.cpp" (the thing
# asked, then where), "on llama.cpp: what does temperature change" (the place first, a verb of
# what the thing does), "serve llama 3 with vllm", "train transformers with adamw" (a verb of
# working a model and the instrument it is worked with: the instrument asked, the verb's object
# the setting).
_WORKS_IN_SETTING = re.compile(
    r"^(?:(?:so|ok|hey|and) )?(?:"
    rf"how (?:does|do|is|are) {_DET}(?P<a>{_WORDS}) work"
    rf"|what (?:does|do) {_DET}(?P<b>{_WORDS}) (?:do|change|control|affect)"
    r") (?:in|on|inside|within|with|for) (?P<setting>.+)$"
)
_ON_SETTING_THEN_ASKED = re.compile(
    rf"^(?:(?:so|ok|hey|and) )?on (?P<setting>{_WORDS}) (?:"
    rf"what(?: is|'s|’s|s| s| are) {_DET}(?P<a>{_WORDS})"
    rf"|what (?:does|do) {_DET}(?P<b>{_WORDS}) (?:do|mean|change|control|affect)"
    rf"|how (?:does|do|is|are) {_DET}(?P<c>{_WORDS}) work"
    r")(?: (?:exactly|actually|really|again))?$"
)
_WORKING = (
    r"(?:serv(?:e|es|ing)|run(?:s|ning)?|host(?:s|ing)?|deploy(?:s|ing)?|train(?:s|ing)?"
    r"|fine ?tun(?:e|es|ing)|quanti[sz](?:e|es|ing))"
)
_WORKED_WITH = re.compile(
    rf"(?<![^ ]){_WORKING} (?P<setting>(?!with |using |via )[^ ]+(?: [^ ]+){{0,3}}?)"
    r" (?:with|using|via) (?:(?:a|an|the) )?(?P<asked>[^ ]+(?: [^ ]+){0,2})"
)


def asked_beside_setting(normalized: str) -> tuple[str, str] | None:
    """(what is asked about, where it is used) of "how does X work in Y", "what does X do on Y",
    "on Y what does X change" (X of up to four words), else None."""
    found = _WORKS_IN_SETTING.match(normalized) or _ON_SETTING_THEN_ASKED.match(normalized)
    if found is None:
        return None
    asked = next(found[group] for group in "abc" if group in found.re.groupindex and found[group])
    return asked, found["setting"]


def worked_with(normalized: str) -> tuple[list[str], str] | None:
    """([the instrument's first three, two and one words], what it works) of the first "serve /
    run / host / deploy / train / fine-tune / quantize X with / using / via Y" (X of up to four
    words, the verb left out), else None."""
    found = _WORKED_WITH.search(normalized)
    if found is None:
        return None
    words = found["asked"].split()
    return [" ".join(words[:n]) for n in range(len(words), 0, -1)], found["setting"]


# A short text's last clause ending in a question what a thing is with no clause break before it
# ("CUDA out of memory what is cuda", 'i got "CUDA out of memory" what is cuda even'), or with a
# word `_ASKED_OUTRIGHT` does not take after the thing ("what is the vae there") (task names77).
_AFTER_ASKED = frozenset({"there", "here", "then", "anyway", "though", "tho", "lol", "exactly"})


def asked_at_end(text: str) -> str | None:
    """The thing the (raw) text's last clause asks outright what it is from its last "what" on
    (`_ASKED_OUTRIGHT`, a word of `_AFTER_ASKED` after the thing left out), else None."""
    if "what" not in text.lower():
        return None
    clauses = [clause for clause, _ in _clauses_read(text) if clause]
    if not clauses:
        return None
    words = clauses[-1].split()
    starts = [i for i, word in enumerate(words) if word in ("what", "whats", "what's")]
    if not starts:
        return None
    asked = words[starts[-1] :]
    while len(asked) > 2 and asked[-1] in _AFTER_ASKED:
        asked = asked[:-1]
    found = _ASKED_OUTRIGHT.fullmatch(" ".join(asked))
    if found is None:
        return None
    return found.group("name") or found.group("meant") or found.group("told")
