"""A name that is also an everyday word, used in its everyday sense: no card.

"how long is the wait at the border checkpoint in tijuana" writes the name of the Checkpoint
entry, yet asks nothing about machine learning. Whether a sentence is about the glossary's field
at all is a matter of meaning (`fusion.OFF_DOMAIN_COSINE`), but a written name pulls the whole
sentence's embedding towards its entry. So the check reads the sentence without the name: when
the name is a common English word (jargon such as "logits" or an acronym is evidence by itself,
judged only alone beside everyday words: "my sister calls anime girls moe") and what the rest of
the sentence says, on its own, is far from every entry and from the field as a whole, the name
was used in its everyday sense. Questions keep their cards: "how often should i save a
checkpoint during training" still says "training" without the name, and a bare name or "what is
a checkpoint" leaves too few words to judge (`REST_WORDS`).

Before any embedding, the rest's words are read against the glossary's own vocabulary: "good
cold war spy novels about sleeper agents" says "cold", "war", "spy", "novels", common English
words that no entry uses, or only one or two in passing (`GLOSSARY_WORD_ENTRIES`). When such
words outnumber the rest's others and no other entry is named, and the rest, embedded alone, is
not near any entry either (`WORDS_REST_COSINE`, looser than the check without such words), the
sentence is about something else (`everyday_words`). The words cost nothing to read, so only
the sentences they pick pay the embedding, and they are asked of sentences up to
`WORDS_NEAR_COSINE`.
"""

from __future__ import annotations

import re
import weakref
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bot.glossary.keys import compact
from bot.search.fusion import OFF_DOMAIN_COSINE
from bot.search.query import STOPWORDS, is_question

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np
    import numpy.typing as npt

    from bot.glossary.models import Entry
    from bot.search.semantic import SemanticIndex

COMMON_WORDS = Path(__file__).with_name("common_words.txt")  # tools/common_words.py
OTHER_FIELDS = Path(__file__).with_name("other_fields.txt")  # written by hand: see its head
# A sentence this near an entry is about the field, whatever its words: not judged. It also
# bounds the cost, one more embedding (about 9 ms): at 0.6 (the highest of the `everyday`
# slice's off-topic cards) 85 of 1,300 tuning queries paid it and the search's p99 went from 14
# to 21 ms; at 0.5, 16 pay and p99 stays at 14 ms, for one of six off-topic catches.
NEAR_COSINE = 0.5
# The rest of the sentence must say this much of its own (words other than STOPWORDS) ...
REST_WORDS = 2
# ... and under this cosine to the mean of the entries' vectors, the field as a whole (set on
# the `everyday` tuning slice and dev to dev4: of the rests also under OFF_DOMAIN_COSINE, the
# off-topic cards' sat at -0.08 to 0.05, the questions' at 0.073 and up).
REST_FIELD_COSINE = 0.06
# A short text, the name and a word or two of another field ("checkpoint in zelda", "fine
# tuning a guitar", "rubric for my essay"), says too little for `REST_WORDS`, and the name makes
# most of its meaning (its cosine to the entry: 0.44-0.62), so it is judged whatever its cosine
# when the rest is at most this many words, each a common English word that is not the
# glossary's (`GLOSSARY_WORD_ENTRIES`: "essay" is in one entry, in passing), and the rest alone
# is off the field (`OFF_DOMAIN_COSINE`: such rests sat at 0.20-0.34; "quantization for phones",
# "phones" in two entries, 0.372, keeps its card). Not a question: "was ist beam search" is read
# "what is beam search ist", and "ist" is common English no entry uses; "what's compute optimal
# scaling / chinchilla?" and "are scaling laws dead or what" say words one entry uses.
SHORT_REST_WORDS = 2
# The words are read before any embedding, so they are asked of nearer sentences too (the
# tuning slices' everyday-sense cards sat at 0.37-0.59; no question they take lies under 0.6).
WORDS_NEAR_COSINE = 0.6
# At least this many of the rest's words must be common English words that are not the
# glossary's (and more of them than of all the rest's other words together) ...
EVERYDAY_WORDS = 2
# ... where a word one or two entries use is not the field's: the entries' texts borrow plain
# English in passing ("highway" in the residual stream's, "essay" in watermarking's, "brain" in
# two). At 3 the tuning slices lost five off-topic cards (two at 2) and one question card
# became an offer ("trajectories" is in two entries).
GLOSSARY_WORD_ENTRIES = 3
# ... and the rest, embedded alone, under this cosine to every entry: "what throughput do i need
# to serve a chatbot for a pizza shop on friday nights" has four such words but asks about
# serving (the tuning slices' everyday rests caught by the words: 0.20-0.44; ML questions set in
# an everyday scene, written for this check: 0.52-0.56).
WORDS_REST_COSINE = 0.48
# A common English word that no entry uses at all ("octopus", "spit", "laundry", "fever") says
# the sentence is about something else, even beside as many of the glossary's words ("how many
# neurons does an octopus have"): it picks sentences up to `WORDS_NEAR_COSINE` for judging, and
# with a plain one-word name alone it offers the card when the rest, embedded alone, is off the
# field (`OFF_DOMAIN_COSINE`; `unknown_word`). At `WORDS_REST_COSINE` (0.48) instead the tuning
# slices lost a question card ("bhai ye hallucination kya hota hai ...") for four off-topic ones.

