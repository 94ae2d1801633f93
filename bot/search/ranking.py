"""How candidates are weighed: the scores, the thresholds and the pool they meet in.

Scores run 0-100. Names settle an answer by their standing (title, the server's alias, the
glossary's aliases, match terms, ids); everything else is pooled, best score per entry, and
answered directly only when it is strong and clearly ahead (`MATCH_SCORE`, `MATCH_MARGIN`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, get_args

from bot.search.names import SERVER_ALIAS_TIER, TIER, NameKind
from bot.search.results import Strategy

if TYPE_CHECKING:
    from bot.search.fulltext import TextHit

# Decision thresholds (tuned on tests/search/relevance.tsv).
MATCH_SCORE = 88.0  # a direct answer needs at least this ...
MATCH_MARGIN = 5.0  # ... and this much over the best other entry
# ... the same for a card the meaning alone decides: on calib, 8 to 15 cost 1 to 8 right cards
# of 95 and left 2 or 3 wrong ones of the 4 (bench/card_bar_sweep.py, bench/results/semantic.md)
SEMANTIC_MARGIN = MATCH_MARGIN
SUGGEST_SCORE = 75.0  # below this a candidate is not worth offering: the answer is "none"
MAX_SUGGESTIONS = 5
# Choices with fewer than this many are filled from the meaning's first as many entries: a
# description the meaning ranks right but the pool missed is offered (bench/results/semantic.md
# "offers73").
FILLED_OFFERS = 3

# A question asking for a remedy whose meaning puts one entry first, this near and this far ahead
# of its second, gets that entry's card, not an offer (bench/results/semantic.md "fix74"). Tuning:
# the right firsts sit at 0.545-0.675 and lead by 0.07-0.13; an off-topic one at 0.499.
REMEDY_COSINE = 0.52
REMEDY_LEAD = 0.06

PLURAL_PENALTY = 2.0  # "kv caches" names KV Cache a little less surely than "kv cache"
PART_PENALTY = 6.0  # a title part is a weaker name than a curated one
NEAR_EXACT = 92.0  # a prefix this strong and alone needs no typo search
MENTION_SCORE = 80.0  # a name inside a longer query: a lead, below the bar for an answer
ACRONYM_PHRASE_SCORE = 93.0  # "MLA attention": the acronym and a word of its own name
STRONG_DESCRIPTION = 2.2  # BM25 / log(2N) of a definition that answers a description
TIER_SCORE = {0: 100.0, SERVER_ALIAS_TIER: 99.5, 2: 99.0, 3: 98.0, 4: 98.0}
_ALIAS_TIER = TIER[NameKind.ALIAS]

STRATEGY_ORDER: dict[str, int] = {s: i for i, s in enumerate(get_args(Strategy))}


@dataclass(frozen=True, slots=True)
class Named:
    """An entry the query names outright."""

    entry: int
    tier: int  # names.TIER: lower is stronger
    strategy: Strategy
    acronym: bool  # the name is an acronym ("RAG"), not a word ("rag")
    loud: bool  # ... and the query typed it in capitals

    @property
    def rank(self) -> tuple[bool, int]:
        return (not self.loud, self.tier)  # "RAG" in capitals is the acronym, whatever else

    @property
    def score(self) -> float:
        penalty = PLURAL_PENALTY if self.strategy == "plural" else 0.0
        return TIER_SCORE.get(self.tier, 95.0) - penalty

    def rivals(self, other: Named) -> bool:
        """Equal standing: the same rank, or (typed in lower case) a word and an acronym both
        named by title or alias: "rag" the cloth and "rag" for RAG."""
        if other.rank == self.rank:
            return True
        return (
            not self.loud
            and max(self.tier, other.tier) <= _ALIAS_TIER
            and self.acronym != other.acronym
        )


def keep_strongest(named: dict[int, Named], new: Named) -> None:
    old = named.get(new.entry)
    if old is None or new.rank < old.rank:
        named[new.entry] = new


@dataclass(frozen=True, slots=True)
class Candidate:
    score: float
    strategy: Strategy

    @property
    def rank(self) -> tuple[float, int]:
        return (self.score, -STRATEGY_ORDER[self.strategy])  # a tie goes to the earlier strategy


class Pool:
    """Best candidate per entry across the pooled strategies."""

    def __init__(self) -> None:
        self.by_entry: dict[int, Candidate] = {}

    def add(self, entry: int, score: float, strategy: Strategy) -> None:
        new = Candidate(score, strategy)
        old = self.by_entry.get(entry)
        if old is None or new.rank > old.rank:
            self.by_entry[entry] = new

    def cap(self, entries: Iterable[int], score: float) -> None:
        for entry in entries:
            found = self.by_entry.get(entry)
            if found is not None and found.score > score:
                self.by_entry[entry] = Candidate(score, found.strategy)

    def best_score(self) -> float:
        return max((c.score for c in self.by_entry.values()), default=0.0)

    def ranked(self) -> list[tuple[int, Candidate]]:
        return sorted(self.by_entry.items(), key=lambda item: item[1].rank, reverse=True)


def description_score(hit: TextHit, top: TextHit, scale: float) -> float:
    """Evidence from a description, 0-92.

    Strong: three or more query words, covering at least half the query's information, in a
    definition scoring well in absolute terms (BM25 over `scale`, log(2N), about the largest
    idf, so the bar holds at any glossary size). Medium, suggest-only: two or more words
    covering most of the query ("weight decay" is AdamW's, but AdamW is not weight decay). A
    single rare word that is the whole query can be suggested ("nvlink"); less cannot ("sharpe
    ratio"). Below the best hit, scores fall with BM25, so only a clear leader is answered.
    """
    if hit.matched >= 3 and hit.coverage >= 0.5 and hit.bm25 / scale >= STRONG_DESCRIPTION:
        base = 86 + 6 * hit.coverage
    elif hit.matched >= 2 and hit.coverage >= 0.45:
        base = 70 + 10 * hit.coverage
    elif hit.matched == 1 and hit.coverage >= 0.99 and hit.evidence >= 0.6 * scale:
        base = 75.0
    else:
        base = min(40 + 40 * hit.coverage, SUGGEST_SCORE - 1)
    relative = hit.bm25 / top.bm25 if top.bm25 > 0 else 0.0
    return base * (0.6 + 0.4 * relative)
