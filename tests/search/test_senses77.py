"""Probes for task senses77 (issue #12 off-topic): everyday and neighbouring-field questions in
the field's words, none of offfield76's, get no card; the ML sense asked in everyday words keeps
its card. senses77_probes.tsv says when and how they were written (bench/results/semantic.md,
"senses77")."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # carded on main (the whole text and its rest near the entry, or no sense for the entry);
    # senses77's added senses and wider rule fixed these four, but moved no tuning row (held
    # out: one off-topic card fewer) and were reverted under ship rule v3 (semantic.md)
    "how do i see the watermark on a twenty dollar bill",  # Watermarking
    "how do i get the watermark off a stock photo i paid for",  # Watermarking
    "what is a sandbox game like minecraft or terraria",  # Sandbox
    "what is a tensor in physics, like the stress tensor",  # Tensor
    # no sense for Swiss Cheese Model; a "not" guards the text (`_other_sense_offered`); with
    # both changed (reverted), the rest leaned to the entry's own text: "what is made from and
    # why does it have holes" (the model's holes), "why did my game not save at the last in" (a
    # checkpoint saves): 0.05 and 0.02 summed, under `SENSE_LEAD`
    "what is swiss cheese made from and why does it have holes",  # Swiss Cheese Model
    "why did my game not save at the last checkpoint in halo",  # Checkpoint
    # carded by a match term, no name of the entry written (`_names_in` finds none)
    "what is liveness detection in face id",  # Liveness
    # a rest of one word of its own ("military"): not judged (`REST_WORDS`)
    "what does red teaming mean in the military",  # Red Teaming
    # a control offered on main too (Context Windows first, Token second): no sense rule's doing
    "my kid asked what a token is when chatgpt counts words",
}
PROBES = ProbeFile("senses77_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_a_neighbouring_field_s_sense_gets_no_card = PROBES.test("neighbour", expect=no_card)
test_the_field_s_sense_in_everyday_words_keeps_its_card = PROBES.test(
    "fieldplain", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"everyday": 24, "neighbour": 13, "fieldplain": 12}
)
