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
# the suite and is moved out of here.
AHEAD_FAILING: set[str] = set()
WRITTEN_FAILING: set[str] = set()
AHEAD = ProbeFile("pairs62_probes.tsv", AHEAD_FAILING)
WRITTEN = ProbeFile("pairs62_probes.tsv", WRITTEN_FAILING)

test_the_asked_side_is_shown_ahead = AHEAD.test("description", "question", expect=the_asked_ahead)
test_never_the_neighbours_card = WRITTEN.test(
    "description", "question", expect=not_the_written_card
)
test_the_probes_are_the_ones_written = AHEAD.counted({"description": 12, "question": 12})
