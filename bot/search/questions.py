"""The question rules that read names: which entry a question, a chat line or a comparison
asks about, written, mistyped or only started ("how does vllm's pagedattention ...", "is it the
paged attention?", "tokenizaton", "mixure of experts vs ...").

Where in a text its subject, sides or clauses are written is read from the words alone, in
`query.py`; these rules look those words up in the glossary's names. `SearchIndex` asks them
(`read` for a question's shape, the typo rules for the words the meaning should read fixed) and
pools what they find; they know nothing of the index, only the names, the entries and where to
find a typo's candidates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.glossary.keys import compact, normalize
from bot.glossary.models import DOERS, Entry
from bot.search.everyday import common_words
from bot.search.fusion import OFF_DOMAIN_COSINE, SEMANTIC_CANDIDATES, SUBJECT
from bot.search.names import TIER, Hit, NameKind, NameTable
from bot.search.query import (
    QUALIFIERS,
    STOPWORDS,
    aside,
    asked_clause,
    asked_state,
    asked_subject,
    asks_for_name,
    asks_name_after_story,
    asks_what_it_is,
    compared_sides,
    compatibility,
    conversion,
    derived_forms,
    meant_act,
    mentioned_at,
    name_forms,
    plural_variants,
    query_core,
    quoted_reply,
    tagged,
)
from bot.search.server_aliases import NO_ALIASES
from bot.search.terms import GENERIC_WORDS, find_mentions

if TYPE_CHECKING:
    from bot.search.semantic import SemanticIndex

# characters: "hbm" and "llm" are short names, asked about only when the meaning agrees
LONG_NAME = 5
# Chat that names its topic first and asks nothing: the meaning ranks that name among its
# first few, this close to its best (dev; descriptions' leading names sat 0.18 or more below)
LEADING_RANKS = 4
LEADING_GAP = 0.1
# ... in a sentence at least this near the glossary: chat that asks nothing says less than a
# question does ("alignment of text in a latex table", 0.38; dev's leads 0.44 and up)
LEADING_COSINE = 0.42
# "vllm's scheduler under load": a possessive this early owns the topic; "checkpoint format that
# ...": a relative clause this early makes the text a description of a kind of that name
LEADING_WORDS = 3
_RELATIVE = frozenset({"that", "which", "who", "whose", "where", "whereby"})
# A question whose subject points back at the clause before it ("..., what does that mean")
_BACK_REFERENCES = frozenset({"it", "that", "this", "they", "those", "these"})
_WHAT = ("what ", "whats ", "wat ")
_POSSESSIVE = ("'s", "s'")
_UNADORNED = frozenset(("plain", "vanilla", "basic", "regular", "simple", "normal", "ordinary"))
_ASKERS = frozenset({"i", "we", "you", "one", "u"})
_USING_VERBS = frozenset(
    {"use", "uses", "used", "need", "needs", "prefer", "prefers", "adopt", "adopted", "pick"}
)
# "how does vllm do paged attention", "how does llama.cpp implement top-p sampling": verbs of
# carrying something out, whose object, where it is a name, is what is asked about where the
# doer is a tool or a model (`_carried_out_by_name`): it only says where it happens
_CARRYING_VERBS = frozenset(
    {"do", "does", "implement", "implements", "handle", "handles", "apply", "applies"}
    | {"compute", "computes", "perform", "performs", "load", "loads", "store", "stores"}
)
# "how does a vit turn ...", "why did llama drop ...": a question of how or why a named doer acts
_HOW_DOES = re.compile(r"^(?:how|why) (?:do|does|did)(?:n'?t| not)? ")
_PLACES = frozenset({"in", "on", "inside"})  # "what is a model card on hugging face"
_DETERMINERS = frozenset({"a", "an", "the", "my", "our", "your", "this", "its"})
# a quotation in a chat message: "agent", 'agent', “agent” (not an apostrophe inside a word)
_QUOTED = re.compile(r"(?<!\w)[\"'\u2018\u201c]([^\"'\u2019\u201d]{2,40})[\"'\u2019\u201d](?!\w)")
NEARLY_NAMED = 90.0  # a question's subject one typo from a long name ("tokenizaton") ...
NEARLY_NAMED_LENGTH = 7  # ... of at least this many letters
# A lone mistyped name is the subject where the meaning of the text, the name fixed, is this near
# it (`agreed`)
LONE_TYPO_COSINE = 0.5
SPAN_WORD_LENGTH = 5  # a mistyped name of two or three words starts with a word this long
_PART = NameKind.PART  # looked up once: attribute access on an Enum class is slow in hot loops

Subject = tuple[int, int]  # (entry, how far down the meaning may rank it and still agree)
Typo = tuple[int, int, str]  # (start, entry, the words as written)


def points_back(clause: str) -> bool:
    """Does a question's later clause (`normalize`d) ask what the scene before it names, by a
    word pointing back at it: "what does that mean", "what are those" (its subject a pronoun),
    "what's that", "is that a library" (`asks_what_it_is`)?"""
    core = query_core(clause)
    words = asked_subject(core)[1][:1] or [core]  # "what are those": the pronoun alone is left
    if words[0] in _BACK_REFERENCES and clause.startswith(_WHAT):
        return True
    return asks_what_it_is(clause)


@dataclass(frozen=True, slots=True)
class Reading:
    """What a text's shape says it asks about, before the meaning is read."""

    clauses: tuple[str, str] | None  # a topic or a scene, then the question (`asked_clause`)
    pair: tuple[str, str] | None  # the sides of a comparison ("ppo vs dpo for ...")
    converted: tuple[str, str] | None  # (target, source) of "convert safetensors to gguf"
    source: Subject | None  # the entry a conversion starts from: offered, never the card
    together: tuple[int, int] | None  # the two entries of "does vllm run on rocm": no card
    subject: Subject | None  # the entry asked about, if the shape says
    written: list[Subject]  # the names written, as `read` was given them or re-ranked
    described: bool  # a description that asks what it is called ("..., what's that called")
    where: int | None  # a tool or model that only says where what is asked happens
    # a story, then what it tells of is asked for by name ("we tried X and it kept doing Y ...
    # what is that called"): every name written is its setting, offered at most, never the card
    storied: bool


