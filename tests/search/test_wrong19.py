"""Probes for task wrong19: a one-word name in its everyday sense, the sentence as a whole not
read near that entry ("what is a good token gift for a coworker"), gets no card; the same words
in the field's sense keep it. wrong19_probes.tsv was written from the entry titles and general
knowledge before the rule, not from the entries nor the relevance rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    "do arcades still use tokens or is it all cards now",  # Token card
    "what does the gate agent do when a flight is overbooked",  # Gate card
    "what does temperature do when a language model picks the next word",  # no Temperature card
    "why does my training loss suddenly jump to nan",  # no Loss card
}
PROBES = ProbeFile("wrong19_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_the_field_sense_gets_its_card = PROBES.test("real", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"everyday": 12, "real": 8})
