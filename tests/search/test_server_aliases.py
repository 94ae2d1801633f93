"""A server's aliases compiled once (per change) and handed to every search: the same answers
as the plain map, and the keys an alias is checked on are the keys search matches."""

from __future__ import annotations

from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.server_aliases import NO_ALIASES, search_keys

OVERLAY = {"zorb lax": "kv-cache", "fetch and write": "rag", "stale": "no-such-entry"}


def test_compiled_aliases_answer_like_the_plain_map(small_index: SearchIndex) -> None:
    compiled = small_index.server_aliases(OVERLAY)
    assert len(compiled) == 2  # the alias of an unknown entry is left out
    for query in ("zorb lax", "zorblax", "Zorb-Lax", "fetch and write", "stale", "kv"):
        assert small_index.search(query, compiled) == small_index.search(query, OVERLAY)
    for text in ("zo", "zorb", "fetch", "kv"):
        assert small_index.autocomplete(text, compiled) == small_index.autocomplete(text, OVERLAY)
    said = "our zorb lax and fetch and write are slow"
    assert small_index.find_terms(said, compiled) == small_index.find_terms(said, OVERLAY)
    assert [m.entry.id for m in small_index.find_terms(said, compiled)] == ["kv-cache", "rag"]


def test_compiling_is_done_once_per_index(small_index: SearchIndex) -> None:
    compiled = small_index.server_aliases(OVERLAY)
    assert small_index.server_aliases(compiled) is compiled  # handed on, not rebuilt
    assert small_index.server_aliases({}) is NO_ALIASES
    other = SearchIndex.build(small_index.entries)  # a reloaded glossary
    again = other.server_aliases(compiled)
    assert again is not compiled
    assert again.by_key == compiled.by_key


def test_prefixes_of_aliases(small_index: SearchIndex) -> None:
    compiled = small_index.server_aliases({"zorb lax": "kv-cache", "zorb": "rag", "zz": "rag"})
    assert [a.text for a in compiled.starting_with("zorb")] == ["zorb", "zorb lax"]
    assert compiled.has_prefix("zorbl")
    assert not compiled.has_prefix("zorbx")
    assert compiled.first_words == {"zorb", "zz"}
    # RAG's id is the rag cloth's title too ("rag" asks "Did you mean"): its choice sends its
    # title, which opens it (outsider76).
    assert [c.value for c in small_index.autocomplete("zor", compiled)] == [
        "Retrieval-Augmented Generation",
        "kv-cache",
    ]
    assert small_index.search("Retrieval-Augmented Generation").entry.id == "rag"
    assert small_index.search("rag").status == "suggest"


def test_search_keys_are_what_search_folds() -> None:
    assert search_keys("Zorb-Lax") == search_keys("zorb lax") >= {"zorblax"}
    assert "kvcache" in search_keys("kv caches")  # plural folding
    assert "kvcache" in search_keys("what is a kv cache?")  # the question around the term
    assert "kvcaches" in search_keys("kv cache")


def test_what_a_name_already_names(small_index: SearchIndex) -> None:
    assert [e.id for e in small_index.named_by("KV-Caches")] == ["kv-cache"]
    assert small_index.named_by("kv caches", exactly=True) == []
    assert [e.id for e in small_index.named_by("kv cache", exactly=True)] == ["kv-cache"]
    assert {e.id for e in small_index.named_by("rag")} == {"rag", "rag-cloth"}
    assert small_index.named_by("zorblax") == []
    leads = small_index.leads_to("speculat")  # the start of a name
    assert leads is not None
    assert leads.id == "speculative-decoding"
    assert small_index.leads_to("zorblax") is None


# Lines as an import might bring them: near-duplicates of each other (plural, spacing, case,
# "the"), of glossary names, for one entry and for another.
IMPORT_LINES = [
    ("zorb lax", "kv-cache"),
    ("zorblax", "rag"),
    ("Zorb-Lax", "kv-cache"),
    ("zorb laxes", "rag"),
    ("the fetcher", "rag"),
    ("fetchers", "rag"),
    ("fetcher", "kv-cache"),
    ("qq", "rag"),
    ("qqs", "kv-cache"),
    ("kv", "rag"),
    ("blorp", "no-such-entry"),
    ("mem cache", "kv-cache"),
    ("memcache", "kv-cache"),
]


def test_growing_a_set_line_by_line_decides_as_compiling_it_afresh(
    small_index: SearchIndex,
) -> None:
    # `aliases import` grows one compiled set per server; before, it compiled the whole map
    # again for every line (n² normalisations). Both must accept and refuse the same lines.
    from bot.aliases import AliasRejected, check_alias
    from bot.search.server_aliases import ServerAliases

    start = {"stale": "rag"}
    grown = ServerAliases(start, small_index.positions)
    plain = dict(start)
    decisions = []
    for text, entry_id in IMPORT_LINES:
        outcomes = []
        for server in (grown, plain):
            try:
                outcomes.append(check_alias(text, entry_id, small_index, server)[0])
            except AliasRejected as refused:
                outcomes.append(str(refused))
        assert outcomes[0] == outcomes[1], text
        if outcomes[0] == normalize(text) and entry_id in small_index.positions:
            grown.add(outcomes[0], entry_id)
            plain.setdefault(outcomes[0], entry_id)
        decisions.append(outcomes[0])
    assert sum(d in grown.source for d in decisions) >= 4  # some accepted, some refused
    afresh = ServerAliases(plain, small_index.positions)
    assert grown.source == afresh.source
    assert grown.by_key == afresh.by_key
    assert [a.text for a in grown.starting_with("")] == [a.text for a in afresh.starting_with("")]
    assert grown.first_words == afresh.first_words
    assert {k: a.text for k, a in grown.claims.items()} == {
        k: a.text for k, a in afresh.claims.items()
    }


def test_the_shared_empty_set_never_grows() -> None:
    import pytest

    with pytest.raises(ValueError, match="cannot grow"):
        NO_ALIASES.add("zorb", "rag")
    assert len(NO_ALIASES) == 0


def test_catching_up_with_a_growing_map_is_compiling_it_afresh(small_index: SearchIndex) -> None:
    # Inside an import's write, the server's stored aliases grow by each line written; the
    # set they are checked against is compiled once and caught up, not compiled per line.
    from bot.search.server_aliases import ServerAliases

    stored = {"zorb lax": "kv-cache", "stale": "no-such-entry"}
    grown = ServerAliases(stored, small_index.positions)
    for alias, entry_id in [("fetcher", "rag"), ("mem cache", "kv-cache"), ("blorp", "nope")]:
        stored[alias] = entry_id
        grown.catch_up(stored)
        grown.catch_up(stored)  # nothing new: nothing changes
        afresh = ServerAliases(stored, small_index.positions)
        assert grown.source == afresh.source == stored
        assert grown.by_key == afresh.by_key
        assert {k: a.text for k, a in grown.claims.items()} == {
            k: a.text for k, a in afresh.claims.items()
        }
    assert grown.by_key["fetcher"] == small_index.positions["rag"]
