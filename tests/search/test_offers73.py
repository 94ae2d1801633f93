"""Probes for task offers73 (issue #12, "the right entry in the card or the first three
suggestions"): a description without the entry's name gets its card, or no card and the entry
among the first three offers. offers73_probes.tsv was written from entry ids and general
knowledge, before reading the tuning rows, the entries' text or bot/search. And the rule the task
added: choices fewer than three are filled from the meaning's first (`_offers_filled`)."""

from __future__ import annotations

from bot.search import SearchIndex

from .probe_files import ProbeFile, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("offers73_probes.tsv", STILL_FAILING)

test_a_description_gets_its_card_or_first_offers = PROBES.test(
    "described", expect=the_asked_card_or_first_offers
)
test_the_probes_are_the_ones_written = PROBES.counted({"described": 32})


# `_offers_filled`: choices fewer than three are followed by the meaning's first entries. dev20's
# row was offered Semantic Search alone, Hybrid Search second in the meaning (bench/
# offers73_table.py); the choices already there keep their places, and a card is left alone.
def test_fewer_than_three_choices_are_filled_from_the_meaning(bundled_index: SearchIndex) -> None:
    result = bundled_index.search(
        "searching by exact invoice number and by meaning at the same time"
    )
    assert result.entry is None, result
    assert [s.id for s in result.suggestions] == ["semantic-search", "hybrid-search", "token"]


def test_the_choices_already_there_keep_their_places(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("where should i keep the vectors for my rag app")
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == ["vector-databases", "rag"]
    assert len(result.suggestions) == 3, result