# A one-word name or a word this many entries use is the field's beyond doubt ("docker",
# "model", "prompt", "bot"): a sentence that says none of them, nor jargon, and is further than
# `NEAR_COSINE` from every entry gets no card from the description stage's plain words alone
# ("my uncle only remembers the last few things you told him": Memory Systems). Set on the
# tuning slices' description cards and the probe files (gate24): at 22 no tuning card right is
# lost, but ctx20's "our support bot made up a citation to a paper ..." (Hallucination, 0.49)
# is, "bot" being in 14 entries; at 12 to 16 the tuning slices lose the same off-topic card.
FIELD_WORD_ENTRIES = 12

# Everyday settings a plain word of the field is also used in, each written as a few of its own
# words (written by everyday62 from general knowledge, before reading the tuning rows' rests):
# the rest of a sentence, read alone, that is nearer one of them than to every entry (by
# `SETTING_LEAD`) uses the name in that setting's sense (`everyday_setting`): "how to write a
# rubric for my 5th grade essay assignment" (school, 0.52, against its best entry's 0.44),
# "game saved at the last checkpoint but i lost all my loot" (games). A rest is compared with
# the entries, not a bar: ML questions' rests sit at 0.05-0.35 to the settings too, but nearer
# an entry ("i set a seed but my outputs are still not reproducible": 0.08 against 0.57).
EVERYDAY_SETTINGS = (
    "school, teachers, homework, grades, essays and class assignments",
    "video games, gaming, players, levels, loot and consoles",
    "cooking, recipes, the kitchen, baking and food",
    "sport, the gym, running a race, fitness and exercise",
    "personal finance, savings, retirement, mortgages and investing",
    "the human body, the brain, biology and medicine",
    "music, instruments, songs and bands",
    "home repair, plumbing, electricians, carpentry and building",
    "gardening, plants, seeds and the garden",
    "pets and animals",
    "cars, driving and car repair",
    "factories, manufacturing, assembly lines and warehouses",
    "travel, flights, hotels and trains",
    "pc gaming hardware: graphics cards, mice, keyboards and monitors",
    "office documents, fonts, pdfs and word processing",
    "websites, blogs, videos and social media",
    "learning a foreign language, vocabulary and grammar",
    "photography, cameras and photo editing",
    "parenting, children and family life",
    "shopping, prices and stores",
    "weather, geography and geology",
    "physics and chemistry",
    "law, courts and government",
    "movies, books and tv shows",
)
# How much nearer an everyday setting than its best entry a rest must be.
SETTING_LEAD = 0.0

_centroids: weakref.WeakKeyDictionary[SemanticIndex, npt.NDArray[np.float32]] = (
    weakref.WeakKeyDictionary()
)
_settings: weakref.WeakKeyDictionary[SemanticIndex, npt.NDArray[np.float32]] = (
    weakref.WeakKeyDictionary()
)


def _word_list(path: Path) -> frozenset[str]:
    """A word list shipped beside this module: one word a line, "#" lines its comments."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


@cache
def common_words() -> frozenset[str]:
    return _word_list(COMMON_WORDS)


@cache
def other_field_words() -> frozenset[str]:
    return _word_list(OTHER_FIELDS)


def names_other_field(text: str) -> bool:
    """Does `text` write a word naming another field or one of its products ("vue", "rust",
    "geology": other_fields.txt), one the encoder cannot tell from the field's own jargon?"""
    return not other_field_words().isdisjoint(text.split())


