"""Probes for task neighbour34: a question that names no entry and asks for one that has a close
neighbour (Top-p beside Top-k, ROCm beside CUDA, AdamW beside Adam ...); the meaning's first may
be the neighbour, and a card for the neighbour is the worst answer (issue #12).
neighbour34_probes.tsv was written from entry titles and general knowledge, not from the entries'
text nor any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Main f6acffa: "python" written in the CPU question is carded (a name written, not this task's
# cause); the causal-mask and RMSprop questions card Training Tokens and Step on the meaning.
STILL_FAILING = {
    "which processor runs the ordinary if-statements and loops of my python script?",
    "what stops a token from looking at the words that come after it during training?",
    (
        "which optimizer divides each step by a running average of recent squared gradients, "
        "without momentum?"
    ),
}
PROBES = ProbeFile("neighbour34_probes.tsv", STILL_FAILING)

test_a_neighbour_is_no_card = PROBES.test("near", expect=the_asked_card_or_first_offers)
test_the_probes_are_the_ones_written = PROBES.counted({"near": 26})
