"""weight53 (tests/outsider/PLAN.md, "weight53"): a kept server's estimated weight
(`SERVER_CACHE_MB`) from what costs memory, not from its characters alone.

versions51's estimate was 2.2 MB plus 9 bytes a character. bench/weight_bench.py measured
servers kept and asked (RSS, 6 of each shape in a process of its own): a name costs some 700
bytes plus 19 a character, a character of a definition under 2, and a vector row 2 KB; the
old estimate was 0.16-0.31x of what servers of many names hold and 0.43-0.68x with vectors or
many short terms. These tests fail on main (0dc403b) and pass now: they check how the estimate
orders servers and bounds the cache, not its constants."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_app.alias_cache import ServerCache, weight
from bot.glossary import Glossary, load_glossary
from bot.glossary.server_terms import ServerTerm
from bot.search import SearchIndex
from bot.search.local import compile_local
from bot.term_storage import TermChange, change_terms

from .conftest import OpenStore

TERMS = 60
NAMES = 40  # other names a term, of 11-12 characters
# A read waits this long before answering without the server (then INDEX_WAIT more for its
# indexing): far past what these servers take on a loaded machine, so each is kept when read.
READ_TIMEOUT = 60.0


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary()


@pytest.fixture(scope="module")
def plain(glossary: Glossary) -> SearchIndex:
    return SearchIndex.build(glossary, semantic=False)


def named(scope: int) -> tuple[ServerTerm, ...]:
    """TERMS terms of NAMES other names each (their text is mostly names)."""
    return tuple(
        ServerTerm(
            id=f"zq{scope}-{n}",
            title=f"Zorbquux {scope} {n}",
            definition=f"Our job {n}.",
            category="Fundamentals",
            aliases=tuple(f"Qv{scope}x{n}y{k} wob" for k in range(NAMES)),
        )
        for n in range(TERMS)
    )


def worded(scope: int) -> tuple[ServerTerm, ...]:
    """As many terms and characters as `named`'s, the names' in the definitions."""
    return tuple(
        ServerTerm(
            id=f"zq{scope}-{n}",
            title=f"Zorbquux {scope} {n}",
            definition=f"Our job {n}. " + ", ".join(f"Qv{scope}x{n}y{k} wob" for k in range(NAMES)),
            category="Fundamentals",
        )
        for n in range(TERMS)
    )


def put(*new: ServerTerm) -> Any:
    return lambda *_: (TermChange(put=new), None)


async def test_a_server_of_many_names_weighs_more_than_one_of_as_much_text_in_definitions(
    open_store: OpenStore, glossary: Glossary, plain: SearchIndex
) -> None:
    """Each name is indexed several ways (its key, typo trigrams, look-alikes): measured, a
    character of names held some 8 times what one of definitions does (names41-short against
    caps, above what any server holds). The old estimate weighed them alike, by characters.
    Here 2,400 names against the same characters written out in definitions, each above a
    server of one term (what any server with terms holds)."""
    store = await open_store()
    await change_terms(store, 1, put(*named(1)), 9)
    await change_terms(store, 2, put(*worded(2)), 9)
    await change_terms(store, 3, put(*worded(3)[:1]), 9)
    stored = [await store.terms(scope) for scope in (1, 2, 3)]
    # As much text (within the names' quotes in the stored JSON: under a tenth).
    characters = [sum(len(row.body) for row in rows) for rows in stored]
    assert characters[1] < characters[0] < 1.1 * characters[1]

    cache = ServerCache(lambda: store, lambda: (glossary, plain), read_timeout=READ_TIMEOUT)
    weights = []
    for scope in (1, 2, 3):
        before = cache.kept_weight()
        await cache.local(scope, patient=True)
        weights.append(cache.kept_weight() - before)
    many_names, in_definitions, one_term = weights
    assert many_names - one_term > 2 * (in_definitions - one_term)


async def test_a_budget_holds_fewer_servers_of_many_names(
    open_store: OpenStore, glossary: Glossary, plain: SearchIndex
) -> None:
    """SERVER_CACHE_MB bounds what the servers hold: with room for three servers of worded
    terms, servers of as much text in names (over twice their weight each, as measured) are
    kept one at a time; the old estimate, by characters, kept two of them in that room (some
    four worded servers' worth)."""
    store = await open_store()
    for scope in (1, 2, 3):
        await change_terms(store, scope, put(*worded(scope)), 9)
    for scope in (4, 5, 6):
        await change_terms(store, scope, put(*named(scope)), 9)
    cache = ServerCache(lambda: store, lambda: (glossary, plain), read_timeout=READ_TIMEOUT)
    await cache.local(1, patient=True)
    one = cache.kept_weight()
    cache.max_weight = 3 * one  # room for three of them
    for scope in (2, 3):
        await cache.local(scope, patient=True)
    assert [cache.knows(scope) for scope in (1, 2, 3)] == [True, True, True]

    for scope in (4, 5, 6):
        await cache.local(scope, patient=True)
    assert [cache.knows(scope) for scope in (1, 2, 3, 4, 5, 6)] == [False] * 5 + [True]
    assert cache.kept_weight() > 2 * one


async def test_a_servers_vector_rows_are_weighed_when_read_before_they_are_embedded(
    open_store: OpenStore, glossary: Glossary, plain: SearchIndex
) -> None:
    """With the meaning stage a server holds a row of 384 floats for each of its texts (a
    term's description and its definition): 1.2-2 KB each measured, 7.6 MiB estimated at the
    caps' 4,000 rows (23.5 MiB with them, 15.9 without). The old estimate left them out. A server is
    weighed when read, while its texts are still being embedded (minutes at the caps): it is
    weighed for the rows it will hold."""
    meaning = SearchIndex.build(glossary)  # the bundled index with its meaning stage
    assert meaning.semantic is not None
    store = await open_store()
    await change_terms(store, 1, put(*worded(1)[:20]), 9)
    stored, terms = await store.terms(1), worded(1)[:20]
    without = compile_local(glossary, plain, terms, {})
    with_stage = compile_local(glossary, meaning, terms, {})
    assert with_stage.texts
    assert not with_stage.row_keys  # none embedded yet
    floats = len(with_stage.texts) * meaning.semantic.encoder.dimensions * 4
    assert weight(with_stage, {}, stored) - weight(without, {}, stored) >= floats
