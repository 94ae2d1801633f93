"""The search index: built once from the glossary, asked with a query and one server's aliases.

Lookup tries strategies in the order a dictionary server would (RFC 2229). First the names: exact
title, the server's aliases, the glossary's aliases, acronyms and expansions, match terms, ids,
then the same in the other number ("kv caches"). A name settles the answer unless several entries
hold it with equal standing, which becomes a choice. Only when nothing is named outright are
prefix, typo-tolerant fuzzy and reverse lookup over descriptions pooled and ranked together; then
the answer is direct only when the best hit is strong and clearly ahead of the runner-up, a choice
when it is not, and "none" below a floor. A confident wrong card is the worst answer.

The names need nothing but Python; the other stages import numpy, rapidfuzz and the model where
they run (and `on_demand`, are built there), so a one-shot `define <a name>` pays for none of them.
"""

from __future__ import annotations

import copy
import importlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from bot.collector import collector_paused
from bot.glossary.keys import compact, normalize
from bot.glossary.models import Entry
from bot.search.chat import plain_chat
from bot.search.corpus import default_order
from bot.search.everyday import (
    GLOSSARY_WORD_ENTRIES,
    common_words,
    everyday_sense,
    in_capitals,
    judged,
)
from bot.search.fusion import (
    NAMED_RANKS,
    OFF_DOMAIN_COSINE,
    SEMANTIC_CANDIDATES,
    SUBJECT,
    asked_about,
    fuse,
    named_rank,
    narrower_first,
    wants_meaning,
)
from bot.search.memory import release_free_memory
from bot.search.names import (
    SCORE,
    SERVER_ALIAS_TIER,
    STRATEGY,
    TIER,
    Hit,
    NameKind,
    NameTable,
    written_as_acronym,
)
from bot.search.query import (
    COMPARING,
    QUALIFIERS,
    STOPWORDS,
    asked_clause,
    asked_state,
    asked_subject,
    asks_for_name,
    compared,
    comparison,
    compatibility,
    conversion,
    derived_forms,
    is_question,
    plural_variants,
    query_core,
    tagged,
    without_chat_markup,
)
from bot.search.ranking import (
    ACRONYM_PHRASE_SCORE,
    MATCH_MARGIN,
    MATCH_SCORE,
    MAX_SUGGESTIONS,
    MENTION_SCORE,
    NEAR_EXACT,
    PART_PENALTY,
    SEMANTIC_MARGIN,
    SUGGEST_SCORE,
    Candidate,
    Named,
    Pool,
    description_score,
    keep_strongest,
)
from bot.search.results import Choice, SearchResult, Strategy, Suggestion, TermMention
from bot.search.server_aliases import NO_ALIASES, ServerAliases, search_keys
from bot.search.terms import ALL_WORDS, GENERIC_WORDS, find_mentions

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from bot.search.fulltext import FullTextIndex
    from bot.search.semantic import SemanticIndex
    from bot.search.trigrams import TrigramIndex

MAX_QUERY = 300  # characters looked at; nobody types a longer term
# characters the chat and question rules read: the longest message Discord delivers (a mention
# with Nitro); a longer line (`glossary-bot search`) costs no more than that mention
MAX_TEXT = 4000
FUZZY_CANDIDATES = 25  # names rescored after the trigram count
POOLED_PER_STRATEGY = 20
ACRONYM_PHRASE_WORDS = 4
LONG_NAME = (
    5  # characters: "hbm" and "llm" are short names, asked about only when the meaning agrees
)
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
# a quotation in a chat message: "agent", 'agent', “agent” (not an apostrophe inside a word)
_QUOTED = re.compile(r"(?<!\w)[\"'\u2018\u201c]([^\"'\u2019\u201d]{2,40})[\"'\u2019\u201d](?!\w)")
NEARLY_NAMED = 90.0  # a question's subject one typo from a long name ("tokenizaton") ...
NEARLY_NAMED_LENGTH = 7  # ... of at least this many letters
# A lone mistyped name is the subject where the meaning of the text, the name fixed, is this near
# it (`_agreed`)
LONE_TYPO_COSINE = 0.5
SPAN_WORD_LENGTH = 5  # a mistyped name of two or three words starts with a word this long
# What lookups past the names and autocomplete import where they run.
QUERY_MODULES = ("bot.search.completion", "bot.search.fulltext", "bot.search.similarity")
# Enum members looked up once: attribute access on an Enum class is slow in hot loops.
_PART = NameKind.PART
_PART_SCORE = SCORE[NameKind.PART]
_ID_TIER = TIER[NameKind.ID]

# A server's aliases: compiled (what the bot keeps per server), or a plain map of normalised
# alias -> entry id (tests, the command line), compiled on the spot.
Aliases = ServerAliases | Mapping[str, str] | None
OnDemand = Literal["on demand"]


