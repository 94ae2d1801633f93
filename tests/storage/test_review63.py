"""review63 (tests/outsider/PLAN.md, "Attacks on this session's product changes (review63)"):
outsider53's read ahead of held servers changed by another process, when many change at once;
failing on integ 98aa97a5 first. Both backends."""

from __future__ import annotations

from bot.discord_app.alias_cache import IDLE_AFTER, ServerCache
from bot.glossary import Glossary
from bot.search import SearchIndex
from bot.storage import AliasImport
from tests.polling import eventually

from .conftest import OpenStore

SERVERS = range(1, 21)


async def test_many_servers_changed_at_once_are_read_ahead_one_at_a_time(
    open_any: OpenStore, bundled: tuple[Glossary, SearchIndex]
) -> None:
    """One `glossary-bot aliases import` whose file names 20 servers the bot holds (or a
    second bot, a script importing into each): the next check began 20 reads at once, each
    server's rows in memory together and every compile in asyncio's default executor, where a
    server asked for the first time meanwhile, a `/term import`'s parse, a `/stats` chart
    queued behind them all (200 servers at their caps: 1 GB of rows and minutes of queue).
    Read ahead is a convenience for the next ask, so it takes one server at a time; a server
    asked meanwhile is read at its ask, as any stale server is, and not again by the queue."""
    bot_store, operator = await open_any(), await open_any()
    await operator.import_aliases(
        [AliasImport(s, "zorb lax", "zorb lax", "kv-cache") for s in SERVERS]
    )
    cache = ServerCache(lambda: bot_store, lambda: bundled, read_timeout=5.0)
    await cache.check()
    for scope in SERVERS:
        await cache.get(scope)  # held, as after a lookup in each

    await operator.import_aliases([AliasImport(s, "blorp", "blorp", "rag") for s in SERVERS])
    await cache.check()
    assert len(cache._loading) == 1, "one read ahead at a time"
    asked = await cache.local(20)  # asked before its turn: read now (stale_wait), not queued
    assert 20 in cache._loading or "blorp" in asked.aliases.source

    def all_read() -> bool:
        return all("blorp" in cache._servers[s].local.aliases.source for s in SERVERS)

    await eventually(all_read, "every changed server read ahead, in turn")
    assert not cache._loading


async def test_a_server_read_ahead_is_not_thereby_asked(
    open_any: OpenStore, bundled: tuple[Glossary, SearchIndex]
) -> None:
    """A read ahead is no ask: a server nobody asks, whose terms a script imports every ten
    minutes, was kept indexed for good (each read ahead counted as a use, so `drop_idle`
    never found it idle), where before the read ahead it was dropped after IDLE_AFTER."""
    bot_store, operator = await open_any(), await open_any()
    await operator.import_aliases([AliasImport(1, "zorb lax", "zorb lax", "kv-cache")])
    now = [0.0]
    cache = ServerCache(lambda: bot_store, lambda: bundled, read_timeout=5.0, clock=lambda: now[0])
    await cache.check()
    await cache.get(1)  # asked at 0

    now[0] = IDLE_AFTER - 1
    await operator.import_aliases([AliasImport(1, "blorp", "blorp", "rag")])
    await cache.check()
    await eventually(lambda: "blorp" in cache._servers[1].local.aliases.source, "read ahead")
    now[0] = IDLE_AFTER + 1
    cache.drop_idle()
    assert 1 not in cache._servers, "not asked for IDLE_AFTER: dropped"


async def test_a_server_read_ahead_is_let_go_before_one_asked_since(
    open_any: OpenStore, bundled: tuple[Glossary, SearchIndex]
) -> None:
    """Past SERVER_CACHE_MB the least recently asked server is let go. A read ahead made its
    server the most recently asked: server 1, asked before server 2 and changed by a script,
    was kept, and server 2, which members were using, let go (read again at its next ask)."""
    bot_store, operator = await open_any(), await open_any()
    await operator.import_aliases(
        [AliasImport(s, "zorb lax", "zorb lax", "kv-cache") for s in (1, 2, 3)]
    )
    cache = ServerCache(lambda: bot_store, lambda: bundled, read_timeout=5.0)
    await cache.check()
    await cache.get(1)
    await cache.get(2)  # asked after 1

    await operator.import_aliases([AliasImport(1, "blorp", "blorp", "rag")])
    await cache.check()
    await eventually(lambda: "blorp" in cache._servers[1].local.aliases.source, "read ahead")
    cache.max_weight = cache.kept_weight()  # full: the next server read lets one go
    await cache.get(3)
    assert (1 in cache._servers, 2 in cache._servers) == (False, True), "1 asked least lately"
