"""Probes for task react68 (issue #12): a comparison whose other side is a thing of another field
("react vs vue", "kafka vs pulsar", "transformers or ghostbusters movie") is about that field, so
no card; a comparison of two entries ("react vs chain of thought") keeps the first side's card and
offers the second. react68_probes.tsv says when and how it was written."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card
from .test_compare25 import first_carded_second_offered

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("react68_probes.tsv", STILL_FAILING)

test_a_comparison_with_another_fields_thing_is_no_card = PROBES.test("offfield", expect=no_card)
test_a_comparison_of_two_entries_cards_the_first_and_offers_the_second = PROBES.test(
    "ontopic", expect=first_carded_second_offered
)
test_a_side_that_is_no_entry_leaves_the_other_carded = PROBES.test(
    "notentry", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted({"offfield": 25, "ontopic": 22, "notentry": 4})
