"""Probes for task offers18: a text that writes a name and is about it gets its card where the
meaning puts that name first ("with 16k gpus how often does something break, mtbf math"), a
name written only as a setting or in its everyday sense does not. offers18_probes.tsv was
written from the entry titles and general knowledge before the rule, not from the entries the
probes target nor the relevance rows."""

from __future__ import annotations

from bot.search.fusion import fuse
from bot.search.ranking import MATCH_SCORE, MENTION_SCORE, Pool

from .probe_files import ProbeFile, no_card, not_the_asked_card, the_asked_card

# Probes that fail on this branch, both of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here.
STILL_FAILING = {
    "hfu on a tpu pod, how do people measure it",  # the meaning ranks HFU first at cosine < 0.5
    "what does the value head in ppo actually learn",  # the meaning puts DPO first
}
PROBES = ProbeFile("offers18_probes.tsv", STILL_FAILING)

test_a_name_written_and_asked_about_gets_its_card = PROBES.test("card", expect=the_asked_card)
test_a_name_written_as_a_setting_gets_no_card = PROBES.test("not", expect=not_the_asked_card)
test_a_name_in_its_everyday_sense_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 11, "not": 4, "none": 7})


def _tied_names(*, written: set[int], asked: tuple[int, int] | None = None) -> Pool:
    """Two names written, tied in the lexical pool; the meaning puts the second (1) first."""
    pool = Pool()
    pool.add(0, MENTION_SCORE - 4, "match-term")
    pool.add(1, MENTION_SCORE - 4, "match-term")
    fuse(pool, [(1, 0.6), (5, 0.52), (6, 0.45)], asked_about=asked, written=written)
    return pool


def test_the_meaning_breaks_a_tie_between_names_written() -> None:
    best, top = _tied_names(written={0, 1}).ranked()[0]
    assert best == 1
    assert top.score >= MATCH_SCORE
    # the same pool with no names known to be written: the meaning alone, capped under a card
    assert _tied_names(written=set()).ranked()[0][1].score < MATCH_SCORE
    # another name asked about ("what is X in Y" read as X): no agreement for the other one
    assert _tied_names(written={0, 1}, asked=(0, 1)).by_entry[1].score < MATCH_SCORE


def test_a_name_written_under_a_weak_description_of_its_own_agrees_with_the_meaning() -> None:
    def fused(written: set[int]) -> float:
        pool = Pool()
        pool.add(0, MENTION_SCORE - 4, "match-term")
        pool.add(0, MENTION_SCORE - 3, "description")  # its own words outscore its short name
        pool.add(2, MENTION_SCORE - 20, "description")
        fuse(pool, [(0, 0.62), (3, 0.55), (4, 0.5)], written=written)
        return pool.by_entry[0].score

    assert fused({0}) >= MATCH_SCORE
    assert fused(set()) < MATCH_SCORE  # a weak description alone is no agreement
