"""Probes for task near36: long descriptions (40-60 words) of entries that have a close neighbour,
as people type them into /define without the entry's name, and everyday stories of that length.
near36_probes.tsv was written from the entry titles and general knowledge, before reading the
entry text these probes target, any relevance row of theirs or the long-description code; it was
not edited after it was first run."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("near36_probes.tsv", STILL_FAILING)

test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_story_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"long": 13, "none": 5})
