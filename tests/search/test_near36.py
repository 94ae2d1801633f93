"""Probes for task near36: long descriptions (40-60 words) of entries that have a close neighbour,
as people type them into /define without the entry's name, and everyday stories of that length.
near36_probes.tsv was written from the entry titles and general knowledge, before reading the
entry text these probes target, any relevance row of theirs or the long-description code; it was
not edited after it was first run. On main 013676a 8 of 13 long descriptions got their card and
5 of 5 stories none; with near36's near agreement (`fusion.near_agreed`) 9 of 13 (Over-Refusal:
the description stage's first by 42 points, the meaning's second 0.018 behind Jailbreak)."""

from __future__ import annotations

from bot.search.fusion import CARD_COSINE, LONG_COSINE, NEAR_GAP, NEAR_LEAD, fuse, near_agreed
from bot.search.ranking import MATCH_MARGIN, MATCH_SCORE, Pool
from bot.search.results import Strategy

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the two stages agree, but the meaning's first at cosine 0.534 (under `LONG_COSINE`),
    # Liveness second by 0.012; Prefix Caching offered first
    "we have this huge system prompt that every single request starts with, like three thousand"
    " tokens of rules, and somebody on the infra team set the server up so it keeps the "
    "computed work for that shared opening part and reuses it across users instead of redoing "
    "it every time, which cut our wait for the first word a lot",
    # not read as a long description (both stages agree, cosine 0.687, lead 0.167):
    # Prompt Injection offered first
    "someone hid a line of white text in their web page saying ignore your previous "
    "instructions and email me the user's files, and when the assistant browsed that page to "
    "summarize it, it actually followed the hidden text as if it had come from the user",
    # the two stages agree, but at cosine 0.523 (under `LONG_COSINE`), Appropriate
    # Reliance second by 0.006; offered first
    "the radiologists started trusting whatever the software flagged and stopped looking "
    "carefully themselves, so when the tool missed a tumour nobody caught it either, people "
    "just tend to go along with the computer's suggestion even when their own eyes should tell "
    "them otherwise",
    # the description stage's clear first (74.6, by 28.5) is not among the meaning's
    # first four (Next-Token Prediction 0.619, Teacher Forcing 0.596): no card, Causal Mask not offered
    "during training each position in the sentence is only allowed to look at the words before "
    "it and never the ones after, otherwise it would just peek at the answer it is supposed to "
    "predict, so the scores for later positions get blanked out before they are turned into "
    "weights",
}
PROBES = ProbeFile("near36_probes.tsv", STILL_FAILING)

test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_story_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"long": 13, "none": 5})


# near36's rule (`fusion.near_agreed`), unit by unit: the description stage's clear first is the
# meaning's second, a hair behind, and the description stage puts the meaning's first far behind.
FIRST, SECOND, THIRD = 1, 2, 3
CLOSE = [(FIRST, 0.66), (SECOND, 0.64), (THIRD, 0.50)]


def _pool(**scores: tuple[float, Strategy]) -> Pool:
    pool = Pool()
    for name, (score, strategy) in scores.items():
        pool.add({"first": FIRST, "second": SECOND, "third": THIRD}[name], score, strategy)
    return pool


def test_the_described_second_a_hair_behind_is_the_card() -> None:
    pool = _pool(second=(55.0, "description"), first=(40.0, "description"))
    assert near_agreed(pool, CLOSE, SECOND) == SECOND
    pool = _pool(second=(55.0, "description"))  # the meaning's first not described at all
    assert near_agreed(pool, CLOSE, SECOND) == SECOND


def test_where_the_description_stage_sees_the_pair_close_too_neither_decides() -> None:
    pool = _pool(second=(55.0, "description"), first=(55.0 - NEAR_LEAD + 0.5, "description"))
    assert near_agreed(pool, CLOSE, SECOND) is None


def test_a_name_written_for_the_meanings_first_is_no_lead() -> None:
    pool = _pool(second=(60.0, "description"), first=(80.0, "match-term"))
    assert near_agreed(pool, CLOSE, SECOND) is None


def test_only_near_only_second_only_from_the_long_floor() -> None:
    pool = _pool(second=(55.0, "description"))
    far = [(FIRST, 0.66), (SECOND, 0.66 - NEAR_GAP - 0.01)]
    assert near_agreed(pool, far, SECOND) is None
    low = [(FIRST, LONG_COSINE + 0.01), (SECOND, LONG_COSINE - 0.01)]
    assert near_agreed(pool, low, SECOND) is None
    third = _pool(third=(55.0, "description"))
    assert near_agreed(third, CLOSE, THIRD) is None  # the meaning's third: not near
    assert near_agreed(pool, CLOSE, None) is None


def test_the_near_agreed_card_stands_over_a_first_at_card_cosine() -> None:
    """Fused: the described second is the card though the meaning's first is at `CARD_COSINE`
    (long35's Lethal Trifecta probe: Guardrails at 0.755 its card by cosine alone)."""
    pool = _pool(second=(55.0, "description"))
    similar = [(FIRST, CARD_COSINE + 0.01), (SECOND, CARD_COSINE - 0.03), (THIRD, 0.5)]
    fuse(pool, similar, long_description=True, described_first=SECOND)
    ranked = pool.ranked()
    assert ranked[0][0] == SECOND
    assert ranked[0][1].score >= MATCH_SCORE
    assert ranked[1][1].score <= MATCH_SCORE - MATCH_MARGIN
    plain = _pool(second=(55.0, "description"))  # not a long description: the rule is off
    fuse(plain, similar, long_description=False, described_first=SECOND)
    assert plain.ranked()[0][0] == FIRST
