"""Probes for task wrong72 (issue #12): confident wrong cards on questions. A question about one
entry that writes a related entry's name as its setting or beside it ("does lora change the
tokenizer?") gets the asked entry's card; a question about something off the glossary that
uses an entry's word ("what is the best temperature to bake bread at?") gets no card.
wrong72_probes.tsv was written from entry ids and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch (and on main 18bf7757; wrong72 changed no search code): strict
# expected failures, so one that starts passing fails the suite and is moved out of here. Four
# wrong cards for the neighbour written beside the asked entry (Temperature for a beam search
# guess, Validation Loss for overfitting, VAE for latent diffusion, Image Patch Token for the
# vision transformer), one offer with no card (AdamW, then Learning Rate, for warmup "with adam"),
# and three off-glossary questions carded by a name they use in its
# everyday sense (a flight's gate, a web framework in Python, a container's files in Docker).
# No new signal reached 4:1 on tuning (bench/results/semantic.md, "wrong72").
STILL_FAILING: set[str] = {
    "why does my beam search output repeat, is that the temperature?",
    "why is my validation loss going up while the training loss still falls?",
    "why does a higher learning rate need warmup at the start with adam?",
    "how does latent diffusion use the vae to work in a smaller space?",
    "how does a vision transformer turn an image into image patch tokens?",
    "which python web framework should I learn first, django or flask?",
    "why does my docker container lose its files when it restarts?",
    "what gate number is my flight leaving from?",
}
PROBES = ProbeFile("wrong72_probes.tsv", STILL_FAILING)

test_a_question_naming_a_neighbour_gets_the_asked_card = PROBES.test(
    "beside", expect=the_asked_card
)
test_an_off_glossary_question_using_an_entry_word_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"beside": 46, "none": 11})
