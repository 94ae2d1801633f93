"""Probes for everyday senses still carded and for "what does it mean to <verb> <object>" (task
everyday18): everyday18_probes.tsv, written from the entry titles and general knowledge before
reading the search code or the entries."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.everyday import everyday_object

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that still fail on this branch (all of these failed on main fbe35d0): strict expected
# failures, so one that starts passing fails the suite and is moved out of here.
STILL_FAILING = {
    "rubric for a book report",  # Rubric card
    "how many neurons in the human brain",  # Neuron card
    "how do i watermark my photos in lightroom",  # Watermarking card
    "how to add a watermark to pictures in photoshop",  # Watermarking card
    "can you watermark images from a diffusion model",  # an offer, Diffusion Model first
    "how can i tell if my network is overfit",  # an offer, Validation Loss first
    "what does it mean to quantize a llama model to gguf",  # a wrong Llama card (now an offer)
}
PROBES = ProbeFile("everyday18_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_the_entry_asked_about_gets_its_card = PROBES.test("real", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"everyday": 20, "real": 20})


@pytest.mark.parametrize(
    "query",
    [
        "what does it mean to distill essential oils",
        "what does it mean to quantize notes in logic pro",
        "what does it mean to tokenize a credit card",
        "what does it mean to align your chakras",
        "what does it mean to embed a tweet",
        "what does it mean to train for a marathon",
        "what does it mean to sample a wine",
        "what does it mean to seed a torrent",
        # a verb of two words: "fine tune" names Fine-Tuning, "tune" alone does not
        "what does it mean to fine tune a guitar",
        "what does it mean to fine tune your golf swing",
    ],
)
def test_what_it_means_to_do_an_act_to_an_everyday_thing_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry is None


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("what does it mean to quantize a model", "quantization"),
        ("what does it mean to tokenize a string", "tokenization"),
        ("what does it mean to distill gpt-4 into a smaller model", "knowledge-distillation"),
        ("what does it mean to align an ai system", "alignment"),
        # a plain verb ("train", "sample") names its entry only done to a thing of the field
        ("what does it mean to train a neural network", "training"),
        ("what does it mean to train an llm", "training"),
        # an act that names no entry leaves its object unasked (Model Compression by meaning)
        ("what does it mean to prune a neural network", "model-compression"),
        ("what does it mean to fine tune a model", "fine-tuning"),
    ],
)
def test_what_it_means_to_do_an_act_to_a_thing_of_the_field_gets_its_card(
    bundled_index: SearchIndex, query: str, entry: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry, result


def test_a_thing_an_act_is_done_to_is_everyday_by_its_words() -> None:
    def knows(word: str) -> bool:
        return word in {"model", "weights", "text", "real"}

    def unused(word: str) -> bool:
        return word in {"water", "estate", "song"}

    assert everyday_object("water", knows, unused)
    assert everyday_object("real estate", knows, unused)  # "estate": no entry uses it
    assert not everyday_object("a model", knows, unused)
    assert not everyday_object("weights to 4 bit", knows, unused)
    assert not everyday_object("", knows, unused)  # nothing said of the thing


@pytest.mark.parametrize(
    "query",
    [
        "why are the leaves on my swiss cheese plant turning yellow",
        "monte carlo casino dress code",
        "best hotels in monte carlo",
        "power usage of my fridge",
        "tree of life meaning",
    ],
)
def test_a_namesake_with_plain_words_far_from_the_field_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry is None


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("swiss cheese approach to ai safety", "swiss-cheese-model"),
        ("the swiss cheese approach to llm guardrails", "swiss-cheese-model"),
        ("monte carlo rollouts in alphago", "monte-carlo-tree-search"),
        ("power usage of a gpu cluster", "power-usage-effectiveness"),
    ],
)
def test_a_namesake_beside_the_field_keeps_its_card(
    bundled_index: SearchIndex, query: str, entry: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry, result
