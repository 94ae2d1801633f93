"""Probes for task bar56 (issue #12): a chat question that describes an entry without writing its
name, bare, behind a chat filler ("ok so", "wait", "quick q") or after a statement of what the
asker is doing: its entry's card. A description from cloud, web or crypto work that sits near a
field entry: no card. bar56_probes.tsv was written from entry titles and general knowledge,
before reading the entries' text, any slice's rows or the search code."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("bar56_probes.tsv", STILL_FAILING)

test_a_described_entry_gets_its_card = PROBES.test("plain", expect=the_asked_card)
test_an_opened_description_gets_its_card = PROBES.test("opened", expect=the_asked_card)
test_a_stated_then_described_entry_gets_its_card = PROBES.test("stated", expect=the_asked_card)
test_a_near_off_topic_description_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"plain": 10, "opened": 10, "stated": 10, "none": 8}
)
