"""Probes for task asked40: a question about one of a pair of confusable neighbours (quantization
beside QLoRA, a vector database beside HNSW, a jailbreak beside a prompt injection ...), which
names neither. Its card is the asked entry's, not the neighbour's that a generic "asked as"
phrasing of the neighbour would pull it to (issue #12).
asked40_probes.tsv was written from entry titles and general knowledge, not from the entries'
text, their phrasings nor any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Main f3c39c6 failed seven. The meaning puts the asked entry first for all of them, but the card
# goes to a name the words hold ("training", "feed-forward", "loss"; Cross-Encoder for a
# reranking step) or to none (ViT beside Image Patch Token, Context Windows). Superposition's
# (no card on main, Artificial Neuron close behind) is carded since the rewritten phrasings; SGD
# and Mixture of Experts since calib73's `_offer_carded` (an offer the calibrated model is sure of).
STILL_FAILING = {
    "what model cuts an image into 16x16 patches and feeds them to a transformer like words?",
    "after retrieval returns the top 100 passages, how do i reorder them with a more accurate model?",
    "my training loss keeps dropping but it does worse on new data, what is happening?",
}
PROBES = ProbeFile("asked40_probes.tsv", STILL_FAILING)

test_the_asked_of_a_pair_is_carded = PROBES.test("one", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"one": 40})
