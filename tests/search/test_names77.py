"""Probes for task names77 (issue #12): a question writes the asked entry's name next to a second
glossary name, the tool, model or product it is used with ("kv cache in vllm", "serve llama 3 with
vllm", "CUDA out of memory what is cuda"), against controls where that tool or product is itself
asked ("is vllm good for serving llama") and comparisons asking both ("vllm vs llama.cpp").
names77_probes.tsv was written from titles, the entries' names and general knowledge before any
rule, without reading any slice's rows."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = {
    "how does quantization work in llama.cpp",
    "on llama.cpp: what does temperature change",
    "lora on llama 3, what is it",
    "how do i fine-tune llama with lora",
    "how do i serve llama 3 with vllm",
    "what are model cards on the hugging face hub",
    "CUDA out of memory what is cuda",
    'i got "CUDA out of memory" what is cuda even',
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
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 50, "self": 22, "both": 12})