class QuestionRules:
    """The rules over one glossary's names; holds nothing but what it is given."""

    __slots__ = ("_candidates", "_everyday_thing", "entries", "names")

    def __init__(
        self,
        names: NameTable,
        entries: tuple[Entry, ...],
        candidates: Callable[[str, int], list[int]],
        everyday_thing: Callable[[str], bool] = lambda thing: True,
    ) -> None:
        """`candidates`: positions of the name keys sharing the most trigrams with a key;
        `everyday_thing`: is what an act is done to everyday ("water", not "a model")."""
        self.names = names
        self.entries = entries
        self._candidates = candidates
        self._everyday_thing = everyday_thing

    def read(
        self,
        query: str,
        normalized: str,
        core: str,
        question: bool,
        written: list[Subject],
    ) -> Reading:
        """The shape of a text (a comparison, a conversion, "does X work with Y", a chat that
        asks for a name, a question) and the subject it says is asked about, with the names
        `written` (`SearchIndex._add_mentions`) re-ranked to suit: a side compared with, a
        conversion's source or a description's names are no rivals to the subject."""
        # "swiglu activation, why is everyone using it": a topic or a scene, then the question
        clauses = asked_clause(query)
        # "layernorm vs batchnorm, why do transformers use it": the scene compares
        pair = compared_sides(query, normalized, core, clauses)
        # "ppo vs dpo for a tiny chat model": the first side, if a name, at any rank; the
        # other side is what it is compared with, no sign that the chat is unclear
        side = self.with_head(*pair) if pair else ""  # "tensor vs pipeline parallelism"
        subject = (self.first_name(side) or self._mistyped_side(side)) if pair else None
        # "convert safetensors to gguf": the target, if a name; never the source
        converted = conversion(core) if pair is None else None
        source = self._named_start(converted[1]) if converted else None
        # "does vllm run on rocm": both offered, no card for either (`_together`)
        together = self._together(core) if pair is None and converted is None else None
        described = bool(clauses and asks_for_name(clauses[1]))
        where = None  # "how does vllm do prefix caching": vLLM
        if subject is not None and pair:
            rival = self.first_name(pair[1])
            written = [w for w in written if not rival or w[0] != rival[0]]
        elif converted:
            subject = self._named_start(converted[0])
            written = [w for w in written if not source or w[0] != source[0]]
        elif described:
            # "sample lots of answers, keep the good ones, finetune on those. name?": what
            # is described is asked about, a name it writes is part of the description
            written = [(entry, 0) for entry, _ in written]
        elif together is None and (replied := self._replied_to(query)) is not None:
            subject = replied  # "> you need cuda 12.1 for that wheel", then "what even is that"
        elif (question or clauses) and together is None:
            # "..., is it the paged attention?"; "running llama on my laptop, do i have to
            # quantize it?": the guess, or the subject of the clause that asks
            guessed = self._tagged(core)
            subject = guessed or self._clause_subject(clauses)
            subject = subject or (self._quoted(query) if question else None)
            # "why do llms hallucinate", "how does gpt 2 tokenize emojis": what the named doer
            # does is asked about, the doer only says where it happens; not where a third name
            # is written ("... hallucinate less with rag": that may be what is asked)
            done = self._done_by_name(core) if question and subject is None else None
            if done is not None and {entry for entry, _ in written} <= set(done):
                subject = done[1], SEMANTIC_CANDIDATES
                written = [(entry, 0 if entry == done[0] else rank) for entry, rank in written]
            # "how does vllm do prefix caching": likewise, the tool only says where
            carried = (
                self._carried_out(core) or self._placed_in(core)
                if question and subject is None
                else None
            )
            if carried is not None:
                where, subject = carried
                written = [(entry, 0 if entry == carried[0] else rank) for entry, rank in written]
            subject = subject or (self._subject(core) if question else None)
            if guessed is not None:  # what comes before the guess is its setting
                written = [(entry, 0) for entry, _ in written]
        # read whole: the asking often closes a story longer than the words searched
        storied = pair is None and converted is None and asks_name_after_story(normalize(query))
        return Reading(
            clauses, pair, converted, source, together, subject, written, described, where, storied
        )

    def mistyped_words(self, text: str) -> list[Typo]:
        """(start, entry, words) of words one typo from a long name, in either number, alone or
        with the next one or two words ("speculativ decoding", "mixure of experts"), that are no
        name themselves; the first two letters must agree (a typo rarely hits them, while a word
        with another prefix, "retraining", is another word)."""
        found = []
        words = text.split()
        start = covered = 0  # words before `covered` are in a span already found
        for at, word in enumerate(words):
            start, begins = start + len(word) + 1, start
            key = compact(word)
            if at < covered or len(key) < SPAN_WORD_LENGTH or not key.isalpha():
                continue
            # "context windw": a name may start a longer name mistyped, never be a typo alone
            named_word = bool(self.names.lookup(key))
            # the longest span first ("stochastic gradiant descent", "mixure of experts")
            spans = [words[at:end] for end in (at + 3, at + 2) if end <= len(words)]
            forms = [(" ".join(span), compact(" ".join(span))) for span in spans]
            if any(
                self.names.lookup(f) for _, form in forms for f in (form, *plural_variants(form))
            ):
                continue  # "teacher forcing in ...": a name and the next word, no typo
            if named_word and not forms:
                continue
            # "people optimize it": an English word alone is no typo (of Optimizer's "optimiser")
            if len(key) >= NEARLY_NAMED_LENGTH and not named_word and key not in common_words():
                forms += [(word, form) for form in (key, *plural_variants(key))]
            for written, form in forms:
                if any(self.names.lookup(f) for f in (form, *plural_variants(form))):
                    break  # a name in either number ("coding agents") is no typo
                named = self._nearly_named(form)
                if named is not None:
                    found.append((begins, named[0], written))
                    covered = at + len(written.split())
                    break
            else:
                short = None if named_word else self.short_typo(key)
                typed = None if named_word or short is not None else self._typed_alone(word)
                short = typed[0] if typed is not None else short  # "why is my latancy so high"
                if short is not None:  # "tensr", "pyhton", "rmsnrom"
                    found.append((begins, short, word))
        return found

    def short_typo(self, key: str) -> int | None:
        """The entry a word of five letters or more, no English word, names with two letters
        swapped or one doubled ("pyhton", "tokken", "rmsnrom"), or, of five or six letters, one
        left out ("tensr"; longer words' are `_nearly_named`'s, and a last letter dropped is
        often another word: "schedule"), the first two kept, if one entry holds that name. A
        letter changed or another letter added is as often another word, a product ("llava" is
        no Llama, "ollama" neither)."""
        from rapidfuzz.distance import OSA

        if key in common_words() or any(self.names.lookup(f) for f in plural_variants(key)):
            return None
        near = {
            hit.entry
            for position in self._candidates(key, 5)
            if (name := self.names.keys[position])[:2] == key[:2]
            and OSA.distance(key, name) == 1
            and (
                (len(name) == len(key) + 1 and len(key) < NEARLY_NAMED_LENGTH)
                or sorted(name) == sorted(key)
                or _doubled(key, name)
            )
            for hit in self.names.hits(position)
        }
        return near.pop() if len(near) == 1 else None

    def slips(self, text: str) -> list[Typo]:
        """(start, entry, word) of words of three or four characters, no English word nor name,
        that are a name of one entry with two neighbouring characters swapped, the first kept
        ("jsno", "cdua", "bm52"; of three, an acronym: "vea"). Too short to trust alone: only
        where the meaning agrees (`lone_typo`)."""
        found = []
        start = 0
        for word in text.split():
            start, begins = start + len(word) + 1, start
            key = compact(word)
            if not 3 <= len(key) <= 4 or key in common_words() or self.names.lookup(key):
                continue
            swaps = {key[:i] + key[i + 1] + key[i] + key[i + 2 :] for i in range(1, len(key) - 1)}
            near = {
                hit.entry
                for swap in swaps - {key}
                for hit in self.names.lookup(swap)
                if hit.kind != _PART and (hit.cased or len(key) == 4)
            }
            if len(near) == 1:
                found.append((begins, near.pop(), word))
        return found

    def slipped_subject(self, core: str, typos: Sequence[Typo]) -> Typo | None:
        """The typo (`mistyped_words`, `slips`) a question's subject starts with ("does bm52
        still beat ...", "what is the vea doing ..."), else None."""
        words = asked_subject(core)[1]
        first = words[0] if words else ""
        return next((typo for typo in typos if typo[2] == first), None)

    def lone_typo(self, typos: Sequence[Typo], written: Sequence[Subject]) -> int | None:
        """The entry of the one name a text writes, mistyped ("perplexty of 12 on wikitext is
        that good", "is jsno fine for ..."), when it writes no other name and the word is no
        English word ("the bus schedule" is no Scheduler), else None."""
        entries = {entry for _, entry, word in typos if word not in common_words()}
        if len(entries) != 1 or len({entry for _, entry, _ in typos}) != 1:
            return None
        entry = entries.pop()
        return None if any(other != entry for other, _ in written) else entry

    def agreed(
        self,
        entry: int | None,
        similar: Sequence[tuple[int, float]],
        semantic: SemanticIndex,
        as_typed: str | None,
    ) -> Subject | None:
        """`entry` (a `lone_typo`) as the subject, if the meaning of the text, read with its
        name fixed, ranks it first and near, and, for a text that asks nothing (`as_typed` given),
        the text as typed is about the glossary's field at all: a word read as a name draws the
        meaning to that name ("vea is a nice name for a cat")."""
        if entry is None or not similar or similar[0][0] != entry:
            return None
        if similar[0][1] < LONE_TYPO_COSINE:
            return None
        if as_typed is not None:
            nearest = semantic.similar(as_typed, 1)
            if not nearest or nearest[0][1] < OFF_DOMAIN_COSINE:
                return None
        return entry, SUBJECT

    def _typo_of(self, key: str, entry: int) -> bool:
        """Is `key`, nearly a name of `entry`, a typo of it and not another word? The first
        two letters agree (a typo rarely hits them; "retraining" is not "pretraining")."""
        return any(compact(name)[:2] == key[:2] for name in self.entries[entry].names)

    def _subject(self, core: str) -> Subject | None:
        """The entry a question's subject names (`asked_subject`), with how far down the
        meaning may rank it (`named_rank`): the noun of the asker's verb ("how do i tokenize
        my data"), alone or after its object ("how do i evaluate my llm app": LLM Evaluation),
        else the longest name the subject's words start with, in either number, as a verb's
        noun, or nearly spelled ("tokenizaton"), if one entry holds it."""
        state = asked_state(core)
        if state is not None and state not in GENERIC_WORDS:
            forms = [state, *derived_forms(state)]
            found = _held_by_one((self.names.lookup(form), len(form)) for form in forms)
            if found is None:
                found = self._nearly_named(state)
            if found is not None:
                return found[0], SUBJECT
        verb, words = asked_subject(core)
        # "whats inside one transformer blok": a name that starts a longer name, mistyped
        if spelled := self._mistyped_start(words):
            return spelled, SUBJECT
        # "why do llama-style models use rmsnorm": what the doer uses is asked about
        _, _, used = _used_by_another(words, _USING_VERBS)
        if used and (named := self._subject_name(used, [])):
            return named[0], SEMANTIC_CANDIDATES if named[1] < LONG_NAME else SUBJECT
        # "how does vllm's pagedattention avoid ...": what the possessor owns is asked about
        if len(words) > 1 and words[0].endswith(_POSSESSIVE) and self._subject_name(words[1:], []):
            words = words[1:]
        # "is plain sgd still used": a word for the thing without extras is no part of its name
        elif len(words) > 1 and words[0] in _UNADORNED and not self._subject_name(words, []):
            words = words[1:] if self._subject_name(words[1:], []) else words
        if verb and words and any(self.names.lookup(n) for n in derived_forms(verb + words[0])):
            verb, words = verb + words[0], words[1:]  # a verb in two words: "how do i fine tune"
        # "how do i train for a marathon": a plain word's noun is no name to ask about, unless
        # the question asks what the act means, done to a thing of the field ("what does it
        # mean to train a model": Training)
        act = meant_act(core)
        plain = act is None or self._everyday_thing(act[1])
        nouns = (
            [n for n in derived_forms(verb) if not plain or n not in GENERIC_WORDS] if verb else []
        )
        found = self._subject_name(words, nouns) if nouns else None
        if act is not None and found is None:
            return None  # "what does it mean to prune a neural network": the act names no entry
        found = found or self._subject_name(words, [])
        for width in range(min(len(words), self.names.most_words), 0, -1) if not found else ():
            found = self._nearly_named(compact(" ".join(words[:width])))
            if found:
                break
        found = found or (self._typed_alone(words[0]) if words else None)
        if found is None:
            return None
        entry, length = found
        return entry, SEMANTIC_CANDIDATES if length < LONG_NAME else SUBJECT

    def _done_by_name(self, core: str) -> tuple[int, int] | None:
        """(doer, done): the entry a question's subject names and the one whose name the verb
        after it is a form of ("llms hallucinate": LLM, Hallucination), where the two make no
        name together ("llms evaluated": LLM Evaluation), else None."""
        verb, words = asked_subject(core)
        if verb is not None:  # "how do i tokenize my data": the asker's own verb
            return None
        for width in range(min(len(words) - 1, self.names.most_words), 0, -1):
            keys = plural_variants(key := compact(" ".join(words[:width])))
            doer = _held_by_one((self.names.lookup(k), 0) for k in (key, *keys))
            if doer is not None:
                break
        else:
            return None
        forms = [f for f in derived_forms(words[width]) if f not in GENERIC_WORDS]
        if any(self.names.lookup(k + f) for k in (key, *keys) for f in forms):
            return None
        done = _held_by_one((self.names.lookup(f), 0) for f in forms)
        return (doer[0], done[0]) if done is not None and done[0] != doer[0] else None

    def _carried_out(self, core: str) -> tuple[int, Subject] | None:
        """(doer, subject): in "how does vllm do prefix caching", a tool or model the glossary
        names (kinds.toml) and what its verb of carrying out names, asked about; else None. A
        method doing ("how does lora do fine tuning", "how does flash attention compute
        attention") is itself asked about, and a doer the glossary does not name ("the brain")
        leaves the object's everyday sense open."""
        doer, _, done = _used_by_another(asked_subject(core)[1], _CARRYING_VERBS)
        if not done:
            return None
        named_doer, named = self._subject_name(doer, []), self._subject_name(done, [])
        if named_doer is None or named is None or self.entries[named_doer[0]].kind not in DOERS:
            return None
        return named_doer[0], (named[0], SEMANTIC_CANDIDATES if named[1] < LONG_NAME else SUBJECT)

    def acted_on(
        self,
        core: str,
        subject: Subject | None,
        written: Sequence[Subject],
        similar: Sequence[tuple[int, float]],
    ) -> tuple[int, Subject] | None:
        """(doer, subject): in "how does a vit turn an image into patch tokens", the tool or
        model (kinds.toml) a question's subject names, doing any act to a thing the glossary
        names after it, the one other name written, where the meaning ranks that thing first:
        the doer only says where it happens, as with `_carried_out`'s verbs. A method ("how does
        rag do reranking") or a doer the meaning ranks first ("how does a sparse autoencoder
        untangle superposition") is itself asked about; else None."""
        if subject is None or self.entries[subject[0]].kind not in DOERS:
            return None
        if not _HOW_DOES.match(core):
            return None
        verb, words = asked_subject(core)
        if verb is not None or not words:  # "how do i ...": the asker's own act
            return None
        named = self._subject_name(words, [])
        if named is None or named[0] != subject[0]:  # the doer must be the subject written
            return None
        # one other name, the meaning's first: with a third ("..., isnt there an instruction
        # hierarchy") or the meaning elsewhere ("how does vllm avoid wasting gpu memory ...")
        # what is asked is not the doer's object
        done = {entry for entry, _ in written} - {subject[0]}
        if len(done) != 1 or not similar or similar[0][0] not in done:
            return None
        return subject[0], (similar[0][0], SUBJECT)

    def _placed_in(self, core: str) -> tuple[int, Subject] | None:
        """(place, subject): in "what is a model card on hugging face", "what does fine tuning
        on a foundation model do", a tool or model (kinds.toml) named straight after the thing
        asked about and "in"/"on": the place only says where it is; else None."""
        words = asked_subject(core)[1]
        at = next((i for i, w in enumerate(words) if w in _PLACES), 0)
        thing = self._subject_name(words[:at], []) if at else None
        if thing is None or thing[1] < len(compact(" ".join(words[:at]))):
            return None  # the words before "in" are not all one name
        rest = words[at + 1 :]
        place = self._subject_name(rest[1:] if rest[:1] and rest[0] in _DETERMINERS else rest, [])
        if place is None or place[0] == thing[0] or self.entries[place[0]].kind not in DOERS:
            return None
        return place[0], (thing[0], SEMANTIC_CANDIDATES if thing[1] < LONG_NAME else SUBJECT)

    def _mistyped_start(self, words: Sequence[str]) -> int | None:
        """The entry a subject's words start by naming mistyped over two or three words, the
        first a name itself ("transformer blok": Transformer Block, not Transformers), else None."""
        if len(words) < 2 or not self.names.lookup(compact(words[0])):
            return None
        spans = self.mistyped_words(" ".join(words[: self.names.most_words]))
        first = next(iter(spans), None)
        return first[1] if first and first[0] == 0 and len(first[2].split()) > 1 else None

    def _clause_subject(self, clauses: tuple[str, str] | None) -> Subject | None:
        """The subject (`_subject`) of a question asked in a later clause than a chat's first,
        after a scene ("training a 1b model, how do i pick the learning rate"), if it names
        one, else None; after a topic, a clause that starts with a name ("flash attention, why
        does it need cuda"), the question asks about the topic."""
        if clauses is None:
            return None
        if points_back(clauses[1]):  # what the scene named is to be explained
            return self._scene_name(clauses[0])
        asked = query_core(clauses[1])
        words = asked_subject(asked)[1][:1]
        scene = query_core(clauses[0]).split()
        if scene and compact(scene[0]) not in GENERIC_WORDS and self._subject_name(scene, []):
            return None
        key = compact(words[0]) if words else ""
        if not GENERIC_WORDS.isdisjoint((key, *plural_variants(key))):
            return None  # "model too big for one gpu, how do i split the layers": a plain word
        return self._subject(asked)

    def _quoted(self, query: str) -> Subject | None:
        """The entry a question writes as its only quotation, whole ('what makes something an
        "agent"'): the word the asker marks is the one asked about, at any rank."""
        quoted = _QUOTED.findall(query)
        if len(quoted) != 1:
            return None
        key = compact(normalize(quoted[0]))
        found = _held_by_one((self.names.lookup(f), 0) for f in (key, *plural_variants(key)))
        return None if found is None else (found[0], SUBJECT)

    def _replied_to(self, query: str) -> Subject | None:
        """The one entry a thread reply's quote names, where the reply after it names none
        ("> you need cuda 12.1 for that wheel", then "what even is that and why does the version
        matter"): the reply asks about the quoted message, so its name is the subject, at any
        rank (the meaning reads the reply's words, which point back at it)."""
        replied = quoted_reply(query)
        if replied is None or self._named_in(replied[1]):
            return None
        named = self._named_in(replied[0])
        return (named.pop(), SUBJECT) if len(named) == 1 else None

    def _named_in(self, text: str) -> set[int]:
        """The entries `text` names (`find_mentions`, as a search box reads it)."""
        found = find_mentions(text, self.names, self.entries, NO_ALIASES, None, as_typed=False)
        return {mention.entry for mention in found}

    def _scene_name(self, scene: str) -> Subject | None:
        """The one entry a scene names, at the head of its phrase, which a question after it
        refers back to with a pronoun ("gpt is 'autoregressive', what does that even mean"): its
        subject, if the meaning ranks it among its ten."""
        found = find_mentions(scene, self.names, self.entries, NO_ALIASES, None, as_typed=False)
        named = {mention.entry for mention in found}
        if len(named) > 1:  # "i keep seeing temperature in the api settings": the one mentioned
            found = [mention for mention in found if mentioned_at(scene, mention.start)]
            named = {mention.entry for mention in found}
        if len(named) != 1:
            return None
        # the name heads its phrase: in "the bank tokenization fee" the pronoun means the fee
        after = scene[found[-1].end :].split()[:1]
        return (named.pop(), SEMANTIC_CANDIDATES) if not after or after[0] in STOPWORDS else None

    def leading(self, core: str, similar: Sequence[tuple[int, float]]) -> Subject | None:
        """The entry chat that asks nothing names first ("reward hacking in the coding benchmark
        run"), if the meaning ranks it among its first few, about as close as its best: a
        description also starts with a name, of the kind it describes ("the optimizer that
        keeps ...", "checkpoint format that ..."), or of what owns it ("vllm's scheduler
        under ..."), and a plain word ("training with a teacher's soft labels") is no topic."""
        words = core.split()
        if len(words) < 2 or not similar or similar[0][1] < LEADING_COSINE:
            return None
        opening = words[: LEADING_WORDS + 1]
        if any(w.endswith(_POSSESSIVE) or w in _RELATIVE for w in opening):
            return None
        found = self._subject_name(words, [])
        if found is None:  # "speculitive decoding in practice": a name mistyped at the start
            mistyped = next(iter(self.mistyped_words(" ".join(words[:2]))), None)
            found = (mistyped[1], 0) if mistyped and mistyped[0] == 0 else None
        if found is None or compact(words[0]) in GENERIC_WORDS:
            return None
        cosine = dict(similar[:LEADING_RANKS]).get(found[0], 0.0)
        return (found[0], SUBJECT) if cosine >= similar[0][1] - LEADING_GAP else None

    def more_specific(
        self, entry: int, text: str, similar: Sequence[tuple[int, float]]
    ) -> int | None:
        """The one entry among the meaning's that a name of `entry` only starts or ends
        ("loss" of Validation Loss) and whose whole name the text writes, in any word form
        ("why does my loss go up on the validation data"): the text says which kind it asks
        about."""
        from bot.search.fulltext import stem_many

        written = set(stem_many(text.replace("'", " ").split()))
        general = {tuple(stem_many(normalize(n).split())) for n in self.entries[entry].names}
        found = set()
        for other, _ in similar:
            for name in self.entries[other].names if other != entry else ():
                words = tuple(stem_many(normalize(name).split()))
                within = any(g == words[: len(g)] or g == words[-len(g) :] for g in general)
                if len(words) > 1 and within and written.issuperset(words):
                    found.add(other)
        return found.pop() if len(found) == 1 else None

    def _named_start(self, side: str) -> Subject | None:
        """`first_name` of the longest start of a side that names an entry ("safetensors
        weights": Safetensors, "cuda 12": CUDA)."""
        words = side.split()
        starts = (self.first_name(" ".join(words[:width])) for width in range(len(words), 0, -1))
        return next((found for found in starts if found is not None), None)

    def _together(self, core: str) -> tuple[int, int] | None:
        """The two entries a "does X work with Y" question names, both, else None."""
        sides = compatibility(core)
        first = self._named_start(sides[0]) if sides else None
        second = self._named_start(sides[1]) if sides and first else None
        if first is None or second is None or first[0] == second[0]:
            return None
        return first[0], second[0]

    def closing_aside(
        self, query: str, similar: Sequence[tuple[int, float]], named: Sequence[Subject]
    ) -> Subject | None:
        """The entry a question's closing aside names ("..., the paged attention trick"), asked
        about at any rank, where the meaning ranks it above every other entry the question
        names (`named`): the aside says which part of the question is meant."""
        text = aside(query)
        found = self._named_start(text) if text else None
        cosines = dict(similar)
        if found is None or found[0] not in cosines:
            return None
        rivals = [cosines.get(entry, 0.0) for entry, _ in named if entry != found[0]]
        return (found[0], SUBJECT) if cosines[found[0]] > max(rivals, default=0.0) else None

    def _tagged(self, core: str) -> Subject | None:
        """The entry the guess of a tag question names ("..., is it the paged attention?"),
        written or mistyped, asked about at any rank, else None."""
        tag = tagged(core)
        if tag is None:
            return None
        found = self._named_start(tag)
        mistyped = next(iter(self.mistyped_words(tag)), None) if found is None else None
        if mistyped is not None and mistyped[0] == 0:
            found = mistyped[1], SUBJECT
        return found

    def with_head(self, first: str, second: str) -> str:
        """The first side of a comparison with the head noun the text wrote only once, after
        the second ("zero vs few shot prompting": "zero shot prompting"), where that reads as a
        name, or where the sides are one modifier each of a head that no name holds ("tensor
        vs pipeline parallelism": "tensor parallelism", not Tensor), or one modifier each of a name
        the second side ends with ("tensor vs pipeline model parallelism"); else the side as
        written."""
        words = second.split()
        width = next((i for i, w in enumerate(words) if w in QUALIFIERS), len(words))
        words = words[:width]
        if len(first.split()) > 2 or len(words) < 2:
            return first
        # "hallucination vs hallucination detection", "embeddings vs token embeddings": the
        # second side holds the first's name whole, so the first is that name, no modifier
        named, width = self.first_name(first), len(first.split())
        if named and named in (
            self.first_name(" ".join(e)) for e in (words[:width], words[-width:])
        ):
            return first
        for tail in (words[-k:] for k in range(len(words) - 1, 0, -1)):
            if self.first_name(" ".join((first, *tail))) is not None:
                return " ".join((first, *tail))
        if len(words) == 2 and len(first.split()) == 1 and self.first_name(second) is None:
            return f"{first} {words[-1]}"
        kind_of = self.first_name(" ".join(words[1:]))
        modifier = words[0] in common_words()  # "pipeline", not a product ("deepspeed zero 3")
        if len(first.split()) == 1 and modifier and kind_of and self.first_name(first):
            # "tensor vs pipeline model parallelism": two kinds of the name the second side
            # ends with, Model Parallelism, not the card of the name the first side writes
            return " ".join((first, *words[1:]))
        return first

    def _mistyped_side(self, side: str) -> Subject | None:
        """The entry a comparison's side names mistyped ("mixure of experts vs ..."), asked about
        at any rank: a name spelled at its start, or at its end, where a compound puts its head
        ("open source guardrials or ..."), else None."""
        for start, entry, written in self.mistyped_words(side):
            if start == 0 or side.endswith(written):
                return entry, SUBJECT
        return None

    def first_name(self, side: str) -> Subject | None:
        """The entry a side of a comparison names, asked about at any rank: all of the side,
        or its start up to a qualifier ("lora with rank 8"), in either number; "tensor
        parallel" names nothing (Tensor is what it qualifies)."""
        words = side.split()
        width = next((i for i, w in enumerate(words) if w in QUALIFIERS), len(words))
        key = compact(" ".join(words[:width]))
        named = _held_by_one((self.names.lookup(f), 0) for f in (key, *plural_variants(key)))
        return None if named is None else (named[0], SUBJECT)

    def _subject_name(self, words: Sequence[str], nouns: Sequence[str]) -> tuple[int, int] | None:
        """(entry, length) of the longest name `words` start with (followed by one of `nouns`
        if any are given, or one of them alone), else None."""
        return _held_by_one(self._subject_names(words, nouns))

    def _subject_names(
        self, words: Sequence[str], nouns: Sequence[str]
    ) -> Iterator[tuple[Sequence[Hit], int]]:
        """What each name `_subject_name` tries holds (hits, name length), longest first."""
        for width in range(min(len(words), self.names.most_words), 0, -1):
            key = compact(" ".join(words[:width]))
            forms = [key, *plural_variants(key)]
            if not nouns:  # a form of a name: "what is pre-filling" (a doer is a tool as often:
                forms += name_forms(key, agents=False)  # "the trainer says 3 epochs": no Training
            if nouns:
                forms = [f + noun for noun in nouns for f in forms]
            elif width < len(words):  # "how are llms evaluated": LLM Evaluation
                forms = [f + noun for noun in derived_forms(words[width]) for f in forms] + forms
            yield from ((self.names.lookup(f), max(len(key), len(f))) for f in forms)
            if width > 1 and not nouns:
                yield self._started_by(words[:width]), len(key)
        # "how do i tokenize my data": Tokenization
        yield from ((self.names.lookup(noun), len(noun)) for noun in nouns)

    def _started_by(self, words: Sequence[str]) -> Sequence[Hit]:
        """The hits of the one entry whose names start with these two or more words ("multi
        agent setups": Multi-Agent Systems), else none: a question names a thing by the start
        of its name and goes on with its own words."""
        positions = self.names.with_prefix(compact(" ".join(words)), 20)
        hits = {h.entry: h for p in positions for h in self.names.hits(p) if h.kind != _PART}
        spaced = " ".join(words) + " "
        if len(hits) != 1 or not any(self.names.text(p).startswith(spaced) for p in positions):
            return ()
        return tuple(hits.values())

    def _typed_alone(self, word: str) -> tuple[int, int] | None:
        """(entry, length) of the long name a subject's first word, no English word nor name,
        misspells as plainly as a lone query of it gets that card ("what is latancy when ...",
        "what's a jailbrake in chatgpt": the fuzzy stage's own score and bar), the first two
        letters kept, if one entry holds that name; else None. `_nearly_named`'s bar is higher
        as it reads any word and span, English words too."""
        import numpy as np

        from bot.search.ranking import MATCH_SCORE
        from bot.search.similarity import name_similarity

        key = compact(word)
        # accented letters are another language's word ("température"): `foreign.py` reads those
        if len(key) < NEARLY_NAMED_LENGTH or not (key.isalpha() and key.isascii()):
            return None
        if key in common_words() or any(
            self.names.lookup(f) for f in (key, *plural_variants(key), *name_forms(key))
        ):
            return None
        positions = self._candidates(key, 5)
        if not positions:
            return None
        keys = [self.names.keys[p] for p in positions]
        scores = name_similarity(key, word, keys, [self.names.text(p) for p in positions])
        best = int(np.argmax(scores))
        hits = self.names.hits(positions[best])
        if scores[best] < MATCH_SCORE or len({h.entry for h in hits}) != 1:
            return None
        return (hits[0].entry, len(keys[best])) if self._typo_of(key, hits[0].entry) else None

    def _nearly_named(self, key: str) -> tuple[int, int] | None:
        """A long name one typo away ("tokenizaton", "large langauge models") that `key` is a
        typo of (`_typo_of`): "car model" is a car's model, not an "AR model" mistyped."""
        import numpy as np

        from bot.search.similarity import typo_ratio

        if len(key) < NEARLY_NAMED_LENGTH:
            return None
        positions = self._candidates(key, 5)
        if not positions:
            return None
        keys = [self.names.keys[p] for p in positions]
        scores = typo_ratio(key, keys)
        best = int(np.argmax(scores))
        hits = self.names.hits(positions[best])
        if scores[best] < NEARLY_NAMED or len({h.entry for h in hits}) != 1:
            return None
        return (hits[0].entry, len(keys[best])) if self._typo_of(key, hits[0].entry) else None


