"""Probes for task chat42: a request verb followed by an embedded question (issue #12 item 3),
"can someone explain what rag is?", "tell me what dpo means", "eli5 what a transformer is".
"card": the embedded question names one entry: its card. "aside": the embedded clause asks about
something next to the name: no card, or the asked entry's card, never another's. "nothing": an
off-topic name in the same shape: no card. chat42_probes.tsv was written from entry titles and
general knowledge, not from the entries' text nor any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, no_card_but_the_asked, the_asked_card

# Probes that fail on this branch and on main 7e2379e alike: strict expected failures, so one that
# starts passing fails the suite and is moved out of here. Each asks about something next to a
# name and gets that name's card (LoRA, Tokenization, GPU): the clause around it is not read.
STILL_FAILING: set[str] = {
    "tell me what the model does before lora",
    "explain what comes after tokenization in the pipeline",
    "can someone explain what the gpu does while the cpu is waiting",
}
PROBES = ProbeFile("chat42_probes.tsv", STILL_FAILING)

test_an_embedded_question_gets_its_card = PROBES.test("card", expect=the_asked_card)
test_an_aside_is_no_other_card = PROBES.test("aside", expect=no_card_but_the_asked)
test_an_off_topic_name_gets_no_card = PROBES.test("nothing", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 30, "aside": 8, "nothing": 5})
