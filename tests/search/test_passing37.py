"""Probes for task passing37: a short question that writes one entry's name as a setting or
modifier ("in pytorch, what computes the gradients for me?") and asks about another; the name
written in passing is no card (issue #12). passing37_probes.tsv was written from entry titles
and general knowledge, not from the entries' text nor any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers


def the_passing_name_not_carded(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """No card for the name written in passing; the asked entry the card or among the first
    offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("passing37_probes.tsv", STILL_FAILING)

test_a_name_in_passing_is_no_card = PROBES.test("passing", expect=the_passing_name_not_carded)
test_a_name_asked_keeps_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"passing": 15, "own": 11})
