"""Sixth round of question rules: chat that sets a scene or names its topic in a clause of its
own, then asks in the next ("running llama on my laptop, do i have to quantize it?", "swiglu
activation, why is everyone using it"); a name the question's thing is for, or is weighed
against, is its setting; "what's inside X"; a subject written as an acronym; a comparison's
head noun written once. Queries written for this file before the rules (none from a relevance
slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import asked_clause, asked_subject, is_question


@pytest.mark.parametrize(
    ("query", "clauses"),
    [
        (
            "flash attention, why is everyone using it now",
            ("flash attention", "why is everyone using it now"),
        ),
        # a clause that only greets is no scene
        (
            "evening folks, paged attention: how does it save memory",
            ("paged attention", "how does it save memory"),
        ),
        # a question mark makes a clause a question ("worth it?")
        (
            "continuous batching for a tiny server, worth it?",
            ("continuous batching for a tiny server", "worth it"),
        ),
        (
            "running llama on my laptop - do i have to quantize it first?",
            ("running llama on my laptop", "do i have to quantize it first"),
        ),
        # a question of one piece, or one that asks first, has no scene
        ("how does speculative decoding work?", None),
        ("hey, what is rag", None),
        ("what is rag, and why is it popular", None),
        ("kv cache size for long chats", None),
        ("the 3.5 release notes", None),
    ],
)
def test_the_clause_that_asks(query: str, clauses: tuple[str, str] | None) -> None:
    assert asked_clause(query) == clauses


@pytest.mark.parametrize(
    ("core", "verb", "words"),
    [
        ("do i have to quantize it first", "quantize", ["first"]),
        ("do we need to pick the learning rate", "pick", ["learning", "rate"]),
        ("how do i need to set the temperature", "set", ["temperature"]),
        # what one needs, not what one must do: no verb (measured in round one: no subject)
        ("do i need rag", None, ["i", "need", "rag"]),
    ],
)
def test_the_verb_after_an_obligation(core: str, verb: str | None, words: list[str]) -> None:
    assert asked_subject(core) == (verb, words)


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # the topic first, then a question about it (cards before the rules too)
        ("flash attention, why is everyone using it now", "flash-attention"),
        ("kv cache in long chats, why does it grow so much", "kv-cache"),
        ("prefix caching across users, is it safe?", "prefix-caching"),
        ("continuous batching for a small chatbot server, worth it?", "continuous-batching"),
        # a scene, then a question with its own subject (no card before the rule for the first)
        ("running llama on my old laptop, do i have to quantize it first?", "quantization"),
        ("training a 1b model from scratch, how do i pick the learning rate", "learning-rate"),
        ("my rag bot for the company wiki, how do i chunk the documents", "chunking"),
        # a comparison as the scene: its first side, not the question's subject
        ("layer norm vs batch norm, why do transformers use it", "layer-norm"),
        # a long name the question's thing is for or used with, after it, is its setting:
        # no card (the first) or a wrong one (the second) before the rule
        ("what temperature should i use for speculative decoding", "temperature"),
        ("what learning rate do people use with lora adapters", "learning-rate"),
        ("which optimizer works best for fine-tuning a 7b model", "optimizer"),
        ("what chunk size works best with hybrid search", "chunking"),
        (
            "good resources on mechanistic interpretability for beginners",
            "mechanistic-interpretability",
        ),
        # ... not where the first name only qualifies the next word: offered, not a card
        # (a Python card with the rule's first version)
        ("which python library for semantic search", None),
        # what a thing holds asks about the thing
        ("whats inside a gguf file", "gguf"),
        ("hey! what's inside a single transformer block?", "transformer-block"),
        # a short subject written in capitals as its entry's acronym is no everyday word: asked
        # about at any rank of the meaning (the first three: no card before the rule)
        ("how was CLIP trained?", "contrastive-language-image-pretraining"),
        ("is SFT enough before RLHF", "sft"),
        ("does the CLIP score mean anything", "contrastive-language-image-pretraining"),
        ("why does DPO need a reference model", "dpo"),
        # a head noun written once, after the second side: the first side reads with it (wrong
        # cards before the rule: Tensor, ZeRO; no card for the third)
        ("tensor vs pipeline parallelism", "model-parallelism"),
        ("zero vs few shot prompting", "zero-shot-learning"),
        ("self vs cross attention", "attention"),
        # ... not where the first side is a name of its own, or both sides are whole
        ("rag vs fine tuning", "rag"),
        ("top k vs top p sampling", "top-k"),
        ("lora vs full fine tuning", "lora-qlora"),
        # what the subject is weighed against ("compared to", "than", "versus") vetoes nothing
        # (a wrong card for the rival before the rule for the first)
        ("is mse a fine loss compared to cross entropy", "mse"),
        ("is rag still useful compared to fine tuning", "rag"),
        ("is dpo really simpler than proximal policy optimization", "dpo"),
        ("why is gguf more popular than safetensors", "gguf"),
        # a name in a clause saying why or despite what is the question's setting (the first:
        # no card before the rule)
        ("is fine tuning pointless now that context windows are this long", "fine-tuning"),
        ("is rag worth it even though fine tuning is cheaper now", "rag"),
        ("why is vllm slow although continuous batching is on", "vllm"),
    ],
)
def test_the_card_of_a_chat_question(
    bundled_index: SearchIndex, query: str, card: str | None
) -> None:
    assert bundled_index.search(query).entry_id == card


@pytest.mark.parametrize(
    "query",
    [
        # everyday scenes
        "my grandma's sourdough temperature, why does it matter so much",
        "our wedding seating chart, how do i even start",
        "the token booth at the subway, is it still open at night?",
        "sunday brunch for 12 people, worth it?",
        # a short word the meaning does not rank: lower case ("clip" is also a word), the
        # asker's verb written in capitals, an everyday acronym
        "how was clip trained?",
        "how do i CLIP my dog's nails",
        "is the SEED round closed",
    ],
)
def test_no_card(bundled_index: SearchIndex, query: str) -> None:
    assert bundled_index.search(query).entry_id is None


def test_a_plain_word_asked_about_after_a_scene_is_not_its_card(
    bundled_index: SearchIndex,
) -> None:
    """ "the layers" of a model too big for one gpu are no question about layers."""
    query = "my model is too big for one gpu, how do i split the layers over two"
    assert bundled_index.search(query).entry_id != "neural-network-layer"


@pytest.mark.parametrize(
    "query",
    ["flash attention, why do transformers need it", "kv cache, how do tokens add up"],
)
def test_after_a_topic_the_name_the_question_starts_with_is_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    """A clause that starts with a name is the topic: the question after it asks about that
    topic, not about the name its own clause starts with."""
    result = bundled_index.search(query)
    shown = [result.entry.id] if result.entry else [s.id for s in result.suggestions[:1]]
    assert shown == [query.split(",")[0].replace(" ", "-")]


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("hello! what's a kv cache", True),
        ("hey. how does rag work", True),
        ("hello! the kv cache of vllm", False),
    ],
)
def test_a_greeting_with_its_own_punctuation_still_starts_a_question(
    query: str, asks: bool
) -> None:
    assert is_question(query) is asks


@pytest.mark.parametrize(
    ("core", "words"),
    [
        ("inside a single transformer block", ["transformer", "block"]),
        ("inside a gguf file", ["gguf", "file"]),
        ("within the kv cache", ["kv", "cache"]),
    ],
)
def test_what_is_inside_a_thing_asks_about_it(core: str, words: list[str]) -> None:
    assert asked_subject(core) == (None, words)
