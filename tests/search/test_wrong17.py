"""Probes for a name written only as the question's setting (task wrong17, issue #12): "how does
vllm implement continuous batching", "what is the scheduler in diffusers" ask about the other
name; "how does vllm work" asks about vLLM. wrong17_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries or the relevance rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.search import SearchIndex

from .probe_files import kinds_written, probe_params

PROBES = Path(__file__).with_name("wrong17_probes.tsv")

# Probes that fail on this branch, all of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here. "How does Y do X" reads
# Y, the doer, as the subject (a concept doing is asked about: "how does ipo fix overfitting").
STILL_FAILING = {
    "how does vllm implement continuous batching",  # vLLM
    "how does vllm handle speculative decoding",  # vLLM
    "how does llama.cpp load a gguf file",  # llama.cpp
    "how does mlx handle unified memory",  # MLX
    "how does the transformers library do tokenization",  # Transformers (Hugging Face)
    # "X on/in Y": the rule that offered these (`_setting_offered`) was measured and reverted
    "what is a model card on the hugging face hub",  # Hugging Face Hub
    "what are the weights in a safetensors file",  # Safetensors
}


def probes(kind: str) -> list:
    """The probe rows of one kind as (query, asked, written), failing ones marked."""
    return probe_params(PROBES, kind, STILL_FAILING)


@pytest.mark.parametrize(("query", "asked", "written"), probes("setting"))
def test_the_setting_written_gets_no_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id == asked, result


@pytest.mark.parametrize(("query", "asked", "written"), probes("own"))
def test_the_name_asked_about_gets_its_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked, result


def test_the_probes_are_the_ones_written() -> None:
    kinds = kinds_written(PROBES)
    assert kinds["setting"] == 20
    assert kinds["own"] == 7


def test_a_place_after_a_verb_keeps_its_card(bundled_index: SearchIndex) -> None:
    # "in a sandbox" says where the agents run, and the sandbox is what is asked about: a
    # rule for "X in/on Y" must read a thing's place, not a verb's
    result = bundled_index.search("why should coding agents run in a sandbox")
    assert result.entry is not None, result
    assert result.entry.id == "sandbox"
