"""Probes for task passing41: a question that writes one entry's name in passing (hardware, a
file format, tokens, an optimiser, a framework: the setting or the subject of a verb) while it
asks about another; the name written in passing is no card (issue #12). passing41_probes.tsv was
written from entry titles and general knowledge, not from the entries' text nor any slice's
rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers


def the_passing_name_not_carded(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """No card for the name written in passing; the asked entry the card or among the first
    offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


STILL_FAILING: set[str] = set()
PROBES = ProbeFile("passing41_probes.tsv", STILL_FAILING)

test_a_name_in_passing_is_no_card = PROBES.test("passing", expect=the_passing_name_not_carded)
test_a_name_asked_keeps_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"passing": 15, "own": 11})
