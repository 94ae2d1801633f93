"""Probes for task everyday62 (issue #12, off-topic cards): an entry's plain-word name asked in its
everyday sense (a teacher's rubric, a game's save checkpoint, a factory line's throughput, the
brain's neurons, a retirement Monte Carlo, graphics cards in SLI) gets no card; the same words
asked in the ML sense keep the card.
everyday62_probes.tsv was written from entry titles and general knowledge, before reading the
everyday code, the entries' text or any tuning row."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile, no_card


def one_of_the_asked_cards(result: SearchResult, asked: str, written: str) -> None:
    """The card of the entry asked about ("a|b": either)."""
    assert result.entry is not None, result
    assert result.entry.id in asked.split("|"), result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("everyday62_probes.tsv", STILL_FAILING)

test_a_name_asked_in_its_everyday_sense_is_no_card = PROBES.test("everyday", expect=no_card)
test_the_name_asked_in_its_ml_sense_is_its_card = PROBES.test(
    "real", expect=one_of_the_asked_cards
)
test_the_probes_are_the_ones_written = PROBES.counted({"everyday": 42, "real": 24})