def is_common(name: str) -> bool:
    """Is every word of `name` (normalized) a common English word?"""
    words = name.replace("'", " ").split()
    return bool(words) and common_words().issuperset(words)


def in_capitals(entry: Entry, written: str) -> bool:
    """Does the glossary write this name of the entry in capitals ("JSON")? Then it is an
    acronym, whatever English makes of its letters."""
    names = (entry.title, entry.acronym or "", *entry.aliases)
    return any(n.isupper() and compact(n) == compact(written) for n in names)


def coinage_split(entry: Entry, text: str) -> bool:
    """Does `text` write in two words or more a name the glossary writes as one of the entry's
    ("flash attention": FlashAttention, "paged attention": PagedAttention)? A coinage of the
    field, however common its parts: never an everyday sense."""
    joined = {compact(n) for n in (entry.title, *entry.aliases) if not re.search(r"[\s-]", n)}
    words = text.split()
    return any(
        compact(" ".join(words[i:j])) in joined
        for i in range(len(words))
        for j in range(i + 2, min(i + 4, len(words)) + 1)
    )


# Which rules judge a sentence (`judged`): those for longer rests, or a short text's own only.
Judgement = Literal["sentence", "short"]


def judged(
    text: str,
    nearest: float,
    knows: Callable[[str], bool],
    unused: Callable[[str], bool],
) -> Judgement | None:
    """Is a sentence (normalized `text`, best cosine to an entry `nearest`) judged at all, and
    by which rules? Asked first, before the name is looked for: most cards are for sentences
    nearer than `NEAR_COSINE`, and of those up to `WORDS_NEAR_COSINE` only a few say
    `EVERYDAY_WORDS` everyday words (`knows`: is a word the glossary's): "sentence"; a short
    text, at any cosine, is judged only by its own rule (`SHORT_REST_WORDS`): "short", a short
    question only if it ends with the field it asks in ("what is a checkpoint in zelda");
    `unused`: is a word used by no entry at all (`unknown_word`)."""
    words = content_words(text)
    if nearest < NEAR_COSINE or (
        nearest < WORDS_NEAR_COSINE
        and (_everyday_count(words, knows) >= EVERYDAY_WORDS or _unknown_count(words, unused))
    ):
        return "sentence"
    short = len(words) <= SHORT_REST_WORDS + 2 and _everyday_count(words, knows) >= 1
    fields = (words[-k:] for k in range(1, SHORT_REST_WORDS + 1))
    asked_short = not is_question(text) or any(_ends_in_field(text, f) for f in fields)
    return "short" if short and asked_short else None


# A negative contraction is a function word, not the word its letters start with: "won't
# install" says no "won" (the past of "win"), "don't", "can't" nothing of their own.
_NEGATIVE_CONTRACTION = re.compile(r"\b\w+n['’]t\b")


def content_words(text: str) -> list[str]:
    """`text`'s words of two letters or more that are no STOPWORDS, a negative contraction
    taken out."""
    from bot.search.fulltext import tokens_of  # numpy: not for a command that needs no search

    text = _NEGATIVE_CONTRACTION.sub(" ", text)
    return [w for w in tokens_of(text) if len(w) > 1 and w not in STOPWORDS]


def _everyday_count(words: list[str], knows: Callable[[str], bool]) -> int:
    """How many of `words` are common English words that are not the glossary's (`knows`)?"""
    return sum(w.isalpha() and w in common_words() and not knows(w) for w in words)


def unknown_word(
    words: list[str], knows: Callable[[str], bool], unused: Callable[[str], bool]
) -> bool:
    """Is one of `words` a common English word that no entry uses at all (`unused`), with no
    more of the glossary's words (`knows`) beside it than such words ("hallucination rate when
    asking about dinosaurs" says "rate" and "asking": the field's)?"""
    unknown = _unknown_count(words, unused)
    return unknown > 0 and unknown >= sum(knows(w) for w in words)


def _unknown_count(words: list[str], unused: Callable[[str], bool]) -> int:
    """How many of `words` are common English words that no entry uses at all (`unused`)?"""
    return sum(w.isalpha() and w in common_words() and unused(w) for w in words)


def everyday_words(words: list[str], knows: Callable[[str], bool]) -> bool:
    """Do common English words that are not the glossary's (`knows`: is a word its own)
    make up most of `words`, at least `EVERYDAY_WORDS` of them? Words with digits, jargon the
    list of common words lacks ("pgvector") and the glossary's own words all count against."""
    everyday = _everyday_count(words, knows)
    return everyday >= EVERYDAY_WORDS and everyday > len(words) - everyday


