"""Probes for task long35: long descriptions (45 words and more) of entries, as people type them
into /define without the entry's name, and everyday stories of that length. long35_probes.tsv
was written from the entry ids and general knowledge, before reading the entry text these probes
target, any relevance row of theirs or the long-description code; it was not edited after it
was first run. On main 7fd61b8 8 of 10 long descriptions got their card and 5 of 5 stories
none; the two failing are failing for reasons other than long35's floor (below)."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the meaning's fourth (Appropriate Reliance first, 0.654; Self-Consistency 0.632); the
    # description stage a near tie (Thinking Budget 48.5, Self-Consistency 47.0): offered first
    "for each question we let the model write out its reasoning ten or twenty separate times with"
    " some randomness turned on, then look at the final answers they arrived at and simply go"
    " with the answer that comes up most often, which tends to be right more often than any"
    " single attempt",
}
PROBES = ProbeFile("long35_probes.tsv", STILL_FAILING)

test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_story_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"long": 10, "none": 5})
