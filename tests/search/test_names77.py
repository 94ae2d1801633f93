"""Probes for task names77 (issue #12): a question writes the asked entry's name next to a second
glossary name, the tool, model or product it is used with ("kv cache in vllm", "serve llama 3 with
vllm", "CUDA out of memory what is cuda"), against controls where that tool or product is itself
asked ("is vllm good for serving llama") and comparisons asking both ("vllm vs llama.cpp").
names77_probes.tsv was written from titles, the entries' names and general knowledge before any
rule, without reading any slice's rows."""

from __future__ import annotations

import pytest

from bot.search import SearchResult
from bot.search.query import asked_at_end, asked_beside_setting, worked_with

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Main failed 13; `SearchIndex._asked_beside_named` mends four
# ("how does quantization work in llama.cpp", "how do i serve llama 3 with vllm", "CUDA out of
# memory what is cuda", 'i got "CUDA out of memory" what is cuda even'). Those left get no card
# (an offer) where a card is wanted, but three: "how do i fine-tune llama with lora" (Fine-Tuning:
# the verb's own entry is no setting, as test_versions' "fine tuning llama 3 with lora" wants),
# "does deepseek use mixture of experts" (the object's card: a subject asked is no frame read
# here) and "lora vs full fine-tuning" (QLoRA offered before Fine-Tuning).
STILL_FAILING: set[str] = {
    "on llama.cpp: what does temperature change",
    "lora on llama 3, what is it",
    "how do i fine-tune llama with lora",
    "what are model cards on the hugging face hub",
    "torch.cuda.OutOfMemoryError: CUDA out of memory. what is vram",
    "how much vram do i need for llama 3",
    "does llama.cpp run on cuda",
    "does deepseek use mixture of experts",
    "lora vs full fine-tuning",
}
PROBES = ProbeFile("names77_probes.tsv", STILL_FAILING)


def the_first_card_the_second_offered_first(result: SearchResult, asked: str, written: str) -> None:
    """X's card, Y the first offer (README: two names compared)."""
    assert result.entry is not None, result
    assert result.entry.id == asked, result
    assert [s.id for s in result.suggestions[:1]] == [written], result


test_the_name_asked_beside_its_setting_gets_its_card = PROBES.test("setting", expect=the_asked_card)
test_a_tool_or_model_asked_about_keeps_its_card = PROBES.test("self", expect=the_asked_card)
test_two_names_asked_together_card_the_first = PROBES.test(
    "both", expect=the_first_card_the_second_offered_first
)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 50, "self": 24, "both": 12})


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("how does quantization work in llama cpp", ("quantization", "llama cpp")),
        ("what does temperature do on llama cpp", ("temperature", "llama cpp")),
        ("on llama cpp what does temperature change", ("temperature", "llama cpp")),
        ("how does it work in vllm", ("it", "vllm")),  # a pronoun: nothing written out to swap to
        ("what is the kv cache in vllm", None),  # `asked_in_setting`'s, not this reading's
        ("how do i install vllm with cuda", None),
    ],
)
def test_asked_beside_setting_reads_the_thing_and_where(
    text: str, parts: tuple[str, str] | None
) -> None:
    assert asked_beside_setting(text) == parts


@pytest.mark.parametrize(
    ("text", "worked"),
    [
        ("how do i serve llama 3 with vllm", (["vllm"], "llama 3")),
        ("fine tune llama with the peft library", (["peft library", "peft"], "llama")),
        (
            "train transformers using adamw and warmup",
            (["adamw and warmup", "adamw and", "adamw"], "transformers"),
        ),
        ("how do i install vllm with cuda 12", None),  # installing is no working of a model
        ("how do i run llama on a gpu", None),  # a place, not an instrument
        ("train with adamw", None),  # nothing worked
    ],
)
def test_worked_with_reads_the_instrument(text: str, worked: tuple[list[str], str] | None) -> None:
    assert worked_with(text) == worked


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("CUDA out of memory what is cuda", "cuda"),
        ('i got "CUDA out of memory" what is cuda even', "cuda"),
        ("encode images with the vae, what is the vae there", "vae"),
        ("what is cuda", "cuda"),
        ("what is cuda, i get CUDA out of memory", None),  # asked first: not the last clause
        ("i know what cuda is", None),
        ("CUDA out of memory", None),
    ],
)
def test_asked_at_end_reads_the_last_question(text: str, asked: str | None) -> None:
    assert asked_at_end(text) == asked