def everyday_sense(
    semantic: SemanticIndex,
    knows: Callable[[str], bool],
    text: str,
    start: int,
    end: int,
    nearest: float,
    judgement: Judgement,
    *,
    alone: bool = True,
    plain: bool = True,
    unused: Callable[[str], bool],
) -> bool:
    """Is the name written at `text[start:end]` (normalized text, a sentence `judged`: asked
    first, so the name is looked for only then; `judgement`: what it answered) used in its
    everyday sense: does the rest of the sentence, read alone, say something of its own that is
    about neither any entry nor the field? `nearest`: the whole sentence's best cosine; `knows`:
    is a word one of the glossary's; `alone`: no other entry is named; `plain`: the name is no
    acronym. A name that is not a plain common word (an acronym written in lower case, jargon)
    is evidence of the field by itself, so it is judged only alone and beside `EVERYDAY_WORDS`
    everyday words: "ppo vs hmo health insurance", "moe in anime". A plain name and a word or
    two of another field, none the glossary's, is judged too (`SHORT_REST_WORDS`)."""
    rest = f"{text[:start]} {text[end:]}"
    words = content_words(rest)
    # "what does moe mean in anime": a question about the name in the field it ends with
    in_field = _ends_in_field(text, words)
    short = (in_field or not is_question(text)) and _short_rest(words, knows)
    found = None  # the rest's nearest entry, embedded at most once
    if short and (plain or in_field) and alone and is_common(text[start:end]):
        found = _rest_nearest(semantic, rest)
        if found[0] < OFF_DOMAIN_COSINE:
            return True  # else the rules below may still offer it, if they judge it at all
    if judgement != "sentence":
        return False
    # "why do llamas spit": a one-word name, a word no entry uses, the rest alone off the field
    # (a name of several common words is rarely everyday: "the residual stream ppl keep mentioning")
    name = text[start:end]
    if (
        plain
        and alone
        and " " not in name
        and is_common(name)
        and unknown_word(words, knows, unused)
    ):
        found = found or _rest_nearest(semantic, rest)
        if found[0] < OFF_DOMAIN_COSINE:
            return True
    if sum(w.isalpha() and w not in STOPWORDS for w in rest.split()) < REST_WORDS:
        return False
    # "how to write a rubric for my 5th grade essay assignment": the rest is set in a school
    if plain and alone and is_common(name):
        found = found or _rest_nearest(semantic, rest)
        if everyday_setting(semantic, *found):
            return True
    if not (plain and is_common(text[start:end])) and not (
        alone and _everyday_count(words, knows) >= EVERYDAY_WORDS
    ):
        return False
    told = alone and everyday_words(words, knows)
    if not told and nearest >= NEAR_COSINE:
        return False
    best, vector = found or _rest_nearest(semantic, rest)
    # the words alone do not outweigh an acronym: "why does my json output have a trailing
    # comma and break parsing" (rest 0.46) asks about JSON; "moe" among anime words: 0.30
    if told and best < (WORDS_REST_COSINE if plain else OFF_DOMAIN_COSINE):
        return True
    if nearest >= NEAR_COSINE or best >= OFF_DOMAIN_COSINE:
        return False
    return float((vector @ _centroid(semantic)).item()) < REST_FIELD_COSINE


def everyday_setting(semantic: SemanticIndex, best: float, vector: npt.NDArray[np.float32]) -> bool:
    """Is a sentence's rest (its `vector`, its `best` cosine to an entry), read alone, nearer an
    everyday setting (`EVERYDAY_SETTINGS`: a school, a game, a factory) than to every entry, by
    `SETTING_LEAD`? Then the name it leaves out is used in that setting's sense."""
    settings = _setting_vectors(semantic)
    return float((settings @ vector).max()) > best + SETTING_LEAD


