"""Probes for task desc20: descriptions as people type them into /define, without the entry's
name, short (3-8 words), middling and long (25 words and more). desc20_probes.tsv was written
from the entry titles and general knowledge before reading the search code, the entries it
targets or dev9's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a wrong card by meaning alone: Weak-to-Strong Generalization (0.80) over Knowledge
    # Distillation (0.75)
    "big model teaches a small model",
    # offered, not first: the meaning puts Prefill (0.62) and Chain-of-Thought just ahead
    "you put a few worked examples of the task in the prompt before the real question and the"
    " model picks up the pattern without any change to its weights",
    # ("the test questions of a benchmark ended up ...": carded since asked40, Decontamination's
    # phrasings say the cure only)
}
PROBES = ProbeFile("desc20_probes.tsv", STILL_FAILING)

test_a_short_description_gets_its_card = PROBES.test("short", expect=the_asked_card)
test_a_middling_description_gets_its_card = PROBES.test("middling", expect=the_asked_card)
test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_description_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"short": 8, "middling": 8, "long": 8, "none": 5}
)
