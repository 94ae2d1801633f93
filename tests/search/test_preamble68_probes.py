"""Probes for chat preambles, second try (task preamble68, issue #12). A scene naming an entry,
then a question whose subject is a compound or description holding another entry's word ("the
token-by-token one", "an attention-free model"): never that word's card. And preamble67's kinds
in new voices: the question's name gets its card, a question naming nothing asks the preamble's
name, an off-topic preamble and question get no card. preamble68_probes.tsv was written from
titles.txt and general knowledge before re-reading the search code, the entries or any slice's
rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, not_the_written_card, the_asked_card

# Probes that still fail on this branch: strict expected failures, so one that starts passing
# fails the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("preamble68_probes.tsv", STILL_FAILING)

test_a_compound_holding_an_entry_s_word_is_not_that_entry = PROBES.test(
    "compound", expect=not_the_written_card
)
test_the_question_s_name_gets_its_card_after_a_preamble = PROBES.test(
    "narrower", expect=the_asked_card
)
test_the_preamble_s_name_is_asked_when_the_question_names_none = PROBES.test(
    "self", expect=the_asked_card
)
test_an_off_topic_preamble_and_question_get_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"compound": 35, "narrower": 10, "self": 4, "offtopic": 3}
)