def read_in_another_sense(
    text: str, start: int, end: int, cosine: float, first: bool, knows: Callable[[str], bool]
) -> bool:
    """Is the one-word plain name at `text[start:end]` (normalized text, a sentence `judged`)
    read by the meaning in another sense: the whole sentence, name and all, under
    `OFF_DOMAIN_COSINE` from the entry it names (`cosine`, at most; `first`: no other entry is
    nearer), beside a word of its own, common English and not the glossary's ("is sampling a
    song legal": 0.19, "a small token of appreciation for my kid's teacher": 0.21)? A word
    that names an entry pulls a sentence towards it; where the encoder, reading it in its
    context, does not go there, the word means something else. "what temperature should i use
    for code generation" (0.33) says no such word; a sentence in another language the encoder
    reads poorly has the name's entry first."""
    name = text[start:end]
    if " " in name or not is_common(name) or first or cosine >= OFF_DOMAIN_COSINE:
        return False
    return _everyday_count(content_words(f"{text[:start]} {text[end:]}"), knows) >= 1


def _ends_in_field(text: str, words: list[str]) -> bool:
    """Does the text end with "in" or "on" and `words`, all the rest says ("what is a
    checkpoint in zelda")? Then it asks about the name in that field ("was ist beam search" is
    read "what is beam search ist": no field)."""
    said = text.rstrip("?!. ").split()
    return bool(words) and said[-len(words) - 1 :] in (["in", *words], ["on", *words])


def _short_rest(words: list[str], knows: Callable[[str], bool]) -> bool:
    """Is the rest of a short text ("in zelda", "the piano") a word or two, each common English
    and not the glossary's (`knows`)?"""
    return len(words) <= SHORT_REST_WORDS and _everyday_only(words, knows)


def everyday_rest(rest: str, knows: Callable[[str], bool]) -> bool:
    """Does `rest` (a text without the name it writes) say words of its own, each common
    English and not the glossary's (`knows`): nothing of the field?"""
    return _everyday_only(content_words(rest), knows)


def everyday_object(
    thing: str, knows: Callable[[str], bool], unused: Callable[[str], bool]
) -> bool:
    """Is what an act is done to everyday ("water", "a song in ableton", "real estate"): words
    of its own, each common English and not the glossary's (`knows`), or a word no entry uses
    (`unused`) beside no more of the glossary's words (`unknown_word`)? "a model", "weights",
    "text" are the field's."""
    words = content_words(thing)
    return bool(words) and (_everyday_only(words, knows) or unknown_word(words, knows, unused))


def plain_rest(rest: str) -> bool:
    """Does `rest` say words of its own, each common English ("how is made", "plant care"),
    none jargon or an acronym ("llm guardrails": "llm" is not)?"""
    words = content_words(rest)
    return bool(words) and all(w.isalpha() and w in common_words() for w in words)


def off_field(semantic: SemanticIndex, rest: str) -> bool:
    """Is `rest`, embedded alone, far from every entry (`OFF_DOMAIN_COSINE`)?"""
    return _rest_nearest(semantic, rest)[0] < OFF_DOMAIN_COSINE


def field_cosine(semantic: SemanticIndex, vector: npt.NDArray[np.float32]) -> float:
    """A text's cosine (its `vector`) to the field itself (the unit mean of the entries'
    vectors), whichever entry it is nearest: how much a sentence is about the field at all."""
    return float((vector @ _centroid(semantic)).item())


def _everyday_only(words: list[str], knows: Callable[[str], bool]) -> bool:
    common = common_words()
    return bool(words) and all(w.isalpha() and w in common and not knows(w) for w in words)


def _rest_nearest(semantic: SemanticIndex, rest: str) -> tuple[float, npt.NDArray[np.float32]]:
    """The rest's best cosine to an entry, and its vector."""
    vector = semantic.encoder.encode_query(rest)  # about 5-10 ms: the checks above come first
    found = semantic.similar_to(vector, 1)
    return (found[0][1] if found else 0.0), vector


def _setting_vectors(semantic: SemanticIndex) -> npt.NDArray[np.float32]:
    """The everyday settings' vectors, embedded once (one pass, a few ms) for the bundled
    index a server's is searched beside."""
    while semantic.base is not None:
        semantic = semantic.base
    found = _settings.get(semantic)
    if found is None:
        found = semantic.encoder.encode_queries(EVERYDAY_SETTINGS)
        _settings[semantic] = found
    return found


def _centroid(semantic: SemanticIndex) -> npt.NDArray[np.float32]:
    """The unit mean of the bundled entries' vectors (a server's index is searched beside its
    base, the bundled glossary: the field is the same)."""
    import numpy as np

    while semantic.base is not None:
        semantic = semantic.base
    found = _centroids.get(semantic)
    if found is None:
        mean = semantic.vectors.mean(axis=0)
        found = (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)
        _centroids[semantic] = found
    return found
