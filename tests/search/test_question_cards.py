"""Question cards (task questions9, issue #12). Probes written for this file from the entry
titles and general knowledge before reading the search code or the entries' text, none from a
relevance slice: questions that describe one entry and should get its card, and questions that
write a broad entry's name while asking a narrower one. The round's two rules were measured and
not kept (held-out wrong cards rose): see "Question cards, ninth round" in
bench/results/semantic.md."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

# Probes that fail on main: strict expected failures, so one that starts passing fails the
# suite and is moved out of this set (wrong14's described entry offered fixed the RMSprop one).
STILL_FAILING = {
    "how does a model know which word comes first in a sentence",  # offered first (rule 1: card)
    "why do llms make up facts that sound true",  # LLM card, Hallucination offered
    "why do we divide logits by a number before sampling",  # Logits card
    "how can i fine tune a 70b model on one gpu with 4 bit weights",  # Fine-Tuning card
    "what is it called when you train a small model to copy a big one",  # offered first
    "why does my training loss go to nan unless i cap the gradient norm",  # Loss card
    "how does vllm fit so many requests in gpu memory",  # vLLM card: fair
    "why is the first token slow but the rest are fast",  # Decode offered first
    "how do i let the llm call my weather api",  # Function Calling card: fair
    "what index does a vector database use for fast nearest neighbour search",  # Vector DBs
    "how do llm serving engines share a common prompt prefix between requests",  # LLM Serving
    "what loss does next token prediction use to compare logits to the real token",  # Loss
}


def marked(cases: list) -> list:
    fails = pytest.mark.xfail(strict=True, reason="fails on main too")
    return [pytest.param(*c, marks=fails) if c[0] in STILL_FAILING else c for c in cases]


CARDS = [
    ("why do llms make up facts that sound true", "hallucination"),
    ("how does the model remember earlier tokens without recomputing them", "kv-cache"),
    (
        "whats the trick where a small model drafts tokens and a big one checks them",
        "speculative-decoding",
    ),
    ("how do i make the model always answer in valid json", "structured-outputs"),
    ("how does a model know which word comes first in a sentence", "positional-encoding"),
    ("why do we divide logits by a number before sampling", "temperature"),
    (
        "how can i fine tune a 70b model on one gpu with 4 bit weights",
        "quantized-low-rank-adaptation",
    ),
    ("what is it called when you train a small model to copy a big one", "knowledge-distillation"),
    ("how do i stop the model from seeing future tokens during training", "causal-mask"),
    ("why does my training loss go to nan unless i cap the gradient norm", "gradient-clipping"),
    ("how do you find duplicate documents in a huge web crawl quickly", "minhash"),
    (
        "what does it mean when test questions leaked into the training data",
        "benchmark-contamination",
    ),
    ("how does vllm fit so many requests in gpu memory", "paged-attention"),
    ("why is the first token slow but the rest are fast", "prefill"),
    (
        "how do new requests join a batch that is already running on the server",
        "continuous-batching",
    ),
    ("how do i get a model to think step by step before answering", "chain-of-thought"),
    ("how can someone hide instructions in a web page to hijack my agent", "prompt-injection"),
    (
        "what do you call a model that behaves well in testing but turns bad on a trigger",
        "sleeper-agents",
    ),
    ("how do you train on preference pairs without a reward model", "dpo"),
    ("how do i let the llm call my weather api", "tool-calling"),
    ("what's the protocol claude uses to plug into external tools and data", "mcp"),
    ("how do i split long documents before embedding them", "chunking"),
    ("how do i combine keyword search with vector search", "hybrid-search"),
    ("why does the model pay so much attention to the very first token", "attention-sink"),
    ("how do you sample several answers and take the majority vote", "self-consistency"),
]


@pytest.mark.parametrize(("query", "card"), marked(CARDS))
def test_a_question_describing_one_entry_gets_its_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None
    assert result.entry.id == card


# (query, the narrower entry asked about, the broad entry written as its setting)
NARROWER = [
    (
        "in a transformer how do the attention heads run in parallel and get concatenated",
        "multi-head-attention",
        "transformers",
    ),
    (
        "how does pytorch compute gradients for me automatically",
        "automatic-differentiation",
        "pytorch",
    ),
    ("in rag how do i reorder the retrieved chunks with a cross encoder", "reranking", "rag"),
    (
        "what index does a vector database use for fast nearest neighbour search",
        "hierarchical-navigable-small-world",
        "vector-databases",
    ),
    (
        "when fine-tuning, what's the method that only trains small low rank matrices",
        "lora-qlora",
        "fine-tuning",
    ),
    (
        "during llm inference what stores the keys and values of past tokens",
        "kv-cache",
        "llm-inference",
    ),
    (
        "in a diffusion model, how much noise is added at each step",
        "noise-schedule",
        "diffusion-model",
    ),
    (
        "in the system prompt, how do models learn it outranks user messages",
        "instruction-hierarchy",
        "system-prompt",
    ),
    ("what does adam do differently with weight decay that fixes it", "adamw", "adam"),
    (
        "how does the optimizer adapt the learning rate per parameter using squared gradients",
        "rmsprop",
        "optimizer",
    ),
    (
        "in a vision transformer what are the little image squares called",
        "image-patch-token",
        "vision-transformer",
    ),
    (
        "how do llm serving engines share a common prompt prefix between requests",
        "prefix-caching",
        "llm-serving",
    ),
    (
        "in rlhf what's the algorithm with a clipped objective used to update the policy",
        "proximal-policy-optimization",
        "rlhf",
    ),
    (
        "what loss does next token prediction use to compare logits to the real token",
        "cross-entropy",
        "next-token-prediction",
    ),
    ("in quantization what file format does llama.cpp load", "gguf", "quantization"),
]


@pytest.mark.parametrize(("query", "narrower", "broad"), marked(NARROWER))
def test_a_broad_name_as_the_setting_gets_no_card(
    bundled_index: SearchIndex, query: str, narrower: str, broad: str
) -> None:
    """The narrower entry's card, or an offer with it among the first three; never the broad
    entry's card."""
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id != broad
    shown = [result.entry.id] if result.entry else [s.id for s in result.suggestions[:3]]
    assert narrower in shown
