"""outsider53 (tests/outsider/PLAN.md, "Outsider round 36 (outsider53)"): a server's first
terms imported by `glossary-bot terms import` while the bot runs; failing on main d8c5eaf6
first. Both backends: on PostgreSQL the two stores are two processes' connections."""

from __future__ import annotations

from bot.discord_app.alias_cache import ServerCache
from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm
from bot.search import SearchIndex
from bot.storage import AliasImport
from bot.term_storage import change_terms
from tests.discord_app.helpers import put
from tests.polling import eventually

from .conftest import OpenStore

ZORBLAX = ServerTerm(
    id="zorblax", title="Zorblax", definition="Our nightly eval run.", category="Fundamentals"
)


async def test_another_processs_change_is_read_before_the_next_ask(
    open_any: OpenStore, bundled: tuple[Glossary, SearchIndex]
) -> None:
    """A moderator imported a server's first terms with `glossary-bot terms import` beside
    the running bot, waited the README's 2 s and asked `/define zorblax`: "No entry", a
    missed search, a **Suggest it** button for a term the server had. The version check only
    marked the server stale; its next ask began the read and waited `stale_wait` (0.25 s) for
    it, and on a loaded machine indexing took longer, so that ask was answered from before the
    change. The check now begins the read of a server whose own version moved, so the asks
    after it find the change read. `stale_wait` 0 here: the loaded machine, where no ask
    waits long enough for the read it begins."""
    bot_store, operator = await open_any(), await open_any()
    await operator.import_aliases([AliasImport(1, "zorb lax", "zorb lax", "kv-cache")])
    cache = ServerCache(lambda: bot_store, lambda: bundled, read_timeout=5.0)
    await cache.check()
    assert set((await cache.get(1)).source) == {"zorb lax"}  # held, as after a lookup
    cache.stale_wait = 0.0

    await change_terms(operator, 1, put(ZORBLAX), 0)  # the command line's import
    await cache.check()
    # The read under way (the check's, after the fix) ends; none was begun before the fix.
    await eventually(lambda: not cache._loading, "the server read again")
    local = await cache.local(1)
    assert [term.title for term in local.terms] == ["Zorblax"]
    assert set(local.aliases.source) == {"zorb lax"}
