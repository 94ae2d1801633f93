"""Probes for task wrong72 (issue #12): confident wrong cards on questions. A question about one
entry that writes a related entry's name as its setting or beside it ("does lora change the
tokenizer?") gets the asked entry's card; a question about something off the glossary that
uses an entry's word ("what is the best temperature to bake bread at?") gets no card.
wrong72_probes.tsv was written from entry ids and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("wrong72_probes.tsv", STILL_FAILING)

test_a_question_naming_a_neighbour_gets_the_asked_card = PROBES.test(
    "beside", expect=the_asked_card
)
test_an_off_glossary_question_using_an_entry_word_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"beside": 46, "none": 11})
