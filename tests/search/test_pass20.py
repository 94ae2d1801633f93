"""Probes for task pass20: a broad entry's name (training, gpu, token, llm, vllm, hugging face)
written in passing, as a modifier or setting, while the question is about a narrower entry.
pass20_probes.tsv was written from the entry ids and titles and general knowledge before reading
the search code, the entries it targets or dev9's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a sibling, not the broad name: Video RAM's card by meaning, High-Bandwidth Memory offered
    "what is the fast stacked memory sitting right next to the gpu chip",
    # no card: the meaning offers ROCm, FSDP and Model Parallelism, not GPU
    "why do people train models on gpus instead of cpus",
}
PROBES = ProbeFile("pass20_probes.tsv", STILL_FAILING)

test_a_broad_name_in_passing_does_not_take_the_card = PROBES.test(
    "setting", expect=the_asked_card_or_first_offers
)
test_a_broad_name_asked_about_gets_its_card = PROBES.test("subject", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 12, "subject": 8})
