"""Fusing the semantic stage with the lexical pool, on the lexical stages' score scale.

A cosine similarity becomes a score through one linear map (`semantic_score`), set on the
calibration slice so that a semantic score means what a lexical one does: at `MATCH_SCORE` and
`MATCH_MARGIN` a card is as rarely wrong whichever stage found it, so the one decision table in
`ranking` serves both. Agreement is evidence: an entry both stages rank gets `AGREEMENT_BONUS`
over the better of its two scores; a weak lexical lead (a description or a name inside a
sentence) that the meaning does not support at all loses `DISAGREEMENT_PENALTY`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.search.query import name_setting
from bot.search.ranking import MATCH_MARGIN, MATCH_SCORE, MENTION_SCORE, Candidate, Pool

SEMANTIC_CANDIDATES = 10
# Meaning alone makes a card only from this cosine up (set on the calibration slice); below it,
# or without the lexical stages' agreement, it makes choices.
CARD_COSINE = 0.75
# ... or from this cosine with this lead over the second entry.
LEAD_COSINE = 0.5
CARD_LEAD = 0.2
# A text that writes no entry's name and that no lexical stage answers: the meaning's first is
# its card from UNNAMED_COSINE when it leads the second by UNNAMED_LEAD and the words found it
# too, at any score (tuning slices: 21 right cards more, none wrong; the meaning's clear leader
# alone, without the words, was wrong one time in four; bench/results/semantic.md "bar56").
UNNAMED_COSINE = 0.66
UNNAMED_LEAD = 0.12
# The words' first, a description under `AGREEMENT_FLOOR` (no agreement bonus), that the meaning
# puts first too, from WORDS_AGREE_COSINE and WORDS_AGREE_LEAD over its second: the two stages
# agree on one entry, its card (`words_agree`; the lead keeps near neighbours that share the
# words, Adam and RMSprop, from agreeing; bench/results/semantic.md "agree59").
WORDS_AGREE_COSINE = 0.5
WORDS_AGREE_LEAD = 0.1
WORDS_AGREE_FIELD = 0.2  # ... for a text leaning to the field (its cosine to the entries' mean)
# A sentence no entry reaches this cosine with is about something else: a plain word in it
# that names an entry ("temperature", "alignment") is used in its everyday sense, no card (set
# on the calibration slice: the highest value that costs none of its right cards).
OFF_DOMAIN_COSINE = 0.37
# score = PIVOT_SCORE + SLOPE * (cosine - PIVOT_COSINE), at most MAX_SCORE: a semantic lead
# of `MATCH_MARGIN` / SLOPE in cosine is a clear lead.
PIVOT_COSINE = 0.5
PIVOT_SCORE = 78.0
SLOPE = 60.0
MAX_SCORE = 120.0  # internal only: results show at most 100; a cap here would erase leads
# A long description (this many words or more, no question, no name asked about) spreads its
# meaning over many words, so every cosine runs lower: the meaning's first is its card from
# LONG_COSINE when it leads the second by LONG_LEAD (set on the tuning slices, bench/results/
# semantic.md "desc20").
LONG_WORDS = 20
LONG_COSINE = 0.55
LONG_LEAD = 0.12
# A text of this many characters or more (normalised; a long chat message, several sentences,
# the clue anywhere) is ranked by its clauses too: each entry at the mean of the whole text's
# cosine and the clauses' vote, each clause's cosines weighted by the square of its best cosine
# over CLAUSE_FLOOR, so a clause near every entry and none ("anyway thanks") has no vote (set on
# the tuning slices' long rows, bench/results/semantic.md "long71").
CLAUSED_CHARS = 250
CLAUSE_FLOOR = 0.35
# ... and such a text's first on that averaged scale is its card from CLAUSED_AGREED_COSINE, at
# any lead, when the lexical stages put the same entry first: the long card's 0.55 / 0.12 were
# set on the whole text's scale, and a clause's cosines run lower (tuning slices' long rows with
# no card: 28 right cards more, 3 wrong, no off-topic one; bench/results/semantic.md
# "longcard72").
CLAUSED_AGREED_COSINE = 0.45
# ... or, from the same cosine and at any lead, when the description stage puts the same entry
# first by this much over its second: the words and the meaning agree on it (desc20's agreement
# at any lexical lead from cosine 0.5 was reverted; this lead keeps two entries that share the
# words, Adam and RMSprop, from agreeing on half of a text; bench/results/semantic.md "long29").
DESCRIBED_LEAD = 5.0
AGREEMENT_BONUS = 10.0
# A name inside the sentence, or a description scoring at least this, for the bonus ...
AGREEMENT_FLOOR = 86.0
AGREEMENT_COSINE = 0.5  # ... and the cosine at least this
DISAGREEMENT_PENALTY = 8.0
# The name a question asks about yields to another entry that the description stage and the
# meaning both put first, when the meaning prefers that entry by this much cosine ("gpus
# silently giving wrong math results": the words describe one thing, the name is its setting).
CONTEST_GAP = 0.25
# The name a question asks about yields its card to an entry it relates to that the meaning
# ranks first by this much cosine over it ("how does a vision transformer cut an image into
# pieces": Image Patch Token); both are offered, the meaning's first first (tuning slices:
# 0.12-0.18 turn three wrong cards into offers for two right ones; 0.1 costs five).
NEIGHBOUR_GAP = 0.15
# The name a question asks about yields its card to an offer, the described entry first, where
# the description stage puts another entry first and the words other than the name score it at
# least this (BM25 over log(2N), as `ranking.STRONG_DESCRIPTION`) though the text does not name
# it (tuning slices: 3.0 turns three wrong cards into offers for one right card; 2.5 costs five,
# 2.0 fourteen).
DESCRIBED_REST = 3.0
# A question's description card yields to the meaning's first entry where the words hardly tell
# the two apart: the meaning puts that other entry first at `NEIGHBOUR_MEANT_COSINE` or more and
# the description stage scores it at least `NEIGHBOUR_WORDS_SHARE` of the card's BM25 ("the 405b
# model doesn't fit on one gpu even at 8 bit, how do people split it": Model Parallelism, not
# Quantization; tuning slices, bench/results/semantic.md "desc52").
NEIGHBOUR_MEANT_COSINE = 0.6
NEIGHBOUR_WORDS_SHARE = 0.7
# A text that gets nothing at all, no card and no offer, is offered the description stage's first
# where its words describe that entry strongly (BM25 over log(2N), at least this), the meaning
# ranks it among its first `NOTHING_RANKS`, and the text leans to the field as a whole (its cosine
# to the entries' mean, at least `NOTHING_FIELD_COSINE`): an offer, never a card (tuning slices:
# 6 on-topic rows gain their entry among the first three, no off-topic row is offered;
# bench/results/semantic.md "none40").
NOTHING_DESCRIBED = 3.0
NOTHING_RANKS = 3
NOTHING_FIELD_COSINE = 0.1
# Choices with no card for a text that is not the field's are noise, not an answer ("how do i
# read a p value in my a/b test": Prompt Evaluation at 0.45): "none" where the text leans away
# from the field (its cosine to the entries' mean under `OFFER_FIELD_COSINE`), the meaning puts
# no entry at `OFFER_COSINE` or more, the words describe no entry strongly (`NOTHING_DESCRIBED`)
# and no name written is an acronym or coinage of the field ("lora", "swiglu"; set on the tuning
# slices, bench/results/semantic.md "offtopic41").
OFFER_FIELD_COSINE = 0.18
OFFER_COSINE = 0.5
# A question that names one thing ("how was clip trained?") asks about it when the meaning
# ranks that thing among its first few (dev): the name and the meaning agree.
NAMED_RANKS = 3
# The name a question's subject is written with (`QuestionRules._subject`): asked about whatever
# rank the meaning gives it, if any.
SUBJECT = SEMANTIC_CANDIDATES + 1
LEADING_NAME_RANKS = SUBJECT  # ... any rank or none, for a long name the question starts with
LEADING_WORDS = 3  # "how does continuous batching improve gpu utilization?"
NAMED_COSINE = 0.3
NAME_LIKE = frozenset({"match-term", "fuzzy", "prefix"})
MIN_WORDS = 3  # two words are a name, typed or mistyped; a description takes three (dev)
NEAR_NAME = 92.0  # a prefix or typo this strong answers alone
WEAK_LEXICAL = frozenset({"description", "match-term"})
# A description the meaning does not support loses; a name in the sentence keeps its offer.
PENALIZED = frozenset({"description"})


def semantic_score(cosine: float) -> float:
    return min(MAX_SCORE, PIVOT_SCORE + SLOPE * (cosine - PIVOT_COSINE))


def fuse(
    pool: Pool,
    similar: Sequence[tuple[int, float]],
    *,
    question: bool = False,
    asked_about: tuple[int, int] | None = None,
    written: Collection[int] = (),
    long_description: bool = False,
    described_first: int | None = None,
    unnamed: bool = False,
    claused: bool = False,
    field: float = 0.0,
) -> None:
    """Fold the semantic stage's best entries (position, cosine), best first, into `pool`.
    `asked_about`: the first entry a question names ("how was clip trained?", "why does my kv
    cache use so much memory") and the ranks within which the meaning must put it (`named_rank`):
    what the question asks about, even where a description of another entry scores higher.
    `question`: the text asks something, so a name nearly typed that leads is what it asks
    about. `written`: the entries whose names the text writes; of those leading the lexical
    pool together, the one the meaning puts first agrees with it (`_written_first`).
    `long_description`: the text is a long description (`long_lead`), `described_first` the
    description stage's clear first (`DESCRIBED_LEAD`). `unnamed`: the text writes no entry's
    name and asks about none, so a clear semantic leader the words found is its card
    (`unnamed_lead`). `claused`: `similar` is a long text's clause-averaged ranking, whose first
    the lexical stages' first confirms (`CLAUSED_AGREED_COSINE`). `field`: the text's cosine to
    the field as a whole (`words_agree`)."""
    ranked = pool.ranked()
    lexical_best = ranked[0][0] if ranked else None
    lexical_top = ranked[0][1].score if ranked else 0.0
    lone_name, ranks = asked_about or (None, NAMED_RANKS)
    asked_name = lone_name  # another name the question writes is its setting: no agreement
    if question and lone_name is None and ranked and ranked[0][1].strategy in NAME_LIKE:
        lone_name = ranked[0][0]  # a name nearly typed ("how do i know if it's overfiting")
    lead = similar[0][1] - similar[1][1] if len(similar) > 1 else similar[0][1] if similar else 0.0
    semantic = {
        entry: semantic_score(cosine)
        if cosine >= CARD_COSINE or (rank == 0 and cosine >= LEAD_COSINE and lead >= CARD_LEAD)
        else min(semantic_score(cosine), MATCH_SCORE - MATCH_MARGIN - 0.1)
        for rank, (entry, cosine) in enumerate(similar)
    }
    if long_description and long_lead(similar, described_first):
        first = similar[0][0]
        semantic[first] = max(semantic[first], MATCH_SCORE)
    if unnamed and lexical_top < MATCH_SCORE and unnamed_lead(similar, pool):
        semantic[similar[0][0]] = max(semantic[similar[0][0]], MATCH_SCORE)
    if words_agree(similar, ranked[0] if ranked else None, field):
        semantic[similar[0][0]] = max(semantic[similar[0][0]], MATCH_SCORE)
    if claused and claused_agreed(similar, lexical_best):
        semantic[similar[0][0]] = max(semantic[similar[0][0]], MATCH_SCORE)
    for entry, lexical in list(pool.by_entry.items()):
        if entry not in semantic and lexical.strategy in PENALIZED:
            pool.by_entry[entry] = Candidate(lexical.score - DISAGREEMENT_PENALTY, lexical.strategy)
    if ranks == SUBJECT and lone_name is not None and lone_name not in semantic:
        semantic[lone_name] = MENTION_SCORE
        similar = [*similar, (lone_name, NAMED_COSINE)]
    if lone_name is not None and _described_instead(pool, similar, lexical_best, lone_name):
        lone_name = None
    for rank, (entry, score) in enumerate(semantic.items()):
        found = pool.by_entry.get(entry)
        if found is None:
            pool.by_entry[entry] = Candidate(score, "semantic")
            continue
        # The name the question asks about, or both stages' first choice: two kinds of evidence.
        named = entry == lone_name and rank < ranks and similar[rank][1] >= NAMED_COSINE
        agree = named or (
            rank == 0
            and similar[0][1] >= AGREEMENT_COSINE
            and (
                (
                    entry == lexical_best
                    and found.strategy in WEAK_LEXICAL
                    and (
                        (found.strategy == "match-term" and asked_name in (None, entry))
                        or found.score >= AGREEMENT_FLOOR
                    )
                )
                or _written_first(entry, found, lexical_top, written, asked_name)
            )
        )
        if agree:
            score = max(score, semantic_score(similar[rank][1]))  # agreement lifts the cap
        if named:
            score = max(score, MENTION_SCORE)  # "CLIP" is a short name, but a name
            others = (c.score for e, c in pool.by_entry.items() if e != entry)
            score = max(score, max(others, default=0.0) + MATCH_MARGIN - AGREEMENT_BONUS)
        if found.strategy not in WEAK_LEXICAL and not agree:
            score = min(score, found.score)  # a name's own score stands; meaning does not sway it
        best = max(found.score, score) + (AGREEMENT_BONUS if agree else 0.0)
        strategy = "semantic" if score > found.score else found.strategy
        pool.by_entry[entry] = Candidate(min(best, MAX_SCORE), strategy)


def long_lead(similar: Sequence[tuple[int, float]], described_first: int | None = None) -> bool:
    """Does the meaning's first lead a long description clearly enough for its card, though
    under `CARD_COSINE` (`LONG_COSINE`, `LONG_LEAD`), or is it the description stage's clear
    first too (`described_first`)?"""
    if not similar:
        return False
    first, cosine = similar[0]
    lead = cosine - similar[1][1] if len(similar) > 1 else 0.0
    return cosine >= LONG_COSINE and (lead >= LONG_LEAD or first == described_first)


def claused_agreed(similar: Sequence[tuple[int, float]], lexical_best: int | None) -> bool:
    """Does a long text's clause-averaged first reach `CLAUSED_AGREED_COSINE`, where the lexical
    stages put the same entry first (the words confirm what the clauses vote for)?"""
    return (
        bool(similar) and similar[0][0] == lexical_best and similar[0][1] >= CLAUSED_AGREED_COSINE
    )


def unnamed_lead(similar: Sequence[tuple[int, float]], pool: Pool) -> bool:
    """Does the meaning's first lead a text that writes no entry's name clearly enough for its
    card, though under `CARD_COSINE` (`UNNAMED_COSINE`, `UNNAMED_LEAD`), and did the lexical
    stages find it too (in `pool`, at any score)?"""
    if len(similar) < 2 or similar[0][0] not in pool.by_entry:
        return False
    return similar[0][1] >= UNNAMED_COSINE and similar[0][1] - similar[1][1] >= UNNAMED_LEAD


def words_agree(
    similar: Sequence[tuple[int, float]], words_first: tuple[int, Candidate] | None, field: float
) -> bool:
    """Do the words and the meaning put the same entry first, the words by a description under
    `AGREEMENT_FLOOR` (`words_first`: the lexical pool's first before the meaning is folded in),
    the meaning at `WORDS_AGREE_COSINE` or more and `WORDS_AGREE_LEAD` ahead of its second, for
    a text leaning to the field (`field`, its cosine to the entries' mean, `WORDS_AGREE_FIELD`)?"""
    if len(similar) < 2 or words_first is None or words_first[0] != similar[0][0]:
        return False
    if field < WORDS_AGREE_FIELD:
        return False
    found = words_first[1]
    if found.strategy != "description" or found.score >= AGREEMENT_FLOOR:
        return False
    return similar[0][1] >= WORDS_AGREE_COSINE and similar[0][1] - similar[1][1] >= WORDS_AGREE_LEAD


def _written_first(
    entry: int, found: Candidate, lexical_top: float, written: Collection[int], asked: int | None
) -> bool:
    """Is the meaning's first `entry` a name the text writes whose candidate leads the lexical
    pool, alone or tied (with any candidate; its score is the better of its name and its own
    description), no other name asked about? Then the name and the meaning agree as for a lone name: "with 16k gpus how
    often does something break, mtbf math" writes two names the pool cannot tell apart, "on-chip
    sram, why is there so little of it" one whose own words outscore its short name."""
    return entry in written and asked in (None, entry) and found.score >= lexical_top


def _described_instead(
    pool: Pool, similar: Sequence[tuple[int, float]], described: int | None, name: int
) -> bool:
    """Do the description stage and the meaning agree on another entry than the `name` a
    question writes, the meaning by `CONTEST_GAP` over that name? Then the words say what is
    asked about and the name only where ("how do i cap the tokens claude spends thinking")."""
    if described is None or described == name or not similar or similar[0][0] != described:
        return False
    lexical = pool.by_entry[described]
    if lexical.strategy != "description" or lexical.score < AGREEMENT_FLOOR:
        return False
    cosine = dict(similar).get(name, 0.0)
    return similar[0][1] >= AGREEMENT_COSINE and similar[0][1] - cosine >= CONTEST_GAP


def narrower_first(
    card: int, asked: int | None, similar: Sequence[tuple[int, float]], related: bool
) -> int | None:
    """The entry to offer before the `card` a question's written name won, if any: the
    meaning's first, when it is `related` to the card (one's related list names the other)
    and the meaning ranks the card too, `NEIGHBOUR_GAP` behind it (a card the meaning does
    not rank at all was asked about by its name alone: "where do i put the system prompt")."""
    cosines = dict(similar)
    if card != asked or card not in cosines or similar[0][0] == card or not related:
        return None
    return similar[0][0] if similar[0][1] - cosines[card] >= NEIGHBOUR_GAP else None


def neighbour_meant(
    card: int, similar: Sequence[tuple[int, float]], described: Mapping[int, float]
) -> int | None:
    """The entry a question's description `card` yields to, if any: the meaning's first, another
    entry, at `NEIGHBOUR_MEANT_COSINE` or more and a clear lead over the card (`MATCH_MARGIN` /
    `SLOPE` in cosine), that the words (`described`: BM25 by entry) score nearly as high as the
    card (`NEIGHBOUR_WORDS_SHARE`): the words do not tell the two apart, the meaning does."""
    if not similar or similar[0][0] == card or similar[0][1] < NEIGHBOUR_MEANT_COSINE:
        return None
    first, cosine = similar[0]
    if cosine - dict(similar).get(card, 0.0) < MATCH_MARGIN / SLOPE:
        return None
    words = described.get(card, 0.0)
    return (
        first if words > 0 and described.get(first, 0.0) >= NEIGHBOUR_WORDS_SHARE * words else None
    )


def names_tied(
    card: int, written: Sequence[tuple[int, int]], similar: Sequence[tuple[int, float]]
) -> bool:
    """Is the `card` one of two names a question writes, neither of them asked about, that the
    meaning tells apart by less than a clear lead (`MATCH_MARGIN` / `SLOPE` in cosine)? Then
    nothing says which the question is about ("how often should i save a chekpoint during
    training?? every epoch??"): both are offered, not a card."""
    cosines = dict(similar)
    if card not in cosines or card not in (entry for entry, _ in written):
        return False
    # a name that only says where the question is (rank 0, "... in rag") is no rival
    others = [cosines[e] for e, ranks in written if ranks and e != card and e in cosines]
    return bool(others) and cosines[card] - max(others) < MATCH_MARGIN / SLOPE


def asked_about(
    written: Sequence[tuple[int, int]], similar: Sequence[tuple[int, float]]
) -> tuple[int, int] | None:
    """Of the entries a question names (in order, with their `named_rank`), the one it asks
    about: the first, unless the meaning prefers another one it names ("why do coding agents
    need a sandbox?") as more than context: then the question is not clear enough for a card by name."""
    if not written:
        return None
    order = {entry: rank for rank, (entry, _) in enumerate(similar)}
    first = order.get(written[0][0], len(order))
    if written[0][1] == SUBJECT:  # the subject yields only to a name the meaning ranks high
        first = min(first, NAMED_RANKS)
    # a name that only says where the question is ("... in my rag bot", rank 0) vetoes nothing
    if any(order.get(entry, len(order)) < first for entry, ranks in written[1:] if ranks):
        return None
    return written[0]


def named_rank(
    long_name: bool, before: str, *, first: bool = True, first_is_head: bool = True
) -> int:
    """How far down the meaning's ranking a name written in a question (after the text
    `before`) may be and still be what the question asks about: a long name near the start at
    any rank, a long one further on in the first three, a short one ("llm") only first, and
    not at all where it only says what the question is about ("... for an llm", "... in rag",
    "... when calling the openai api"), nor, after another name (not `first`), a long one
    the thing is weighed against ("... compared to"), or one it is for or used with ("what
    learning rate for lora adapters") where the first name is the head of its phrase, not a
    word qualifying the next ("which python library for semantic search").
    """
    setting = name_setting(before)
    if setting == "clause":
        return 0
    if not long_name:
        return 0 if setting in ("purpose", "qualified") else 1
    if not first and (setting == "rival" or (setting == "purpose" and first_is_head)):
        return 0
    return LEADING_NAME_RANKS if len(before.split()) < LEADING_WORDS else NAMED_RANKS


def wants_meaning(pool: Pool, words: int) -> bool:
    """Is the meaning worth computing? Not for a word or two (a name, typed or mistyped: an
    embedding says little about it), nor when a name nearly typed out already leads."""
    if words < MIN_WORDS:
        return False
    ranked = pool.ranked()
    if not ranked:
        return True
    top = ranked[0][1]
    return top.strategy in WEAK_LEXICAL or top.score < NEAR_NAME
