"""What the running bot knows: the glossary and its index, the store, each server's aliases.

Reads from the database sit behind short timeouts and fall back to nothing: a slow or failing
database degrades counts and aliases, never a `/define` answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.glossary import Glossary, GlossaryError, load_glossary
from bot.moderation import name_owners
from bot.search.index import SearchIndex

if TYPE_CHECKING:
    from bot.storage import Store

log = logging.getLogger(__name__)

DM_SCOPE = 0  # direct messages share one scope of their own
READ_TIMEOUT = 1.0  # seconds a database read may take before we answer without it
POPULAR_TTL = 60.0


class BotState:
    def __init__(
        self,
        glossary: Glossary,
        store: Store | None,
        glossary_paths: Sequence[Path] | None = None,
        cooldown: tuple[int, float] = (5, 10.0),
    ) -> None:
        self.glossary = glossary
        self.index = SearchIndex.build(glossary)
        self.owners = name_owners(glossary)
        self.store = store
        self.glossary_paths = glossary_paths
        self.cooldown = cooldown  # per user: this many uses per this many seconds
        self._aliases: dict[int, dict[str, str]] = {}
        self._popular: dict[int, tuple[float, list[str]]] = {}

    # -- glossary ---------------------------------------------------------------------------

    def reload(self) -> str:
        """Load the glossary again; a file that fails validation keeps the current one serving."""
        try:
            glossary = load_glossary(self.glossary_paths)
        except GlossaryError as exc:
            log.error(
                "glossary reload refused, still serving %d entries: %s", len(self.glossary), exc
            )
            return f"reload refused: {exc}"
        index = SearchIndex.build(glossary)
        self.glossary, self.index, self.owners = glossary, index, name_owners(glossary)
        log.info("glossary reloaded: %d entries", len(glossary))
        return f"reloaded {len(glossary)} entries"

    # -- aliases ----------------------------------------------------------------------------

    def cached_overlay(self, scope: int) -> Mapping[str, str] | None:
        return self._aliases.get(scope)

    async def overlay(self, scope: int) -> Mapping[str, str]:
        """This server's aliases (normalised alias -> entry id), cached after the first read."""
        cached = self._aliases.get(scope)
        if cached is not None:
            return cached
        if self.store is None or scope == DM_SCOPE:
            return {}
        try:
            aliases = await asyncio.wait_for(self.store.aliases(scope), READ_TIMEOUT)
        except Exception:  # the database is slow or broken: answer without aliases
            log.warning(
                "could not read aliases of %s; answering without them", scope, exc_info=True
            )
            return {}
        self._aliases[scope] = dict(aliases)
        return self._aliases[scope]

    def forget_aliases(self, scope: int) -> None:
        self._aliases.pop(scope, None)

    # -- counting ---------------------------------------------------------------------------

    def record_lookup(self, scope: int, entry_id: str) -> None:
        if self.store is not None:
            self.store.record_lookup(scope, entry_id)

    def record_miss(self, scope: int, normalized_query: str) -> None:
        if self.store is not None and normalized_query:
            self.store.record_miss(scope, normalized_query[:100])

    async def popular(self, scope: int) -> list[str]:
        """The most looked-up entry ids here, for an empty autocomplete box (cached a minute)."""
        now = time.monotonic()
        cached = self._popular.get(scope)
        if cached and now - cached[0] < POPULAR_TTL:
            return cached[1]
        ids: list[str] = []
        if self.store is not None:
            try:
                top = await asyncio.wait_for(self.store.top_terms(scope, None, 25), READ_TIMEOUT)
                ids = [entry_id for entry_id, _ in top if entry_id in self.glossary]
            except Exception:
                log.warning("could not read popular terms of %s", scope, exc_info=True)
        self._popular[scope] = (now, ids)
        return ids

    async def lookup_count(self, scope: int, entry_id: str) -> int | None:
        if self.store is None:
            return None
        try:
            count: int = await asyncio.wait_for(
                self.store.lookup_count(scope, entry_id), READ_TIMEOUT / 4
            )
        except Exception:
            return None
        return count