def _used_by_another(
    words: Sequence[str], verbs: frozenset[str]
) -> tuple[Sequence[str], str, Sequence[str]]:
    """(doer, verb, object): the words before and after the first of `verbs` (of using or
    needing; of carrying out) in a question's first few words, when a third party is the doer ("llama-style models
    use rmsnorm", "vllm do prefix caching"); not the asker's own "do i need rag", "should we
    use x" (measured in round one: a wrong card more), else nothing."""
    used = next((at for at, w in enumerate(words[:4]) if w in verbs), 0)
    if not used or not _ASKERS.isdisjoint(words[:used]):
        return [], "", []
    return words[:used], words[used], [w for w in words[used + 1 :] if w not in ("a", "an", "the")]


def _doubled(key: str, name: str) -> bool:
    """Is `key` `name` with one of its letters typed twice ("tokken")?"""
    return len(key) == len(name) + 1 and any(
        key[i] == key[i + 1] and key[:i] + key[i + 1 :] == name for i in range(len(name))
    )


def _held_by_one(named: Iterable[tuple[Sequence[Hit], int]]) -> tuple[int, int] | None:
    """Of (hits, length) pairs, the first that names anything settles it: (entry, length) if
    one entry holds that name most strongly, None if several hold it alike (no one subject)."""
    for hits, length in named:
        if hits:
            alone = len(hits) == 1 or TIER[hits[0].kind] < TIER[hits[1].kind]
            return (hits[0].entry, length) if alone else None
    return None
