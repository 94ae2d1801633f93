"""Probes for task desc76 (issue #12): descriptions whose entry's meaning is written in everyday
words its "asked as" phrasings lack, and descriptions saying what sets an entry apart from a near
sibling (the sibling's card is the wrong card such descriptions get). desc76_probes.tsv was
written from entry titles and general knowledge before any data change on the branch
(bench/results/semantic.md "desc76"). The data change (44 new phrasings; tool-calling and
validation-loss passed with it) broke 11 probes of earlier tasks and was reverted: the five
below fail on main."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING = {
    "the model remembered its homework answers word for word and then bombed the real exam",
    "a traffic cop in front of several chatbots deciding which one gets each message",
    "the everyday running of a finished chatbot each time somebody sends it a message",
    "the chatbot handing a sum to a calculator and reading back the answer before it replies",
}
PROBES = ProbeFile("desc76_probes.tsv", STILL_FAILING)

test_everyday_words_find_the_entry = PROBES.test("plain", expect=the_asked_card_or_first_offers)
test_a_twin_s_boundary_finds_it_not_the_sibling = PROBES.test(
    "twin", expect=the_asked_card_or_first_offers
)
test_the_probes_are_the_ones_written = PROBES.counted({"plain": 13, "twin": 13})
