"""Each server's aliases, compiled for search, in one cache keyed on the store's alias version.

The store bumps `alias_version` on every alias change from any process (`/alias add` here, a
second bot on the same database, `glossary-bot aliases import`). One task reads that counter
once per `check_interval` for all requests; when it moves, every cached server is marked stale
and reloaded the next time it is asked for, while its old aliases keep answering (a request
waits at most `stale_wait` for the new ones). A server's aliases are read and compiled once per
change, never per request: compiling 1,000 long aliases on every search stalled every server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeGuard

from bot.search.index import SearchIndex
from bot.search.server_aliases import NO_ALIASES, ServerAliases
from bot.storage import DM_SCOPE

if TYPE_CHECKING:
    from bot.storage import Store

log = logging.getLogger(__name__)

CHECK_INTERVAL = 1.0  # seconds between two reads of the alias version: changes show within 2 s


@dataclass
class _Cached:
    version: int  # the alias version these were read at
    index: SearchIndex  # the index they were compiled against (a glossary reload makes another)
    aliases: ServerAliases


class AliasCache:
    def __init__(
        self,
        store: Callable[[], Store | None],
        index: Callable[[], SearchIndex],
        *,
        read_timeout: float,
        check_interval: float = CHECK_INTERVAL,
    ) -> None:
        self._store = store  # read each time: the store opens after the bot logs in
        self._index = index  # likewise: a glossary reload brings a new index
        self.read_timeout = read_timeout
        self.stale_wait = read_timeout / 4
        self.check_interval = check_interval
        self._version = 0  # the newest alias version seen
        self._servers: dict[int, _Cached] = {}
        self._loading: dict[int, asyncio.Future[_Cached]] = {}
        self._changes: dict[int, asyncio.Lock] = {}

    def knows(self, scope: int) -> bool:
        """Are this server's aliases at hand (if perhaps stale), so asking costs no wait?"""
        return scope == DM_SCOPE or self._store() is None or scope in self._servers

    async def get(self, scope: int) -> ServerAliases:
        """This server's aliases, compiled. Never raises: a slow or failing database answers
        with the aliases last read, or none."""
        store = self._store()
        if store is None or scope == DM_SCOPE:
            return NO_ALIASES
        cached = self._servers.get(scope)
        if self._fresh(cached):
            return cached.aliases
        loading = self._loading.get(scope)
        if loading is None:
            # One read per server at a time, kept even if this request stops waiting for it.
            loading = asyncio.ensure_future(self._load(store, scope))
            self._loading[scope] = loading
            loading.add_done_callback(lambda _: self._loading.pop(scope, None))
        wait = self.read_timeout if cached is None else self.stale_wait
        try:
            return (await asyncio.wait_for(asyncio.shield(loading), wait)).aliases
        except Exception:
            if cached is None:
                log.warning("could not read aliases of %s; answering without them", scope)
                return NO_ALIASES
            # The aliases last read, meanwhile (compiled here if the glossary was reloaded).
            return self._index().server_aliases(cached.aliases)

    def changes(self, scope: int) -> asyncio.Lock:
        """Held while one alias change of this server is checked and written: the next change
        is checked against it (two moderators at once could each add one half of a clash)."""
        return self._changes.setdefault(scope, asyncio.Lock())

    async def current(self, scope: int) -> ServerAliases:
        """This server's aliases as the database has them now, for checking a change against
        (as of the last version check, and after every change this bot made). A read, if one
        is needed, waits as long as the database takes, like the write that follows;
        StorageError if the database fails."""
        store = self._store()
        if store is None or scope == DM_SCOPE:
            return NO_ALIASES
        cached = self._servers.get(scope)
        return cached.aliases if self._fresh(cached) else (await self._load(store, scope)).aliases

    def _fresh(self, cached: _Cached | None) -> TypeGuard[_Cached]:
        """Read at the newest alias version seen, and compiled against the index serving now."""
        return (
            cached is not None and cached.version == self._version and cached.index is self._index()
        )

    def forget(self, scope: int) -> None:
        """Drop what is known of this server's aliases: the next request reads them afresh."""
        self._servers.pop(scope, None)

    async def reload(self, scope: int) -> None:
        """Read this server's aliases again now (after this bot changed them), waiting for the
        read: the next change of this server is checked against what it finds."""
        try:
            self._version = max(self._version, await self._check())
        except Exception:
            log.debug("could not read the alias version", exc_info=True)
        store = self._store()
        if store is None:
            return
        try:
            # A read of its own: one already under way may have begun before the change.
            await self._load(store, scope)
        except Exception:
            log.debug("could not read the aliases of %s again", scope, exc_info=True)
            self.forget(scope)

    async def watch(self) -> None:
        """Read the alias version once per interval, for as long as the bot runs."""
        while True:
            await asyncio.sleep(self.check_interval)
            try:
                version = await self._check()
            except Exception:
                log.debug("could not read the alias version", exc_info=True)
                continue
            if version != self._version:
                self._version = version  # every server's aliases are now stale

    async def _check(self) -> int:
        store = self._store()
        if store is None:
            return self._version
        return await asyncio.wait_for(store.alias_version(), self.read_timeout)

    async def _load(self, store: Store, scope: int) -> _Cached:
        version, index = self._version, self._index()
        aliases = await store.aliases(scope)
        cached = self._servers.get(scope)
        if cached is not None and cached.index is index and cached.aliases.source == aliases:
            compiled = cached.aliases  # another server's change: nothing to compile here
        else:
            # Compiling normalises every alias (a tenth of a second for 1,000 long ones): off
            # the event loop, so other servers keep being answered meanwhile.
            compiled = await asyncio.to_thread(index.server_aliases, aliases)
        self._servers[scope] = fresh = _Cached(version, index, compiled)
        return fresh
