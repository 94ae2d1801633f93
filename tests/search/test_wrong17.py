"""Probes for a name written only as the question's setting (task wrong17, issue #12): "how does
vllm implement continuous batching", "what is the scheduler in diffusers" ask about the other
name; "how does vllm work" asks about vLLM. wrong17_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries or the relevance rows."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bot.search import SearchIndex
from bot.search.query import placed_after

from .probe_files import probe_params

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
    with PROBES.open(encoding="utf-8") as f:
        kinds = [row[0] for row in csv.reader(f, delimiter="\t") if row]
    assert kinds.count("setting") == 20
    assert kinds.count("own") == 7


@pytest.mark.parametrize(
    ("before", "placed"),
    [
        ("what is a model card on the ", "what is a model card"),
        ("what are the weights in a ", "what are the weights"),
        ("why should coding agents run in a ", "why should coding agents run"),
        ("resume training from a ", ""),  # "from" says where from, not where it is
        ("what is ", ""),
        ("in a ", ""),  # nothing before the place
    ],
)
def test_the_words_a_place_follows(before: str, placed: str) -> None:
    assert placed_after(before) == placed


def test_a_place_after_a_thing_is_offered_after_it(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("what is a model card on the hugging face hub")
    assert result.status == "suggest", result
    assert [s.id for s in result.suggestions[:2]] == ["model-card", "hugging-face-hub"]


@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("why should coding agents run in a sandbox", "sandbox"),  # a verb's place
        ("quantization in llama.cpp", "llama-cpp"),  # no question: either card is fair
    ],
)
def test_other_places_keep_their_card(bundled_index: SearchIndex, query: str, card: str) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == card
