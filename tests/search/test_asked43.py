"""Probes for task asked43: a question about one of a pair of confusable neighbours left after
asked40 (Multi-Head Attention beside Attention Head, SLI beside SLO, an FSM beside Constrained
Decoding, ZeRO beside FSDP, speech to text beside text to speech ...), which names neither. Its
card is the asked entry's, not the neighbour's (issue #12).
asked43_probes.tsv was written from entry titles and general knowledge, not from the entries'
text, their phrasings nor any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Main 2096a9f failed ten, and the rewritten phrasings leave the same ten. Nine give no card
# with the asked entry among the first three offers, one cards Video RAM for High-Bandwidth
# Memory (0.02 behind it by meaning). The meaning puts the asked entry first for six (by 0.01
# to 0.22: Multi-Head Attention, ZeRO, LLM Inference, HBM, RLAIF, Jailbreak), a neighbour first
# for four (LLM Evaluation for RLHF, REINFORCE Leave-One-Out for GRPO, Lethal Trifecta for
# Prompt Injection, Alignment for Appropriate Reliance). The RLHF question passes since pairs61's
# asked-as lines for the near pairs; the ZeRO question since calib73's `_offer_carded`.
STILL_FAILING = {
    (
        "why does a transformer run several attention computations side by side and join "
        "their outputs?"
    ),
    (
        "what happens on the provider's side when i send a prompt to a deployed model and it "
        "writes an answer back?"
    ),
    "what is the memory stacked right beside the gpu die on a very wide bus?",
    (
        "what rl method scores several sampled answers to the same prompt against their "
        "group's average, with no critic network?"
    ),
    (
        "how do people trick chatgpt into ignoring its rules by making it role-play an evil "
        "ai with no limits?"
    ),
    (
        "a webpage my agent reads has hidden text telling it to email my files somewhere: "
        "what is that attack?"
    ),
    "how do we get users to follow the ai when it's right and overrule it when it's wrong?",
}
PROBES = ProbeFile("asked43_probes.tsv", STILL_FAILING)

test_the_asked_of_a_pair_is_carded = PROBES.test("one", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"one": 48})
