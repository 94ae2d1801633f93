"""Probes for task offer77 (issue #12): a chat question that writes an entry's name ("is cuda 12.4
worth upgrading to", "is mech interp a real career path"), asked about its use, worth, choice or
comparison, gets that entry's card, not only its first offer; controls that write the same word as
a plain word, another field's thing of that name or only as a contrast ("not lora, ...") do not
get that card, and off-topic questions get none. offer77_probes.tsv says when and how they were
written (before any change, from entry titles and general knowledge)."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, not_the_asked_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the name written as in chat is not read as the name ("gpt2": AdamW offered first; "zero
    # stage 3": FSDP, the other side, carded)
    "is it worth learning gpt2 before moving to bigger models",
    "zero stage 3 vs fsdp, which should i pick",
    # the setting's resource carded (VRAM) over the name asked about
    "what llama size should i run on a 24gb card",
    # the other side's neighbour offered first (Hybrid Search)
    "is bm25 good enough or do i need embeddings too",
    # the right entry offered first, no card (main d591e7e1)
    "is lora enough to teach a model a new writing style",
    "is cuda 12.4 worth upgrading to",
    "is mech interp a real career path",
    "is ddpm still worth learning now that flow matching exists",
    # controls main already cards (main d591e7e1): another field's thing of the same name,
    # a name written only as what is not asked
    "should i learn react or vue for my frontend",
    "is the tensor g3 chip in the pixel 8 any good",
    "is an mse a good degree for a teacher",
    "is the mcp in tron based on a real computer",
    "which perplexity pro plan is worth paying for",
    "not lora, full fine tuning: how long does a 7b take",
    "forget vllm, is tgi any good for serving",
    "besides pytorch, which framework should i learn",
}
PROBES = ProbeFile("offer77_probes.tsv", STILL_FAILING)

test_a_written_name_asked_about_gets_its_card = PROBES.test("written", expect=the_asked_card)
test_a_look_alike_does_not_get_that_card = PROBES.test(
    "plainword", "otherfield", "contrast", expect=not_the_asked_card
)
test_an_off_topic_question_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"written": 50, "plainword": 10, "otherfield": 11, "contrast": 5, "offtopic": 4}
)