class SearchIndex:
    """Immutable once built; safe to share between concurrent lookups."""

    def __init__(
        self,
        entries: tuple[Entry, ...],
        semantic: SemanticIndex | bool | OnDemand = True,
        *,
        on_demand: bool = False,
    ) -> None:
        """`semantic`: a prepared semantic stage, True to embed the entries (cached on disk),
        False for the lexical stages alone, "on demand" to embed them when a query first wants
        the meaning (a one-shot command: a name settles most queries). `on_demand`: build the
        trigrams and the full text too when a query first needs them, not now."""
        self.entries = entries
        with collector_paused():
            self.positions: dict[str, int] = {e.id: i for i, e in enumerate(entries)}
            self.names = NameTable(entries)
            self.default_order = default_order(entries, self.positions)
            if not on_demand:  # built and imported now: no query waits for them
                self.trigrams, self.fulltext  # noqa: B018
                for module in QUERY_MODULES:
                    importlib.import_module(module)
        if not on_demand:  # a one-shot index built nothing big to give back
            release_free_memory()
        self._semantic: SemanticIndex | OnDemand | None = (
            _embedded(entries) if semantic is True else semantic or None
        )

    @classmethod
    def build(
        cls,
        entries: Iterable[Entry],
        semantic: SemanticIndex | bool | OnDemand = True,
        *,
        on_demand: bool = False,
    ) -> SearchIndex:
        return cls(tuple(entries), semantic, on_demand=on_demand)

    @cached_property
    def trigrams(self) -> TrigramIndex:
        """Name keys by character trigram: candidates for a typo."""
        from bot.search.trigrams import TrigramIndex

        return TrigramIndex([self.names.keys[p] for p in self.names.named_positions])

    @cached_property
    def fulltext(self) -> FullTextIndex:
        """The entries' words: reverse lookup by description."""
        from bot.search.corpus import text_fields
        from bot.search.fulltext import FullTextIndex

        return FullTextIndex(text_fields(self.entries), len(self.entries))

    @property
    def semantic(self) -> SemanticIndex | None:
        if isinstance(self._semantic, str):  # "on demand": the first query that wants it builds it
            self._semantic = _embedded(self.entries)
        return self._semantic

    def __len__(self) -> int:
        return len(self.entries)

    def with_semantic(self, semantic: SemanticIndex) -> SearchIndex:
        """This index with another meaning stage (a server's terms' vectors arrived): the
        lexical parts are shared, not rebuilt."""
        other = copy.copy(self)
        other._semantic = semantic
        return other

    # -- lookup ------------------------------------------------------------------------------

    def server_aliases(self, aliases: Aliases) -> ServerAliases:
        """A server's aliases compiled against this index (as they are, if they already are)."""
        if isinstance(aliases, ServerAliases) and aliases.positions is self.positions:
            return aliases
        if not aliases:
            return NO_ALIASES
        if isinstance(aliases, ServerAliases):
            return ServerAliases(aliases.source, self.positions, aliases.cards)
        return ServerAliases(aliases, self.positions)

    def search(self, query: str, overlay: Aliases = None) -> SearchResult:
        """The entry a query names, typos and descriptions included, or choices, or none.
        "Difference between X and Y" answers X and offers Y first among the choices. Chat
        spelling ("wat r logits lol") is read plain (`plain_chat`); the result keeps the query
        as typed."""
        text = query[:MAX_TEXT]
        overlay = self.server_aliases(overlay)  # compiled once: each chat word asks it
        # a fence's lines are read, not joined; a word this server uses as a name stays one
        said = plain_chat(without_chat_markup(text), lambda w: self._names_outright(w, overlay))
        if said != text and self._names_outright(text, overlay):
            said = text  # a name as typed ("❤️ zorb", a server's alias) is no chat to read plain
        result = self._search(said, overlay)
        normalized = result.normalized_query
        compares = result.entry is not None and not COMPARING.isdisjoint(normalized.split())
        core = query_core(normalized) if compares else ""
        converted = conversion(core) if compares else None
        pair = comparison(normalized, core) or converted if compares else None
        if pair and result.entry is not None:
            other = self._search(pair[1], overlay)
            if other.entry is not None and other.strategy and other.entry.id != result.entry.id:
                offer = Suggestion(other.entry.id, other.entry.title, other.score, other.strategy)
                rest = tuple(s for s in result.suggestions if s.id != offer.id)
                result = replace(result, suggestions=(offer, *rest)[:MAX_SUGGESTIONS])
        if said != query:
            as_typed = normalize(without_chat_markup(query[:MAX_QUERY]))
            result = replace(result, query=query, normalized_query=as_typed)
        return result

    def _names_outright(self, query: str, overlay: Aliases) -> bool:
        """Whether `query`, normalised as it was typed, is a name or alias (this server's too)."""
        key = compact(normalize(without_chat_markup(query[:MAX_QUERY])))
        server = self.server_aliases(overlay).by_key
        return bool(key) and bool(self._named([key], (), server, False, other_number=False))

    def _search(self, query: str, overlay: Aliases) -> SearchResult:
        normalized = normalize(without_chat_markup(query[:MAX_QUERY]))
        core = query_core(normalized) if normalized else ""
        if not core:
            return SearchResult("none", None, None, 0.0, query, normalized)
        pair = compared(normalized) if not COMPARING.isdisjoint(normalized.split()) else None
        if pair and core == pair[0] and (headed := self._with_head(*pair)) != core:
            # "zero vs few shot prompting": "zero shot prompting"; "tensor vs pipeline
            # parallelism" is no question about Tensor: the whole comparison is read
            core = headed if self._first_name(headed) else f"{pair[0]} vs {pair[1]}"
        keys = [k for k in dict.fromkeys((compact(normalized), compact(core))) if k]
        server = self.server_aliases(overlay).by_key
        shouted = written_as_acronym(query.strip())
        # An autocomplete choice sends the id itself; people may type one too ("kv cache").
        ids = list(
            dict.fromkeys((query.strip(), *(t.replace(" ", "-") for t in (normalized, core))))
        )
        for other_number in (False, True):
            named = self._named(keys, ids, server, shouted, other_number=other_number)
            if named:
                return self._answer_named(named, query, normalized)
        if pair and core == pair[0]:  # "static vs dynamic quantization": the first names nothing
            core = f"{pair[0]} vs {pair[1]}"

        pool = Pool()
        parts = set()
        for key in keys:  # a part of a title is too weak a name to stop at: pool it
            for hit in self.names.lookup(key):
                pool.add(hit.entry, SCORE[hit.kind], STRATEGY[hit.kind])
                parts.add(hit.entry)
        core_key = compact(core)
        words = core.split()
        question = is_question(query)
        prose = sum(w in STOPWORDS for w in words) >= (2 if len(words) >= 5 else 3)
        written: list[tuple[int, int]] = []  # entries the sentence names, in order
        # "perplexty", "hugginface": names in a question, mistyped (the meaning reads them fixed)
        mistyped = self._mistyped_words(core) if question and len(words) > 2 else []
        if prose:  # "the optimizer with decoupled weight decay": a description, read it first
            written = self._add_mentions(pool, core, mistyped)
            self._add_descriptions(pool, core)
        if len(words) <= self.names.most_words and pool.best_score() < MATCH_SCORE:
            self._add_prefixes(pool, core_key, core)
            ranked = pool.ranked()
            lone_prefix = ranked and ranked[0][1].score >= NEAR_EXACT and len(ranked) == 1
            if not lone_prefix:  # "Human-in-th" is only one name's start: no typo to look for
                self._add_fuzzy(pool, core_key, core)
        if len(words) > 1:
            self._add_acronym_phrases(pool, core)
        if not prose and pool.best_score() < MATCH_SCORE:  # a name nearly right needs no more
            if len(words) > 1:
                written = self._add_mentions(pool, core, mistyped)
            self._add_descriptions(pool, core)
        # "goodput" is all of "Goodput (Serving)" but for its qualifier, and so the start of its
        # title too: it stays a part, not a prefix strong enough to answer.
        pool.cap(parts, _PART_SCORE)
        # -- semantic stage: only where no name settled the query ---------------------------
        if wants_meaning(pool, len(words)) and self.semantic is not None:
            # any text's names mistyped, the shortest too ("jsno"): read only where the meaning
            # runs (`_lone_typo`, `_slipped_subject`), not on the lexical path
            typos = mistyped if question else self._mistyped_words(core) if len(words) > 2 else []
            typos = [*typos, *self._slips(core)] if len(words) > 2 else []
            lone = self._lone_typo(typos, written)
            asked = None
            # "swiglu activation, why is everyone using it": a topic or a scene, then the question
            clauses = asked_clause(query)
            # "layernorm vs batchnorm, why do transformers use it": the scene compares
            pair = comparison(normalized, core) or (compared(clauses[0]) if clauses else None)
            # "ppo vs dpo for a tiny chat model": the first side, if a name, at any rank; the
            # other side is what it is compared with, no sign that the chat is unclear
            side = self._with_head(*pair) if pair else ""  # "tensor vs pipeline parallelism"
            subject = (self._first_name(side) or self._mistyped_side(side)) if pair else None
            # "convert safetensors to gguf": the target, if a name; never the source
            converted = conversion(core) if pair is None else None
            source = self._named_start(converted[1]) if converted else None
            # "does vllm run on rocm": both offered, no card for either (`_together`)
            together = self._together(core) if pair is None and converted is None else None
            if subject is not None and pair:
                rival = self._first_name(pair[1])
                written = [w for w in written if not rival or w[0] != rival[0]]
            elif converted:
                subject = self._named_start(converted[0])
                written = [w for w in written if not source or w[0] != source[0]]
            elif clauses and asks_for_name(clauses[1]):
                # "sample lots of answers, keep the good ones, finetune on those. name?": what
                # is described is asked about, a name it writes is part of the description
                written = [(entry, 0) for entry, _ in written]
            elif (question or clauses) and together is None:
                # "..., is it the paged attention?"; "running llama on my laptop, do i have to
                # quantize it?": the guess, or the subject of the clause that asks
                guessed = self._tagged(core)
                subject = guessed or self._clause_subject(clauses)
                subject = subject or (self._quoted(query) if question else None)
                subject = subject or (self._subject(core) if question else None)
                if guessed is not None:  # what comes before the guess is its setting
                    written = [(entry, 0) for entry, _ in written]
            # "what is the vea doing in stable diffusion": a question's subject, slipped
            slip = self._slipped_subject(core, typos) if question and subject is None else None
            slip = None if slip in mistyped else slip  # a long name mistyped is read as before
            meant = normalized
            fixed = [
                *mistyped,
                *(typo for typo in typos if typo[1] == lone and typo not in mistyped),
                *([slip] if slip is not None else []),
            ]
            for _, entry, word in fixed:
                title = normalize(self.entries[entry].title)
                meant = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", title, meant)
            # Embedded after the names are read: its pass over the weights leaves the caches cold
            similar = self.semantic.similar(meant, SEMANTIC_CANDIDATES)
            if subject is None and not question:
                # "morning all, swiglu activation, why ...": greetings are no topic
                topic = query_core(" ".join(clauses)) if clauses else core
                subject = self._leading(topic, similar)
            if subject is None and pair is None and converted is None and together is None:
                subject = self._agreed(lone, similar, None if question else normalized)
            if subject is None and slip is not None:  # the meaning must rank it high
                subject = slip[1], NAMED_RANKS
            if subject is not None and subject[1] < SUBJECT and self._shouted(query, subject[0]):
                subject = subject[0], SUBJECT  # "how was CLIP trained": no plain word, any rank
            if subject is not None:  # "sampling": a name, if a plain word
                pool.add(subject[0], MENTION_SCORE, "match-term")
                # a name the subject's entry relates to ("why is hnsw the default index in vector
                # databases", "how does qlora compare to lora") is what it is weighed against
                related = set(self.entries[subject[0]].related)
                others = [(e, r) for e, r in written if e != subject[0]]
                written = [
                    subject,
                    *((e, 0 if self.entries[e].id in related else r) for e, r in others),
                ]
            if question or subject is not None:
                asked = asked_about(written, similar)
            specific = asked and self._more_specific(asked[0], core, similar)
            if specific is not None:  # "my loss goes up on the validation data": Validation Loss
                pool.add(specific, MENTION_SCORE, "match-term")
                asked = (specific, SUBJECT)
            # Where the meaning disagrees with the names written, the leading name is asked about
            # only if written first ("rloo vs grpo"), not one put second ("latency slo").
            leader = next(iter(pool.ranked()), (None,))[0]
            unclear = asked is None and bool(written) and leader != written[0][0]
            fuse(pool, similar, question=question and not unclear, asked_about=asked)
            if source is not None:  # offered beside the target, never its card
                pool.cap((source[0],), MATCH_SCORE - MATCH_MARGIN)
            if together is not None:
                pool.cap(list(pool.by_entry), MATCH_SCORE - MATCH_MARGIN)
            nearest = similar[0][1] if similar else 0.0
            decided = self._decide(pool, query, normalized, core, far=nearest < OFF_DOMAIN_COSINE)
            if pair is None and decided.strategy == "semantic":
                decided = self._narrower_offered(decided, asked and asked[0], similar)
            return self._unless_everyday(decided, nearest)
        return self._decide(pool, query, normalized, core)

    def _named(
        self,
        keys: Sequence[str],
        ids: Sequence[str],
        server: Mapping[str, int],
        shouted: bool,
        *,
        other_number: bool,
    ) -> list[Named]:
        """Entries named outright by a key (or its other number), strongest first."""
        named: dict[int, Named] = {}
        if not other_number:
            for slug in ids:
                if slug in self.positions:
                    position = self.positions[slug]
                    keep_strongest(named, Named(position, _ID_TIER, "id", False, False))
        for key in keys:
            for form in plural_variants(key) if other_number else (key,):
                if form in server:
                    alias = Named(server[form], SERVER_ALIAS_TIER, "server-alias", False, False)
                    keep_strongest(named, alias)
                for hit in self.names.lookup(form):
                    if hit.kind != _PART:
                        loud = shouted and hit.cased
                        strategy = STRATEGY[hit.kind]
                        keep_strongest(
                            named, Named(hit.entry, TIER[hit.kind], strategy, hit.cased, loud)
                        )
        ranked = sorted(named.values(), key=lambda n: n.rank)
        if other_number:
            ranked = [Named(n.entry, n.tier, "plural", n.acronym, n.loud) for n in ranked]
        return ranked

    def _answer_named(self, named: list[Named], query: str, normalized: str) -> SearchResult:
        best = named[0]
        tied = len(named) > 1 and best.rivals(named[1])
        shown = named if tied else named[1:]
        suggestions = tuple(
            Suggestion(self.entries[n.entry].id, self.entries[n.entry].title, n.score, n.strategy)
            for n in shown[:MAX_SUGGESTIONS]
        )
        if tied:  # one name, several entries of equal standing: the user chooses
            return SearchResult(
                "suggest", None, best.strategy, best.score, query, normalized, suggestions
            )
        entry = self.entries[best.entry]
        return SearchResult(
            "match", entry, best.strategy, best.score, query, normalized, suggestions
        )

    def _add_acronym_phrases(self, pool: Pool, text: str) -> None:
        """ "MLA attention", "RoPE embeddings": an acronym plus words from the same entry's
        names is that entry, said twice."""
        words = text.replace("'", "").split()
        if len(words) > ACRONYM_PHRASE_WORDS:
            return
        for at, word in enumerate(words):
            for hit in self.names.lookup(word):
                if not hit.cased or hit.kind == _PART:
                    continue
                entry = self.entries[hit.entry]
                own = {w for name in entry.names for w in normalize(name).replace("'", "").split()}
                rest = words[:at] + words[at + 1 :]
                if all(w in own or not own.isdisjoint(plural_variants(w)) for w in rest):
                    pool.add(hit.entry, ACRONYM_PHRASE_SCORE, "acronym")

    def _add_mentions(
        self, pool: Pool, text: str, mistyped: Sequence[tuple[int, int, str]] = ()
    ) -> list[tuple[int, int]]:
        """Names inside a longer query ("which gpu should I buy", "rag vs fine tuning") are
        leads to offer, not answers: the rest of the query may ask something else. Returns
        the entries named, in the order written, each with how far down the meaning may rank it
        and still agree that the question asks about it (`named_rank`); `mistyped` names
        (`_mistyped_words`) count too, a little more weakly."""
        found: list[tuple[int, int, int, bool]] = []  # (start, end, entry, long name)
        for mention in find_mentions(
            text, self.names, self.entries, NO_ALIASES, None, as_typed=False
        ):
            long_name = mention.end - mention.start >= LONG_NAME
            pool.add(mention.entry, MENTION_SCORE if long_name else MENTION_SCORE - 4, "match-term")
            found.append((mention.start, mention.end, mention.entry, long_name))
        named = {entry for _, _, entry, _ in found}
        for start, entry, word in mistyped:
            if entry not in named:
                pool.add(entry, MENTION_SCORE - 4, "match-term")
                found.append((start, start + len(word), entry, True))
        found.sort()
        # "latency slo": of two names side by side, the second is the thing, the first says
        # which kind: the second comes first (the first may still say the question is unclear)
        for i in range(len(found) - 1):
            if found[i + 1][0] == found[i][1] + 1:
                found[i], found[i + 1] = found[i + 1], found[i]
        # "learning rate should ...", not "python library ...": the first name heads its phrase
        after = text[found[0][1] :].split()[:1] if found else []
        head = not after or after[0] in STOPWORDS
        return [
            (entry, named_rank(long, text[:start], first=at == 0, first_is_head=head))
            for at, (start, _, entry, long) in enumerate(found)
        ]

    def _mistyped_words(self, text: str) -> list[tuple[int, int, str]]:
        """(start, entry, words) of words one typo from a long name, in either number, alone or
        with the next one or two words ("speculativ decoding", "mixure of experts"), that are no
        name themselves; the first two
        letters must agree (a typo rarely hits them, while a word with another prefix,
        "retraining", is another word)."""
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
            if len(key) >= NEARLY_NAMED_LENGTH and not named_word:
                forms += [(word, form) for form in (key, *plural_variants(key))]
            for written, form in forms:
                if any(self.names.lookup(f) for f in (form, *plural_variants(form))):
                    break  # a name in either number ("coding agents") is no typo
                named = self._nearly_named(form)
                if named is not None and self._typo_of(key, named[0]):
                    found.append((begins, named[0], written))
                    covered = at + len(written.split())
                    break
            else:
                short = None if named_word else self._short_typo(key)
                if short is not None:  # "tensr", "pyhton", "rmsnrom"
                    found.append((begins, short, word))
        return found

    def _short_typo(self, key: str) -> int | None:
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
            for position in self.fuzzy_candidates(key, 5)
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

    def _slips(self, text: str) -> list[tuple[int, int, str]]:
        """(start, entry, word) of words of three or four characters, no English word nor name,
        that are a name of one entry with two neighbouring characters swapped, the first kept
        ("jsno", "cdua", "bm52"; of three, an acronym: "vea"). Too short to trust alone: only
        where the meaning agrees (`_lone_typo`)."""
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

    def _slipped_subject(
        self, core: str, typos: Sequence[tuple[int, int, str]]
    ) -> tuple[int, int, str] | None:
        """The typo (`_mistyped_words`, `_slips`) a question's subject starts with ("does bm52
        still beat ...", "what is the vea doing ..."), else None."""
        words = asked_subject(core)[1]
        first = words[0] if words else ""
        return next((typo for typo in typos if typo[2] == first), None)

    def _lone_typo(
        self, typos: Sequence[tuple[int, int, str]], written: Sequence[tuple[int, int]]
    ) -> int | None:
        """The entry of the one name a text writes, mistyped ("perplexty of 12 on wikitext is
        that good", "is jsno fine for ..."), when it writes no other name and the word is no
        English word ("the bus schedule" is no Scheduler), else None."""
        entries = {entry for _, entry, word in typos if word not in common_words()}
        if len(entries) != 1 or len({entry for _, entry, _ in typos}) != 1:
            return None
        entry = entries.pop()
        return None if any(other != entry for other, _ in written) else entry

    def _agreed(
        self, entry: int | None, similar: Sequence[tuple[int, float]], as_typed: str | None
    ) -> tuple[int, int] | None:
        """`entry` (a `_lone_typo`) as the subject, if the meaning of the text, read with its
        name fixed, ranks it first and near, and, for a text that asks nothing (`as_typed` given),
        the text as typed is about the glossary's field at all: a word read as a name draws the
        meaning to that name ("vea is a nice name for a cat")."""
        if entry is None or not similar or similar[0][0] != entry:
            return None
        if similar[0][1] < LONE_TYPO_COSINE or self.semantic is None:
            return None
        if as_typed is not None:
            nearest = self.semantic.similar(as_typed, 1)
            if not nearest or nearest[0][1] < OFF_DOMAIN_COSINE:
                return None
        return entry, SUBJECT

    def _typo_of(self, key: str, entry: int) -> bool:
        """Is `key`, nearly a name of `entry`, a typo of it and not another word? The first
        two letters agree (a typo rarely hits them; "retraining" is not "pretraining")."""
        return any(compact(name)[:2] == key[:2] for name in self.entries[entry].names)

    def _subject(self, core: str) -> tuple[int, int] | None:
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
                nearly = self._nearly_named(state)
                found = nearly if nearly and self._typo_of(state, nearly[0]) else None
            if found is not None:
                return found[0], SUBJECT
        verb, words = asked_subject(core)
        # "whats inside one transformer blok": a name that starts a longer name, mistyped
        if spelled := self._mistyped_start(words):
            return spelled, SUBJECT
        # "why do llama-style models use rmsnorm": what the doer uses is asked about
        if named := self._subject_name(_used_by_another(words), []):
            return named[0], SEMANTIC_CANDIDATES if named[1] < LONG_NAME else SUBJECT
        # "how does vllm's pagedattention avoid ...": what the possessor owns is asked about
        if len(words) > 1 and words[0].endswith(_POSSESSIVE) and self._subject_name(words[1:], []):
            words = words[1:]
        # "is plain sgd still used": a word for the thing without extras is no part of its name
        elif len(words) > 1 and words[0] in _UNADORNED and not self._subject_name(words, []):
            words = words[1:] if self._subject_name(words[1:], []) else words
        if verb and words and any(self.names.lookup(n) for n in derived_forms(verb + words[0])):
            verb, words = verb + words[0], words[1:]  # a verb in two words: "how do i fine tune"
        # "how do i train for a marathon": a plain word's noun is no name to ask about
        nouns = [n for n in derived_forms(verb) if n not in GENERIC_WORDS] if verb else []
        found = self._subject_name(words, nouns) if nouns else None
        found = found or self._subject_name(words, [])
        for width in range(min(len(words), self.names.most_words), 0, -1) if not found else ():
            found = self._nearly_named(compact(" ".join(words[:width])))
            if found:
                break
        if found is None:
            return None
        entry, length = found
        return entry, SEMANTIC_CANDIDATES if length < LONG_NAME else SUBJECT

    def _mistyped_start(self, words: Sequence[str]) -> int | None:
        """The entry a subject's words start by naming mistyped over two or three words, the
        first a name itself ("transformer blok": Transformer Block, not Transformers), else None."""
        if len(words) < 2 or not self.names.lookup(compact(words[0])):
            return None
        spans = self._mistyped_words(" ".join(words[: self.names.most_words]))
        first = next(iter(spans), None)
        return first[1] if first and first[0] == 0 and len(first[2].split()) > 1 else None

    def _clause_subject(self, clauses: tuple[str, str] | None) -> tuple[int, int] | None:
        """The subject (`_subject`) of a question asked in a later clause than a chat's first,
        after a scene ("training a 1b model, how do i pick the learning rate"), if it names
        one, else None; after a topic, a clause that starts with a name ("flash attention, why
        does it need cuda"), the question asks about the topic."""
        if clauses is None:
            return None
        asked = query_core(clauses[1])
        words = asked_subject(asked)[1][:1]
        # "my loss is going up, what does that mean": what the scene named is to be explained
        if words and words[0] in _BACK_REFERENCES and clauses[1].startswith(_WHAT):
            return self._scene_name(clauses[0])
        scene = query_core(clauses[0]).split()
        if scene and compact(scene[0]) not in GENERIC_WORDS and self._subject_name(scene, []):
            return None
        key = compact(words[0]) if words else ""
        if not GENERIC_WORDS.isdisjoint((key, *plural_variants(key))):
            return None  # "model too big for one gpu, how do i split the layers": a plain word
        return self._subject(asked)

    def _quoted(self, query: str) -> tuple[int, int] | None:
        """The entry a question writes as its only quotation, whole ('what makes something an
        "agent"'): the word the asker marks is the one asked about, at any rank."""
        quoted = _QUOTED.findall(query)
        if len(quoted) != 1:
            return None
        key = compact(normalize(quoted[0]))
        found = _held_by_one((self.names.lookup(f), 0) for f in (key, *plural_variants(key)))
        return None if found is None else (found[0], SUBJECT)

    def _scene_name(self, scene: str) -> tuple[int, int] | None:
        """The one entry a scene names, at the head of its phrase, which a question after it
        refers back to with a pronoun ("gpt is 'autoregressive', what does that even mean"): its
        subject, if the meaning ranks it among its ten."""
        found = find_mentions(scene, self.names, self.entries, NO_ALIASES, None, as_typed=False)
        named = {mention.entry for mention in found}
        if len(named) != 1:
            return None
        # the name heads its phrase: in "the bank tokenization fee" the pronoun means the fee
        after = scene[found[-1].end :].split()[:1]
        return (named.pop(), SEMANTIC_CANDIDATES) if not after or after[0] in STOPWORDS else None

    def _leading(self, core: str, similar: Sequence[tuple[int, float]]) -> tuple[int, int] | None:
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
            mistyped = next(iter(self._mistyped_words(" ".join(words[:2]))), None)
            found = (mistyped[1], 0) if mistyped and mistyped[0] == 0 else None
        if found is None or compact(words[0]) in GENERIC_WORDS:
            return None
        cosine = dict(similar[:LEADING_RANKS]).get(found[0], 0.0)
        return (found[0], SUBJECT) if cosine >= similar[0][1] - LEADING_GAP else None

    def _more_specific(
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

    def _named_start(self, side: str) -> tuple[int, int] | None:
        """`_first_name` of the longest start of a side that names an entry ("safetensors
        weights": Safetensors, "cuda 12": CUDA)."""
        words = side.split()
        starts = (self._first_name(" ".join(words[:width])) for width in range(len(words), 0, -1))
        return next((found for found in starts if found is not None), None)

    def _together(self, core: str) -> tuple[int, int] | None:
        """The two entries a "does X work with Y" question names, both, else None."""
        sides = compatibility(core)
        first = self._named_start(sides[0]) if sides else None
        second = self._named_start(sides[1]) if sides and first else None
        if first is None or second is None or first[0] == second[0]:
            return None
        return first[0], second[0]

    def _tagged(self, core: str) -> tuple[int, int] | None:
        """The entry the guess of a tag question names ("..., is it the paged attention?"),
        written or mistyped, asked about at any rank, else None."""
        tag = tagged(core)
        if tag is None:
            return None
        found = self._named_start(tag)
        mistyped = next(iter(self._mistyped_words(tag)), None) if found is None else None
        if mistyped is not None and mistyped[0] == 0:
            found = mistyped[1], SUBJECT
        return found

    def _with_head(self, first: str, second: str) -> str:
        """The first side of a comparison with the head noun the text wrote only once, after
        the second ("zero vs few shot prompting": "zero shot prompting"), where that reads as a
        name, or where the sides are one modifier each of a head that no name holds ("tensor
        vs pipeline parallelism": "tensor parallelism", not Tensor); else the side as written."""
        words = second.split()
        width = next((i for i, w in enumerate(words) if w in QUALIFIERS), len(words))
        words = words[:width]
        if len(first.split()) > 2 or len(words) < 2:
            return first
        for tail in (words[-k:] for k in range(len(words) - 1, 0, -1)):
            if self._first_name(" ".join((first, *tail))) is not None:
                return " ".join((first, *tail))
        if len(words) == 2 and len(first.split()) == 1 and self._first_name(second) is None:
            return f"{first} {words[-1]}"
        return first

    def _mistyped_side(self, side: str) -> tuple[int, int] | None:
        """The entry a comparison's side names mistyped ("mixure of experts vs ..."), asked about
        at any rank: a name spelled at its start, or at its end, where a compound puts its head
        ("open source guardrials or ..."), else None."""
        for start, entry, written in self._mistyped_words(side):
            if start == 0 or side.endswith(written):
                return entry, SUBJECT
        return None

    def _first_name(self, side: str) -> tuple[int, int] | None:
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
            if width == 1 and not nouns:
                forms += derived_forms(key)
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

    def _nearly_named(self, key: str) -> tuple[int, int] | None:
        """A long name one typo away ("tokenizaton", "large langauge models")."""
        import numpy as np

        from bot.search.similarity import typo_ratio

        if len(key) < NEARLY_NAMED_LENGTH:
            return None
        positions = self.fuzzy_candidates(key, 5)
        if not positions:
            return None
        keys = [self.names.keys[p] for p in positions]
        scores = typo_ratio(key, keys)
        best = int(np.argmax(scores))
        hits = self.names.hits(positions[best])
        if scores[best] < NEARLY_NAMED or len({h.entry for h in hits}) != 1:
            return None
        return hits[0].entry, len(keys[best])

    def _add_prefixes(self, pool: Pool, key: str, text: str) -> None:
        import numpy as np

        from bot.search.similarity import PARTIAL_MIN_LENGTH

        if len(key) < 2:
            return
        positions = self.names.with_prefix(key, limit=100)
        for form in [] if positions else plural_variants(key):  # "prompts" starts no name
            positions = self.names.with_prefix(form, limit=100)
            if positions:
                key, text = form, (form if " " not in text else text)
                break
        if not positions:
            return
        lengths = np.fromiter((len(self.names.keys[p]) for p in positions), np.float64)
        # "py" is too short to answer with "python"; "specul" is not.
        if len(key) >= PARTIAL_MIN_LENGTH:
            scores = 85 + 10 * len(key) / lengths
        else:
            scores = 70 + 20 * len(key) / lengths
        # A whole word that only starts another name of an entry ("javascript" of "JavaScript
        # Object Notation") is likely another thing of its own: offer the entry, do not answer.
        for i, position in enumerate(positions):
            starts_longer = self.names.text(position).startswith(text + " ")
            if scores[i] >= MATCH_SCORE and starts_longer and not self._is_title(position):
                scores[i] = MATCH_SCORE - 1
        self._pool_keys(pool, positions, scores, "prefix")

    def _is_title(self, position: int) -> bool:
        return any(hit.kind == NameKind.TITLE for hit in self.names.hits(position))

    def _add_fuzzy(self, pool: Pool, key: str, text: str) -> None:
        from bot.search.similarity import another_word, name_similarity

        positions = self.fuzzy_candidates(key, FUZZY_CANDIDATES)
        if not positions:
            return
        keys = [self.names.keys[p] for p in positions]
        texts = [self.names.text(p) for p in positions]
        scores = name_similarity(key, text, keys, texts)
        if " " not in text:
            for i, name in enumerate(keys):
                if another_word(key, name):
                    scores[i] = min(scores[i], MATCH_SCORE - 1)
        self._pool_keys(pool, positions, scores, "fuzzy")

    def fuzzy_candidates(self, key: str, limit: int) -> list[int]:
        """Positions of name keys sharing the most trigrams with `key`."""
        found = self.trigrams.candidates(key, limit)
        return [self.names.named_positions[i] for i in found]

    def _pool_keys(
        self,
        pool: Pool,
        positions: Sequence[int],
        scores: npt.NDArray[np.float64],
        strategy: Strategy,
    ) -> None:
        """Add the best few entries behind scored keys; only keys above the floor are looked
        at one by one (there may be hundreds of candidates, rarely more than a few good ones)."""
        import numpy as np

        best: dict[int, float] = {}
        for i in np.flatnonzero(scores >= SUGGEST_SCORE).tolist():
            for hit in self.names.hits(positions[i]):
                score = float(scores[i]) - (PART_PENALTY if hit.kind == _PART else 0.0)
                if score >= SUGGEST_SCORE and score > best.get(hit.entry, 0.0):
                    best[hit.entry] = score
        ranked = sorted(best.items(), key=lambda item: -item[1])[:POOLED_PER_STRATEGY]
        for entry, score in ranked:
            pool.add(entry, score, strategy)

    def _add_descriptions(self, pool: Pool, text: str) -> None:
        import numpy as np

        hits = self.fulltext.search(text, limit=MAX_SUGGESTIONS + 1)
        if hits:
            scale = float(np.log(2 * max(len(self.entries), 1)))
            for hit in hits:
                pool.add(hit.document, description_score(hit, hits[0], scale), "description")

    def _decide(
        self, pool: Pool, query: str, normalized: str, core: str, *, far: bool = False
    ) -> SearchResult:
        ranked = [(e, c) for e, c in pool.ranked() if c.score >= SUGGEST_SCORE]
        if not ranked:
            return SearchResult("none", None, None, 0.0, query, normalized)
        (best, top), rest = ranked[0], ranked[1:]
        runner_up = rest[0][1].score if rest else 0.0
        score = round(min(top.score, 100.0), 1)  # fused scores run past 100 inside the pool
        strong = top.score >= MATCH_SCORE or (
            top.strategy == "semantic" and self._is_server_term(best)
        )
        margin = SEMANTIC_MARGIN if top.strategy == "semantic" else MATCH_MARGIN
        clearly_ahead = strong and top.score - runner_up >= margin
        near_spelling = top.strategy == "fuzzy" and len(core.split()) <= 2  # "vae model"
        # a sentence the meaning finds far from every entry ("the best temperature to bake
        # bread") uses a plain word in its everyday sense: only an acronym there is a card
        everyday = far and not self._acronym_written(core, best)
        if (
            clearly_ahead
            and not everyday
            and not (near_spelling and self._names_another(core, best))
        ):
            others = self._suggestions([(e, c) for e, c in rest if c.score >= top.score - 15])
            entry = self.entries[best]
            return SearchResult("match", entry, top.strategy, score, query, normalized, others)
        choices = self._suggestions([(e, c) for e, c in ranked if c.score >= top.score - 20])
        return SearchResult("suggest", None, top.strategy, score, query, normalized, choices)

    def _unless_everyday(self, result: SearchResult, nearest: float) -> SearchResult:
        """A card for a plain-word name the sentence uses in its everyday sense ("the wait at
        the border checkpoint", `everyday_sense`; `nearest`: the sentence's best cosine) becomes
        an offer of that entry."""
        text = result.normalized_query
        if result.entry is None or self.semantic is None:
            return result
        knows = self._glossary_word
        if not judged(text, nearest, knows):
            return result
        entry = self.positions[result.entry.id]
        found = find_mentions(text, self.names, self.entries, NO_ALIASES, None, as_typed=False)
        name = next((m for m in found if m.entry == entry), None)
        written = text[name.start : name.end] if name else ""
        if not name or result.strategy is None or self._shouted(result.query, entry):
            return result
        # an acronym ("ppo", "json") is judged only on stronger evidence (`everyday_sense`)
        plain = not self._acronym_written(written, entry)
        plain = plain and not in_capitals(self.entries[entry], written)
        alone = len(found) == 1  # another entry named is the field's
        if not everyday_sense(
            self.semantic, knows, text, name.start, name.end, nearest, alone=alone, plain=plain
        ):
            return result
        return _card_offered(result, result.entry, result.strategy)

    def _glossary_word(self, word: str) -> bool:
        """Is `word` one of the field's words, used by `GLOSSARY_WORD_ENTRIES` entries or more?"""
        return self.fulltext.documents_using(word) >= GLOSSARY_WORD_ENTRIES

    def _narrower_offered(
        self, result: SearchResult, asked: int | None, similar: Sequence[tuple[int, float]]
    ) -> SearchResult:
        """A card the meaning lifted for the name a question asks about becomes an offer, the
        meaning's first entry first, where that entry is a related one the meaning clearly
        prefers (`narrower_first`): "how does a vision transformer cut an image into pieces"
        writes the broad name and asks about Image Patch Tokens."""
        if result.entry is None:
            return result
        card = self.positions[result.entry.id]
        best = similar[0][0] if similar else card
        related = self.entries[best].id in result.entry.related or (
            result.entry.id in self.entries[best].related
        )
        first = narrower_first(card, asked, similar, related)
        if first is None:
            return result
        other = self.entries[first]
        ahead = Suggestion(other.id, other.title, result.score, "semantic")
        return _card_offered(result, result.entry, "semantic", ahead)

    def _is_server_term(self, entry: int) -> bool:
        """A server's own coinage: the model scores a description of it lower than one of a
        bundled entry (cosine about 0.5, not 0.75), and no name or word competes for it, so a
        clear semantic lead is its card (set on tests/search/server_term_calib.py: of 74
        descriptions in 15 servers none got a wrong card, nor any of 915 off-topic queries)."""
        return self.entries[entry].worded_by_server

    def _shouted(self, query: str, entry: int) -> bool:
        """Does the query write one of the entry's acronyms in capitals ("how was CLIP
        trained")? Then it is no everyday word ("clip")."""
        words = (w.strip("?!.,:;'\"()") for w in query.split())
        return self._acronym_written(
            " ".join(compact(w) for w in words if written_as_acronym(w)), entry
        )

    def _acronym_written(self, text: str, entry: int) -> bool:
        """Does the text write one of the entry's acronyms or cased names ("bm25", "DDPM")?"""
        words = text.replace("'", "").split()
        return any(h.cased and h.entry == entry for w in words for h in self.names.lookup(w))

    def _names_another(self, text: str, entry: int) -> bool:
        """Does the query spell out another entry's acronym? "vae model" is one letter from
        "VLA model", but says VAE: a near spelling is no answer against an exact acronym."""
        for word in text.replace("'", "").split():
            if any(h.cased and h.entry != entry for h in self.names.lookup(word)):
                return True
        return False

    def _suggestions(self, ranked: Sequence[tuple[int, Candidate]]) -> tuple[Suggestion, ...]:
        return tuple(
            Suggestion(self.entries[e].id, self.entries[e].title, round(c.score, 1), c.strategy)
            for e, c in ranked[:MAX_SUGGESTIONS]
        )

    # -- what a name already names (for checking moderators' aliases) ------------------------

    def entry(self, entry_id: str) -> Entry | None:
        position = self.positions.get(entry_id)
        return None if position is None else self.entries[position]

    def named_by(self, text: str, *, exactly: bool = False) -> list[Entry]:
        """Entries a search for `text` could reach by name: any name of theirs (parts of titles
        included) under any of its `search_keys`, or their id. `exactly`: its compact key only."""
        normalized = normalize(text)
        keys = {compact(normalized)} if exactly else search_keys(normalized)
        found = dict.fromkeys(hit.entry for key in sorted(keys) for hit in self.names.lookup(key))
        by_id = self.positions.get(normalized.replace(" ", "-"))
        if by_id is not None:
            found[by_id] = None
        return [self.entries[position] for position in found]

    def leads_to(self, text: str) -> Entry | None:
        """The entry a search for `text` (no server aliases) answers with or offers first on
        the strength of a name (a prefix, a typo, a plural), or None: "speculative" leads to
        Speculative Decoding, "finetune" to Fine-Tuning."""
        result = self.search(text)
        if result.entry is not None:
            return result.entry
        best = result.suggestions[0] if result.suggestions else None
        if best is None or best.strategy in ("description", "match-term", "semantic"):
            return None
        return self.entry(best.id)

    # -- autocomplete and term finding -------------------------------------------------------

    def autocomplete(
        self,
        text: str,
        overlay: Aliases = None,
        popular: Sequence[str] = (),
        limit: int = 25,
    ) -> list[Choice]:
        """Choices for a partly typed term: prefix hits first, then typo-tolerant ones; for an
        empty box, the `popular` ids first, then the most linked-to entries."""
        from bot.search import completion

        return completion.complete(self, text, self.server_aliases(overlay), popular, limit)

    def find_terms(
        self, text: str, overlay: Aliases = None, context: str | None = None
    ) -> list[TermMention]:
        """Glossary terms written in `text`, in order of appearance, each entry once; `context`
        names the place the text is shown, for entries' match exclusions (notIn)."""
        return self._mentions(text, overlay, context, as_typed=True)

    def find_named_terms(self, text: str, overlay: Aliases = None) -> list[TermMention]:
        """Like `find_terms`, for a message someone asked to have explained: they want every
        term it names, so acronyms count in any case, as in a search box ("rag" for RAG)."""
        return self._mentions(text, overlay, None, as_typed=False)

    def _mentions(
        self, text: str, overlay: Aliases, context: str | None, *, as_typed: bool
    ) -> list[TermMention]:
        server = self.server_aliases(overlay)
        found = find_mentions(
            text, self.names, self.entries, server, context, as_typed=as_typed, max_words=ALL_WORDS
        )
        return [
            TermMention(self.entries[f.entry], text[f.start : f.end], f.start, f.end) for f in found
        ]


def _used_by_another(words: Sequence[str]) -> Sequence[str]:
    """The words after a verb of using or needing in a question's first few words, when a
    third party is the doer ("llama-style models use rmsnorm"); not the asker's own "do i need
    rag", "should we use x" (measured in round one: a wrong card more), else none."""
    used = next((at for at, w in enumerate(words[:4]) if w in _USING_VERBS), 0)
    if not used or not _ASKERS.isdisjoint(words[:used]):
        return []
    return [w for w in words[used + 1 :] if w not in ("a", "an", "the")]


def _card_offered(
    result: SearchResult, entry: Entry, strategy: Strategy, ahead: Suggestion | None = None
) -> SearchResult:
    """`result`'s card (`entry`, decided by `strategy`) turned into the first choice offered
    (after `ahead`, if given), its other choices after it."""
    card = Suggestion(entry.id, entry.title, result.score, strategy)
    rest = tuple(s for s in result.suggestions if ahead is None or s.id != ahead.id)
    choices = (*((ahead,) if ahead else ()), card, *rest)[:MAX_SUGGESTIONS]
    return replace(result, status="suggest", entry=None, suggestions=choices)


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


def _embedded(entries: tuple[Entry, ...]) -> SemanticIndex:
    """The semantic stage over `entries` (vectors cached on disk); imported only when built."""
    from bot.search.semantic import SemanticIndex, default_cache_dir

    return SemanticIndex.build(entries, cache_dir=default_cache_dir())
