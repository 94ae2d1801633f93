"""The building blocks: bulk word hashing, stemming, trigram candidates, BM25."""

from __future__ import annotations

from bot.search.bulkwords import hashed_words
from bot.search.fulltext import FullTextIndex, stem, stem_many
from bot.search.trigrams import TrigramIndex


def test_hashed_words_split_like_str_split() -> None:
    data = b"hello world\x01cache of  keys\x01\x01hello a-very-long-word-that-goes-on-and-on"
    hashes, starts, ends, documents = hashed_words(data.replace(b"-", b" "), 1)
    words = [data[a:b] for a, b in zip(starts, ends, strict=True)]
    assert words == [
        b"hello",
        b"world",
        b"cache",
        b"of",
        b"keys",
        b"hello",
        b"a",
        b"very",
        b"long",
        b"word",
        b"that",
        b"goes",
        b"on",
        b"and",
        b"on",
    ]
    assert documents.tolist() == [0, 0, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
    assert hashes[0] == hashes[5]  # the same word, the same hash
    assert hashes[12] == hashes[14]
    assert len(set(hashes.tolist())) == 13


def test_stems_meet() -> None:
    pairs = [
        ("keys", "key"),
        ("caching", "cache"),
        ("decoupled", "decouple"),
        ("queries", "query"),
        ("optimiser", "optimizer"),
        ("embeddings", "embedding"),
        ("losses", "loss"),
    ]
    for a, b in pairs:
        assert stem(a) == stem(b), (a, b)
    assert stem_many(["gpu2", "the", "status"]) == ["gpu2", "the", "status"]


def test_trigram_candidates_prefer_close_keys() -> None:
    keys = ["kvcache", "prefixcaching", "speculativedecoding", "cache", "rag"]
    index = TrigramIndex(keys)
    assert index.candidates("kvcahce", 3)[0] == 0
    assert index.candidates("speculatve", 3)[0] == 2
    assert index.candidates("zzzz", 3) == []
    assert TrigramIndex([]).candidates("kv", 3) == []


def test_bm25_ranks_and_covers() -> None:
    texts = [
        "the stored keys and values of past tokens",
        "an optimizer with weight decay decoupled from the gradient",
        "keys open doors",
    ]
    index = FullTextIndex([(texts, 1.0)], len(texts))
    best, *rest = index.search("cache of keys and values")
    assert best.document == 0
    assert best.matched == 2  # "keys", "values"; "cache" is unknown
    assert 0 < best.coverage < 1
    assert all(hit.bm25 <= best.bm25 for hit in rest)
    assert index.search("") == []
    assert index.search("the of and") == []  # stopwords only


def test_questions_and_comparisons_are_read_as_asked() -> None:
    from bot.search.query import compared, is_question

    assert is_question("how was gpt-2 trained")
    assert is_question("gpt-2, any good?")
    assert not is_question("gpt-2 trained models")
    assert compared("is lora the same as qlora") == ("lora", "qlora")
    assert compared("is the kv cache different from paged attention") == (
        "the kv cache",
        "paged attention",
    )
    assert compared("mlx compared to pytorch") == ("mlx", "pytorch")
    assert compared("is this a good model") is None
