"""Probes for task compare68 (issue #12 part 3, continued from compare67): the comparison shapes
compare67 left ("X/Y which one", "X > Y?", a bare "X or Y?", the other side written with a typo or
as a short description, "is X a Y or ...", "X and Y, ..."), in chat voices: X's card and Y its
first offer. A side that is no entry gets nothing invented, and a comparison of things from
neighbouring fields ("react vs vue", "postgres vs mysql") no card. compare68_probes.tsv says when
and how it was written."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card
from .test_compare25 import first_carded_second_offered

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("compare68_probes.tsv", STILL_FAILING)

PAIRED = ("slash", "greater", "or", "described", "isa", "and", "chat")

test_a_comparison_cards_the_first_and_offers_the_second = PROBES.test(
    *PAIRED, expect=first_carded_second_offered
)
test_a_side_that_is_no_entry_leaves_the_other_carded = PROBES.test(
    "notentry", expect=the_asked_card
)
test_an_off_topic_comparison_is_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {
        "slash": 10,
        "greater": 7,
        "or": 12,
        "described": 12,
        "isa": 6,
        "and": 6,
        "chat": 10,
        "notentry": 6,
        "offtopic": 18,
    }
)
