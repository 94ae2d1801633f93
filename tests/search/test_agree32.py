"""Probes for task agree32: short descriptions (8-16 words) of entries, as people type them into
/define without the entry's name, and short everyday sentences of that length. agree32_probes.tsv
was written from the entry ids and general knowledge, before reading the entry text these probes
target, any relevance row of theirs or the code of the rule; it was not edited after it was first
run."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the description stage puts Sampling first (91.2, Top-k 88.5), the meaning Top-p (0.702,
    # Sampling 0.697, Top-k 0.615): no stage puts Top-k first, on main and with agree32's rule
    "keeping the few most likely next words and drawing one of them at random",
}
PROBES = ProbeFile("agree32_probes.tsv", STILL_FAILING)

test_a_short_description_gets_its_card = PROBES.test("short", expect=the_asked_card)
test_a_short_everyday_sentence_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"short": 16, "none": 6})
