"""Probes for task purpose47: a description saying what a thing is FOR, or the problem it solves,
with none of its title's words (issue #12, "paraphrase with no shared words"). "card": its card.
"none": a purpose text from a neighbouring field or everyday life: no card.
purpose47_probes.tsv was written from entry titles and general knowledge, before reading the
entries' text, data/asked-as, any slice's rows or the search code."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on main 206d290 and with purpose47's content alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here. Two card a neighbour (Fine-Tuning
# for PEFT's text, Benchmark Contamination for Held-Out Data's); seven get no card (Knowledge
# Distillation, Sandbox, Observability, LLM-as-a-Judge, Chain-of-Thought, Mixture of Experts,
# Classifier-Free Guidance). LLM-as-a-Judge's is its card since pairs61's asked-as lines.
STILL_FAILING = {
    "adapting a huge model to my own task when i can't afford to update all of its weights",
    "getting a small cheap model to behave like the big expensive one by training it on the big one's answers",
    "checking the model on examples it never saw so we know it isn't just memorizing",
    "seeing what each request to our llm app did, how long it took and what it cost",
    "getting better answers to math problems by having the model write out its steps first",
    "only running part of the network for each word so a huge model stays cheap to run",
    "making the generated picture follow the text description more closely",
}
PROBES = ProbeFile("purpose47_probes.tsv", STILL_FAILING)

test_a_purpose_text_is_its_card = PROBES.test("card", expect=the_asked_card)
test_an_off_topic_purpose_text_is_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 44, "none": 10})
