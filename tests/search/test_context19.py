"""Probes for task context19: a message of two sentences, a context sentence that names one
entry and a question about another thing. context19_probes.tsv was written from the entry
titles and general knowledge before reading the search code or the entries it targets."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("context19_probes.tsv", STILL_FAILING)

test_a_question_after_context_gets_the_card_it_names = PROBES.test("card", expect=the_asked_card)
test_a_name_in_the_context_alone_gets_no_card = PROBES.test("not", expect=not_the_written_card)
test_everyday_context_and_question_get_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 8, "not": 6, "none": 5})
