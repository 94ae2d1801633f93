"""Finding glossary terms in running text ("Explain terms")."""

from __future__ import annotations

from bot.search import SearchIndex


def found(index: SearchIndex, text: str, **kwargs: object) -> list[tuple[str, str]]:
    return [(m.entry_id, m.surface) for m in index.find_terms(text, **kwargs)]  # type: ignore[arg-type]


def test_terms_in_order_once_each(small_index: SearchIndex) -> None:
    text = "Speculative decoding needs a KV-cache; the kv cache grows. Speculative decoding again."
    assert found(small_index, text) == [
        ("speculative-decoding", "Speculative decoding"),
        ("kv-cache", "KV-cache"),
    ]


def test_offsets_point_into_the_text(small_index: SearchIndex) -> None:
    text = "We use **RAG** here."
    (mention,) = small_index.find_terms(text)
    assert text[mention.start : mention.end] == mention.surface == "RAG"


def test_longest_name_wins(small_index: SearchIndex) -> None:
    assert found(small_index, "a key-value cache") == [("kv-cache", "key-value cache")]


def test_plural_and_spacing(small_index: SearchIndex) -> None:
    assert found(small_index, "kv caches and kvcache") == [("kv-cache", "kv caches")]


def test_acronyms_in_lower_case_are_words(small_index: SearchIndex) -> None:
    assert found(small_index, "a rag doll and some rope") == [("rag-cloth", "rag")]
    assert found(small_index, "RAG with RoPE") == [
        ("rag", "RAG"),
        ("rotary-position-embedding", "RoPE"),
    ]


def test_generic_words_are_not_linked(small_index: SearchIndex) -> None:
    assert found(small_index, "step by step, one more step") == []
    assert found(small_index, "each training step") == [("training-step", "training step")]


def test_match_exclusions_by_context(small_index: SearchIndex) -> None:
    text = "each training step"
    assert found(small_index, text, context="Vision.Steps") == []
    assert found(small_index, text, context="Workflow.Editor") == []
    assert found(small_index, text, context="Learn.Chapter") == [("training-step", "training step")]


def test_server_alias(small_index: SearchIndex) -> None:
    assert found(small_index, "our kvc is full", overlay={"kvc": "kv-cache"}) == [
        ("kv-cache", "kvc")
    ]


def test_no_terms(small_index: SearchIndex) -> None:
    assert found(small_index, "") == []
    assert found(small_index, "nothing to see here") == []


def test_names_inside_links_are_not_terms(small_index: SearchIndex) -> None:
    # outsider round 26: a link's path or query string is an address, not words someone wrote
    # ("?utm_campaign=kv-cache" listed KV Cache); the words around it still count.
    text = (
        "the RAG demo: https://example.com/kv-cache/docs?utm_campaign=speculative-decoding "
        "and www.example.org/rope, discord.gg/kvcache"
    )
    assert found(small_index, text) == [("rag", "RAG")]
    named = [(m.entry_id, m.surface) for m in small_index.find_named_terms(text)]
    assert named == [("rag", "RAG")]


def test_a_link_keeps_the_offsets_of_the_words_after_it(small_index: SearchIndex) -> None:
    text = "see <https://x.example/a-b?c=d> about the KV cache"
    (mention,) = small_index.find_terms(text)
    assert text[mention.start : mention.end] == mention.surface == "KV cache"
