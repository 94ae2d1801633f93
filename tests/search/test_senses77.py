"""Probes for task senses77 (issue #12 off-topic): everyday and neighbouring-field questions in
the field's words, none of offfield76's, get no card; the ML sense asked in everyday words keeps
its card. senses77_probes.tsv says when and how they were written (bench/results/semantic.md,
"senses77")."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("senses77_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_a_neighbouring_field_s_sense_gets_no_card = PROBES.test("neighbour", expect=no_card)
test_the_field_s_sense_in_everyday_words_keeps_its_card = PROBES.test(
    "fieldplain", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"everyday": 24, "neighbour": 13, "fieldplain": 12}
)
