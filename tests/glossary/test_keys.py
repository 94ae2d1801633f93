"""Normalisation: what a typed term is reduced to before any lookup."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.glossary.keys import compact, normalize, normalize_many
from bot.search.query import plural_variants, query_core


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("KV Cache", "kv cache"),
        ("kv-cache", "kv cache"),
        ("KV_Cache", "kv cache"),
        ("  kv   cache  ", "kv cache"),
        ("ＫＶ　Ｃａｃｈｅ", "kv cache"),  # full width (NFKC)
        ("K\u200bV cache", "kv cache"),  # zero-width space
        ("kv\tcache\n", "kv cache"),  # control characters
        ("**kv cache**", "kv cache"),  # markdown
        ("`kv cache`", "kv cache"),  # backticks
        ("“kv cache”", "kv cache"),  # curly quotes
        ("'kv cache'", "kv cache"),  # straight quotes
        ("what’s a kv cache?", "what's a kv cache"),  # typographic apostrophe kept as one
        ("C++ and C#", "c++ and c#"),  # technical terms keep their symbols
        ("UTF-8", "utf 8"),
        ("Straße", "strasse"),  # case folding, not lowering
        ("", ""),
    ],
)
def test_normalize(typed: str, expected: str) -> None:
    assert normalize(typed) == expected


def test_compact_meets_spacing_and_apostrophes() -> None:
    assert compact("kv cache") == compact("KV-Cache") == compact("kvcache") == "kvcache"
    assert compact("Goodhart's Law") == compact("goodharts law")


def test_normalize_many_matches_normalize() -> None:
    texts = ["KV-Cache", "what’s “this”", "", " a  b ", "'q'", "x\x00y", "Ünïcode", "C++"]
    assert normalize_many(texts) == [normalize(t) for t in texts]


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("what is a kv cache", "kv cache"),
        ("what's a kv cache", "kv cache"),
        ("whats rag", "rag"),
        ("define perplexity", "perplexity"),
        ("explain lora to me", "lora"),
        ("what does rlhf stand for", "rlhf"),
        ("what does moe mean", "moe"),
        ("how does flash attention work", "flash attention"),
        ("can you explain quantization", "quantization"),
        ("tell me about vllm", "vllm"),
        ("meaning of hallucination", "hallucination"),
        ("what is temperature in llms", "temperature"),
        ("the lethal trifecta", "lethal trifecta"),
        ("kv cache", "kv cache"),  # nothing to peel
        ("define", "define"),  # never peel everything away
        ("what is", "what is"),
    ],
)
def test_query_core(question: str, term: str) -> None:
    assert query_core(normalize(question)) == term


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("kvcaches", {"kvcache", "kvcach"}),
        ("queries", {"query"}),
        ("query", {"queries"}),
        ("token", {"tokens"}),
        ("batch", {"batches"}),
    ],
)
def test_plural_variants(key: str, expected: set[str]) -> None:
    assert expected <= set(plural_variants(key))
    assert key not in plural_variants(key)


@given(st.text(alphabet=st.sampled_from("aZ09 '’-_/.,`*\"~|>!?()[]{}:;\t\x00é"), max_size=12))
def test_compact_is_normalize_without_spaces_or_apostrophes(text: str) -> None:
    assert compact(text) == normalize(text).replace(" ", "").replace("'", "")
