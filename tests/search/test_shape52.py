"""Probes for task shape52: questions in the shapes Discord people write them (issue #12 item 3),
each writing or misspelling the asked entry's name: a log, config or code line first, a greeting
or @mention, a follow-up ("ok and what about top k"), emoji or markdown, a typo, slang. "card":
its card. "offer": "X vs Y", "is X the same as Y" or a near form: the first named entry's card or
among the first three offers. "none": an off-topic message in the same shapes: no card.
shape52_probes.tsv was written from entry titles and general knowledge, before reading the
entries' text, any slice's rows or the search code."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on main 63d71e5: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Each is offered first without a card (or behind a
# neighbour): the words before the question ("wait so", "sorry one more,", "so like", a pasted
# JSON line) keep the name from being read as asked; without them each is its card.
STILL_FAILING: set[str] = {
    '"tool_choice": "auto" how does function calling work',
    "wait so what's perplexity again",
    "sorry one more, what is paged attention",
    "so like what's the deal with the context window",
}
PROBES = ProbeFile("shape52_probes.tsv", STILL_FAILING)

test_a_shaped_question_gets_its_card = PROBES.test("card", expect=the_asked_card)
test_a_comparison_offers_the_first_named = PROBES.test(
    "offer", expect=the_asked_card_or_first_offers
)
test_an_off_topic_message_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 36, "offer": 8, "none": 12})
