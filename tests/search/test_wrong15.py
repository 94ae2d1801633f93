"""Probes for a broad name written while a narrower neighbour is asked about (task wrong15, issue
#12): wrong15_probes.tsv, written from the entry titles and general knowledge before reading the
search code or the entries. The rule measured with them was not kept (semantic.md)."""

from __future__ import annotations

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch, all of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here. Two more pass with
# wrong49's `_asked_name_offered` (the tokenizer's and top-p's: offered, no card).
STILL_FAILING = {
    "how many steps are there in one epoch given the batch size",
    "how does fine-tuning only train a small number of extra parameters while freezing the rest",
    "how does sampling keep just the k most likely tokens",
}
PROBES = ProbeFile("wrong15_probes.tsv", STILL_FAILING)

test_a_broad_name_written_gets_no_card = PROBES.test("narrow", expect=not_the_written_card)
test_a_name_asked_about_keeps_its_card = PROBES.test("real", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"narrow": 20, "real": 12})
