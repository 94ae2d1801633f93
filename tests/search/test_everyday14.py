"""Probes for task everyday14, written from entry titles and general knowledge before reading the
code: entry words in their everyday, biology, finance, gaming or hardware senses (no card; an
offer is fine) beside the same words asked in the field (a card), a hallucination of the drug
kind, and questions whose description and meaning agree on one entry ("flash attn 2 build fails
on windows"). None is from a relevance slice."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.everyday import coinage_split, unknown_word

# Still cards, left alone (bench/results/semantic.md, task everyday14): "sli with two gtx 1080s",
# "is sli worth it for gaming" (the rest is the field's: GPUs), "why does swiss cheese have
# holes" (an offer since task everyday16: `SearchIndex._named_after`), "swiss cheese plant care", "how is swiss cheese made" (a name of two words; no word
# no entry uses), "rubric for a book report", "rubric for a fifth grade writing assignment" (the
# rest 0.40 to an entry, over OFF_DOMAIN_COSINE), "how many neurons in the human brain".
EVERYDAY = [
    # found by hand last session
    "monte carlo simulation for my retirement",
    "how many neurons does an octopus have",
    "why do llamas spit",
    "token for the laundry machine",
    # written for this task, of the same kinds
    "running two graphics cards in sli for more fps",
    "does my motherboard support sli or crossfire",
    "sli bridge for two rtx cards",
    "monte carlo retirement calculator",
    "best restaurants in monte carlo monaco",
    "monte carlo grand prix tickets",
    "how many neurons does a honeybee have",
    "do jellyfish have neurons",
    "mirror neurons and empathy",
    "llama farm tours near me",
    "how long do llamas live",
    "llama vs alpaca difference",
    "arcade token machine near me",
    "bus token for the metro",
    "tokens for the car wash",
    "hallucinations from lack of sleep",
    "hallucinating after taking mushrooms",
    "hallucinations in dementia patients",
    "attention span of a goldfish",
    "sandbox for my kids backyard",
    "sleeper agents in the cold war",
    "canary in a coal mine",
    "brussels sprouts in the air fryer",
    "seed potatoes when to plant",
    "python bite first aid",
]


@pytest.mark.parametrize("query", EVERYDAY)
def test_an_everyday_sense_gets_no_card(bundled_index: SearchIndex, query: str) -> None:
    result = bundled_index.search(query)
    assert result.status != "match", result


IN_FIELD = [
    ("monte carlo tree search in alphago", "monte-carlo-tree-search"),
    ("monte carlo tree search for llm reasoning", "monte-carlo-tree-search"),
    ("monte carlo rollouts in alphago", "monte-carlo-tree-search"),  # a title's start, in the field
    ("how many neurons in a hidden layer", "artificial-neuron"),
    ("what is a neuron in a neural network", "artificial-neuron"),
    ("what is an sli in site reliability engineering", "service-level-indicator"),
    ("swiss cheese model of ai safety", "swiss-cheese-model"),
    ("what does the swiss cheese model mean", "swiss-cheese-model"),
    ("rubric for grading llm answers", "rubric"),
    ("what is a rubric in llm evaluation", "rubric"),
    ("how many tokens is a word in gpt", "token"),
    ("token vs word count", "token"),
    ("hallucination in chatgpt answers", "hallucination"),
    ("rectified flow in stable diffusion 3", "rectified-flow"),
    # written after the rule: a word no entry uses, beside more of the field's ("rate", "asking")
    ("hallucination rate when asking about dinosaurs", "hallucination"),
]


@pytest.mark.parametrize(("query", "entry_id"), IN_FIELD)
def test_the_same_words_in_the_field_keep_their_card(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id


# Written as cards to keep, but offers with the entry first on main already: kept first.
IN_FIELD_OFFERED = [
    ("dead neurons with relu", "artificial-neuron"),
    ("llama 3 8b how much vram", "llama"),
    ("why do llms hallucinate", "hallucination"),
    ("flash attention 2 install error", "flash-attention"),
    ("temperature setting in the openai api", "temperature"),
    ("seed for reproducible llm outputs", "seed"),
]


@pytest.mark.parametrize(("query", "entry_id"), IN_FIELD_OFFERED)
def test_the_same_words_in_the_field_keep_their_entry_first(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    assert bundled_index.search(query).best_id == entry_id


@pytest.mark.parametrize(
    "query",
    [
        "hallucination on lsd",
        "hallucinations on acid",
        "hallucination from a high fever",
    ],
)
def test_a_hallucination_of_the_body_gets_no_card(bundled_index: SearchIndex, query: str) -> None:
    assert bundled_index.search(query).status != "match"


# Still offers, left alone: "reflow, sd3 uses it", "what is reflow, sd3 uses it" (the meaning
# ranks other entries first, cosine 0.37), "flash attention 2 wont install on windows" (jargon
# beside two everyday words, "wont" and "install", the rest far from the field).
def test_a_coinage_written_in_two_words_keeps_its_card(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("flash attn 2 build fails on windows")
    assert result.entry is not None, result
    assert result.entry.id == "flash-attention"


@pytest.mark.parametrize(
    ("text", "entry_id", "split"),
    [
        ("flash attention", "flash-attention", True),
        ("why is paged attention fast", "paged-attention", True),
        ("flashattention", "flash-attention", False),  # one word: jargon, judged as such
        ("pay attention in class", "attention", False),
        ("sandbox", "sandbox", False),
    ],
)
def test_a_coinage_written_in_two_words_is_found(
    bundled_index: SearchIndex, text: str, entry_id: str, split: bool
) -> None:
    entry = bundled_index.entries[bundled_index.positions[entry_id]]
    assert coinage_split(entry, text) is split


def test_a_word_no_entry_uses_must_not_be_outnumbered(bundled_index: SearchIndex) -> None:
    knows, unused = bundled_index.glossary_word, bundled_index.unused_word
    assert unknown_word(["spit"], knows, unused)
    assert unknown_word(["many", "octopus"], knows, unused)  # as many: enough
    assert not unknown_word(["rate", "asking", "dinosaurs"], knows, unused)
    assert not unknown_word(["many", "hidden", "layer"], knows, unused)
