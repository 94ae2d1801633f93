"""Each lookup strategy on a small hand-made glossary, and the decision rule around them."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult


def matched(result: SearchResult) -> tuple[str, str | None]:
    assert result.status == "match", result
    assert result.entry is not None
    return result.entry.id, result.strategy


@pytest.mark.parametrize(
    ("query", "entry_id", "strategy"),
    [
        ("KV Cache", "kv-cache", "exact"),
        ("kv cache", "kv-cache", "exact"),
        ("KV-CACHE", "kv-cache", "exact"),
        ("kvcache", "kv-cache", "exact"),
        ("serving-goodput", "serving-goodput", "id"),
        ("key-value cache", "kv-cache", "alias"),
        ("KV", "kv-cache", "acronym"),
        ("RAG", "rag", "acronym"),
        ("RoPE", "rotary-position-embedding", "acronym"),
        ("GPT-Generated Unified Format", "gguf", "expansion"),
        ("retrieval augmented generation", "rag", "exact"),
        ("training step", "training-step", "match-term"),
        ("kv caches", "kv-cache", "plural"),
        ("tokenizers", "tokenization", "plural"),
        ("speculatve decoding", "speculative-decoding", "fuzzy"),
        ("kv cahce", "kv-cache", "fuzzy"),
        ("specul", "speculative-decoding", "prefix"),
        ("the optimizer with decoupled weight decay", "adamw", "description"),
    ],
)
def test_strategy(small_index: SearchIndex, query: str, entry_id: str, strategy: str) -> None:
    assert matched(small_index.search(query)) == (entry_id, strategy)


@pytest.mark.parametrize(
    "question",
    [
        "what is a kv cache?",
        "whats a KV cache",
        "define `kv cache`",
        "**KV cache**",
        "explain kv cache",
    ],
)
def test_question_forms(small_index: SearchIndex, question: str) -> None:
    assert matched(small_index.search(question))[0] == "kv-cache"


def test_server_alias(small_index: SearchIndex) -> None:
    overlay = {"kvc": "kv-cache", "broken": "no-such-entry"}
    assert matched(small_index.search("KVC", overlay)) == ("kv-cache", "server-alias")
    assert small_index.search("kvc").status != "match"  # only on that server
    assert small_index.search("broken", overlay).status == "none"  # a stale alias is ignored


def test_server_alias_outranks_glossary_alias_but_not_title(small_index: SearchIndex) -> None:
    overlay = {"speculative sampling": "adamw", "kv cache": "adamw"}
    assert matched(small_index.search("speculative sampling", overlay))[0] == "adamw"
    assert matched(small_index.search("kv cache", overlay))[0] == "kv-cache"


def test_acronym_and_word_of_one_spelling(small_index: SearchIndex) -> None:
    lower = small_index.search("rag")  # the cloth or the acronym: let the user choose
    assert lower.status == "suggest"
    assert {s.id for s in lower.suggestions} == {"rag", "rag-cloth"}
    assert matched(small_index.search("RAG"))[0] == "rag"  # capitals mean the acronym


def test_title_part_is_not_an_answer(small_index: SearchIndex) -> None:
    result = small_index.search("goodput")  # "Goodput (Serving)" and "Training Goodput"
    assert result.status == "suggest"
    assert {s.id for s in result.suggestions} >= {"serving-goodput", "training-goodput"}


def test_short_prefix_suggests(small_index: SearchIndex) -> None:
    result = small_index.search("py")
    assert result.status == "suggest"
    assert [s.id for s in result.suggestions][:2] == ["python", "pytorch"]


def test_acronym_phrase(small_index: SearchIndex) -> None:
    assert matched(small_index.search("RoPE embedding"))[0] == "rotary-position-embedding"


def test_suggestions_never_repeat_the_match(small_index: SearchIndex) -> None:
    result = small_index.search("kv cahce")
    assert result.entry is not None
    assert result.entry.id not in {s.id for s in result.suggestions}
    assert len(result.suggestions) <= 5


@pytest.mark.parametrize(
    "query",
    [
        "kubernetes",
        "sharpe ratio",
        "how do I bake bread",
        "asdfghjkl",
        "what is the capital of france",
        "weight decay",  # inside AdamW's name, but not AdamW
        "",
        "   ",
        "???",
        "what is",
    ],
)
def test_no_confident_card_off_topic(small_index: SearchIndex, query: str) -> None:
    assert small_index.search(query).status != "match"


def test_none_has_nothing_to_show(small_index: SearchIndex) -> None:
    result = small_index.search("kubernetes")
    assert (result.status, result.entry, result.strategy, result.suggestions) == (
        "none",
        None,
        None,
        (),
    )
    assert result.best_id is None
    assert result.normalized_query == "kubernetes"


def test_result_keeps_the_query(small_index: SearchIndex) -> None:
    result = small_index.search("  What's a KV cache?  ")
    assert result.query == "  What's a KV cache?  "
    assert result.normalized_query == "what's a kv cache"
    assert 0 <= result.score <= 100


def test_empty_index() -> None:
    index = SearchIndex.build([])
    assert index.search("anything").status == "none"
    assert index.autocomplete("") == []
    assert index.autocomplete("any") == []
    assert index.find_terms("anything at all") == []
