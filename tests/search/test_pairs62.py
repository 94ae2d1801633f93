"""Probes for task pairs62 (issue #12): a description or a question about one side of a near
pair that the tuning slices miss most (Knowledge Distillation, Overfitting beside Validation
Loss, VAE beside Latent Diffusion, Decontamination beside Benchmark Contamination, Instruction
Hierarchy beside System Prompt, Cross-Attention beside Text Encoder, RAG, Model Card beside System
Card, Seed, Safetensors beside Checkpoint, DRAM beside VRAM, Goodhart's Law), naming neither.
The task mends the content (data/asked-as), not a rule: the asked entry's card, or no card and it
offered ahead of its neighbour among the first three; never the neighbour's card.
pairs62_probes.tsv says when and how it was written."""

from __future__ import annotations

from .probe_files import ProbeFile, not_the_written_card
from .test_pairs59 import the_asked_ahead

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. The content measured (13 lines, commit 1c952f0a) failed
# rule v3 and was reverted; these four fail on main 1571f2ec and with it (21 of 24 ahead): Latent Diffusion's card for the VAE description, Overfitting not
# among the first three for its question (Weights, Validation Loss, Loss), RAG not offered for
# the product-manuals question (System Prompt, Jailbreak, Agentic Workflows on main).
VAE_DESCRIPTION = (
    "the encoder and decoder that move a stable diffusion picture between pixels and its small"
    " latent grid"
)
AHEAD_FAILING: set[str] = {
    VAE_DESCRIPTION,
    "why would a network score perfectly on the examples it was trained with and poorly on fresh"
    " ones?",
    "how can a support bot quote our product manuals it was never trained on?",
}
WRITTEN_FAILING: set[str] = {VAE_DESCRIPTION}
AHEAD = ProbeFile("pairs62_probes.tsv", AHEAD_FAILING)
WRITTEN = ProbeFile("pairs62_probes.tsv", WRITTEN_FAILING)

test_the_asked_side_is_shown_ahead = AHEAD.test("description", "question", expect=the_asked_ahead)
test_never_the_neighbours_card = WRITTEN.test(
    "description", "question", expect=not_the_written_card
)
test_the_probes_are_the_ones_written = AHEAD.counted({"description": 12, "question": 12})
