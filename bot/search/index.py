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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache, cached_property
from itertools import pairwise
from typing import TYPE_CHECKING, Literal

from bot.collector import collector_paused
from bot.glossary.keys import compact, normalize
from bot.glossary.links import without_links
from bot.glossary.models import DOERS, Entry
from bot.search import calibration
from bot.search.calibration import Fused
from bot.search.chat import SHORTHAND, plain_chat
from bot.search.corpus import default_order
from bot.search.everyday import (
    FIELD_WORD_ENTRIES,
    GLOSSARY_WORD_ENTRIES,
    NEAR_COSINE,
    coinage_split,
    common_words,
    everyday_object,
    everyday_rest,
    everyday_sense,
    field_cosine,
    in_capitals,
    is_common,
    judged,
    names_other_field,
    off_field,
    plain_rest,
    read_in_another_sense,
)
from bot.search.foreign import english_terms, foreign_terms
from bot.search.fusion import (
    AGREEMENT_FLOOR,
    CLAUSE_FLOOR,
    CLAUSED_CHARS,
    DESCRIBED_LEAD,
    DESCRIBED_REST,
    LONG_WORDS,
    MIN_WORDS,
    NAMED_RANKS,
    NOTHING_DESCRIBED,
    NOTHING_FIELD_COSINE,
    NOTHING_RANKS,
    OFF_DOMAIN_COSINE,
    OFFER_COSINE,
    OFFER_FIELD_COSINE,
    SEMANTIC_CANDIDATES,
    SUBJECT,
    asked_about,
    fuse,
    long_lead,
    named_rank,
    names_tied,
    narrower_first,
    neighbour_meant,
    semantic_score,
    wants_meaning,
)
from bot.search.memory import release_free_memory
from bot.search.names import (
    SCORE,
    SERVER_ALIAS_TIER,
    STRATEGY,
    TIER,
    NameKind,
    NameTable,
    entry_names,
    written_as_acronym,
)
from bot.search.platform_words import PLATFORM_NOUNS, on_platform, platform_nouns
from bot.search.query import (
    COMPARING,
    LIST_HEADING_WORDS,
    LIST_ITEM_LEADS,
    LISTED_ITEMS,
    PAIRING,
    PASSING_WORDS,
    QUALIFIERS,
    STOPWORDS,
    WEIGHING,
    alternatives,
    asked_at_end,
    asked_beside_setting,
    asked_clause,
    asked_first,
    asked_in_setting,
    asked_outright,
    asks_kind,
    asks_nothing,
    asks_remedy,
    asks_what_described,
    asks_what_mentioned_is,
    clauses_asking,
    compared,
    compared_sides,
    contrast_only,
    conversion,
    counted,
    counted_as_measure,
    counted_material,
    derived_forms,
    file_named,
    head_words,
    in_passing,
    is_question,
    meant_act,
    mechanism_setting,
    modifies_head,
    name_forms,
    name_setting,
    opening_list,
    part_setting,
    pasted_in_code,
    pasted_label,
    pasted_then_asked,
    pastes_log,
    plainly_in_passing,
    plural_variants,
    product_setting,
    query_core,
    quote_split,
    scene_only,
    sized_model,
    spelled_versus,
    spoken_object,
    typed_core,
    which_kind,
    without_chat_markup,
    without_framing,
    without_speaker,
    without_versions,
    worked_with,
    written_with_version,
)
from bot.search.questions import LONG_NAME, QuestionRules, Typo, points_back
from bot.search.ranking import (
    ACRONYM_PHRASE_SCORE,
    FILLED_OFFERS,
    MATCH_MARGIN,
    MATCH_SCORE,
    MAX_SUGGESTIONS,
    MENTION_SCORE,
    NEAR_EXACT,
    PART_PENALTY,
    REMEDY_COSINE,
    REMEDY_LEAD,
    SEMANTIC_MARGIN,
    SUGGEST_SCORE,
    Candidate,
    Named,
    Pool,
    description_score,
    keep_strongest,
)
from bot.search.remembered import one_search
from bot.search.results import Choice, SearchResult, Strategy, Suggestion, TermMention
from bot.search.senses import read_in_other_sense, says_enough
from bot.search.server_aliases import NO_ALIASES, ServerAliases, search_keys
from bot.search.terms import ALL_WORDS, Found, find_mentions

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from bot.search.fulltext import FullTextIndex
    from bot.search.semantic import SemanticIndex
    from bot.search.semantic.vectors import Vectors
    from bot.search.trigrams import TrigramIndex

MAX_QUERY = 300  # characters looked at; nobody types a longer term
# characters the chat and question rules read: the longest message Discord delivers (a mention
# with Nitro); a longer line (`glossary-bot search`) costs no more than that mention
MAX_TEXT = 4000
# characters as typed from which a message's clause asking outright what a name is opens the
# name's card (`SearchIndex._asked_outright_carded`, task long75)
OUTRIGHT_CHARS = 150
FUZZY_CANDIDATES = 25  # names rescored after the trigram count
SWAP_LENGTHS = (4, 6)  # a swap in a shorter key is a coin toss; a longer one shares trigrams
POOLED_PER_STRATEGY = 20
ACRONYM_PHRASE_WORDS = 4
# What lookups past the names and autocomplete import where they run.
QUERY_MODULES = ("bot.search.completion", "bot.search.fulltext", "bot.search.similarity")
# Words besides its names that make a clause before a question a scene, not a topic ("tokenization,
# which library is fastest?" asks about Tokenization; `SearchIndex._scene_placed`).
SCENE_WORDS = 2
# ... or a setting it opens with ("in prompt engineering, what's the technique where ...").
SETTING_OPENERS = frozenset({"in", "inside", "within", "during", "for", "when", "while", "with"})
# A story's written names are offered just this far behind what it describes (`_setting_score`).
SETTING_BEHIND = 0.1
# Enum members looked up once: attribute access on an Enum class is slow in hot loops.
_PART = NameKind.PART
_PART_SCORE = SCORE[NameKind.PART]
# A one-word alias of at most this share of its title's letters is a clipping ("temp",
# "ckpt"), read by the meaning as the title (`SearchIndex._chat_names_spelled`)
CLIPPED_SHARE = 0.5
_ID_TIER = TIER[NameKind.ID]
# How a comparison's side is found when it is a name written out, not a typo or a description.
_WRITTEN_OUT = frozenset({"exact", "id", "server-alias", "alias", "acronym", "expansion", "plural"})
# How a card is found when no name rule decided it: its name may still be written in the text.
_WEIGHED = frozenset({"description", "semantic", "match-term"})
# How a tool or model's card is found by a product its phrasings name (`_product_setting_read`)
_PRODUCT_READ = frozenset({"description", "semantic"})

# How a card is found by one of its names whole (not a typo, a plural or a start of it): a
# longer text's footer quotes that name (`_name_written`).
_NAMED_OUTRIGHT = frozenset({"alias", "acronym", "expansion"})
# The names written in a text (`SearchIndex._names_in`), read once a search whatever asks.
NamesIn = Callable[[str], tuple[Found, ...]]

# A server's aliases: compiled (what the bot keeps per server), or a plain map of normalised
# alias -> entry id (tests, the command line), compiled on the spot.
Aliases = ServerAliases | Mapping[str, str] | None
OnDemand = Literal["on demand"]


# A long text that writes a name often writes it as its setting ("we serve llama 3 with vllm ...
# how does it skip redoing the shared prompt"): where the meaning clearly prefers another entry
# to the name asked about, the name's card is a guess. Set on the tuning slices (task wrong49,
# bench/results/semantic.md): 29 of the 68 wrong cards for an asked name, 4 of its 1,106 right.
ASKED_NAME_WORDS = 15  # words in the text, as written
ASKED_NAME_BEHIND = 0.10  # the meaning's best other entry's cosine over the card's
PASTED_ASK_RANKS = 3  # how far down what is asked after a pasted line may rank its code's name
# The card's first offers: where the meaning's best is among them, the name goes behind the ones
# ahead of it, so it pushes none of those out of the first three (task third50: dev16's DPO).
ASKED_NAME_KEPT = 3
# A statement's name the question after it does not write, offered that way: the meaning's first
# is the card where it leads the name's cosine and every other entry's by these (task shape57).
STATED_NAME_BEHIND = 0.165
STATED_NAME_LEAD = 0.17
# A name written only as what a text counts ("how many tokens does one image cost", "2b tokens of
# court filings: ..."; `counted`) is the unit it measures in where the meaning ranks it nowhere in
# its ten (tasks setting62, setting63: 2 wrong Token cards on the tuning slices; below the first
# three cost "how many tokens is a word in gpt" its Token card).
COUNTED_NAME_RANKS = 10
# A name written only as the amount of another thing ("2b tokens of court filings: ...";
# `counted_material`) is offered where the meaning ranks it below its first three: the text is
# about the thing measured out (task setting64: dev18's Token card, the meaning's seventh).
MATERIAL_NAME_RANKS = 3
# A name written only as the object of the speaker's verb before a question ("we serve llama 3
# with vllm ... how does it ...", "... to book gpus what is it"; `spoken_object`) is offered
# where the meaning ranks it below its first three (task object65: 3 wrong tuning cards; the
# same frame at the meaning's first or second, "i tried speculative decoding ... why is ...", is
# a right card).
OBJECT_NAME_RANKS = 3
# A name written only to set the scene of what is asked ("when samplers are 'deterministic' like
# ddim, what kind of math ...", "when meta 'releases llama' what is in those files"; `scene_only`)
# is offered where the meaning ranks another entry first (task context69: 2 wrong tuning cards, no
# right one lost; a near second, 0.011 behind on dev23's structured outputs row, is no lead: at
# 0.015 "when prompting with chain-of-thought, why does ..." lost its card to a 0.001 tie).
SCENE_NAME_RANKS = 1
# A name asked about as the modifier of a compound ("what is system prompt caching";
# `modifies_head`) whose head its entry's text does not write is offered where the meaning's first
# leads the name's cosine by this much and is no entry the glossary relates to the name: the head
# says what is asked. A rank alone took right held-out cards where the name was a near second
# (task compound69, reverted); the lead is compound70's.
COMPOUND_NAME_LEAD = 0.12
# A name written only as a contrast ("without a graphics card", "far slower than a graphics card")
# keeps its card where the meaning ranks it first by at least this much: nothing else near is what
# the text describes ("is there anything better than rag": rag leads by 0.20). The tuning rows
# the rule takes lead by at most 0.114 (dev17's "no hbm at all"). Task contrast73.
CONTRAST_NAME_KEEPS = 0.15
# The meaning read without the speaker's opening is taken only where it puts its first this far
# ahead of its own second (task voice61): near its runners-up, the nearer cosine only lifted a
# neighbour's card (agree59's lead for the same reason).
UNVOICED_LEAD = 0.1


# A comparison's other side written as one mistyped word offers the name it is nearest to from
# this fuzzy score up: "rlfh" (rlhf) and "lroa" (lora) score 81.2; a longer word that only
# holds a name scores under it ("tensorflow": Tensor, 75)
SIDE_TYPO_SCORE = 80.0


def _side_offered(other: SearchResult, written: str) -> Suggestion | None:
    """What a comparison's other side (its own search, `other`, of the text `written`) offers
    beside the first side's card: its card's entry, or, where it is one mistyped word ("dpo vs
    rlfh"), the one name it is nearest to (a tie, "tpus": tpu or throughput, offers nothing)."""
    if other.entry is not None and other.strategy:
        return Suggestion(other.entry.id, other.entry.title, other.score, other.strategy)
    near = other.suggestions
    if other.strategy != "fuzzy" or len(written.split()) != 1 or not near:
        return None
    alone = len(near) == 1 or near[0].score > near[1].score
    return near[0] if alone and near[0].score >= SIDE_TYPO_SCORE else None


_GRAM_WORD = re.compile(r"[a-z0-9][a-z0-9.+]*[a-z0-9]|[a-z0-9]")


def _grams(*texts: str) -> set[str]:
    """The words and two-word phrases of each of `texts`, lowered, apart at anything but
    letters, digits, "." and "+" ("gpt-4o" -> "gpt 4o", as `normalize` writes it)."""
    grams: set[str] = set()
    for text in texts:
        words = _GRAM_WORD.findall(text.lower())
        grams.update(words)
        grams.update(f"{a} {b}" for a, b in pairwise(words))
    return grams


