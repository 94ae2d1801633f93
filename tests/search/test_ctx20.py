"""Probes for task ctx20: questions in a Discord server's voice, a context sentence (a setup, a
pasted flag or log line) before the question. ctx20_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries it targets or dev8's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a PyTorch card: "torch" starts the pasted error, read as the subject at any rank; the
    # rule that made the question's own name the subject was measured and reverted (ctx20)
    "torch.cuda.OutOfMemoryError: CUDA out of memory. does quantization help with this?",
    # a Temperature card: "seed" is a plain word, no name for the question to write
    "set temperature=0 and still got different outputs. what does the seed do?",
    # a Fine-Tuning card: the question ("why") says nothing of its own, the context's name leads
    "we fine-tuned on our support tickets. now it answers those perfectly but fails on anything"
    " new, why?",
}
PROBES = ProbeFile("ctx20_probes.tsv", STILL_FAILING)

test_a_question_after_context_gets_the_card_it_names = PROBES.test("card", expect=the_asked_card)
test_a_question_after_a_pasted_line_gets_its_card = PROBES.test("flag", expect=the_asked_card)
test_a_question_describing_its_thing_gets_its_card = PROBES.test("describes", expect=the_asked_card)
test_everyday_context_and_question_get_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"card": 6, "flag": 5, "describes": 5, "none": 5}
)
