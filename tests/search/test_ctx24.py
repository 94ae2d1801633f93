"""Probes for task ctx24: where a written name sits, in a told context or in the question.
ctx24_probes.tsv was written from the entry ids and titles and general knowledge before running
them, without reading the entry text they target (the search code had been read)."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a Fine-Tuning card: the name the told scene writes wins; ctx24's `_asked_elsewhere`
    # (measured, reverted: semantic.md) offered Overfitting first (the question alone: 0.69)
    "we fine-tuned a small model on our support logs. what is it called when a model scores high"
    " on training data but poorly on new data?",
    # a System Prompt card: the question alone puts Prompt Injection first (0.64), but System
    # Prompt is still among its ten nearest (8th, 0.44): `_asked_elsewhere` kept the card too
    "my students use chatgpt with a long system prompt. what attack hides instructions inside a"
    " web page the model reads?",
    # offered, Latency and vLLM first: the question alone puts Latency and Serving Goodput
    # ahead of Service Level Objective (0.63, 0.63, 0.56)
    "our company put vllm on the new servers. what target for response time do operators promise"
    " the teams calling the service?",
    # offered, vLLM third: the meaning leads with Memory Systems and Latency, no card to keep
    "we switched our bot to vllm last week. why does it take so long to start up?",
}
PROBES = ProbeFile("ctx24_probes.tsv", STILL_FAILING)

test_a_question_with_its_own_subject_is_not_the_context_card = PROBES.test(
    "elsewhere", expect=the_asked_card_or_first_offers
)
test_a_question_pointing_back_keeps_the_context_card = PROBES.test("leans", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"elsewhere": 6, "leans": 6})
