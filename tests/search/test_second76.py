"""Probes for task second76 (issue #12): a question asks about one name ("what is X", "what does
X mean") while a second glossary name stands beside it as setting, tool or error text (blind76's
dev30: "i got CUDA out of memory what is cuda even" -> Video RAM), against controls where the
second name is the one asked. second76_probes.tsv was written before reading the search code's
name rules."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = {
    'i got "CUDA out of memory" on my card, what is cuda anyway',
    "on hugging face every model has safetensors files, what are safetensors",
    "kv cache in vllm, what is vllm",
    "is cuda only for the gpu, what is a gpu",
}
PROBES = ProbeFile("second76_probes.tsv", STILL_FAILING)

test_the_asked_name_leads_over_the_second = PROBES.test(
    "asked", expect=the_asked_card_or_first_offers
)
test_the_second_name_asked_leads = PROBES.test("control", expect=the_asked_card_or_first_offers)
test_the_probes_are_the_ones_written = PROBES.counted({"asked": 22, "control": 8})
