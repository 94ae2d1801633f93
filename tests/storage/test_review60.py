"""review60 (tests/outsider/PLAN.md, "review60"), on both backends: each test failing on main
6a9933a6 first."""

from __future__ import annotations

import logging

import pytest

from bot.discord_app.alias_cache import ServerCache
from bot.glossary import load_glossary
from bot.glossary.interchange import export_bytes
from bot.glossary.server_terms import ServerTerm, check_caps, text_size
from bot.search import SearchIndex
from bot.term_import import import_terms
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import OpenStore

TERMS = tuple(
    ServerTerm(
        id=f"zorbic-{n}",
        title=f"Zorbic Quux {n}",
        definition=f"Our zorbic job number {n}.",
        category="Fundamentals",
    )
    for n in range(3)
)


async def test_a_server_past_its_term_cap_imports_its_own_export(open_any: OpenStore) -> None:
    """review59's "a write that takes a server no further past a cap is taken" held for the
    count in `check_caps`, but the file was read with the cap as its limit: a server of 3
    terms whose cap was lowered to 2 had its own export refused "3 entries; a server can have
    at most 2 terms." before `check_caps` was asked. Now the file may have as many terms as
    the server has; one more is refused, nothing written."""
    store = await open_any()
    try:
        await change_terms(store, 7, lambda *_: (TermChange(put=TERMS), None), 1)
        stored = await read_terms(store, 7)
        glossary = load_glossary()

        async def imported(terms: tuple[ServerTerm, ...]) -> list[str]:
            outcome = await import_terms(
                store,
                7,
                export_bytes(terms),
                "terms.toml",
                glossary,
                actor_id=1,
                caps=(2, 10**6),
                dry_run=False,
            )
            return [p.message for p in outcome.errors]

        assert await imported(tuple(stored)) == []  # before: "3 entries; ... at most 2 terms."
        assert await read_terms(store, 7) == stored
        swapped = (*stored[:2], TERMS[2].model_copy(update={"id": "blorp", "title": "Blorp"}))
        assert await imported(swapped) == []  # one removed, one added: no further past
        assert [t.id for t in await read_terms(store, 7)] == ["blorp", "zorbic-0", "zorbic-1"]
        more = (*swapped, TERMS[2])
        [refused] = await imported(more)
        assert refused.startswith("4 entries; a server can have at most 2 terms"), refused
        assert "past it already (3 terms): a change that keeps or lowers" in refused, refused
        assert len(await read_terms(store, 7)) == 3
    finally:
        await store.close()


def test_a_moderator_past_a_lowered_cap_is_told_what_is_still_saved() -> None:
    """A server past a cap (lowered since) refused a change that added to it in the words a
    server under it gets: "at most 3 terms (5)", "(… with this change)", though it had 4 terms
    and a change that kept the count or the text would have been saved. Now the refusal says
    the server is past it already and what is still saved; a server under the cap is told as
    before."""
    more = (*TERMS, TERMS[0].model_copy(update={"id": "blorp", "title": "Blorp"}))
    size = sum(text_size(t) for t in TERMS)
    [count] = check_caps(more, max_terms=2, max_text_bytes=10**6, before=TERMS)
    assert count.message.startswith("a server can have at most 2 terms (4). This server is past")
    assert "(3 terms): a change that keeps or lowers that is saved" in count.message
    [text] = check_caps(more, max_terms=10, max_text_bytes=size - 2, before=TERMS)
    assert "too many). This server is past it already" in text.message, text.message
    assert f"already ({size:,} bytes): a change" in text.message, text.message
    [under] = check_caps(more, max_terms=3, max_text_bytes=10**6, before=TERMS)
    assert under.message == "a server can have at most 3 terms (4)."


async def test_a_server_past_the_cache_budget_alone_is_said_once(
    open_store: OpenStore, caplog: pytest.LogCaptureFixture
) -> None:
    """weight53's estimate of a server may pass SERVER_CACHE_MB on its own (150 MiB one whose
    text is short names; any server with terms under 2 MiB set): it is kept while asked, let go
    at the next server's read and read and indexed again when next asked, at every turn, and
    the operator was told nothing. Now one line names the setting, once however often."""
    store = await open_store()
    for scope in (1, 2):
        await change_terms(store, scope, lambda *_: (TermChange(put=TERMS[:1]), None), 9)
    glossary = load_glossary()
    plain = SearchIndex.build(glossary, semantic=False)
    cache = ServerCache(lambda: store, lambda: (glossary, plain), read_timeout=60.0, max_mb=1)
    with caplog.at_level(logging.WARNING, logger="bot.discord_app.alias_cache"):
        for scope in (1, 2, 1):
            await cache.local(scope, patient=True)
            assert cache.knows(scope)
    assert not cache.knows(2)  # let go at the other's read
    said = [r.getMessage() for r in caplog.records if "SERVER_CACHE_MB" in r.getMessage()]
    assert len(said) == 1, said
    assert said[0].startswith("server 1's terms are estimated at 1.72 MiB, more than "), said
    assert "SERVER_CACHE_MB=1 on their own" in said[0], said
