"""Probes for task asked71 (issue #12): which written name is asked. A name written plainly
inside a frame asking what it is ("someone mentioned a vector database, what is that?") gets its
card; a name that only sets the scene of a question about another thing ("we use lora and the
loss spikes early, what ramps the learning rate up slowly?") gives way to the asked entry, as a
card or among the first offers; a name written and asked beside a described neighbour keeps its
card. asked71_probes.tsv was written from entry ids and general knowledge, before reading the
tuning rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch (and on main 177655cf): strict expected failures, so one that
# starts passing fails the suite and is moved out of here. The named ones are read as asked (the
# pronoun points back at the name) but lose the card later: to the meaning's near neighbour
# (quantization, tokenization), to the description stage (gguf: "what kind of file is that" is
# not read, see semantic.md "asked71") or to the everyday judgement (speculative decoding beside
# "meetup"). The scene ones need the scene-before-a-doer reading tried and left out in asked71,
# or the meaning to rank the asked entry first (top-k, image patch token, overfitting).
STILL_FAILING: set[str] = {
    "people on reddit keep saying quantization lets big models run on laptops, what is it",
    "saw gguf in a file name on hugging face, what kind of file is that",
    "my manager asked me about tokenization in a meeting, what is that?",
    "heard about speculative decoding at a meetup, what is that",
    "our chatbot built on gpt-2 repeats itself, which setting samples only from the k most likely"
    " words?",
    "we distilled a big model into a small one, which divergence compares the student's"
    " probabilities to the teacher's?",
    "our chatbot got jailbroken yesterday, what checks the inputs and outputs to block that?",
    "our vit cuts each picture into little squares, what is each square turned into before the"
    " encoder?",
    "we fine-tuned with sft and now validation loss goes up while training loss drops, what is"
    " that called?",
}
PROBES = ProbeFile("asked71_probes.tsv", STILL_FAILING)

test_a_name_dropped_in_a_question_about_it_gets_its_card = PROBES.test(
    "named", expect=the_asked_card
)
test_a_named_scene_gives_way_to_the_asked_entry = PROBES.test(
    "scene", expect=the_asked_card_or_first_offers
)
test_a_named_entry_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"named": 22, "scene": 21, "asked": 11})
