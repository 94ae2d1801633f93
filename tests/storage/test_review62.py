"""review62 (tests/outsider/PLAN.md, "Attacks on this session's product changes (review62)"):
left54's "database put back to an older schema" said where it is not; failing on main e680ccab
first."""

from __future__ import annotations

import logging

import asyncpg
import pytest

from bot.discord_app.alias_cache import ServerCache
from bot.glossary import Glossary
from bot.search import SearchIndex
from bot.storage.migrations import latest_version
from bot.term_storage import TermChange, change_terms

from .conftest import OpenStore
from .test_review59 import PG_RESTORE_ENDS, PG_RESTORE_UNDER_WAY, TERMS

# pg_restore --clean makes every table anew before loading any rows, and loads them in name
# order: the counters' rows are in, the schema's version (glossary_bot_schema) not yet.
VERSION_NOT_YET_LOADED = (
    "CREATE TABLE schema_loaded AS SELECT * FROM glossary_bot_schema;"
    " DELETE FROM glossary_bot_schema;"
)
VERSION_LOADED = (
    "INSERT INTO glossary_bot_schema SELECT * FROM schema_loaded; DROP TABLE schema_loaded;"
)


async def test_a_restore_loading_the_schemas_version_is_not_said_as_an_older_schema(
    postgres_only: None,
    open_any: OpenStore,
    location: str,
    bundled: tuple[Glossary, SearchIndex],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A check while `pg_restore --clean` of a current dump loads its rows (the counters in,
    the version's one row not yet) read the empty version table as schema version 0: the
    operator read the ERROR "went back to schema version 0 ... restart the bot" (a restart in
    the middle of a restore), moderators "put back to a backup older than this bot", and the
    restore under way was not marked, so a server read in the window kept no terms once it
    ended (review58's fix bypassed). Version 0 is no schema yet, not an older one."""
    store = await open_any()
    try:
        await change_terms(store, 1, lambda *_: (TermChange(put=TERMS), None), 1)
        await change_terms(store, 1, lambda *_: (TermChange(remove=("blorp",)), None), 1)
        await change_terms(store, 1, lambda *_: (TermChange(put=TERMS[1:]), None), 1)
        cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
        await cache.check()
        assert len((await cache.current(1)).terms) == 2
        caplog.set_level(logging.WARNING, logger="bot.discord_app.alias_cache")
        conn = await asyncpg.connect(location)
        try:
            await conn.execute(PG_RESTORE_UNDER_WAY + VERSION_NOT_YET_LOADED)
            await cache.check()  # the counters went back
            assert await cache.gone_back(store) is None
            assert (await cache.current(1)).terms == ()  # read in the window
            await conn.execute(VERSION_LOADED + PG_RESTORE_ENDS)
        finally:
            await conn.close()
        await cache.check()
        assert len((await cache.current(1)).terms) == 2  # read again once the restore ended
        said = [r.getMessage() for r in caplog.records]
        assert not [s for s in said if "schema version" in s], said
        assert [s for s in said if "versions went back" in s], said
    finally:
        await store.close()


async def test_a_schema_mended_under_the_bot_is_not_said_gone_back_at_the_next_outage(
    postgres_only: None,
    open_any: OpenStore,
    location: str,
    bundled: tuple[Glossary, SearchIndex],
) -> None:
    """An operator told the schema went back restores the current dump instead of restarting
    (it works again). The schema as last seen is what `gone_back` answers when it cannot read
    it (the database down), and nothing read it again since the mend: at the next outage
    moderators read "put back to a backup older than this bot ... restarted", where the
    database is only down. Now a check that reads the versions reads the schema again while
    it was seen behind."""
    store = await open_any()
    try:
        cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
        await cache.check()
        conn = await asyncpg.connect(location)
        try:
            await conn.execute("UPDATE glossary_bot_schema SET version = 8")  # a dump of V8
            assert await cache.gone_back(store) == (8, latest_version("postgres"))
            await conn.execute(  # the current one
                f"UPDATE glossary_bot_schema SET version = {latest_version('postgres')}"
            )
        finally:
            await conn.close()
        await cache.check()  # the versions read: the bot works again
    finally:
        await store.close()  # the database down, for this bot
    assert await cache.gone_back(store) is None
