"""Probes for task offer24: a question from a server not about AI, reported by who asks it ("our
soccer parents asked which ..."). offer24_probes.tsv was written from the entry ids and titles
and general knowledge, without reading the entry text they target (the search code had been
read)."""

from __future__ import annotations

from bot.search.index import _unframed_agreeing
from bot.search.query import normalize, without_framing

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # offered, Context Windows first: without its framing the meaning still leads by too little
    "the hiking club wondered why the assistant forgets what we said at the start of a very long"
    " chat",
    # offered, Quantization first (Unified Memory first with the framing read)
    "my grandson's chess group asked how a big model is shrunk to fewer bits so it runs on a"
    " laptop",
}
PROBES = ProbeFile("offer24_probes.tsv", STILL_FAILING)

test_a_reported_question_gets_the_card_it_asks = PROBES.test("card", expect=the_asked_card)
test_a_reported_everyday_question_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 8, "none": 4})


def test_who_asks_is_left_out() -> None:
    text = normalize("A parent in our school group asked if the AI can forget a name?")
    assert without_framing(text) == "if the ai can forget a name"
    assert without_framing("our choir wants to know how the bot reads") == "how the bot reads"


def test_a_question_that_asks_first_or_reports_nothing_is_kept() -> None:
    assert without_framing("why does it ignore what i asked when i repeat it") is None
    assert without_framing("our bakery s bot picks the most likely words") is None


class _Meaning:
    """A semantic stage that reads any vector as the same ranking (the unframed text's)."""

    def __init__(self, ranked: list[tuple[int, float]]) -> None:
        self.ranked = ranked

    def similar_to(self, vector: object, limit: int) -> list[tuple[int, float]]:
        return self.ranked[:limit]


UNFRAMED = object()  # the unframed text's vector: the stand-in reads any as its ranking


FRAMED = [(3, 0.62), (7, 0.55), (9, 0.41)]


def test_the_unframed_reading_agreeing_and_nearer_is_taken_whole() -> None:
    # its own runners-up too: a lead measured between cosines of one text
    unframed = _Meaning([(3, 0.8), (9, 0.74), (7, 0.6)])
    assert _unframed_agreeing(FRAMED, unframed, UNFRAMED) == unframed.ranked


def test_the_unframed_reading_preferring_another_entry_changes_nothing() -> None:
    assert _unframed_agreeing(FRAMED, _Meaning([(7, 0.9), (3, 0.5)]), UNFRAMED) == FRAMED


def test_the_unframed_reading_further_away_changes_nothing() -> None:
    assert _unframed_agreeing(FRAMED, _Meaning([(3, 0.6), (7, 0.4)]), UNFRAMED) == FRAMED
