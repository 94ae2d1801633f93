"""Confident wrong cards (task wrong, issue #12). Probes written for this file from the entry
titles and general knowledge before reading the search code or the entries' text, none from a
relevance slice: questions that write a broad entry's name while asking about a narrower one,
everyday senses of entry names, and plain questions about the broad entries (their cost)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

# Probes that fail on main and on this branch: recorded as strict expected failures, so one that
# starts passing fails the suite and is moved into the passing lists (see the wrong-cards section
# of bench/results/semantic.md).
STILL_WRONG_CARD = {
    "how many tokens fit in the context window of llama 3",  # Token
    "how does a vector database index embeddings with hnsw",  # Vector Databases
}
NARROWER_NOT_SHOWN = STILL_WRONG_CARD | {
    "how do you fine tune a model with lora on a single gpu",  # QLoRA card: fair
    "how does an ai agent decide when to call a tool",  # ReAct, AI Agents offered
    "how is a json schema enforced with constrained decoding",  # Structured Outputs: fair
    "how does the transformer block apply rmsnorm before attention",  # fourth offer
    "greedy vs beam search decoding",  # Sampling card ("greedy decoding")
}
EVERYDAY_STILL_CARDED = {
    "what is the gate code for my apartment building",
}
PLAIN_NOT_CARDED: set[str] = set()


def marked(cases: list, known: set[str]) -> list:
    """`cases` with those whose query is in `known` marked as strict expected failures."""
    fails = pytest.mark.xfail(strict=True, reason="fails on main too")
    out = []
    for case in cases:
        values = (case,) if isinstance(case, str) else case
        out.append(pytest.param(*values, marks=fails) if values[0] in known else case)
    return out


# (query, the narrower entry asked about, the broad entry written as context)
NARROWER = [
    ("why do transformers need positional encoding at all", "positional-encoding", "transformers"),
    ("how is the loss computed from logits with cross-entropy", "cross-entropy", "loss"),
    (
        "how do you split one tensor across two gpus with model parallelism",
        "model-parallelism",
        "tensor",
    ),
    ("how many tokens fit in the context window of llama 3", "context-windows", "token"),
    ("how are tokens turned into vectors by the token embedding layer", "token-embedding", "token"),
    ("why do people sample tokens with top-p instead of greedy decoding", "top-p", "token"),
    ("what temperature should i sample with for creative writing", "temperature", "sampling"),
    ("how do you fine tune a model with lora on a single gpu", "lora-qlora", "fine-tuning"),
    ("how does rlhf use ppo to update the policy", "proximal-policy-optimization", "rlhf"),
    (
        "why does multi-head attention split the embedding into several heads",
        "multi-head-attention",
        "embeddings",
    ),
    (
        "how does a vector database index embeddings with hnsw",
        "hierarchical-navigable-small-world",
        "vector-databases",
    ),
    ("how does an ai agent decide when to call a tool", "tool-calling", "ai-agents"),
    (
        "how do you write a system prompt that resists prompt injection",
        "prompt-injection",
        "system-prompt",
    ),
    ("what is the noise schedule in a diffusion model", "noise-schedule", "diffusion-model"),
    (
        "how does speculative decoding use a small draft model to speed up llm inference",
        "speculative-decoding",
        "llm-inference",
    ),
    ("how does vllm use paged attention to manage the kv cache", "paged-attention", "vllm"),
    ("how does the gpu's high bandwidth memory limit decode speed", "high-bandwidth-memory", "gpu"),
    (
        "how do you evaluate an llm by using another llm as a judge",
        "llm-as-a-judge",
        "llm-evaluation",
    ),
    ("how are model weights stored in safetensors files", "safetensors", "weights"),
    ("how is a json schema enforced with constrained decoding", "constrained-decoding", "json"),
    (
        "why does a training dataset need decontamination against benchmarks",
        "decontamination",
        "dataset",
    ),
    (
        "how does the transformer block apply rmsnorm before attention",
        "root-mean-square-normalization",
        "transformer-block",
    ),
    (
        "why is the learning rate warmed up in the first steps of training",
        "learning-rate",
        "training",
    ),
    (
        "how does a sparse autoencoder find features in the residual stream",
        "sparse-autoencoder",
        "residual-stream",
    ),
    ("why do llms hallucinate less with retrieval augmented generation", "rag", "hallucination"),
    ("top-k vs top-p sampling", "top-k", "sampling"),
    ("greedy vs beam search decoding", "beam-search", "decode"),
]

# everyday senses of entry names: no card
EVERYDAY = [
    "how do i get rid of a python in my backyard",
    "is a llama a good pet for a small farm",
    "the transformer on the power pole outside my house is humming",
    "what is the best seed for growing tomatoes in pots",
    "which geological epoch did the dinosaurs die out in",
    "where can i buy tokens for the arcade machine",
    "how to cope with the loss of a pet dog",
    "what is the gate code for my apartment building",
    "the attention span of a toddler at preschool",
    "is sampling the cheese at costco free",
    "recipe for a chocolate layer cake with three layers",
    "motor neurons in the spinal cord for my anatomy exam",
    "my grandmother sees things at night, are these hallucinations from dementia",
    "how much does a wheel alignment cost for my car",
    "long wait at the border checkpoint today",
    "how to set up a sandbox for my kids in the garden",
    "why does swiss cheese have holes",
    "my teacher's grading rubric for the science fair",
    "lifting weights three times a week as a beginner",
    "the receptionist at the dentist is the scheduler for appointments",
]

# plain questions about a broad entry: still its card
PLAIN = [
    ("what is a token", "token"),
    ("what are transformers in machine learning", "transformers"),
    ("what is a tensor in pytorch", "tensor"),
    ("what is the loss in model training", "loss"),
    ("how does attention work in a transformer", "attention"),
    ("what is sampling in llm text generation", "sampling"),
    ("what does the temperature setting do in an llm", "temperature"),
    ("what is fine-tuning", "fine-tuning"),
    ("what is a system prompt", "system-prompt"),
    ("how does bm25 rank documents", "bm25"),
    ("what is a vision transformer", "vision-transformer"),
    ("what is the context window of an llm", "context-windows"),
    ("why do llms hallucinate", "hallucination"),
    ("what is a gpu", "gpu"),
    ("what does a tokenizer do with text", "tokenization"),
    ("what is python used for in machine learning", "python"),
]


@pytest.mark.parametrize(("query", "narrower", "broad"), marked(NARROWER, STILL_WRONG_CARD))
def test_a_written_broad_name_gets_no_card_when_a_narrower_entry_is_asked(
    bundled_index: SearchIndex, query: str, narrower: str, broad: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id != broad, result


@pytest.mark.parametrize(("query", "narrower", "broad"), marked(NARROWER, NARROWER_NOT_SHOWN))
def test_the_narrower_entry_comes_first(
    bundled_index: SearchIndex, query: str, narrower: str, broad: str
) -> None:
    """Its card, or among the first three offers (an offer with both is not a wrong card)."""
    result = bundled_index.search(query)
    shown = [result.entry.id] if result.entry else [s.id for s in result.suggestions[:3]]
    assert narrower in shown, result


@pytest.mark.parametrize("query", marked(EVERYDAY, EVERYDAY_STILL_CARDED))
def test_an_everyday_sense_gets_no_card(bundled_index: SearchIndex, query: str) -> None:
    result = bundled_index.search(query)
    assert result.status != "match", result


@pytest.mark.parametrize(("query", "entry_id"), marked(PLAIN, PLAIN_NOT_CARDED))
def test_a_plain_question_about_a_broad_entry_keeps_its_card(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id


@pytest.mark.parametrize(
    ("first", "second", "headed"),
    [
        # one modifier each of the name the second side ends with: not the first side's card
        ("tensor", "pipeline model parallelism", "tensor model parallelism"),
        # a first side that names nothing alone is read as before
        ("cosine", "linear noise schedule", "cosine"),
        # a product name before the second name ("deepspeed") is no modifier
        ("fsdp", "deepspeed zero 3", "fsdp"),
    ],
)
def test_two_kinds_of_a_written_name_are_read_with_it(
    bundled_index: SearchIndex, first: str, second: str, headed: str
) -> None:
    assert bundled_index.questions.with_head(first, second) == headed


def test_a_comparison_of_two_kinds_gets_the_kind_of_thing_not_the_modifier(
    bundled_index: SearchIndex,
) -> None:
    result = bundled_index.search("tensor vs expert model parallelism")
    assert result.entry is None or result.entry.id == "model-parallelism", result
    assert result.best_id == "model-parallelism"


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("what does moe mean in anime", "mixture-of-experts"),
        ("what is a checkpoint in zelda", "checkpoint"),
        ("what is an epoch in geology", "epoch"),
        ("what is a token in monopoly", "token"),
        ("what is a sandbox in minecraft", "sandbox"),
        ("what is fine tuning in music", "fine-tuning"),
    ],
)
def test_a_question_about_a_name_in_another_field_is_offered(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == "suggest", result
    assert result.best_id == entry_id


# ... unless far from the field as a whole: no entry at all, no "Did you mean" (task offtopic41,
# `SearchIndex._offered_off_field`)
def test_a_question_about_a_game_far_from_the_field_gets_no_entry(
    bundled_index: SearchIndex,
) -> None:
    result = bundled_index.search("what is a checkpoint in hollow knight")
    assert result.status == "none", result
    assert result.entry is None, result
    assert not result.suggestions, result


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("what is a checkpoint in pytorch", "checkpoint"),  # jargon: the field's
        ("what is an epoch in training", "epoch"),  # a word the entries use
        ("what does moe mean in deepseek", "mixture-of-experts"),
        ("kann mir jemand erklären was beam search ist", "beam-search"),  # no "in": no field
    ],
)
def test_a_question_about_a_name_in_the_field_keeps_its_card(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id
