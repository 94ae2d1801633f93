"""Probes for an entry's name misspelt or inflected inside a chat question (task typo68): a
letter changed, doubled, dropped or swapped ("tokin", "atention", "pytroch"), a phone's
autocorrect ("laura" for LoRA), and inflections ("jailbroken", "quants", "tokenized"); and
everyday words one letter from a name ("the llama at the zoo", "tempo of the song"), which must
get no card. typo68_probes.tsv was written from titles.txt and general knowledge before running
anything or reading the search code, the entries or any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that still fail on this branch: strict expected failures, so one that starts passing
# fails the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("typo68_probes.tsv", STILL_FAILING)

test_a_misspelt_name_in_a_chat_question_gets_its_card = PROBES.test("typo", expect=the_asked_card)
test_an_inflected_name_in_a_chat_question_gets_its_card = PROBES.test(
    "inflected", expect=the_asked_card
)
test_a_near_word_in_its_everyday_sense_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"typo": 46, "inflected": 14, "offtopic": 18})
