"""Probes for task rerank21 (a learned card decision, measured and not shipped: bench/results/
semantic.md "rerank21"): descriptions without the entry's name, and chat about nothing in the
glossary. rerank21_probes.tsv was written from 60 random entry ids and titles alone, before
reading the entries it targets; the learned step changed none of them."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

STILL_FAILING = {
    # offered, not first: Denoising Diffusion Probabilistic Model's description leads (90.6)
    "the order of how much noise gets added at each step when training an image generator",
}
PROBES = ProbeFile("rerank21_probes.tsv", STILL_FAILING)

test_a_description_gets_its_card = PROBES.test("card", expect=the_asked_card)
test_chat_about_nothing_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 18, "none": 4})