class SearchIndex:
    """Immutable once built; safe to share between concurrent lookups."""

    def __init__(
        self,
        entries: tuple[Entry, ...],
        semantic: SemanticIndex | bool | OnDemand = True,
        *,
        on_demand: bool = False,
        reference: SearchIndex | None = None,
    ) -> None:
        """`semantic`: a prepared semantic stage, True to embed the entries (cached on disk),
        False for the lexical stages alone, "on demand" to embed them when a query first wants
        the meaning (a one-shot command: a name settles most queries). `on_demand`: build the
        trigrams and the full text too when a query first needs them, not now. `reference`: the
        bundled glossary's index, for a server's: its words weigh there what they weigh in it
        (`FullTextIndex`), so the server's terms move no bundled card's bar."""
        self.entries = entries
        self._words_reference = reference.fulltext if reference is not None else None
        with collector_paused():
            self.positions: dict[str, int] = {e.id: i for i, e in enumerate(entries)}
            self.names = NameTable(entries)
            self.default_order = default_order(entries, self.positions)
            if not on_demand:  # built and imported now: no query waits for them
                self.trigrams, self.fulltext, self._products  # noqa: B018
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
        reference: SearchIndex | None = None,
    ) -> SearchIndex:
        return cls(tuple(entries), semantic, on_demand=on_demand, reference=reference)

    @cached_property
    def trigrams(self) -> TrigramIndex:
        """Name keys by character trigram: candidates for a typo."""
        from bot.search.trigrams import TrigramIndex

        return TrigramIndex([self.names.keys[p] for p in self.names.named_positions])

    @cached_property
    def _short_by_letters(self) -> dict[str, list[int]]:
        """Short name keys by their sorted letters: "hlem" shares no trigram with "helm"."""
        by_letters: dict[str, list[int]] = {}
        for position in self.names.named_positions:
            key = self.names.keys[position]
            if SWAP_LENGTHS[0] <= len(key) <= SWAP_LENGTHS[1]:
                by_letters.setdefault("".join(sorted(key)), []).append(position)
        return by_letters

    def _swapped_names(self, key: str, text: str) -> list[int]:
        """Positions of short names the key spells with two letters swapped ("cdua", "aisc"),
        unless the key is an English word ("team" is no typo of "meta")."""
        if not SWAP_LENGTHS[0] <= len(key) <= SWAP_LENGTHS[1] or is_common(text):
            return []
        return [
            p
            for p in self._short_by_letters.get("".join(sorted(key)), [])
            if self.names.keys[p] != key
        ]

    @cached_property
    def fulltext(self) -> FullTextIndex:
        """The entries' words: reverse lookup by description."""
        from bot.search.corpus import text_fields
        from bot.search.fulltext import FullTextIndex

        return FullTextIndex(text_fields(self.entries), len(self.entries), self._words_reference)

    @property
    def questions(self) -> QuestionRules:
        """The question rules over this index's names: a view made per query, with no state of
        its own (kept on the index, it would tie the index in a reference cycle)."""
        return QuestionRules(self.names, self.entries, self.fuzzy_candidates, self._everyday_thing)

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

    def search(
        self, query: str, overlay: Aliases = None, *, start_only: bool = False
    ) -> SearchResult:
        """The entry a query names, typos and descriptions included, or choices, or none.
        "Difference between X and Y" answers X and offers Y first among the choices. Chat
        spelling ("wat r logits lol") is read plain (`plain_chat`); the result keeps the query
        as typed. `start_only`: no question asked outright past the first `MAX_QUERY`
        characters is looked for (`_asked_outright_carded`): a reply under the bot's card that
        names it only by its ping is read at its start alone."""
        with one_search():  # a text embedded once a search (bot/search/remembered.py)
            text = query[:MAX_TEXT]
            overlay = self.server_aliases(overlay)  # compiled once: each chat word asks it
            # a fence's lines are read, not joined; a word this server uses as a name stays one
            said = plain_chat(without_chat_markup(text), lambda w: self._names_outright(w, overlay))
            if said != text and self._names_outright(text, overlay):
                said = text  # a name as typed ("❤️ zorb", a server's alias) is no chat to read plain
            # ML shorthand alone ("attn", "quant") is the name it shortens, where that is a whole
            # name ("mem" stays: "memory" only starts Memory Systems, and a server may alias it)
            long = SHORTHAND.get(said.strip().lower())
            if long and self._is_name(compact(long)) and not self._names_outright(said, overlay):
                said = long
            said = spelled_versus(said)  # "gguf/safetensors which one": the sign read as "vs"
            result = self._search(said, overlay)
            result = self._asked_over_setting(result, overlay)
            result = self._product_setting_read(result, overlay)
            result = self._asked_beside_named(result, said, overlay)
            result = self._asked_outright_carded(
                result, said[:MAX_QUERY] if start_only else said, overlay
            )
            normalized = result.normalized_query
            answered = result.entry is not None or result.status == "suggest"
            compares = answered and not PAIRING.isdisjoint(normalized.split())
            # the comparison the text or its scene makes (as `QuestionRules.read` reads it), or
            # the whole text's conversion
            core = typed_core(normalized, said) if compares else ""
            sides = compared_sides(said, normalized, core, asked_clause(said)) if compares else None
            pair = sides or (conversion(core) if compares else None)
            side = cache(lambda text: self._search(text, overlay))  # each side searched once
            if sides and result.entry is None:
                result = self._first_side_carded(result, sides, side)
            if sides and result.entry is not None:
                result = self._compared_off_field(result, said, sides, side)
            if pair and result.entry is not None:
                offer = _side_offered(side(pair[1]), pair[1])
                if offer is not None and offer.id != result.entry.id:
                    led = _led_by(offer, result.suggestions)
                    result = replace(result, suggestions=led, other_side=offer.id)
            if pair is None and result.entry is not None:
                result = self._other_name_pointed_at(result, said, overlay)
            result = self._first_listed_carded(result, query[:MAX_QUERY])
            result = self._offer_carded(result, query)
            result = self._remedy_carded(result)
            result = self._other_sense_offered(result)
            result = self._offers_filled(result)  # after every card decision: offers only
            result = self._name_written(result)
            if said != query:
                as_typed = normalize(without_chat_markup(query[:MAX_QUERY]))
                translated = said != text and english_terms(text) != text
                result = replace(
                    result, query=query, normalized_query=as_typed, translated=translated
                )
            if result.strategy == "server-alias" and result.entry is not None:
                position = self.positions.get(result.entry.id)
                alias = (
                    None
                    if position is None
                    else overlay.written_in(position, result.normalized_query)
                )
                result = replace(result, matched=alias)
            return result

    def _offer_carded(self, result: SearchResult, query: str) -> SearchResult:
        """An offer whose first choice the calibrated model (`calibration.p_right`, fitted on
        the tuning slices' offers) gives at least `OFFER_CARDED` is that choice's card, the rest
        still offered: "a lone suggestion with a strong lead is a card" (task calib73). Only
        a bundled entry's: the model was fitted on them, and on the fifteen made-up servers'
        descriptions it carded no server term (calib74)."""
        if result.entry is not None or not result.suggestions:
            return result
        offers = result.suggestions
        first = self.positions.get(offers[0].id)
        nxt = self.positions.get(offers[1].id) if len(offers) > 1 else None
        if first is None or self._is_server_term(first):
            return result
        signals = calibration.signals(
            result.fused,
            first,
            nxt,
            offers,
            text=query,
            title=self.entries[first].title,
            written_whole=result.name_written,
            compared=result.other_side is not None,
            question=is_question(query),
            related=nxt is not None and self._related(first, nxt),
            same_category=nxt is not None
            and self.entries[nxt].category == self.entries[first].category,
        )
        if calibration.p_right(calibration.numbers(signals)) < calibration.OFFER_CARDED:
            return result
        return replace(
            result,
            status="match",
            entry=self.entries[first],
            strategy=offers[0].strategy,
            score=offers[0].score,
            suggestions=offers[1:],
        )

    def _asked_outright_carded(
        self, result: SearchResult, text: str, overlay: Aliases
    ) -> SearchResult:
        """A long message (`OUTRIGHT_CHARS` or more as typed, up to `MAX_TEXT`) that asks outright
        what a name is in a short clause of its own, anywhere in it ("... so, plainly: what is
        perplexity?" past the first `MAX_QUERY` characters the rest of the search reads, or
        inside chat that spreads the whole text's meaning thin): the name's card as the question
        alone opens it (`query.asked_outright`, named outright: `_named`, as
        `_asked_first_named` reads a name asked first), in place of what the whole text opens
        (chat about a cluster's restarts read as Training Goodput: the question asked says what
        is asked). Two such questions naming two entries: the first's card, the second a button
        on it (`other_side`, as a comparison's other side); three or more: each offered, in the
        order asked. A name two entries share: the whole text's answer stands. Task long75.
        A shorter text (second76) only swaps a card: one such clause, not the first ("i got
        CUDA out of memory, what is cuda anyway": Video RAM by the error's words; "kv cache in
        vllm, what is vllm"), names its entry outright and the card is another: the asked
        name's card, the other card offered first. A text asking it first is `_asked_first_named`'s."""
        if result.other_side is not None:
            return result
        if len(text) < OUTRIGHT_CHARS:
            return self._asked_later_carded(result, text, overlay)
        server = self.server_aliases(overlay).found_by
        asked: list[list[Named]] = []
        for name in asked_outright(text[:MAX_TEXT]):
            key = compact(name)
            named = self._named([key], (), server, False, other_number=False) or self._named(
                [key], (), server, False, other_number=True
            )
            if named and all(named[0].entry != each[0].entry for each in asked):
                asked.append(named)
        if not asked:
            return result
        first = result.entry is not None and self.positions[result.entry.id] == asked[0][0].entry
        if first and len(asked) == 2:  # the whole text's card is the first asked: the second too
            return _other_asked(result, self._offer_of(asked[1][0]))
        if first and len(asked) == 1:
            return result
        if len(asked) > 2:  # a list of questions: each asked entry offered, in the order asked
            offers = tuple(self._offer_of(n[0]) for n in asked[:MAX_SUGGESTIONS])
            return replace(result, status="suggest", suggestions=offers)
        card = self._answer_named(asked[0], result.query, result.normalized_query)
        if card.entry is None:  # one name, several entries: the user chooses, as alone
            return result
        if len(asked) > 1:
            return _other_asked(card, self._offer_of(asked[1][0]))
        return card

    def _other_sense_offered(self, result: SearchResult) -> SearchResult:
        """A card for an entry with other senses (`Entry.other_senses`: the glossary's
        `other-senses/*.toml`, or a server term's own) whose name the text writes and no other
        entry's, where the text and the text without the name (`REST_WORDS` words of its own, no
        "not") lean to one of those senses (a transformer on a power pole, a llama beside an
        alpaca, a game server's raid Tank asked of as an army tank) rather than to the entry
        (`senses.read_in_other_sense`), becomes an offer of it: the last card decision, so
        whatever rule made the card, the word's sense is read once (tasks offfield76, senses77)."""
        if result.entry is None or result.strategy is None:
            return result
        senses = result.entry.other_senses
        if not senses:
            return result
        entry = self.positions.get(result.entry.id)
        if entry is None:
            return result
        text = result.normalized_query
        found = self._names_in(text)
        name = next((f for f in found if f.entry == entry), None)
        # another entry named is the field's ("we serve llama with vllm. what is a kv cache"); a
        # sense written only to be denied asks the entry ("python, the language not the snake")
        if name is None or any(f.entry != entry for f in found) or "not" in text.split():
            return result
        if not says_enough(text, name.start, name.end):
            return result
        # the meaning stage last: a name alone ("define kv cache") builds no other stage
        semantic = self.semantic
        if semantic is None or not read_in_other_sense(
            semantic, senses, entry, text, name.start, name.end, self._every_sense
        ):
            return result
        return _card_offered(result, result.entry, result.strategy)

    def _every_sense(self) -> Iterable[tuple[str, ...]]:
        """Each entry's other senses that has any (embedded together, the first time one is
        read)."""
        return (e.other_senses for e in self.entries if e.other_senses)

    def _asked_later_carded(
        self, result: SearchResult, text: str, overlay: Aliases
    ) -> SearchResult:
        """`_asked_outright_carded` on a text shorter than `OUTRIGHT_CHARS`: a card for another
        entry than the one a single clause asks outright about becomes that entry's card, the
        card it was offered first. Never makes a card (task second76)."""
        if result.entry is None:
            return result
        asked = asked_outright(text)
        if len(asked) != 1:
            return result
        key = compact(asked[0])
        named = self._named(
            [key], (), self.server_aliases(overlay).found_by, False, other_number=False
        )
        return self._named_swapped(result, named) if named else result

    def _remedy_carded(self, result: SearchResult) -> SearchResult:
        """An offer to a question asking for a remedy ("my gpu runs out of memory, how do i fix
        it": `asks_remedy`) is the card of the entry the meaning puts first, at `REMEDY_COSINE`
        or nearer and `REMEDY_LEAD` ahead of its second, where it is among the offers and a
        method (data/kinds/): the symptom's or the resource's entry (a concept, a tool), written
        or near, is what the asker has, not what they ask for (task fix74). The rest stay
        offered."""
        if result.entry is not None or not result.suggestions or result.fused is None:
            return result
        similar = result.fused.similar
        if len(similar) < 2 or not asks_remedy(result.normalized_query):
            return result
        (first, cosine), (_, second) = similar[0], similar[1]
        if cosine < REMEDY_COSINE or cosine - second < REMEDY_LEAD:
            return result
        if self.entries[first].kind != "method":  # a symptom or a resource is no remedy
            return result
        offers = result.suggestions
        chosen = next((s for s in offers if s.id == self.entries[first].id), None)
        if chosen is None:
            return result
        return replace(
            result,
            status="match",
            entry=self.entries[first],
            strategy=chosen.strategy,
            score=chosen.score,
            suggestions=tuple(s for s in offers if s is not chosen),
        )

    def _other_name_pointed_at(
        self, result: SearchResult, said: str, overlay: Aliases
    ) -> SearchResult:
        """ "we use rag and lora, what is that": two names written, then a question pointing back
        ("that", "those"): which one is meant nobody can tell, so the card, one of them, offers
        the other first, as a comparison's card offers its other side. Only the offers move."""
        assert result.entry is not None
        clauses = asked_clause(said)
        if clauses is None or not points_back(clauses[1]):
            return result
        found = self._mentions(clauses[0], overlay, None, as_typed=False)
        named = list(dict.fromkeys(mention.entry for mention in found))
        if len(named) != 2 or result.entry not in named:
            return result
        other = named[1] if named[0] == result.entry else named[0]
        offer = Suggestion(other.id, other.title, result.score, "exact")
        return replace(result, suggestions=_led_by(offer, result.suggestions))

    @staticmethod
    def _name_written(result: SearchResult) -> SearchResult:
        """`result` with its card's name that the text writes whole (the longest), which the
        footer quotes rather than the whole question; marked (`name_written`) where no name rule
        decided it, so the footer says so rather than "by its description". The card stays.
        (The entry's own names against the read text: a scan for every name costs 10-100 ms.)"""
        if result.entry is None or result.strategy not in _WEIGHED | _NAMED_OUTRIGHT:
            return result
        text = f" {result.normalized_query} "
        if (unlinked := without_links(result.query)) != result.query:  # an address writes no name
            text = f" {normalize(unlinked)} "
        names = {normalize(name) for name in result.entry.names}
        written = [name for name in names if name and f" {name} " in text]
        name = max(written, key=len, default=None)
        if name is None:
            return result
        said = name if name != result.normalized_query else None  # typed alone: quoted as typed
        return replace(result, name_written=result.strategy in _WEIGHED, matched=said)

    def _asked_over_setting(self, result: SearchResult, overlay: Aliases) -> SearchResult:
        """ "what does mt mean in raid chat" (mt: this server's alias of Tank), "what does
        quantization mean in llama.cpp": a card for a name written in the place the thing was
        met, where the thing asked about is itself a name, is that thing's card, the place's
        entry offered first. Only a card is swapped, never made: where the whole text gets none,
        it stays so."""
        if result.entry is None:
            return result
        parts = asked_in_setting(result.normalized_query)
        if parts is None:
            return result
        return self._setting_swapped(result, *parts, overlay)

    def _setting_swapped(
        self, result: SearchResult, asked: str, setting: str, overlay: Aliases
    ) -> SearchResult:
        """`_asked_over_setting`'s swap: the card of `asked` searched alone, written out, where
        the card is named in `setting` and it is not; the old card offered first."""
        assert result.entry is not None
        own = self._search(asked, overlay)
        if own.entry is None or own.strategy not in _WRITTEN_OUT or own.entry == result.entry:
            return result
        placed = {m.entry.id for m in self._mentions(setting, overlay, None, as_typed=False)}
        if result.entry.id not in placed or own.entry.id in placed:
            return result
        offer = Suggestion(
            result.entry.id, result.entry.title, result.score, result.strategy or "semantic"
        )
        rest = tuple(s for s in result.suggestions if s.id not in (offer.id, own.entry.id))
        return replace(
            own,
            query=result.query,
            normalized_query=result.normalized_query,
            suggestions=(offer, *rest)[:MAX_SUGGESTIONS],
        )

    def _asked_beside_named(
        self, result: SearchResult, said: str, overlay: Aliases
    ) -> SearchResult:
        """A card for one name where the text asks about a second it writes beside it, the first
        only where or with what the second is used (task names77). Three readings, each only
        swapping a card, never making one: "how does X work in Y", "what does X do / change on
        Y", "on Y: what does X change" (`query.asked_beside_setting`) as `_asked_over_setting`
        reads "what is X in Y"; "serve / run / train / fine-tune X with / using Y"
        (`query.worked_with`: the instrument Y named outright asked, where the card is named by
        the verb's object, "serve llama 3 with vllm", "train transformers with adamw", and is no
        tool; the verb's own entry stays, "fine tuning llama 3 with lora": Fine-Tuning);
        and a short text (under `OUTRIGHT_CHARS`) whose last clause ends asking what a name is
        with no clause break before it ("CUDA out of memory what is cuda", `query.asked_at_end`),
        where no clause asks it alone (`_asked_later_carded`'s). The old card offered first."""
        if result.entry is None or result.other_side is not None:
            return result
        normalized = result.normalized_query
        parts = asked_beside_setting(normalized)
        if parts is not None:
            return self._setting_swapped(result, *parts, overlay)
        server = self.server_aliases(overlay).found_by
        worked = worked_with(normalized)
        # a tool worked with something is asked about itself ("run llama.cpp with cuda", "run
        # vllm with docker": what it is built or deployed with); a model or a method is the work
        if worked is not None and result.entry.kind != "tool":
            candidates, setting = worked
            named = next(
                (
                    n
                    for key in candidates
                    if (n := self._named([compact(key)], (), server, False, other_number=False))
                ),
                None,
            )
            placed = {m.entry.id for m in self._mentions(setting, overlay, None, as_typed=False)}
            if (
                named
                and result.entry.id in placed
                and self.entries[named[0].entry].id not in placed
            ):
                return self._named_swapped(result, named)
        if len(said) >= OUTRIGHT_CHARS or asked_outright(said):
            return result
        name = asked_at_end(said)
        if name is None:
            return result
        named = self._named([compact(name)], (), server, False, other_number=False)
        return self._named_swapped(result, named) if named else result

    def _named_swapped(self, result: SearchResult, named: list[Named]) -> SearchResult:
        """The card of the entry `named`, the old card offered first, where that is another entry
        and one entry is named; else `result`."""
        assert result.entry is not None
        if self.positions[result.entry.id] == named[0].entry:
            return result
        card = self._answer_named(named, result.query, result.normalized_query)
        if card.entry is None:
            return result
        offer = Suggestion(
            result.entry.id, result.entry.title, result.score, result.strategy or "semantic"
        )
        return replace(card, suggestions=_led_by(offer, card.suggestions))

    @cached_property
    def _products(self) -> dict[str, int]:
        """Words and two-word phrases that only one tool or model's phrasings write (its
        `asked_as` and keywords) and no other entry's text, no word of them a common English
        word or a number, none a name: the products it is the kind of ("llava", "gpt 4o":
        Vision-Language Models; "midjourney": Diffusion Model), to its position (task setting75).
        """
        known = common_words()
        candidates = {
            gram: position
            for position, entry in enumerate(self.entries)
            if entry.kind in DOERS
            for gram in _grams(*entry.asked_as, *entry.keywords)
            if len(gram) > 2 and not any(word in known or word.isdigit() for word in gram.split())
        }
        wanted = {word for gram in candidates for word in gram.split()}
        holders: dict[str, set[int]] = {}  # a wanted word -> the entries whose text writes it
        texts: list[str] = []  # each entry's texts, their words apart by " ", the texts by " | "
        for position, entry in enumerate(self.entries):
            parts = (entry.title, *entry.aliases, entry.summary, entry.definition, entry.plain)
            lowered = [
                " ".join(_GRAM_WORD.findall(part.lower()))
                for part in (*parts, *entry.asked_as, *entry.keywords)
                if part
            ]
            texts.append(f" {' | '.join(lowered)} ")
            for word in wanted.intersection(" ".join(lowered).split()):
                holders.setdefault(word, set()).add(position)

        def held_by(gram: str) -> set[int]:
            first, *rest = gram.split()
            near = holders.get(first, set()).intersection(*(holders.get(w, ()) for w in rest))
            return {position for position in near if f" {gram} " in texts[position]}

        return {
            gram: position
            for gram, position in candidates.items()
            if held_by(gram) == {position} and not self._is_name(compact(gram))
        }

    def _product_setting_read(self, result: SearchResult, overlay: Aliases) -> SearchResult:
        """A tool or model's card reached without its name, by a product only its phrasings
        name, where the product is the place the question is set ("in llava, which part looks
        at the picture", "which part of llava ...", "how does gpt-4o read an image ...":
        `product_setting`): the text is read again with the product written as the card's
        title ("in vision-language models, which part ..."), so the rules for a name written as
        a setting read it; where that reading cards or offers first another entry, it stands,
        the card offered after its first choice. Where it leads with the card, the card stays
        ("how does llava work") (task setting75)."""
        card = result.entry
        if card is None or card.kind not in DOERS or result.strategy not in _PRODUCT_READ:
            return result
        position = self.positions[card.id]
        text = result.normalized_query
        if any(found.entry == position for found in self._names_in(text)):
            return result
        for gram in sorted(_grams(text), key=len, reverse=True):
            if self._products.get(gram) != position:
                continue
            for found in re.finditer(rf"(?<![\w-]){re.escape(gram)}(?![\w-])", text):
                if not product_setting(text[: found.start()], text[found.end() :]):
                    continue
                # the text as typed, the product written as the title: "?" says it asks
                typed = re.compile(
                    r"(?<![\w-])" + r"[\s-]+".join(map(re.escape, gram.split())) + r"(?![\w-])",
                    re.IGNORECASE,
                )
                retold = typed.sub(card.title.lower(), result.query[:MAX_QUERY], count=1)
                if retold == result.query[:MAX_QUERY]:
                    return result
                own = self._search(retold, overlay)
                offered = Suggestion(card.id, card.title, result.score, result.strategy)
                if own.entry is not None and own.entry != card:
                    choices = _led_by(offered, own.suggestions)
                elif own.entry is None and own.suggestions and own.suggestions[0].id != card.id:
                    rest = tuple(s for s in own.suggestions[1:] if s.id != card.id)
                    choices = (own.suggestions[0], offered, *rest)
                else:
                    return result
                return replace(
                    own,
                    query=result.query,
                    normalized_query=text,
                    suggestions=choices[:MAX_SUGGESTIONS],
                )
        return result

    def _first_side_carded(
        self, result: SearchResult, pair: tuple[str, str], side: Callable[[str], SearchResult]
    ) -> SearchResult:
        """Two names written out and compared that tie as choices ("rlhf or dpo, which is
        cheaper"): the first written is asked about, its card (the second is offered after).
        Otherwise the choices stay. `side`: a side's own search."""
        sides = [side(text) for text in pair]
        first, second = (side.entry for side in sides)
        led = (
            first is not None and bool(result.suggestions) and result.suggestions[0].id == first.id
        )
        if not led or second is None or second == first:
            return result
        if not all(side.strategy in _WRITTEN_OUT for side in sides):
            return result
        return replace(
            sides[0],
            query=result.query,
            normalized_query=result.normalized_query,
            suggestions=result.suggestions[1:],
        )

    def _compared_off_field(
        self,
        result: SearchResult,
        said: str,
        pair: tuple[str, str],
        side: Callable[[str], SearchResult],
    ) -> SearchResult:
        """The first side's card becomes its first offer where the comparison is another
        field's: the other side's own search finds nothing, it writes no word of the field
        (`field_word`: "rag vs a giant prompt" is ours), the text after the first side names
        another field or its product (`names_other_field`: "react vs vue", "epoch vs era in
        geology") and the whole text leans away from the field (under `OFFER_FIELD_COSINE` to
        the entries' mean, as `_offered_off_field` reads it). "adam vs lion", "react vs
        langchain" keep the card: the encoder cannot tell "lion" from "vue" (react68), the
        list can. A name written as the glossary cases it ("ReAct vs vue") keeps its card too.
        `said`: the text as read; `side`: a side's own search."""
        card = result.entry
        if card is None or result.strategy is None or side(pair[0]).entry != card:
            return result
        if any(n != n.lower() and n != n.capitalize() and n in said for n in card.names):
            return result
        other = side(pair[1])
        if other.status != "none" or any(self.field_word(w) for w in pair[1].split()):
            return result
        normalized = result.normalized_query
        after = normalized[normalized.find(pair[0]) + len(pair[0]) :]
        if not names_other_field(after):
            return result
        # "python vs rust for inference servers" says what it is for in the field's words
        semantic = self.semantic
        if semantic is not None and len(semantic):
            whole = semantic.encoder.encode_query(normalized)
            if field_cosine(semantic, whole) >= OFFER_FIELD_COSINE:
                return result
        return _card_offered(result, card, result.strategy)

    def _first_listed_carded(self, result: SearchResult, text: str) -> SearchResult:
        """A text listing three or more alternatives that name two entries or more
        (`alternatives`: "should i use mlx, llama.cpp or core ml for local inference?", "dpo vs
        ppo vs grpo"; or commas alone opening the text, `opening_list`: "adam, sgd, rmsprop",
        "lora, qlora, peft differences"): the first listed entry's card, the other listed
        entries offered first, as "difference between X and Y" answers X and offers Y. The blind
        writers expect the first listed name (task first61; context59's offer of all of them
        lost right cards). Where the text asks "which ...", `_listed_kind_carded` reads it
        instead. Not where the card's name is also written outside the list ("alignment and ai
        safety, same field or alignment is smaller"). Only in a question or where the text
        weighs them (`WEIGHING`: "choosing between ..."), or a list of commas alone with at most
        a few words after it ("top-k, top-p, temperature explained"): a description's list
        names examples of its kind ("through pruning, quantising or distilling it") or guesses
        at one name."""
        lists = [(items, rest, False) for items, rest in alternatives(text)]
        opening = opening_list(text)
        if opening is not None:
            lists.append((*opening, True))
        if not lists:
            return result
        if re.search(r"\bwhich\b", text, re.IGNORECASE):
            return self._listed_kind_carded(result, text, lists)
        asks = is_question(text) or "?" in text or WEIGHING.search(text.lower()) is not None
        for items, rest, opens in lists:
            if not asks and not (opens and len(rest.split()) <= LIST_HEADING_WORDS):
                continue  # a description's list names examples of its kind, or guesses
            listed = self._listed(items, whole_first=opens)
            if len(listed) < 2:  # one entry's names in a row describe it; no choice of ours
                continue
            card = result.entry
            if card is not None and self.positions[card.id] in {
                f.entry for f in self._names_in(rest)
            }:
                return result
            return self._listed_offered(result, listed[0], listed[1:])
        return result

    def _listed_kind_carded(
        self, result: SearchResult, text: str, lists: Sequence[tuple[tuple[str, ...], str, bool]]
    ) -> SearchResult:
        """A "which" question over a list of two entries or more that names their kind right
        after "which" ("which of these optimizers should i use: adam, sgd or rmsprop?", "which
        loss function for regression: mse, cross-entropy or kl divergence?"): the kind's card,
        the listed entries offered first (task which62). The kind's entry is the one page that
        sets its members side by side, which a chooser reads first; the offers open each.
        Without a kind named ("which is cheapest, ...") which listed one answers is the question
        itself: the search's card stays (first61)."""
        kind_words = which_kind(text)
        kinds = [f.entry for f in self._names_in(kind_words or "") if f.start == 0]
        if not kinds:
            return result
        kind = kinds[0]
        for items, _, opens in lists:
            listed = self._listed(items, whole_first=opens)
            members = [e for e in listed if e != kind]  # "which fine-tuning method: full ..."
            if len(listed) >= 2 and members:
                return self._listed_offered(result, kind, members)
        return result

    def _listed_offered(
        self, result: SearchResult, carded: int, offered: Sequence[int]
    ) -> SearchResult:
        """`result` with `carded`'s card, `offered` first among the offers (the search's own
        card after them), the first offered as the card's other side."""
        card = result.entry
        first = self.entries[carded]
        strategy = result.strategy or "match-term"
        offers = [
            Suggestion(self.entries[e].id, self.entries[e].title, result.score, strategy)
            for e in offered
        ]
        if card is not None and card.id != first.id and card.id not in {o.id for o in offers}:
            offers.append(Suggestion(card.id, card.title, result.score, strategy))
        taken = {first.id, *(o.id for o in offers)}
        rest_offers = tuple(s for s in result.suggestions if s.id not in taken)
        return replace(
            result,
            status="match",
            entry=first,
            strategy=result.strategy if card == first else "match-term",
            score=max(result.score, MATCH_SCORE),  # a name written out, as a mention's card
            suggestions=(*offers, *rest_offers)[:MAX_SUGGESTIONS],
            other_side=offers[0].id,
        )

    def _listed(self, items: Sequence[str], *, whole_first: bool = False) -> list[int]:
        """The entries a list's items name, in order: a name ends the first item (it may take
        words from before the list: "should i use mlx"; is the whole of it where the list opens
        the text, `whole_first`), is the whole of a middle one and starts the last ("core ml
        for local inference"), after words like "a plain" (`LIST_ITEM_LEADS`); an item naming
        none ("lion") is passed over; items after the first `LISTED_ITEMS` are not read (a long
        comma run costs no more than a list). Each entry once, where first named."""
        listed: list[int] = []
        for at, item in enumerate(items[:LISTED_ITEMS]):
            words = item.split()
            if at > 0:
                while words and words[0] in LIST_ITEM_LEADS:
                    words = words[1:]
            item = " ".join(words)
            for found in self._names_in(item):
                ends = found.end == len(item)
                starts = found.start == 0
                first = at == 0 and ends and (starts or not whole_first)
                if first or (at == len(items) - 1 and starts) or (starts and ends):
                    listed.append(found.entry)
                    break
        return list(dict.fromkeys(listed))

    def _asked_first_named(
        self, query: str, normalized: str, server: Mapping[str, int], shouted: bool
    ) -> SearchResult | None:
        """A question that asks what a name is, then sets a remark apart ("what's a model card,
        every hugging face repo has one"): the name's card, as if asked alone (`asked_first`),
        not the entry the remark's words describe (task file56). `normalized`: the text as
        `_search` normalised it, its chat markup out (task bar57). Not judged by
        `_unless_everyday`: that cost a held-out right card and moved no tuning row (bar57)."""
        name = asked_first(query[:MAX_QUERY])
        if not name:
            return None
        named = self._named([compact(name)], (), server, shouted, other_number=False)
        if not named:
            return None
        return self._answer_named(named, query, normalized)

    def _typos_fixed(self, normalized: str, fixed: Sequence[Typo]) -> str:
        """`normalized` with each mistyped name (`fixed`: (_, entry, word)) written as its
        entry's title, for the meaning to read."""
        for _, entry, word in fixed:
            title = normalize(self.entries[entry].title)
            normalized = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", title, normalized)
        return normalized

    def _forms_spelled(self, normalized: str, names_in: NamesIn) -> str:
        """`normalized` with each name written only as a form no common-English list holds
        (`find_mentions` reads "quantised", "unlearned", "finetune" by the noun they are a
        form of) written as its entry's title, for the meaning to read, as a typo is fixed: the
        encoder reads "my quantised model" far from Quantization, "my quantization model" near
        it. Read where the question rules read no subject (`search`), and not where the text
        writes another name as it is (the form may qualify it: "the perplexity of a quantized
        model"), nor a form of a common word (`_inflects_common`: "embedded", "aligned",
        "distill"): that is as often its everyday sense, which the meaning tells apart (task
        verbs77)."""
        forms = []
        for found in names_in(normalized):
            said = normalized[found.start : found.end]
            key = compact(said)
            if any(self.names.lookup(k) for k in (key, *plural_variants(key))):
                # another name written as it is: the form may only qualify it ("the perplexity
                # of a quantized model"), and the meaning reads the name written
                return normalized
            if " " not in said and key and not _inflects_common(key):
                forms.append(found)
        spelled = normalized
        for found in reversed(forms):
            title = normalize(self.entries[found.entry].title)
            spelled = f"{spelled[: found.start]}{title}{spelled[found.end :]}"
        return spelled

    def _chat_names_spelled(self, normalized: str, names_in: NamesIn, subject: int) -> str:
        """`normalized` with the question's subject, where it is written in a chat form, spelled
        out for the meaning to read: run together ("kvcache") as the glossary spaces it ("kv
        cache") where no name of the entry is written so, clipped ("temp", "ckpt": an alias of
        at most `CLIPPED_SHARE` of its title's letters) as the title. The encoder reads "temp"
        as a temporary thing, not the sampling setting; a name in passing stays as written, as
        loud to the meaning as its writer made it (task names75)."""
        spelled: list[tuple[int, int, str]] = []
        for found in names_in(normalized):
            if found.entry != subject:
                continue
            surface = normalized[found.start : found.end]
            if " " in surface:
                continue
            key = compact(surface)
            entry = self.entries[found.entry]
            forms = [(name, kind) for name, kind in entry_names(entry) if compact(name) == key]
            if not forms:
                continue
            spaced = [normalize(name) for name, _ in forms if " " in normalize(name)]
            if len(spaced) == len(forms):
                spelled.append((found.start, found.end, spaced[0]))
                continue
            clipped = all(k == NameKind.ALIAS and not written_as_acronym(n) for n, k in forms)
            title = normalize(entry.title)
            if clipped and _clipping(key, title):
                spelled.append((found.start, found.end, title))
        for start, end, text in reversed(spelled):
            normalized = f"{normalized[:start]}{text}{normalized[end:]}"
        return normalized

    def _without_speaker(self, query: str, overlay: Aliases, fixed: Sequence[Typo]) -> str | None:
        """The `normalize`d text the meaning reads without the speaker's opening ("accountant
        here, what ...": `without_speaker`; an opening that writes a name, this server's aliases
        too, stays), its typos fixed as the whole text's; None where it opens with none."""
        rest = without_speaker(
            query[:MAX_QUERY], lambda who: bool(self._mentions(who, overlay, None, as_typed=False))
        )
        if rest is None:
            return None
        return self._typos_fixed(normalize(without_chat_markup(rest)), fixed) or None

    def _names_outright(self, query: str, overlay: Aliases) -> bool:
        """Whether `query`, normalised as it was typed, is a name or alias (this server's too)."""
        key = compact(normalize(without_chat_markup(query[:MAX_QUERY])))
        server = self.server_aliases(overlay).found_by
        return bool(key) and bool(self._named([key], (), server, False, other_number=False))

    def _search(self, query: str, overlay: Aliases) -> SearchResult:
        rules = self.questions
        typed = without_chat_markup(query[:MAX_QUERY])
        normalized = normalize(typed)
        core = typed_core(normalized, typed) if normalized else ""  # "a/b testing": one name
        if not core:
            return SearchResult("none", None, None, 0.0, query, normalized)
        sides = compared(normalized) if not COMPARING.isdisjoint(normalized.split()) else None
        if sides and core == sides[0] and (headed := rules.with_head(*sides)) != core:
            # "zero vs few shot prompting": "zero shot prompting"; "tensor vs pipeline
            # parallelism" is no question about Tensor: the whole comparison is read
            core = headed if rules.first_name(headed) else f"{sides[0]} vs {sides[1]}"
        # "what's a safetensors file": the name before "file" is looked up too
        named_file = file_named(core)
        keys = [
            k
            for k in dict.fromkeys((compact(normalized), compact(core), compact(named_file or "")))
            if k
        ]
        server = self.server_aliases(overlay).found_by
        shouted = written_as_acronym(query.strip())
        # An autocomplete choice sends the id itself; people may type one too ("kv cache").
        ids = list(
            dict.fromkeys((query.strip(), *(t.replace(" ", "-") for t in (normalized, core))))
        )
        for other_number in (False, True):
            named = self._named(keys, ids, server, shouted, other_number=other_number)
            if named:
                return self._answer_named(named, query, normalized)
        # "quantized", "red teamers": the whole query a verb, adjective or agent form of a name
        if sides is None and (formed := self._named_as_form(core, server)):
            return self._answer_named(formed, query, normalized)
        if sides is None and (first := self._asked_first_named(query, normalized, server, shouted)):
            return first
        # "llama 3 70b": a name and its version; "claude 3 5": the version is no words of a
        # description nor makes the name a sentence (`without_versions`)
        versionless = self._versionless(core)
        if versionless != core:
            versioned = self._answer_versioned(versionless, server, shouted, query, normalized)
            if versioned is not None:
                return versioned
        if sides and core == sides[0]:  # "static vs dynamic quantization": the first names nothing
            core = f"{sides[0]} vs {sides[1]}"
            versionless = self._versionless(core)

        # the names written in a text, read once a search: several rules look at the same text
        names_in = cache(self._names_in)
        pool = Pool()
        if self._language_model is not None and sized_model(core, versionless):
            # "mistral 7b" names a model with no entry: what it is comes first, not an entry
            # whose text mentions the name in passing (RMSNorm's "... llama and mistral use")
            pool.add(self._language_model, _PART_SCORE, "match-term")
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
        mistyped = rules.mistyped_words(core) if question and len(words) > 2 else []
        if prose:  # "the optimizer with decoupled weight decay": a description, read it first
            written = self._add_mentions(pool, names_in, core, mistyped)
            self._add_descriptions(pool, versionless)
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
                written = self._add_mentions(pool, names_in, core, mistyped)
            self._add_descriptions(pool, versionless)
        # "goodput" is all of "Goodput (Serving)" but for its qualifier, and so the start of its
        # title too: it stays a part, not a prefix strong enough to answer.
        pool.cap(parts, _PART_SCORE)
        # -- semantic stage: only where no name settled the query ---------------------------
        semantic = self.semantic if wants_meaning(pool, len(versionless.split())) else None
        if semantic is not None:
            # any text's names mistyped, the shortest too ("jsno"): read only where the meaning
            # runs (`lone_typo`, `slipped_subject`), not on the lexical path
            typos = mistyped if question else rules.mistyped_words(core) if len(words) > 2 else []
            typos = [*typos, *rules.slips(core)] if len(words) > 2 else []
            lone = rules.lone_typo(typos, written)
            asked = None
            reading = rules.read(query, normalized, core, question, written)
            clauses, pair, converted = reading.clauses, reading.pair, reading.converted
            source, together = reading.source, reading.together
            subject, written = reading.subject, reading.written
            # "what is the vea doing in stable diffusion": a question's subject, slipped
            slip = rules.slipped_subject(core, typos) if question and subject is None else None
            slip = None if slip in mistyped else slip  # a long name mistyped is read as before
            meant = normalized
            fixed = [
                *mistyped,
                *(typo for typo in typos if typo[1] == lone and typo not in mistyped),
                *([slip] if slip is not None else []),
            ]
            meant = self._typos_fixed(meant, fixed)
            if subject is None:  # a subject read: the rules weigh its name (`named_rank`)
                meant = self._forms_spelled(meant, names_in)
            if subject is not None:  # "what temp should i use": "what temperature ..."
                meant = self._chat_names_spelled(meant, names_in, subject[0])
            unframed = without_framing(meant)  # "our soccer parents asked which ...": who asks
            unframed = None if reading.described else unframed
            asked_alone = clauses[1] if clauses and _clause_read_alone(clauses[1]) else None
            asked_alone = None if reading.described else asked_alone  # context, then the question
            # "accountant here, what ...": who speaks, read away where nothing else is (the
            # asking clause read alone leaves the opening out too, and shares the pass's rows)
            unvoiced = (
                self._without_speaker(query, overlay, fixed)
                if unframed is None and asked_alone is None
                else None
            )
            # Embedded after the names are read: its pass over the weights leaves the caches cold
            # the text's vector kept: `_described_nothing` weighs it against the whole field. The
            # texts the rules below read alone ride on the same pass (bench/results/semantic.md,
            # "speed50": one forward of 36 rows costs less than two of 24 and 12)
            alone = [t for t in (unframed, unvoiced, asked_alone) if t is not None]
            # the texts read alone cut to the rows a long message leaves ("speed52")
            riding = [meant, *alone]
            phrases = self._voting_clauses(query, normalized, written, names_in)
            if phrases and not written:  # its clauses are read alone: no other text read alone
                # rides along (cut to a few words past the message's 64 rows, they raised a first
                # entry's cosine on 4 of 665 long rows, one an off-topic card; 8 rows of ~130:
                # speed74, measured where no name is written, before long74's vote for names)
                unframed = unvoiced = asked_alone = None
                riding = [meant]
            embedded = (
                semantic.encoder.encode_queries(riding, fit=True, uncut=phrases)
                if len(semantic)
                else None
            )
            said = None if embedded is None or not phrases else embedded[len(riding) :]
            embedded = None if embedded is None else embedded[: len(riding)]
            meaning = None if embedded is None else embedded[0]
            if meaning is None:
                similar = []
            elif said is not None:  # the clauses' ranking, in place of the whole text's alone
                similar = semantic.similar_by_clauses(
                    meaning, said, SEMANTIC_CANDIDATES, CLAUSE_FLOOR
                )
                if written:  # names in passing: the vote moves the first, never only the scale
                    similar, said = _voted_where_moved(similar, said, semantic, meaning)
            else:
                similar = semantic.similar_to(meaning, SEMANTIC_CANDIDATES)
            if unframed is not None and embedded is not None:
                similar = _unframed_agreeing(similar, semantic, embedded[1])
            if unvoiced is not None and embedded is not None:
                similar = _unvoiced_agreeing(similar, semantic, embedded[1])
            if asked_alone is not None and embedded is not None:
                similar = _asked_clause_agreeing(similar, asked_alone, semantic, embedded[-1])
            if subject is None and not question and not reading.described:
                # "morning all, swiglu activation, why ...": greetings are no topic; a name
                # that starts a description is part of it ("system prompt beats the user, what's
                # that ordering called")
                topic = query_core(" ".join(clauses)) if clauses else core
                subject = rules.leading(topic, similar)
            if subject is None and not question:  # "reflow, sd3 uses it": the name set apart
                subject = _pointed_back_at(query, rules)
            if subject is None and pair is None and converted is None and together is None:
                subject = rules.agreed(lone, similar, semantic, None if question else normalized)
            if subject is None and slip is not None:  # the meaning must rank it high
                subject = slip[1], NAMED_RANKS
            if pair is None and converted is None and together is None:
                # "how does vllm fit so many requests, the paged attention trick"
                names_written = [*written, *([subject] if subject else [])]
                subject = rules.closing_aside(query, similar, names_written) or subject
            # "how does a vit turn an image into patch tokens": the doer only says where
            placed = (
                (reading.where, reading.subject[0])
                if reading.where is not None and reading.subject
                else None
            )
            acted = (
                rules.acted_on(core, subject, written, similar)
                if question
                and placed is None
                and pair is None
                and converted is None
                and together is None
                else None
            )
            if acted is not None:
                subject, placed = acted[1], (acted[0], acted[1][0])
                written = [(entry, 0 if entry == acted[0] else rank) for entry, rank in written]
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
            # "embeddings vs token embeddings": the longer name is the side compared with, not
            # the kind asked about; only the first side's words say which kind
            specific = asked and rules.more_specific(asked[0], pair[0] if pair else core, similar)
            if specific is not None:  # "my loss goes up on the validation data": Validation Loss
                pool.add(specific, MENTION_SCORE, "match-term")
                asked = (specific, SUBJECT)
            # Where the meaning disagrees with the names written, the leading name is asked about
            # only if written first ("rloo vs grpo"), not one put second ("latency slo").
            leader = next(iter(pool.ranked()), (None,))[0]
            unclear = asked is None and bool(written) and leader != written[0][0]
            # the description stage's first, before the meaning is folded in
            top = pool.by_entry.get(leader) if leader is not None else None
            strong = top and top.strategy == "description" and top.score >= AGREEMENT_FLOOR
            described = leader if strong else None
            long_description = (
                not question
                and asked is None
                and subject is None
                and pair is None
                and together is None
                and len(words) >= LONG_WORDS
            )
            # the words of a long text agree with its meaning only where no lexical card stands
            # and the text asks nothing: "... so each head gets 128 dims? why split it"
            described_first = (
                leader
                if long_description
                and pool.best_score() < MATCH_SCORE
                and "?" not in query
                and top is not None
                and top.strategy == "description"
                and _lexical_lead(pool) >= DESCRIBED_LEAD
                else None
            )
            if described_first is None and long_description:
                described_first = _described_past_names(pool, query)
            # "which python library for semantic search" asks to pick a thing the names
            # written only describe: none of them is what it asks about
            fused_written = frozenset(() if core.startswith("which ") else (e for e, _ in written))
            fused = Fused(
                similar=tuple(similar),
                before=tuple((e, c.score, c.strategy) for e, c in pool.by_entry.items()),
                written=fused_written,
                asked=asked[0] if asked else None,
                claused=said is not None,
                unnamed=not written and asked is None and subject is None,
                long_description=long_description,
                field=0.0 if meaning is None else field_cosine(semantic, meaning),
            )
            fuse(
                pool,
                similar,
                question=question and not unclear,
                asked_about=asked,
                written=fused_written,
                long_description=long_description,
                described_first=described_first,
                unnamed=fused.unnamed,
                claused=fused.claused,
                field=fused.field,
            )
            if source is not None:  # offered beside the target, never its card
                pool.cap((source[0],), MATCH_SCORE - MATCH_MARGIN)
            if together is not None:
                pool.cap(list(pool.by_entry), MATCH_SCORE - MATCH_MARGIN)
            if reading.storied:  # the story's names are its setting: offered, no card
                setting = [entry for entry, _ in [*written, *([asked] if asked else [])]]
                told = [(entry, cosine) for entry, cosine in similar if entry not in setting]
                if long_lead(told):  # the meaning of what it tells, clearly: a long description's
                    pool.add(told[0][0], MATCH_SCORE, "semantic")
                pool.cap(setting, _setting_score(pool, similar, setting))
            elif clauses and pair is None and asks_kind(clauses[1]):
                self._scene_placed(pool, similar, clauses, names_in)
            asks = question or "?" in query  # "..., cheaper than dpo? which one"
            if asks and pair is None and not reading.storied and len(words) < PASSING_WORDS:
                self._passing_placed(pool, similar, normalized, names_in)
            if asks and pair is None and not reading.storied and not reading.described:
                self._describing_placed(pool, similar, normalized, names_in)
            # the characters looked at only: the patterns are quadratic in a run of spaces
            if asks and pair is None and pastes_log(query[:MAX_QUERY]):
                self._pasted_placed(pool, similar, query[:MAX_QUERY], normalized, names_in)
            nearest = similar[0][1] if similar else 0.0
            decided = self._decide(pool, query, normalized, core, far=nearest < OFF_DOMAIN_COSINE)
            decided = self._plainly_described(decided, nearest, names_in)
            if question and pair is None:
                decided = self._neighbour_meant(decided, similar, versionless, names_in)
            if pair is None and decided.strategy == "semantic":
                decided = self._narrower_offered(decided, asked and asked[0], similar)
            if pair is None and asked and described is not None:
                decided = self._described_offered(
                    decided, asked[0], described, versionless, names_in
                )
            # a card its own description won, or a comparison's first side, is no tie of names
            by_names = decided.strategy != "description" and pair is None and sides is None
            if by_names and not asked:
                decided = self._tied_offered(decided, written, similar, core, names_in)
            if placed is not None:
                decided = self._place_offered(decided, *placed)
            if meaning is not None:
                decided = self._described_nothing(decided, similar, versionless, meaning, semantic)
            decided = self._unless_everyday(decided, similar, names_in, meant)
            offered = self._asked_name_offered(decided, asked and asked[0], similar, query)
            decided = self._stated_name_yields(decided, offered, similar, query, names_in)
            # after the asked-name rules: the card they make from the meaning stands ("how many
            # tokens may the model spend thinking ...": Thinking Budget)
            decided = self._counted_name_offered(decided, asked and asked[0], similar, names_in)
            decided = self._material_name_offered(decided, asked and asked[0], similar, names_in)
            if quote_split(query[:MAX_QUERY]) is None:  # a reply under a quote asks what it quotes
                decided = self._scene_name_offered(decided, asked and asked[0], similar, names_in)
                decided = self._object_name_offered(decided, asked and asked[0], similar, names_in)
            decided = self._part_setting_offered(decided, similar, names_in)
            decided = self._mechanism_setting_offered(decided, similar, names_in)
            decided = self._contrast_name_offered(decided, similar, names_in)
            decided = self._compound_name_offered(decided, asked and asked[0], similar, names_in)
            decided = self._pasted_code_offered(decided, query[:MAX_QUERY], names_in)
            decided = self._bare_paste_offered(decided, query[:MAX_QUERY], names_in)
            if meaning is not None:
                decided = self._unranked_off_field(decided, similar, meaning, semantic, names_in)
                decided = self._platform_noun_offered(decided, meaning, semantic, names_in)
                decided = self._offered_off_field(
                    decided, similar, versionless, meaning, semantic, names_in
                )
            return replace(decided, fused=fused)
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

    def _named_as_form(self, core: str, server: Mapping[str, int]) -> list[Named]:
        """Entries a short query written as a form of their name names ("quantized" ->
        Quantization, "sandboxed" -> Sandbox, "red teamers" -> Red Teaming), as related forms,
        strongest first; a form in the name's own number before one in the other."""
        if len(core.split()) > 2:
            return []
        forms = name_forms(compact(core))
        named = forms and (
            self._named(forms, [], server, False, other_number=False)
            or self._named(forms, [], server, False, other_number=True)
        )
        return [Named(n.entry, n.tier, "match-term", n.acronym, n.loud) for n in named or []]

    def _offer_of(self, named: Named) -> Suggestion:
        """The choice a name found (`named`) offers: its entry, as the name found it."""
        entry = self.entries[named.entry]
        return Suggestion(entry.id, entry.title, named.score, named.strategy)

    def _answer_named(self, named: list[Named], query: str, normalized: str) -> SearchResult:
        best = named[0]
        tied = len(named) > 1 and best.rivals(named[1])
        shown = named if tied else named[1:]
        suggestions = tuple(self._offer_of(n) for n in shown[:MAX_SUGGESTIONS])
        if tied:  # one name, several entries of equal standing: the user chooses
            return SearchResult(
                "suggest", None, best.strategy, best.score, query, normalized, suggestions
            )
        entry = self.entries[best.entry]
        return SearchResult(
            "match", entry, best.strategy, best.score, query, normalized, suggestions
        )

    def _answer_versioned(
        self, name: str, server: Mapping[str, int], shouted: bool, query: str, normalized: str
    ) -> SearchResult | None:
        """A `name` typed with a version ("llama 3 70b") is its family's card (Llama); an entry
        whose title carries another version ("gpt 3.5": GPT-2) is another model, only offered."""
        key = compact(name)
        named = self._named([key], (), server, shouted, other_number=False)
        if named:
            result = self._answer_named(named, query, normalized)
            entry = result.entry
            if entry is None or self.positions[entry.id] not in self._versioned_titles.get(key, ()):
                return result
            return _card_offered(result, entry, result.strategy or "exact")
        others = self._versioned_titles.get(key, ())
        if not others:
            return None
        # a related form, not a name: "gpt-4o" stays free for a server's alias (`leads_to`)
        offers = tuple(
            Suggestion(self.entries[e].id, self.entries[e].title, _PART_SCORE, "match-term")
            for e in others[:MAX_SUGGESTIONS]
        )
        return SearchResult("suggest", None, "match-term", _PART_SCORE, query, normalized, offers)

    @cached_property
    def _versioned_titles(self) -> dict[str, list[int]]:
        """Entries whose title carries a version ("GPT-2"), by their title's name without it."""
        found: dict[str, list[int]] = {}
        for position, entry in enumerate(self.entries):
            title = normalize(entry.title)
            family = without_versions(title, lambda _: False)  # "gpt 2" is a name: read it bare
            if family != title:
                found.setdefault(compact(family), []).append(position)
        return found

    @cached_property
    def _language_model(self) -> int | None:
        """The Large Language Model entry, if the glossary has one."""
        hits = self.names.lookup(compact("large language model"))
        return next((h.entry for h in hits if h.kind != _PART), None)

    def _versionless(self, core: str) -> str:
        """`core` without the versions after its names, where it is a name with a version
        ("claude 3 5 sonnet"), not a sentence: a sentence's numbers stay its words."""
        versionless = without_versions(core, self._is_name)
        return versionless if len(versionless.split()) < MIN_WORDS else core

    def _is_name(self, key: str) -> bool:
        """Is `key` (compact) a whole name of an entry, not only a part of a title?"""
        return any(hit.kind != _PART for hit in self.names.lookup(key))

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

    def _scene_placed(
        self,
        pool: Pool,
        similar: Sequence[tuple[int, float]],
        clauses: tuple[str, str],
        names_in: NamesIn,
    ) -> None:
        """A scene, then a question asking which or what kind of thing does something (`asks_kind`:
        "our rag bot pulls chunks out of the vector database. what stage puts the best on top?"):
        the names written only in the scene place what is asked, as a story's do (story28): each
        an offer behind the meaning's first other entry, that entry the only card, where it
        leads as a long description's must (`long_lead`). The meaning's own first entry is kept
        though the scene writes it ("... total tokens per second across all of them. what's that
        metric?": Throughput)."""
        named = names_in(clauses[0])
        told = len(clauses[0].split()) - sum(
            len(clauses[0][f.start : f.end].split()) for f in named
        )
        if told < SCENE_WORDS and clauses[0].split()[0] not in SETTING_OPENERS:
            return  # "tokenization, which library is fastest?": a topic, then its question
        asked = {found.entry for found in names_in(clauses[1])}
        lead = similar[0][0] if similar else None
        scene = dict.fromkeys(f.entry for f in named)
        setting = [e for e in scene if e not in asked and e != lead]
        if not setting:
            return
        meant = [(entry, cosine) for entry, cosine in similar if entry not in setting]
        card = meant[0][0] if long_lead(meant) else None
        if card is not None:
            pool.add(card, MATCH_SCORE, "semantic")
        pool.cap(setting, _setting_score(pool, similar, setting))
        # no other card: with the scene's name set aside, a description's near neighbour of it
        # ("in the diffusion model ..., what architecture is the denoiser": Diffusion
        # Transformer) would be carded on words the scene wrote
        kept = {card, lead, *asked, *setting}
        pool.cap([e for e in pool.by_entry if e not in kept], MATCH_SCORE - MATCH_MARGIN)

    def _passing_placed(
        self,
        pool: Pool,
        similar: Sequence[tuple[int, float]],
        normalized: str,
        names_in: NamesIn,
    ) -> None:
        """A short question that writes a name only as its setting (`in_passing`: "in pytorch
        what computes the gradients for me", "those numbers right before softmax what are they
        called"): that name offered behind the meaning's first other entry, as a scene's are
        (`_scene_placed`), and that entry the card where it leads as a long description's must.
        Not a name also written as asked, nor one the meaning itself puts first unless it is
        plainly not asked (`plainly_in_passing`: "cheaper than dpo")."""
        found = names_in(normalized)
        passing = {f.entry for f in found if in_passing(normalized, f.start, f.end)}
        if not passing:
            return
        asked = {
            f.entry
            for f in found
            if f.entry in passing and not in_passing(normalized, f.start, f.end)
        }
        # the meaning's own first stays ("what is the critic in ppo": PPO; "in streaming llm
        # inference why keep the first four tokens": Attention Sink) unless plainly not asked
        lead = similar[0][0] if similar else None
        plainly = {f.entry for f in found if plainly_in_passing(normalized, f.start, f.end)}
        setting = [e for e in passing if e not in asked and (e != lead or e in plainly)]
        if not setting:
            return
        meant = [(entry, cosine) for entry, cosine in similar if entry not in setting]
        if long_lead(meant):
            pool.add(meant[0][0], MATCH_SCORE, "semantic")
        pool.cap(setting, _setting_score(pool, similar, setting))

    def _describing_placed(
        self,
        pool: Pool,
        similar: Sequence[tuple[int, float]],
        normalized: str,
        names_in: NamesIn,
    ) -> None:
        """A question that describes a thing and closes asking what it is or what acts on it
        (`asks_what_described`: "ggerganov's project for running gguf files on a macbook cpu,
        what's it called again?"): the names the description writes are offered behind the
        meaning's first other entry, as a story's are (`_setting_score`), and that entry is the
        card where it leads as a long description's must. Not a name written as what someone
        said, asked back by a plain "what is that" (`asks_what_mentioned_is`): that is asked."""
        found = names_in(normalized)
        if not found or not asks_what_described(normalized, [(f.start, f.end) for f in found]):
            return
        # a name someone mentioned is what the closing "what is that" asks about: no setting
        setting = list({f.entry for f in found if not asks_what_mentioned_is(normalized, f.start)})
        if not setting:
            return
        meant = [(entry, cosine) for entry, cosine in similar if entry not in setting]
        if long_lead(meant):
            pool.add(meant[0][0], MATCH_SCORE, "semantic")
        # still offered where nothing else is: a choice, not "no entry"
        pool.cap(setting, max(_setting_score(pool, similar, setting), SUGGEST_SCORE))

    def _pasted_placed(
        self,
        pool: Pool,
        similar: Sequence[tuple[int, float]],
        query: str,
        normalized: str,
        names_in: NamesIn,
    ) -> None:
        """A text that pastes a log or error line and asks about it (`pastes_log`): the names
        the line writes only as a field's label (`pasted_label`: "Epoch 12: train_loss=0.08
        ... is this bad?", "eval: pass@1=0.42 ...") are offered behind the meaning's first
        other entry, as a description's are (`_describing_placed`). Not a name the meaning itself puts
        first ("INFO: Avg prompt throughput: 1200.3 tokens/s ... which of these matters"). No
        card for that other entry: a log's numbers and identifiers blur the meaning ("Epoch 4:
        train loss 0.21, val loss 1.87 ..." reads as Teacher forcing)."""
        found = names_in(normalized)
        label = {f: pasted_label(query, normalized[f.start : f.end]) for f in found}
        plain = {f.entry for f in found if not label[f]}
        lead = similar[0][0] if similar else None
        setting = list({f.entry for f in found if label[f]} - plain - {lead})
        if setting:  # still offered where nothing else is: a choice, not "no entry"
            pool.cap(setting, max(_setting_score(pool, similar, setting), SUGGEST_SCORE))

    def _voting_clauses(
        self, query: str, normalized: str, written: Sequence[tuple[int, int]], names_in: NamesIn
    ) -> list[str]:
        """The clauses a long message is also read by, each whole, on the text's own pass (none
        for a shorter text or one of a single clause). Where the text writes a name, only in
        clauses that ask nothing ("we serve with vllm on a few cards, ... what is that called"),
        each clause votes without the names in it: a clause naming vLLM in passing would confirm
        the name, and the rest of it may still describe what is meant.
        A name written in a clause that asks is its subject ("what is a kv cache? ..." and
        chat): no vote, the whole text's reading stands."""
        if len(normalized) < CLAUSED_CHARS:
            return []
        read = clauses_asking(without_chat_markup(query[:MAX_QUERY]))
        if written:
            named = [asks for clause, asks in read if names_in(clause)]
            if any(named):
                return []
        phrases = [_without_names(clause, names_in(clause)) for clause, _ in read]
        phrases = [phrase for phrase in phrases if phrase]
        return phrases if len(phrases) > 1 else []

    def _names_in(self, text: str) -> tuple[Found, ...]:
        """The names written in `text` as a search box reads them: acronyms in any case, no
        server's aliases (`find_mentions`)."""
        return tuple(
            find_mentions(text, self.names, self.entries, NO_ALIASES, None, as_typed=False)
        )

    def _add_mentions(
        self,
        pool: Pool,
        names_in: NamesIn,
        text: str,
        mistyped: Sequence[tuple[int, int, str]] = (),
    ) -> list[tuple[int, int]]:
        """Names inside a longer query ("which gpu should I buy", "rag vs fine tuning") are
        leads to offer, not answers: the rest of the query may ask something else. Returns
        the entries named, in the order written, each with how far down the meaning may rank it
        and still agree that the question asks about it (`named_rank`); `mistyped` names
        (`QuestionRules.mistyped_words`) count too, a little more weakly."""
        found: list[tuple[int, int, int, bool]] = []  # (start, end, entry, long name)
        for mention in names_in(text):
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

    def _add_prefixes(self, pool: Pool, key: str, text: str) -> None:
        import numpy as np

        from bot.search.similarity import PARTIAL_MIN_LENGTH

        if len(key) < 2:
            return
        positions = self.names.with_prefix(key, limit=100)
        for form in [] if positions else plural_variants(key):  # "prompts" starts no name
            positions = self.names.with_prefix(form, limit=100)
            if " " not in text and is_common(text):  # "cows", "pals": not CoWoS, PALI + "s"
                positions = [p for p in positions if self._names_whole_word(form, p)]
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
        # So is the start of one entry's name that is a part of another's ("shard" of Shard Run,
        # and of Obsidian Shard, "the shard"): the word is theirs alike, both offered.
        parted = {hit.entry for hit in self.names.lookup(key) if hit.kind == _PART}
        for i, position in enumerate(positions):
            starts_longer = self.names.text(position).startswith(text + " ")
            shared = bool(parted) and any(h.entry not in parted for h in self.names.hits(position))
            weak = (starts_longer and not self._is_title(position)) or shared
            weak = weak or self._word_starts_name(text, position)
            if scores[i] >= MATCH_SCORE and weak:
                scores[i] = MATCH_SCORE - 1
        self._pool_keys(pool, positions, scores, "prefix")

    def _names_whole_word(self, word: str, position: int) -> bool:
        """Is `word` the whole name at `position`, or its first word ("prompt" of "prompt
        injection"), rather than only the start of one ("cow" of "cowos")?"""
        return self.names.keys[position] == word or self.names.text(position).startswith(word + " ")

    def _word_starts_name(self, text: str, position: int) -> bool:
        """Is an English word only the start of a one-word name ("soft" of "softmax")? The
        word is likely meant as itself: offer the name, do not answer with it."""
        name = self.names.text(position)
        return (
            " " not in name
            and len(name) > len(text)
            and is_common(text)
            and name not in derived_forms(text)
        )

    def _is_title(self, position: int) -> bool:
        return any(hit.kind == NameKind.TITLE for hit in self.names.hits(position))

    def _add_fuzzy(self, pool: Pool, key: str, text: str) -> None:
        from bot.search.similarity import (
            another_word,
            everyday_word,
            look_alike_word,
            name_similarity,
        )

        positions = self.fuzzy_candidates(key, FUZZY_CANDIDATES)
        positions += [p for p in self._swapped_names(key, text) if p not in positions]
        if not positions:
            return
        keys = [self.names.keys[p] for p in positions]
        texts = [self.names.text(p) for p in positions]
        scores = name_similarity(key, text, keys, texts)
        for i, name in enumerate(keys):
            if look_alike_word(key, text, name) or everyday_word(key, text, name):
                scores[i] = min(scores[i], SUGGEST_SCORE - 1)
            elif " " not in text and another_word(key, name):
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
        fulltext = self.fulltext
        hits = fulltext.search(text, limit=MAX_SUGGESTIONS + 1)
        for hit in hits:
            pool.add(hit.document, description_score(hit, hits[0], fulltext.scale), "description")

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
        # bread") uses a plain word in its everyday sense: only an acronym or a coinage written
        # in two words ("flash attention 2 wont install on windows") there is a card
        everyday = far and not self._acronym_written(core, best)
        everyday = everyday and not coinage_split(self.entries[best], core)
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

    def _unless_everyday(
        self,
        result: SearchResult,
        similar: Sequence[tuple[int, float]],
        names_in: NamesIn,
        meant: str,
    ) -> SearchResult:
        """A card for a name the sentence uses in its everyday sense, a plain word ("the wait at
        the border checkpoint") or, on stronger evidence, an acronym in lower case ("is an hmo or
        a ppo plan cheaper"), becomes an offer of that entry (`everyday_sense`,
        `read_in_another_sense`; `similar`: the meaning's entries and cosines, best first). An
        acronym written in capitals keeps its card. A name the sentence writes only mistyped
        is read in `meant`, the sentence with its typos fixed: "why is my sandbx so dirty" is
        in the sense "sandbox" would be."""
        text = result.normalized_query
        nearest = similar[0][1] if similar else 0.0
        if result.entry is None or self.semantic is None:
            return result
        knows = self.glossary_word
        unused = self.unused_word
        entry = self.positions[result.entry.id]
        # (English only: "la température" is another language's word, not a typo to fix here)
        if text.isascii() and all(m.entry != entry for m in names_in(text)):
            text = meant
        if self._named_after(text, entry) and result.strategy is not None:
            return _card_offered(result, result.entry, result.strategy)
        if self._meant_everyday(text, entry) and result.strategy is not None:
            return _card_offered(result, result.entry, result.strategy)
        judgement = judged(text, nearest, knows, unused)
        if judgement is None:
            return result
        found = names_in(text)
        name = next((m for m in found if m.entry == entry), None) or self._generic_name(text, entry)
        written = text[name.start : name.end] if name else ""
        if not name or result.strategy is None or self._shouted(result.query, entry):
            return result
        # an acronym ("ppo", "json") is judged only on stronger evidence (`everyday_sense`)
        plain = not self._acronym_written(written, entry)
        plain = plain and not in_capitals(self.entries[entry], written)
        # "flash attn" is read "flash attention": FlashAttention, a coinage, however common its parts
        plain = plain and not coinage_split(self.entries[entry], written)
        # "is cuda 12.4 worth upgrading to", "is gpt2 still worth studying": an acronym or coinage
        # written with its version names the software or model, whatever the rest's words
        if not plain and written_with_version(text, name.start, name.end):
            return result
        alone = all(m.entry == entry for m in found)  # another entry named is the field's
        # an entry the meaning does not rank is at most as near as its last
        cosine = dict(similar).get(entry, similar[-1][1] if similar else 0.0)
        first = bool(similar) and similar[0][0] == entry
        if (
            plain
            and alone
            and judgement == "sentence"
            and read_in_another_sense(text, name.start, name.end, cosine, first, knows)
        ):
            return _card_offered(result, result.entry, result.strategy)
        if not everyday_sense(
            self.semantic,
            knows,
            text,
            name.start,
            name.end,
            nearest,
            judgement,
            alone=alone,
            plain=plain,
            unused=unused,
        ):
            return result
        return _card_offered(result, result.entry, result.strategy)

    def _plainly_described(
        self, result: SearchResult, nearest: float, names_in: NamesIn
    ) -> SearchResult:
        """A card the description stage won for a sentence that writes no name and says no
        word of the field (`field_word`; no jargon either), further than `NEAR_COSINE` from
        every entry (`nearest`), becomes an offer: the plain words it shares with the entry's
        text are everyday ones ("my uncle only remembers the last few things you told him",
        Memory Systems), and the meaning alone does not make it the field's. A server's own
        term is described in its server's everyday words: the gate is the bundled field's."""
        if result.entry is None or result.strategy != "description" or nearest >= NEAR_COSINE:
            return result
        if self._is_server_term(self.positions[result.entry.id]):
            return result
        text = result.normalized_query
        if names_in(text) or not everyday_rest(text, self.field_word):
            return result
        return _card_offered(result, result.entry, result.strategy)

    def _described_nothing(
        self,
        result: SearchResult,
        similar: Sequence[tuple[int, float]],
        text: str,
        meaning: npt.NDArray[np.float32],
        semantic: SemanticIndex,
    ) -> SearchResult:
        """Nothing at all to answer (no card, no offer), though the words of `text` describe one
        entry strongly (`NOTHING_DESCRIBED`) that the meaning ranks among its first
        (`NOTHING_RANKS`; `similar`: its entries and cosines, best first) and the text (its vector
        `meaning`, as the meaning read it) leans to the field: that entry is offered, then the meaning's
        other firsts. A user who described a thing loosely gets a choice to click, not "no
        entry"; an off-topic sentence sharing a word or two with a definition stays "none"."""
        if result.status != "none" or not similar:
            return result
        described = self._strongly_described(text)
        if described is None:
            return result
        firsts = similar[:NOTHING_RANKS]
        if described not in (entry for entry, _ in firsts):
            return result
        if field_cosine(semantic, meaning) < NOTHING_FIELD_COSINE:
            return result
        ordered = sorted(firsts, key=lambda item: item[0] != described)  # stable: the rest kept
        offers = tuple(
            self._meaning_offer(entry, cosine, "description" if entry == described else "semantic")
            for entry, cosine in ordered
        )
        return replace(
            result,
            status="suggest",
            strategy="description",
            score=offers[0].score,
            suggestions=offers,
        )

    def _meaning_offer(self, entry: int, cosine: float, strategy: Strategy) -> Suggestion:
        """An offer of `entry` as the meaning scored it (its `cosine` to the text)."""
        return Suggestion(
            self.entries[entry].id,
            self.entries[entry].title,
            round(semantic_score(cosine), 1),
            strategy,
        )

    def _offers_filled(self, result: SearchResult) -> SearchResult:
        """Choices (no card) fewer than `FILLED_OFFERS` are followed by the meaning's first that
        many entries (`result.fused.similar`, best first) not among them, up to that many: a
        description the pool's names and words missed ("how can apple collect usage stats
        without ...") still offers what it means. Only ever appended, after every card decision
        (`_offer_carded` reads the offers): no card is made, removed or changed, the choices
        already there keep their places, and "none" stays "none"."""
        if result.status != "suggest" or len(result.suggestions) >= FILLED_OFFERS:
            return result
        if result.fused is None:  # no meaning ran
            return result
        similar = result.fused.similar
        offered = {suggestion.id for suggestion in result.suggestions}
        more = [(e, c) for e, c in similar[:FILLED_OFFERS] if self.entries[e].id not in offered]
        more = more[: FILLED_OFFERS - len(result.suggestions)]
        if not more:
            return result
        filled = (*result.suggestions, *(self._meaning_offer(e, c, "semantic") for e, c in more))
        return replace(result, suggestions=filled)

    def _offered_off_field(
        self,
        result: SearchResult,
        similar: Sequence[tuple[int, float]],
        text: str,
        meaning: npt.NDArray[np.float32],
        semantic: SemanticIndex,
        names_in: NamesIn,
    ) -> SearchResult:
        """Choices and no card for a text not about the field: "none" (nonsense gets an honest
        "no entry", not a "Did you mean"). Not about the field: its vector `meaning` leans away
        from the field as a whole (`OFFER_FIELD_COSINE`), no entry is near it (`OFFER_COSINE`;
        `similar`: the meaning's entries and cosines, best first), its words (`text`) describe
        no entry strongly (`NOTHING_DESCRIBED`) and it writes no name that is only the field's:
        an acronym or a coinage ("why does my lora look fried", "swiglu, why is everyone using
        it") asks about that thing, however plain the rest ("what temperature to bake salmon
        at", "our real estate agent wants 6%" write plain words); two names compared are left
        to `search`, which may card the first side."""
        if result.entry is not None or not result.suggestions:
            return result
        if similar and similar[0][1] >= OFFER_COSINE:
            return result
        if field_cosine(semantic, meaning) >= OFFER_FIELD_COSINE:
            return result
        written = result.normalized_query
        found = names_in(written)
        if len({name.entry for name in found}) > 1 and not COMPARING.isdisjoint(written.split()):
            return result  # "temperature or top p, which one": `search` weighs the two sides
        if self._writes_field_name(written, found):
            return result
        if self._strongly_described(text) is not None:
            return result
        return SearchResult("none", None, None, 0.0, result.query, written)

    def _unranked_off_field(
        self,
        result: SearchResult,
        similar: Sequence[tuple[int, float]],
        meaning: npt.NDArray[np.float32],
        semantic: SemanticIndex,
        names_in: NamesIn,
    ) -> SearchResult:
        """A card for an entry the meaning does not rank at all (not among `similar`, its
        `SEMANTIC_CANDIDATES` first), for a text that leans away from the field (its vector
        `meaning` under `OFFER_FIELD_COSINE` to the entries' mean) and writes no name that is
        only the field's, becomes an offer of that entry: a word or two shared with the entry's
        names or text ("embedded systems vs microcontrollers": Embeddings) is all that made it,
        and nothing says the text is the field's. `_offered_off_field` may then answer "none"."""
        if result.entry is None or result.strategy is None:
            return result
        entry = self.positions[result.entry.id]
        if any(ranked == entry for ranked, _ in similar):
            return result
        if field_cosine(semantic, meaning) >= OFFER_FIELD_COSINE:
            return result
        written = result.normalized_query
        if self._writes_field_name(written, names_in(written)):
            return result
        if self._writes_own_form(written, entry):
            return result
        return _card_offered(result, result.entry, result.strategy)

    def _platform_noun_offered(
        self,
        result: SearchResult,
        meaning: npt.NDArray[np.float32],
        semantic: SemanticIndex,
        names_in: NamesIn,
    ) -> SearchResult:
        """A card whose entry the text names only by one of Discord's nouns written as a noun
        (`platform_nouns`: "embeds", "an embed"; "to embed" is the field's verb), a form of its
        name ("embedding"), becomes an offer of it, where the text places itself
        on Discord (`on_platform`: "... with my discord bot") or leans away from the field (its
        vector `meaning` under `OFFER_FIELD_COSINE` to the entries' mean: "how do i mention a
        user in an embed"), and writes no other name that is only the field's or of two words
        or more ("store embeds from my discord bot in a vector database" keeps it). Discord's
        embed is no vector embedding, and the meaning cannot tell them apart (task discord75)."""
        if result.entry is None or result.strategy is None:
            return result
        written = result.normalized_query
        nouns = platform_nouns(written)
        if not nouns:
            return result
        entry = self.positions[result.entry.id]
        if not any(self._form_names(noun, entry) for noun in nouns):
            return result
        if any(self._form_names(w, entry) for w in written.split() if w not in PLATFORM_NOUNS):
            return result  # its name written as it is too ("embeddings for my discord bot")
        placed = on_platform(written)
        if not placed and field_cosine(semantic, meaning) >= OFFER_FIELD_COSINE:
            return result
        others = [f for f in names_in(written) if f.entry != entry]
        if self._writes_field_name(written, others) or any(
            " " in written[f.start : f.end]
            for f in others  # "vector database": the field's
        ):
            return result
        return _card_offered(result, result.entry, result.strategy)

    def _form_names(self, word: str, entry: int) -> bool:
        """Does `word`, in either number or as a form of a noun, name `entry`?"""
        said = compact(word)
        forms = (said, *plural_variants(said), *derived_forms(said)) if said else ()
        return any(h.entry == entry for f in forms for h in self.names.lookup(f))

    def _writes_own_form(self, written: str, entry: int) -> bool:
        """Does `written` write a word no common-English list holds whose noun is a name of
        `entry` ("... do i have to quantize it first?": Quantization)? A field's word, as
        `_writes_field_name` reads one; `find_mentions` reads no verb form of a word that
        starts a longer name ("quantize": "quantized low-rank adaptation")."""
        for word in written.split():
            said = compact(word)
            if not said or is_common(said):
                continue
            if any(h.entry == entry for f in derived_forms(said) for h in self.names.lookup(f)):
                return True
        return False

    def _writes_field_name(self, written: str, found: Sequence[Found]) -> bool:
        """Does `written` write a name (of `found`) that is only the field's: an acronym or a
        coinage of an entry ("lora", "swiglu"), or a word no common-English list holds?"""
        for name in found:
            said = written[name.start : name.end]
            entry = self.entries[name.entry]
            if self._acronym_written(said, name.entry) or coinage_split(entry, said):
                return True
            if not is_common(said):
                return True
        return False

    def _strongly_described(self, text: str) -> int | None:
        """The entry whose words `text` describes strongly: the description stage's first, at
        `NOTHING_DESCRIBED` or more (BM25 over log(2N)); None for none."""
        fulltext = self.fulltext
        hits = fulltext.search(text, limit=1)
        if hits and hits[0].bm25 / fulltext.scale >= NOTHING_DESCRIBED:
            return hits[0].document
        return None

    def _named_after(self, text: str, entry: int) -> bool:
        """Does the text write only the start of the entry's title ("swiss cheese" of Swiss
        Cheese Model), the thing the concept is named after, and nothing of the field beside
        it ("why does swiss cheese have holes")? Then it asks about that thing, at any cosine:
        the entry's text describes its namesake ("holes")."""
        start = self._title_start(text, entry)
        title = normalize(self.entries[entry].title)
        if start is None or re.search(rf"(?<!\S){re.escape(title)}(?!\S)", text):
            return False
        rest = f"{text[: start.start]} {text[start.end :]}"
        if everyday_rest(rest, self.glossary_word):
            return True
        # "how is swiss cheese made", "swiss cheese plant care": plain words the field uses too
        # ("made", "plant"), that read alone say nothing of it
        return plain_rest(rest) and self.semantic is not None and off_field(self.semantic, rest)

    def _meant_everyday(self, text: str, entry: int) -> bool:
        """Does the text ask what it means to do the act the entry is named for, to an everyday
        thing ("what does it mean to distill water", "... to tokenize real estate")? Then it
        asks about the act in that thing's field (`everyday_object`)."""
        act = meant_act(query_core(text))
        if act is None:
            return False
        verb, thing = act
        second, _, after = thing.partition(" ")
        # a verb of two words ("fine tune a guitar") names the entry where its first alone does not
        for said, done_to in ((verb, thing), (f"{verb} {second}", after)):
            forms = (said, *derived_forms(compact(said)))
            if any(h.entry == entry for f in forms for h in self.names.lookup(compact(f))):
                return self._everyday_thing(done_to)
        return False

    def _everyday_thing(self, thing: str) -> bool:
        """Is what an act is done to everyday ("water", "real estate"; `everyday_object`)?"""
        return everyday_object(thing, self.glossary_word, self.unused_word)

    def _generic_name(self, text: str, entry: int) -> Found | None:
        """The entry's one-word name written in `text` where mentions skip it, a word too
        generic to name an entry in running text ("sampling"), though a question's subject
        made the card of it ("is sampling a song legal")."""
        for word in re.finditer(r"\S+", text):
            if any(h.entry == entry for h in self.names.lookup(compact(word.group()))):
                return Found(entry, word.start(), word.end())
        return self._title_start(text, entry)

    def _title_start(self, text: str, entry: int) -> Found | None:
        """The longest start of the entry's title, two words or more but not all of it, written
        in `text`: the descriptions find "monte carlo simulation for my retirement" by the
        words of Monte Carlo Tree Search, and no name of it is written."""
        words = normalize(self.entries[entry].title).split()
        for size in range(len(words) - 1, 1, -1):
            start = " ".join(words[:size])
            found = re.search(rf"(?<!\S){re.escape(start)}(?!\S)", text)
            if found:
                return Found(entry, found.start(), found.end())
        return None

    def unused_word(self, word: str) -> bool:
        """Is `word` used by no entry at all?"""
        return self.fulltext.documents_using(word) == 0

    def glossary_word(self, word: str) -> bool:
        """Is `word` one of the field's words, used by `GLOSSARY_WORD_ENTRIES` entries or more?"""
        return self.fulltext.documents_using(word) >= GLOSSARY_WORD_ENTRIES

    def field_word(self, word: str) -> bool:
        """Is `word` the field's beyond doubt: a one-word name of an entry ("docker") or a word
        `FIELD_WORD_ENTRIES` entries or more use ("model", "prompt")?"""
        return bool(self.names.lookup(compact(word))) or (
            self.fulltext.documents_using(word) >= FIELD_WORD_ENTRIES
        )

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
        first = narrower_first(card, asked, similar, self._related(card, best))
        if first is None:
            return result
        other = self.entries[first]
        ahead = Suggestion(other.id, other.title, result.score, "semantic")
        return _card_offered(result, result.entry, "semantic", ahead)

    def _tied_offered(
        self,
        result: SearchResult,
        written: Sequence[tuple[int, int]],
        similar: Sequence[tuple[int, float]],
        text: str,
        names_in: NamesIn,
    ) -> SearchResult:
        """A card for one of two names a question writes, neither asked about, becomes an offer,
        its entry first, where the meaning barely tells the two apart (`names_tied`: "how often
        should i save a chekpoint during training?? every epoch??"). A name written as where
        the question is ("what does moe mean in deepseek") is no rival, nor one whose entry
        relates to the card's: the neighbour rules decide those ("sli vs slo")."""
        if result.entry is None:
            return result
        card = self.positions[result.entry.id]
        found = names_in(text)
        settings = {m.entry for m in found if name_setting(text[: m.start]) == "qualified"}
        rivals = [
            (entry, 0 if entry in settings or self._related(card, entry) else ranks)
            for entry, ranks in written
        ]
        if not names_tied(card, rivals, similar):
            return result
        return _card_offered(result, result.entry, result.strategy or "semantic")

    def _place_offered(self, result: SearchResult, where: int, asked: int) -> SearchResult:
        """A card for the tool or model that a question writes only as where what it asks
        about happens ("how does the hugging face hub store safetensors") becomes an offer, the
        entry asked about first: its description or the meaning may lean to the tool."""
        if result.entry is None or self.positions[result.entry.id] != where:
            return result
        other = self.entries[asked]
        ahead = Suggestion(other.id, other.title, result.score, "match-term")
        return _card_offered(result, result.entry, result.strategy or "semantic", ahead)

    def _asked_name_offered(
        self,
        result: SearchResult,
        asked: int | None,
        similar: Sequence[tuple[int, float]],
        query: str,
    ) -> SearchResult:
        """A card for the name a long text asks about becomes an offer, the meaning's best other
        entry ahead of it, where that entry's cosine beats the card's by `ASKED_NAME_BEHIND` (an
        entry outside the meaning's ten counts at its tenth's cosine). Where the card's first
        `ASKED_NAME_KEPT` offers already hold that entry, it moves first and the name goes behind
        the offers that stood ahead of it: those stay among the first three."""
        if result.entry is None or asked is None or not similar:
            return result
        card = self.positions[result.entry.id]
        if card != asked or len(query.split()) < ASKED_NAME_WORDS:
            return result
        cosine = dict(similar).get(card, similar[-1][1])
        others = [(c, e) for e, c in similar if e != card]
        if not others or max(others)[0] - cosine <= ASKED_NAME_BEHIND:
            return result
        other = self.entries[max(others)[1]]
        strategy = result.strategy or "match-term"
        ahead = Suggestion(other.id, other.title, result.score, "semantic")
        kept = [s.id for s in result.suggestions[:ASKED_NAME_KEPT]]
        if other.id in kept:
            at = kept.index(other.id)
            before, after = result.suggestions[:at], result.suggestions[at + 1 :]
            # at the score of the offer ahead of it, so the list's scores still only fall
            score = before[-1].score if before else result.score
            name = Suggestion(result.entry.id, result.entry.title, score, strategy)
            choices = (ahead, *before, name, *after)[:MAX_SUGGESTIONS]
            return replace(result, status="suggest", entry=None, suggestions=choices)
        return _card_offered(result, result.entry, strategy, ahead)

    def _counted_name_offered(
        self,
        result: SearchResult,
        asked: int | None,
        similar: Sequence[tuple[int, float]],
        names_in: NamesIn,
    ) -> SearchResult:
        """A card for the name asked about, written only as what the text counts ("how many
        tokens does one image cost in gpt-4o": `counted`), becomes an offer where the meaning
        ranks the name nowhere in its first `COUNTED_NAME_RANKS`: the name is the unit the text
        measures in, another entry is asked about (tasks setting62, setting63). Not where the
        count says what a thing comes to ("how many tokens is a word", "... should my prompt
        be": `counted_as_measure`, the unit asked). No card for the meaning's first: where the
        description stage agreed with it, it was still wrong on the tuning slices ("... one
        image cost": Vision-Language Models for Image Patch Token)."""
        return self._written_only_as(
            result,
            asked,
            similar,
            names_in,
            COUNTED_NAME_RANKS,
            lambda before, after: counted(before) and not counted_as_measure(after),
        )

    def _material_name_offered(
        self,
        result: SearchResult,
        asked: int | None,
        similar: Sequence[tuple[int, float]],
        names_in: NamesIn,
    ) -> SearchResult:
        """A card for the name asked about, written only as the amount of another thing ("2b
        tokens of court filings: keep running the raw-text objective ...": `counted_material`),
        becomes an offer where the meaning ranks the name below its first
        `MATERIAL_NAME_RANKS`: the text is about what the amount is of, not the unit (task
        setting64)."""
        return self._written_only_as(
            result, asked, similar, names_in, MATERIAL_NAME_RANKS, counted_material
        )

    def _object_name_offered(
        self,
        result: SearchResult,
        asked: int | None,
        similar: Sequence[tuple[int, float]],
        names_in: NamesIn,
    ) -> SearchResult:
        """A card for the name asked about, every writing of it the object of the speaker's verb
        in a statement before a question ("our uni lab uses this lablup thing to book gpus what
        is it exactly": `spoken_object`), becomes an offer where the meaning ranks the name
        below its first `OBJECT_NAME_RANKS`: the question asks about something the statement
        names (task object65)."""
        return self._written_only_as(
            result, asked, similar, names_in, OBJECT_NAME_RANKS, spoken_object
        )

    def _scene_name_offered(
        self,
        result: SearchResult,
        asked: int | None,
        similar: Sequence[tuple[int, float]],
        names_in: NamesIn,
    ) -> SearchResult:
        """A card for the name asked about, every writing of it only the scene of the question
        ("when meta releases llama what is actually in those 15gb files": `scene_only`), becomes
        an offer where the meaning ranks it below its first `SCENE_NAME_RANKS`: the question
        asks about something done in that scene (task context69)."""
        return self._written_only_as(result, asked, similar, names_in, SCENE_NAME_RANKS, scene_only)

    def _compound_name_offered(
        self,
        result: SearchResult,
        asked: int | None,
        similar: Sequence[tuple[int, float]],
        names_in: NamesIn,
    ) -> SearchResult:
        """A card for the name asked about, every writing of it the modifier of a compound
        after "what is" (`modifies_head`) whose head words the card's own text does not all
        write ("what is zero stage 3" keeps ZeRO), becomes an offer behind the meaning's first
        where that leads the name's cosine by `COMPOUND_NAME_LEAD` and is no entry the glossary
        relates to the name ("what is system prompt caching": the caching is asked). Task
        compound70."""
        if result.entry is None or asked is None or not similar:
            return result
        card = self.positions[result.entry.id]
        first, lead_cosine = similar[0]
        # a name outside the meaning's list is at most as near as its last
        name_cosine = dict(similar).get(card, similar[-1][1])
        if card != asked or first == card or self._related(card, first):
            return result
        if lead_cosine - name_cosine < COMPOUND_NAME_LEAD:
            return result

        def compound_head(before: str, after: str) -> bool:
            return modifies_head(before, after) and not all(
                self.fulltext.strength(head, card) > 0 for head in head_words(after)
            )

        if not self._written_all_as(result, card, names_in, compound_head):
            return result
        ahead = Suggestion(
            self.entries[first].id, self.entries[first].title, result.score, "semantic"
        )
        return _card_offered(result, result.entry, result.strategy or "match-term", ahead)

    def _written_only_as(
        self,
        result: SearchResult,
        asked: int | None,
        similar: Sequence[tuple[int, float]],
        names_in: NamesIn,
        ranks: int,
        written_as: Callable[[str, str], bool],
    ) -> SearchResult:
        """The card for the name asked about, where every writing of it in the text is
        `written_as` (given the text before and after it) and the meaning ranks it below its
        first `ranks`, becomes an offer with `_ahead`'s offer ahead of it: the shape the three
        readings above share (the name only as the text's setting, another thing asked)."""
        if result.entry is None or asked is None or not similar:
            return result
        card = self.positions[result.entry.id]
        if card != asked or card in (entry for entry, _ in similar[:ranks]):
            return result
        if not self._written_all_as(result, card, names_in, written_as):
            return result
        return _card_offered(
            result, result.entry, result.strategy or "match-term", self._ahead(result, similar)
        )

    def _part_setting_offered(
        self, result: SearchResult, similar: Sequence[tuple[int, float]], names_in: NamesIn
    ) -> SearchResult:
        """A name written only as the thing a question asks a part of ("which part of a
        transformer block normalises ...", "in a vision language model which bit encodes the
        picture", "in rlhf there's a penalty term ...": `part_setting`), where the meaning ranks
        another entry above it: the part asked is that other thing. Its card becomes an offer,
        or, where it is the first offer, it stays offered; ahead of it goes the meaning's best
        entry above the name that the glossary relates to it (its part), else, for a card, the
        meaning's first. Offers only, never a card (task part69)."""
        setting = result.entry
        if setting is None and result.suggestions:
            setting = self.entries[self.positions[result.suggestions[0].id]]
        if setting is None or not similar:
            return result
        name = self.positions[setting.id]
        ranked = [entry for entry, _ in similar]
        if ranked[0] == name or not self._written_all_as(result, name, names_in, part_setting):
            return result
        above = ranked[: ranked.index(name)] if name in ranked else ranked
        parts = [e for e in above if self._related(name, e)]
        if not parts and result.entry is None:
            return result
        part = self.entries[parts[0] if parts else above[0]]
        ahead = Suggestion(part.id, part.title, result.score, "semantic")
        if result.entry is not None:
            return _card_offered(result, setting, result.strategy or "match-term", ahead)
        return replace(result, suggestions=_led_by(ahead, result.suggestions))

    def _mechanism_setting_offered(
        self, result: SearchResult, similar: Sequence[tuple[int, float]], names_in: NamesIn
    ) -> SearchResult:
        """A card for a tool or model whose name is written only as the setting of a question
        about how it works something out or about a part of it the text does not name ("how
        does pytorch know the derivatives", "x.shape ... torch.Size ... what is this object":
        `mechanism_setting`) becomes an offer; ahead of it goes the meaning's nearest entry the
        glossary relates to it (the mechanism or part), else `_ahead`'s. The meaning itself
        often ranks the tool first there, so no cosine decides (task part72)."""
        setting = result.entry
        if setting is None or setting.kind not in DOERS or not similar:
            return result
        name = self.positions[setting.id]
        if not self._written_all_as(result, name, names_in, mechanism_setting):
            return result
        parts = [e for e, _ in similar if e != name and self._related(name, e)]
        if parts:
            part = self.entries[parts[0]]
            ahead = Suggestion(part.id, part.title, result.score, "semantic")
        else:
            ahead = self._ahead(result, similar)
        own = ahead.id == setting.id  # the meaning's first is the tool itself
        return _card_offered(
            result, setting, result.strategy or "match-term", None if own else ahead
        )

    def _contrast_name_offered(
        self, result: SearchResult, similar: Sequence[tuple[int, float]], names_in: NamesIn
    ) -> SearchResult:
        """A card whose name is written only as what the thing asked about is not, is without,
        replaces or is compared against, or as a yardstick of its size ("an old pc without a
        graphics card", "far slower than a graphics card", "a small gpt-2 level model
        supervised gpt-4": `contrast_only`) becomes an offer behind the ranking's first offer,
        else the meaning's first entry that is not the card. Not where the meaning ranks the card
        first by `CONTRAST_NAME_KEEPS`: nothing else is described near it. Offers only, no new
        card: the meaning often ranks the named thing first there too (task contrast73)."""
        card = result.entry
        if card is None or not similar:
            return result
        name = self.positions[card.id]
        others = [(entry, cosine) for entry, cosine in similar if entry != name]
        lead = similar[0][1] - (others[0][1] if others else 0.0)
        if similar[0][0] == name and lead >= CONTRAST_NAME_KEEPS:
            return result
        if not self._written_all_as(result, name, names_in, contrast_only):
            return result
        ahead = self._ahead(result, others) if result.suggestions or others else None
        return _card_offered(result, card, result.strategy or "match-term", ahead)

    def _written_all_as(
        self,
        result: SearchResult,
        card: int,
        names_in: NamesIn,
        written_as: Callable[[str, str], bool],
    ) -> bool:
        """Whether `card`'s name is written in the result's text and every writing of it is
        `written_as` (given the text before and after it)."""
        text = result.normalized_query
        spans = [found for found in names_in(text) if found.entry == card]
        return bool(spans) and all(
            written_as(text[: found.start], text[found.end :]) for found in spans
        )

    def _ahead(self, result: SearchResult, similar: Sequence[tuple[int, float]]) -> Suggestion:
        """The offer put ahead of a card turned into one: the ranking's first offer, nearer the
        thing asked than the meaning's first ("... spend thinking": Thinking Budget), else the
        meaning's first."""
        if result.suggestions:
            return result.suggestions[0]
        first = self.entries[similar[0][0]]
        return Suggestion(first.id, first.title, result.score, "semantic")

    def _stated_name_yields(
        self,
        card: SearchResult,
        offered: SearchResult,
        similar: Sequence[tuple[int, float]],
        query: str,
        names_in: NamesIn,
    ) -> SearchResult:
        """A statement, then a question that does not write the statement's name ("attention is
        permutation invariant my notes say. so how does the model know word order?"): where
        `_asked_name_offered` turned the name's `card` into an offer behind the meaning's first,
        and the meaning puts that first clearly ahead of the name and of every other entry, the
        meaning's first is the card, the name its first offer (task shape57, dev19 shape C)."""
        if card.entry is None or offered.entry is not None or len(similar) < 2:
            return offered
        first, cosine = similar[0]
        if not offered.suggestions or offered.suggestions[0].id != self.entries[first].id:
            return offered
        clauses = asked_clause(query[:MAX_QUERY])
        name = self.positions[card.entry.id]
        if clauses is None or any(f.entry == name for f in names_in(clauses[1])):
            return offered
        cosines = dict(similar)
        behind = cosine - cosines.get(name, similar[-1][1])
        runner = max(c for e, c in similar[1:] if e != name) if len(similar) > 2 else 0.0
        if behind < STATED_NAME_BEHIND or cosine - runner < STATED_NAME_LEAD:
            return offered
        rest = offered.suggestions[1:]
        return replace(
            offered,
            status="match",
            entry=self.entries[first],
            strategy="semantic",
            suggestions=rest,
        )

    def _pasted_code_offered(
        self, result: SearchResult, query: str, names_in: NamesIn
    ) -> SearchResult:
        """A card for a name written only inside the code of a pasted line (`pasted_then_asked`,
        `pasted_in_code`: "`python -m vllm.entrypoints.openai.api_server` what's the difference
        between this and just calling model.generate") becomes an offer where what is asked
        after the line, read alone, does not rank the card's entry among its first
        `PASTED_ASK_RANKS`: the line's identifiers pull the whole text's meaning to them (task
        pasted55). Not where what is asked writes the name again ("... what is vllm even")."""
        split = pasted_then_asked(query) if result.entry is not None else None
        if result.entry is None or split is None:
            return result
        paste, ask = split
        card = self.positions[result.entry.id]
        pasted = normalize(paste)
        written = [pasted[f.start : f.end] for f in names_in(pasted) if f.entry == card]
        if not written or card in {f.entry for f in names_in(normalize(ask))}:
            return result
        semantic = self.semantic
        if not semantic or not all(pasted_in_code(paste, name) for name in written):
            return result
        alone = semantic.similar_to(semantic.encoder.encode_queries([ask])[0], PASTED_ASK_RANKS)
        if card in {entry for entry, _ in alone}:
            return result
        return _card_offered(result, result.entry, result.strategy or "match-term")

    def _bare_paste_offered(
        self, result: SearchResult, query: str, names_in: NamesIn
    ) -> SearchResult:
        """A card for a text that is only a pasted log or error line (`pastes_log`) and asks
        nothing becomes an offer, unless the line writes the card's name plainly ("WARNING: KV
        cache is full"): a name written only as a field's label or in code (`pasted_label`,
        `pasted_in_code`: "epoch=3 step=1200 loss=2.31"), or not at all ("CUDA out of memory.
        Tried to allocate ..." read as Video RAM), says where the numbers come from, and nothing
        says which of them the user wants explained (task file56)."""
        if result.entry is None or not asks_nothing(query) or not pastes_log(query):
            return result
        normalized = normalize(query)
        card = self.positions[result.entry.id]
        written = [normalized[f.start : f.end] for f in names_in(normalized) if f.entry == card]
        if any(not pasted_label(query, w) and not pasted_in_code(query, w) for w in written):
            return result
        return _card_offered(result, result.entry, result.strategy or "semantic")

    def _related(self, one: int, other: int) -> bool:
        """Does either entry's related list name the other?"""
        first, second = self.entries[one], self.entries[other]
        return first.id in second.related or second.id in first.related

    def _described_offered(
        self, result: SearchResult, name: int, described: int, text: str, names_in: NamesIn
    ) -> SearchResult:
        """A card for the `name` a question asks about becomes an offer, the `described` entry
        first, where the description stage put that other entry first and the words around
        the name alone describe it strongly (`DESCRIBED_REST`), though the text does not name
        it: "how does the kv cache get reused across requests that share a prompt start" writes
        KV Cache and describes Prefix Caching. A text that names both is left to the name rules."""
        if result.entry is None or self.positions[result.entry.id] != name or described == name:
            return result
        found = names_in(text)
        spans = [f for f in found if f.entry == name]
        if not spans or any(f.entry == described for f in found):
            return result
        rest = text
        for span in reversed(spans):
            rest = f"{rest[: span.start]} {rest[span.end :]}"
        if self.fulltext.strength(rest, described) < DESCRIBED_REST:
            return result
        other = self.entries[described]
        ahead = Suggestion(other.id, other.title, result.score, "description")
        return _card_offered(result, result.entry, result.strategy or "match-term", ahead)

    def _neighbour_meant(
        self,
        result: SearchResult,
        similar: Sequence[tuple[int, float]],
        text: str,
        names_in: NamesIn,
    ) -> SearchResult:
        """A question's card its description won, its name not written, goes to the meaning's
        first entry, the card its first offer, where the words score both nearly alike
        (`neighbour_meant`): "the 405B model doesn't fit on one gpu even at 8 bit. how do people
        split it?" asks for Model Parallelism in words Quantization's text scores a little higher."""
        if result.entry is None or result.strategy != "description":
            return result
        card = self.positions[result.entry.id]
        if any(found.entry == card for found in names_in(text)):
            return result
        hits = self.fulltext.search(text, limit=len(self.entries))
        meant = neighbour_meant(card, similar, {h.document: h.bm25 for h in hits})
        if meant is None or any(found.entry == meant for found in names_in(text)):
            return result  # a name written is where the question is, not what it asks
        other = self.entries[meant]
        offered = _card_offered(result, result.entry, "description")
        rest = tuple(s for s in offered.suggestions if s.id != other.id)
        return replace(offered, status="match", entry=other, strategy="semantic", suggestions=rest)

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
        """The entry a search for `text` (no server aliases) answers with, or offers alone on
        the strength of a name (a prefix, a typo, a plural), or None: "speculative" leads to
        Speculative Decoding, "finetune" to Fine-Tuning. Several offers ("prompt": Prompt
        Injection, Prompt Engineering…) lead nowhere yet: `/define` asks which, and a
        server's alias is how its moderators answer (as `/alias add` reads it)."""
        result = self.search(text)
        if result.entry is not None:
            return result.entry
        if len(result.suggestions) != 1:
            return None
        [only] = result.suggestions
        if only.strategy in ("description", "match-term", "semantic"):
            return None
        return self.entry(only.id)

    # -- autocomplete and term finding -------------------------------------------------------

    def autocomplete(
        self,
        text: str,
        overlay: Aliases = None,
        popular: Sequence[str] = (),
        limit: int = 25,
    ) -> list[Choice]:
        """Choices for a partly typed term: prefix hits first, then typo-tolerant ones; for an
        empty box, the `popular` ids first, then the most linked-to entries. Discord markup
        around the words (a custom emoji, a mention) is no part of a term, as in `search`."""
        from bot.search import completion

        typed = without_chat_markup(text)
        return completion.complete(self, typed, self.server_aliases(overlay), popular, limit)

    def find_terms(
        self, text: str, overlay: Aliases = None, context: str | None = None
    ) -> list[TermMention]:
        """Glossary terms written in `text`, in order of appearance, each entry once; `context`
        names the place the text is shown, for entries' match exclusions (notIn)."""
        return self._mentions(text, overlay, context, as_typed=True)

    def find_named_terms(self, text: str, overlay: Aliases = None) -> list[TermMention]:
        """Like `find_terms`, for a message someone asked to have explained: they want every
        term it names, so acronyms count in any case, as in a search box ("rag" for RAG), and
        so do the field's words in another language that /define reads ("注意力机制")."""
        return self._derived_off_field(text, self._mentions(text, overlay, None, as_typed=False))

    def _derived_off_field(self, text: str, found: list[TermMention]) -> list[TermMention]:
        """`found` without the entries only an everyday word's form names ("embedded" for
        Embeddings, "distilled" for distillation) where the meaning of `text` does not rank
        them, the text leans away from the field and writes no name only the field's: /define's
        rule (`_unranked_off_field`) for the message asked to be explained. A name written as
        it is stays."""
        semantic = self.semantic
        derived = [m for m in found if self._only_a_form(m.surface)]
        if semantic is None or not len(semantic) or not derived:
            return found
        for named in (m for m in found if m not in derived):  # "aligning ..., skipping ppo"
            said = normalize(named.surface)
            if self._writes_field_name(said, [Found(self.positions[named.entry.id], 0, len(said))]):
                return found
        meaning = semantic.encoder.encode_query(normalize(text))
        if field_cosine(semantic, meaning) >= OFFER_FIELD_COSINE:
            return found
        ranked = {self.entries[p].id for p, _ in semantic.similar_to(meaning, SEMANTIC_CANDIDATES)}
        dropped = {id(m) for m in derived if m.entry.id not in ranked}
        return [m for m in found if id(m) not in dropped]

    def _only_a_form(self, surface: str) -> bool:
        """Is `surface` one common English word that is no name itself, in either number (read
        as a name by its noun: "embedded")?"""
        key = compact(normalize(surface))
        if " " in surface.strip() or not key or not is_common(key):
            return False
        return not any(self.names.lookup(k) for k in (key, *plural_variants(key)))

    def _mentions(
        self, text: str, overlay: Aliases, context: str | None, *, as_typed: bool
    ) -> list[TermMention]:
        server = self.server_aliases(overlay)
        read = without_links(text)  # a link's address names no term; offsets stay those of text
        found = find_mentions(
            read, self.names, self.entries, server, context, as_typed=as_typed, max_words=ALL_WORDS
        )
        if not as_typed:  # asked to explain: the field's words in another language count too
            found = self._foreign_mentions(read, found)
        return [
            TermMention(self.entries[f.entry], text[f.start : f.end], f.start, f.end) for f in found
        ]

    def _foreign_mentions(self, text: str, found: list[Found]) -> list[Found]:
        """`found`, with the entries `text` names in another language ("注意力机制") where they
        are written, in order, each entry once: the names their English has (`foreign`)."""
        seen = {f.entry for f in found}
        for start, end, english in foreign_terms(text):
            named = find_mentions(
                english, self.names, self.entries, NO_ALIASES, None, as_typed=False
            )
            for mention in named[:1]:
                if mention.entry not in seen:
                    seen.add(mention.entry)
                    found.append(Found(mention.entry, start, end))
        return sorted(found, key=lambda f: f.start)


