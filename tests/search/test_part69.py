"""Probes for task part69 (issue #12): a question that names one entry as the setting and asks for
a part, step, stage, kind or property of it ("in rag what step splits the documents", "which part
of a transformer block normalises the activations") is no card of the named entry; the part asked
for is the card or among the first offers. Where the same frame asks about the named entry itself
("in rlhf what is the point", "what role does a transformer block play") its card stays.
part69_probes.tsv was written from entry titles and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import (
    ProbeFile,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("part69_probes.tsv", STILL_FAILING)


def the_part_not_the_setting(result: SearchResult, asked: str, written: str) -> None:
    """The entry named as the setting takes no card; the part asked for is shown."""
    not_the_written_card(result, asked, written)
    the_asked_card_or_first_offers(result, asked, written)


test_a_part_of_a_named_entry_is_not_its_card = PROBES.test("part", expect=the_part_not_the_setting)
test_the_named_entry_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"part": 31, "asked": 23})
