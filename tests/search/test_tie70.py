"""Probes for task tie70 (issue #12): a written entry name that the meaning ranks almost level
with another entry. Where the name only sets the scene or neighbours the thing asked, the asked
entry is the card or among the first offers; where the name is what is asked, its card stays.
tie70_probes.tsv was written from entry titles and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on main 75238385 (and failed with the reverted tie rule too, see
# bench/results/semantic.md "tie70"): strict expected failures, so one that starts passing fails
# the suite and is moved out of here. None is a near tie of the written name: llama.cpp and
# Mixture of Experts are offered, not carded (the meaning ranks SwiGLU and Weights first); FlashAttention's card is the description stage's (the meaning ranks SRAM first
# by 0.18); GGUF is the meaning's first by 0.20.
STILL_FAILING: set[str] = {
    "when running llama.cpp, how are the weights squeezed into fewer bits",
    "when training a mixture of experts, what extra loss keeps the router logits from getting huge",
    "with flash attention, which fast on-chip memory holds the tiles",
    "with gguf files, what program runs them locally on a laptop",
}
PROBES = ProbeFile("tie70_probes.tsv", STILL_FAILING)

test_a_named_setting_gives_way_to_the_asked_entry = PROBES.test(
    "scene", expect=the_asked_card_or_first_offers
)
test_a_named_entry_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"scene": 29, "asked": 22})