_POINTS_BACK = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)


def _clipping(key: str, title: str) -> bool:
    """Is `key` (compact) a clipping of `title` (normalised): its letters in order from the
    title's first ("temp", "ckpt", "o11y" no: a digit), at most `CLIPPED_SHARE` of them, and
    no word of it ("attention" of "attention mechanism" is its head, which the meaning reads)?"""
    letters = compact(title)
    if not key.isalpha() or key[:1] != letters[:1] or key in title.split():
        return False
    rest = iter(letters)
    return len(key) <= CLIPPED_SHARE * len(letters) and all(c in rest for c in key)


def _without_names(clause: str, found: Sequence[Found]) -> str:
    """`clause` with the names `found` in it left out: the rest still describes ("a small
    gpt-2-level model supervised gpt-4 and the student beat it")."""
    kept, at = [], 0
    for each in sorted(found, key=lambda f: f.start):
        kept.append(clause[at : each.start])
        at = max(at, each.end)
    return " ".join(" ".join([*kept, clause[at:]]).split())


def _voted_where_moved(
    voted: list[tuple[int, float]],
    said: Vectors,
    semantic: SemanticIndex,
    meaning: Vectors,
) -> tuple[list[tuple[int, float]], Vectors | None]:
    """The clause vote of a text writing names in passing (`_voting_clauses`), and the clauses'
    vectors, where it puts another entry first than the whole text does; else the whole text's
    ranking and no clauses: the averaged cosines run lower, so the same first on the vote's
    scale would lose a card the whole text's reading gives (bench/results/semantic.md "long74":
    kv cache, checkpoint, safetensors on the tuning slices)."""
    whole = semantic.similar_to(meaning, SEMANTIC_CANDIDATES)
    if voted and whole and voted[0][0] != whole[0][0]:
        return voted, said
    return whole, None


