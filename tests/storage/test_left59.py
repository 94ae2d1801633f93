"""left59 (tests/outsider/PLAN.md, "Leftovers (left59)"): the look-alike index a server's kept
aliases build when a name is first checked against them (left58) is part of what the server
holds, so of its weight (`SERVER_CACHE_MB`)."""

from __future__ import annotations

import tracemalloc

import pytest

from bot.discord_app.alias_cache import ServerCache
from bot.glossary import Glossary
from bot.glossary.lookalikes import lookalike_key
from bot.search import SearchIndex
from bot.storage import AliasImport, Store

ALIAS_CAP = 1_000  # a server's aliases at the most (README)


def alias(n: int, length: int) -> str:
    return f"zorb{n:04d} " + ("quux wob " * 12)[: length - 9]


@pytest.mark.parametrize("length", [12, 100])
async def test_a_server_at_its_alias_cap_weighs_what_it_holds(
    store: Store, bundled: tuple[Glossary, SearchIndex], length: int
) -> None:
    """A moderator's `/alias add` (or a suggestion) builds the server's look-alike index of its
    aliases, kept with them until they change: half as much again as the compiled aliases at
    the cap (RSS). The estimate left it out, so the cache's budget held more than it said. Now
    weighed once built: within twice what it measures here (tracemalloc, which counts less
    than the RSS the constants were fitted on)."""
    names = [alias(n, length) for n in range(ALIAS_CAP)]
    assert {len(name) for name in names} == {length}
    await store.import_aliases([AliasImport(1, name, name, "rag") for name in names])
    cache = ServerCache(lambda: store, lambda: bundled, read_timeout=60.0)
    local = await cache.local(1, patient=True)
    assert len(local.aliases.source) == ALIAS_CAP
    before = cache.kept_weight()
    # The keys' cache is the process's (bounded, shared by every server): not counted.
    lookalike_key.cache_clear()
    tracemalloc.start()
    try:
        index = local.aliases.lookalikes  # what `/alias add` checks a new name against
        lookalike_key.cache_clear()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert index.like("z\u043erb0001" + names[1][8:]) is not None  # a Cyrillic о: found
    assert (await cache.local(1)).aliases.lookalikes is index  # kept, not built again
    grown = cache.kept_weight() - before
    assert held <= grown <= 3 * held, (held, grown)
