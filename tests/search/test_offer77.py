"""Probes for task offer77 (issue #12): a chat question that writes an entry's name ("is cuda 12.4
worth upgrading to", "is mech interp a real career path"), asked about its use, worth, choice or
comparison, gets that entry's card, not only its first offer; controls that write the same word as
a plain word, another field's thing of that name or only as a contrast ("not lora, ...") do not
get that card, and off-topic questions get none. offer77_probes.tsv says when and how they were
written (before any change, from entry titles and general knowledge). The rule kept,
`query.written_with_version` in `SearchIndex._unless_everyday`: an acronym or coinage written
with its version ("cuda 12.4", "gpt2") is never read in an everyday sense
(bench/results/semantic.md, "offer77")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import written_with_version

from .probe_files import ProbeFile, no_card, not_the_asked_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the name written as in chat is not read as the name ("gpt2": AdamW offered first; "zero
    # stage 3": FSDP, the other side, carded)
    "is it worth learning gpt2 before moving to bigger models",
    "zero stage 3 vs fsdp, which should i pick",
    # the setting's resource carded (VRAM) over the name asked about
    "what llama size should i run on a 24gb card",
    # the other side's neighbour offered first (Hybrid Search)
    "is bm25 good enough or do i need embeddings too",
    # the right entry offered first, no card (main d591e7e1)
    "is lora enough to teach a model a new writing style",
    "is mech interp a real career path",
    "is ddpm still worth learning now that flow matching exists",
    # controls main already cards (main d591e7e1): another field's thing of the same name,
    # a name written only as what is not asked
    "should i learn react or vue for my frontend",
    "is the tensor g3 chip in the pixel 8 any good",
    "is an mse a good degree for a teacher",
    "is the mcp in tron based on a real computer",
    "which perplexity pro plan is worth paying for",
    "not lora, full fine tuning: how long does a 7b take",
    "forget vllm, is tgi any good for serving",
    "besides pytorch, which framework should i learn",
}
PROBES = ProbeFile("offer77_probes.tsv", STILL_FAILING)

test_a_written_name_asked_about_gets_its_card = PROBES.test("written", expect=the_asked_card)
test_a_look_alike_does_not_get_that_card = PROBES.test(
    "plainword", "otherfield", "contrast", expect=not_the_asked_card
)
test_an_off_topic_question_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"written": 50, "plainword": 10, "otherfield": 11, "contrast": 5, "offtopic": 4}
)


@pytest.mark.parametrize(
    ("text", "name", "versioned"),
    [
        ("is gpt2 still worth studying", "gpt2", True),
        ("is llama3 any good", "llama3", True),
        ("is cuda 12 4 worth upgrading to", "cuda", True),
        ("should i use gguf v3 or safetensors", "gguf", True),
        # a lone number may be a count or a season, four digits a year
        ("is the mlp 4 movie good", "mlp", False),
        ("is a ppo 2 plan worth it", "ppo", False),
        ("is the gate 2025 exam hard", "gate", False),
        ("is cuda worth it", "cuda", False),
        ("is cuda 2024 1 out", "cuda", False),
    ],
)
def test_a_name_written_with_its_version(text: str, name: str, versioned: bool) -> None:
    start = text.index(name)
    assert written_with_version(text, start, start + len(name)) is versioned


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        # each an offer on main d591e7e1: the question's words ("worth", "upgrading", "ancient
        # history") read as the rest's everyday sense of a lower-case acronym
        ("is cuda 12.4 worth upgrading to", "cuda"),
        ("is gpt2 still worth studying or is it ancient history", "gpt-2"),
    ],
)
def test_a_versioned_name_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked, result


@pytest.mark.parametrize(
    "query",
    [
        # hostile controls written against the rule: a number after the name that is no
        # version, or no name's version at all
        "is the mlp 2 movie good for kids",
        "mlp 4 friendship is magic, worth watching?",
        "is mse 2 antivirus still ok",
        "my ctc is 12 5 lakh, is that a good offer",
        "is a tpu 2 pack phone case worth it",
        "is hmo or ppo 2 better for a freelancer",
    ],
)
def test_a_number_that_is_no_version_gives_no_card(bundled_index: SearchIndex, query: str) -> None:
    assert bundled_index.search(query).entry is None


# Hostile controls the rule cards (another field's software, numbered as ours is): left as
# strict expected failures, main offers them
@pytest.mark.xfail(strict=True, reason="another field's software with a dotted version")
def test_another_fields_versioned_software_gives_no_card(bundled_index: SearchIndex) -> None:
    assert bundled_index.search("is mse 2.0 antivirus still ok").entry is None