def _inflects_common(word: str) -> bool:
    """Is `word`, or another inflection of it, a common English word ("distill": "distilled";
    "watermarks": "watermark")? Then it is as often said in its everyday sense ("can you distill
    the main points of this book"). Candidates, most no words at all."""
    bases = {word}
    for ending in ("ing", "ed", "es", "s", "d"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            bases.add(word[: -len(ending)])
    endings = ("", "e", "s", "es", "d", "ed", "ing")
    return any(is_common(base + ending) for base in bases for ending in endings)


def _clause_read_alone(asked: str) -> bool:
    """Does the asking clause say something of its own, to be read alone
    (`_asked_clause_agreeing`)?"""
    if sum(word not in STOPWORDS for word in asked.split()) < 2:
        return False  # "what is that for": the clause says nothing of its own
    # "flash attention, why do transformers need it": it asks about the context
    return not _POINTS_BACK.search(asked)


def _asked_clause_agreeing(
    similar: list[tuple[int, float]],
    asked: str,
    semantic: SemanticIndex,
    vector: Vectors,
) -> list[tuple[int, float]]:
    """The meaning of a message whose question follows context sentences ("we serve llama with
    vllm. what is a kv cache"), with the first entry at the asking clause's own cosine where
    that clause alone puts the same entry first and nearer: the context pulls the whole
    message's meaning away from what is asked. Where the clause alone prefers another entry,
    the whole message's reading stands (taking the clause's best entries over the whole's
    traded cards: `bench/results/semantic.md`, task context19). The first entry's cosine
    alone, against the whole's runners-up: the clause's whole ranking (`_unframed_agreeing`'s
    way) gained tuning cards but lost held-out right cards (task lead26). `vector` is the
    clause's, embedded beside the message (one pass)."""
    if not similar or not _clause_read_alone(asked):
        return similar
    own = semantic.similar_to(vector, 1)
    first, cosine = similar[0]
    if own and own[0][0] == first and own[0][1] > cosine:
        return [(first, own[0][1]), *similar[1:]]
    return similar


def _unframed_agreeing(
    similar: list[tuple[int, float]], semantic: SemanticIndex, vector: Vectors
) -> list[tuple[int, float]]:
    """The meaning of the message without its asker's framing (`without_framing`) where it
    puts the same entry first and nearer: who asks ("our soccer parents asked which ...") is no
    part of what is asked. Its whole ranking, not the first cosine alone: a lead is measured
    between cosines of one text (the framing also pulls the runners-up away). `vector` is the
    unframed text's, embedded beside the message (one pass)."""
    own = semantic.similar_to(vector, len(similar))
    if own and similar and own[0][0] == similar[0][0] and own[0][1] > similar[0][1]:
        return own
    return similar


def _unvoiced_agreeing(
    similar: list[tuple[int, float]], semantic: SemanticIndex, vector: Vectors
) -> list[tuple[int, float]]:
    """The meaning of the message without the speaker's opening (`without_speaker`) where it
    puts the same entry first and nearer: who asks ("accountant here, ...", "nurse: ...") is no
    part of what is asked, and thins every cosine. Never where it moves the first elsewhere:
    cut from the whole text (every rule reading it) the opening traded held-out right cards for
    wrong ones (task voice59); the lexical and off-field rules still read the whole text.
    The first entry's cosine alone, against the whole's runners-up (`_asked_clause_agreeing`'s
    way): the unvoiced text's whole ranking lost tuning right cards where its runners-up came
    nearer too (task voice61). `vector` is the unvoiced text's, embedded beside the message (one
    pass)."""
    own = semantic.similar_to(vector, 2)
    if not own or not similar or own[0][0] != similar[0][0] or own[0][1] <= similar[0][1]:
        return similar
    if len(own) > 1 and own[0][1] - own[1][1] < UNVOICED_LEAD:
        return similar
    return [(similar[0][0], own[0][1]), *similar[1:]]


def _described_past_names(pool: Pool, query: str) -> int | None:
    """The description stage's own first in a long text that asks nothing and has no lexical
    card, the names it writes in passing set aside ("... every token ...", "... on the gpu ...":
    `match-term` mentions, which lead the pool at `MENTION_SCORE`): the best described entry
    where it leads the next described one by `DESCRIBED_LEAD` (bench/results/semantic.md
    "long34")."""
    if pool.best_score() >= MATCH_SCORE or "?" in query:
        return None
    described = [(e, c.score) for e, c in pool.ranked() if c.strategy == "description"]
    if not described:
        return None
    second = described[1][1] if len(described) > 1 else 0.0
    return described[0][0] if described[0][1] - second >= DESCRIBED_LEAD else None


def _lexical_lead(pool: Pool) -> float:
    """How far the lexical pool's first scores over its second (its whole score if alone)."""
    ranked = pool.ranked()
    if not ranked:
        return 0.0
    return ranked[0][1].score - (ranked[1][1].score if len(ranked) > 1 else 0.0)


def _setting_score(
    pool: Pool, similar: Sequence[tuple[int, float]], setting: Sequence[int]
) -> float:
    """The most a story's written names (its `setting`) may score: an offer, and behind the
    meaning's first entry that is none of them ("the llama model kept putting its attention on
    the first token ... what do people call that token": Attention Sink is offered before
    Llama, what the story describes before where it happened)."""
    described = next((e for e, _ in similar if e not in setting and e in pool.by_entry), None)
    ceiling = MATCH_SCORE - MATCH_MARGIN
    if described is None:
        return ceiling
    return min(ceiling, pool.by_entry[described].score - SETTING_BEHIND)


def _pointed_back_at(query: str, rules: QuestionRules) -> tuple[int, int] | None:
    """The entry named before a comma that the words after it point back at ("reflow, sd3
    uses it", "rope, llama has them"): the text is about that name, whatever product uses
    it, at any rank of the meaning (which reads "reflow" as soldering)."""
    head, comma, tail = query.partition(",")
    head = normalize(head)
    # all of it a name: "pytorch on amd gpus with rocm, does it work yet" is about both
    if not comma or not _POINTS_BACK.search(tail) or not QUALIFIERS.isdisjoint(head.split()):
        return None
    return rules.first_name(head)


def _other_asked(card: SearchResult, offer: Suggestion) -> SearchResult:
    """`card` with the second entry a message asks outright about (`offer`) offered first and
    a button on it (`other_side`)."""
    return replace(card, suggestions=_led_by(offer, card.suggestions), other_side=offer.id)


def _led_by(offer: Suggestion, suggestions: Sequence[Suggestion]) -> tuple[Suggestion, ...]:
    """`suggestions` with `offer` first (moved there if among them), up to MAX_SUGGESTIONS."""
    rest = tuple(s for s in suggestions if s.id != offer.id)
    return (offer, *rest)[:MAX_SUGGESTIONS]


def _card_offered(
    result: SearchResult, entry: Entry, strategy: Strategy, ahead: Suggestion | None = None
) -> SearchResult:
    """`result`'s card (`entry`, decided by `strategy`) turned into the first choice offered
    (after `ahead`, if given), its other choices after it."""
    card = Suggestion(entry.id, entry.title, result.score, strategy)
    rest = tuple(s for s in result.suggestions if ahead is None or s.id != ahead.id)
    choices = (*((ahead,) if ahead else ()), card, *rest)[:MAX_SUGGESTIONS]
    return replace(result, status="suggest", entry=None, suggestions=choices)


def _embedded(entries: tuple[Entry, ...]) -> SemanticIndex:
    """The semantic stage over `entries` (vectors cached on disk); imported only when built."""
    from bot.search.semantic import SemanticIndex, default_cache_dir

    return SemanticIndex.build(entries, cache_dir=default_cache_dir())
