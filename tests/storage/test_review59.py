"""review59 (tests/outsider/PLAN.md, "Attacks on outsider51 and review58 (review59)"), on both
backends: each test failing on main 0dc403b first."""

from __future__ import annotations

import contextlib
import logging
import re
from pathlib import Path

import asyncpg
import pytest

from bot.discord_app.alias_cache import ServerCache
from bot.glossary import Glossary, load_glossary
from bot.glossary.interchange import export_bytes
from bot.glossary.server_terms import ServerTerm, text_size
from bot.search import SearchIndex
from bot.storage import StorageError
from bot.storage.migrations import latest_version
from bot.storage.postgres.backend import VERSION_TRIGGERS
from bot.term_import import import_terms
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import OpenStore
from .test_review58 import PG_DUMP_OF_V8_RESTORED, restored_before_v9_in_place

MIGRATIONS = Path(__file__).resolve().parents[2] / "bot" / "storage" / "migrations" / "postgres"

TERMS = (
    ServerTerm(
        id="zorbic",
        title="Zorbic Ledger",
        definition="Our zorbic ledger of nightly jobs.",
        category="Fundamentals",
    ),
    ServerTerm(
        id="blorp",
        title="Blorp Board",
        definition="Our blorp board of who is on call.",
        category="Fundamentals",
    ),
)


async def test_a_server_past_its_text_cap_imports_its_own_export(open_any: OpenStore) -> None:
    """A server stored before outsider51 counted a list's ", " (or before its cap was lowered)
    may be past its text cap: its own export imported back (the README's way to move or
    restore a server's terms; `glossary-bot terms import` and `/term import` alike) was refused
    as past it. Now an import that takes it no further past the cap is taken; one that grows
    it is still refused, nothing written."""
    store = await open_any()
    try:
        await change_terms(store, 7, lambda *_: (TermChange(put=TERMS), None), 1)
        stored = await read_terms(store, 7)
        size = sum(text_size(t) for t in stored)
        caps = (10, size - 4)
        data = export_bytes(stored)
        glossary = load_glossary()

        async def imported(data: bytes) -> list[str]:
            outcome = await import_terms(
                store, 7, data, "terms.toml", glossary, actor_id=1, caps=caps, dry_run=False
            )
            return [p.message for p in outcome.errors]

        assert await imported(data) == []  # before: "can hold at most ..."
        assert await read_terms(store, 7) == stored
        grown = data.replace(b"nightly jobs.", b"nightly jobs, and more.")
        [refused] = await imported(grown)
        assert f"({size + 10:,} bytes with this change: 14 too many)" in refused, refused
        assert await read_terms(store, 7) == stored
    finally:
        await store.close()


BEHIND = "went back to schema version 8 under the running bot"


async def test_a_schema_gone_back_under_the_bot_is_one_line_saying_to_restart(
    open_store: OpenStore,
    db_path: Path,
    tmp_path: Path,
    bundled: tuple[Glossary, SearchIndex],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """review58's leftover: a backup from before migration 9 restored in place under the
    running bot (`sqlite3 glossary.db ".restore backup.db"`) left it on schema 8 until
    restarted: every server's read failed ("no such table: server_versions"), moderators were
    told the database is not reachable, and the operator read "the versions went back ... read
    again" and that reads failed, nothing saying what to do. Now one ERROR names the schema
    found and the bot's, and to restart it (its start migrates the file); said once."""
    store = await open_store(db_path)
    cache = await restored_before_v9_in_place(store, db_path, tmp_path, bundled)
    caplog.set_level(logging.WARNING, logger="bot.discord_app.alias_cache")
    for _ in range(3):
        with contextlib.suppress(StorageError):
            await cache.check()
    said = [r for r in caplog.records if BEHIND in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in caplog.records]
    assert said[0].levelno == logging.ERROR
    assert f"this bot needs {latest_version('sqlite')}: restart the bot" in said[0].getMessage()
    assert str(db_path) in said[0].getMessage()
    assert not [r for r in caplog.records if "versions went back" in r.getMessage()]


async def test_a_dump_from_before_v9_loaded_under_running_bots_is_said_too(
    postgres_only: None,
    open_any: OpenStore,
    location: str,
    bundled: tuple[Glossary, SearchIndex],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The same on PostgreSQL: `pg_restore --clean` of a dump from before migration 9 under
    running bots (the README says to stop them first) leaves `server_versions` behind without
    its triggers and the schema at 8: no server's change is seen as its own again until a
    restart. The counters going back now say so, and to restart."""
    store = await open_any()
    try:
        await store.add_alias(1, "kept", "kept", "rag", 7)
        await store.add_alias(1, "after dump", "after dump", "rag", 7)
        cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
        await cache.check()
        conn = await asyncpg.connect(location)
        try:
            await conn.execute(PG_DUMP_OF_V8_RESTORED)
            await conn.execute("UPDATE counters SET value = 1 WHERE name = 'alias_version'")
        finally:
            await conn.close()
        caplog.set_level(logging.WARNING, logger="bot.discord_app.alias_cache")
        await cache.check()
        said = [r.getMessage() for r in caplog.records if BEHIND in r.getMessage()]
        assert len(said) == 1, [r.getMessage() for r in caplog.records]
        assert f"this bot needs {latest_version('postgres')}: restart the bot" in said[0]
    finally:
        await store.close()


def _version_triggers() -> list[str]:
    """The statements that make the version triggers, as the migrations write them (the order
    and text pg_restore uses are its own; what matters is what they make)."""
    made = []
    for migration in sorted(MIGRATIONS.glob("V*.sql")):
        for statement in migration.read_text(encoding="utf-8").split(";"):
            found = re.match(r"\s*CREATE TRIGGER (\w+)", statement)
            if found and found[1] in VERSION_TRIGGERS:
                made.append(statement.strip() + ";")
    assert len(made) == len(VERSION_TRIGGERS)
    return made


# What `pg_restore --clean` has done when it has loaded the counters and not yet the terms: the
# tables made anew (their triggers with them, made again after every table's rows), the counters
# at the dump's values.
PG_RESTORE_UNDER_WAY = "\n".join(
    [
        *(
            f"DROP TRIGGER {name} ON {'aliases' if name.startswith('aliases') else 'terms'};"
            for name in VERSION_TRIGGERS
        ),
        "CREATE TABLE terms_loaded AS SELECT * FROM terms;",
        "DELETE FROM terms;",
        "UPDATE counters SET value = 1 WHERE name = 'term_version';",
    ]
)
# The rest: the terms' rows, then the triggers (migrations 1, 3 and 9).
PG_RESTORE_ENDS = "\n".join(
    [
        "INSERT INTO terms SELECT * FROM terms_loaded;",
        "DROP TABLE terms_loaded;",
        *_version_triggers(),
    ]
)


async def test_a_server_read_while_pg_restore_loads_is_read_again_once_it_ends(
    postgres_only: None,
    open_any: OpenStore,
    location: str,
    bundled: tuple[Glossary, SearchIndex],
) -> None:
    """review58's leftover: pg_restore loads each table's rows in name order (counters before
    terms) and makes the triggers after them all. A server read between the two, under a
    running bot (the README says to stop it first), was kept without its terms as current:
    the terms' rows arrive with no trigger to move a version, so it stayed so until the
    server's next change. Now the counters going back while the triggers are missing mark a
    restore under way, and once they are made every server is read again."""
    store = await open_any()
    try:
        await change_terms(store, 1, lambda *_: (TermChange(put=TERMS), None), 1)
        await change_terms(store, 1, lambda *_: (TermChange(remove=("blorp",)), None), 1)
        await change_terms(store, 1, lambda *_: (TermChange(put=TERMS[1:]), None), 1)
        assert await store.term_version() > 1
        cache = ServerCache(lambda: store, lambda: bundled, read_timeout=5.0)
        await cache.check()
        assert len((await cache.current(1)).terms) == 2
        conn = await asyncpg.connect(location)
        try:
            await conn.execute(PG_RESTORE_UNDER_WAY)
            await cache.check()  # the counters went back
            assert (await cache.current(1)).terms == ()  # read in the window
            await conn.execute(PG_RESTORE_ENDS)
        finally:
            await conn.close()
        assert await store.term_version() == 1  # no trigger moved it
        await cache.check()
        assert len((await cache.current(1)).terms) == 2  # before: () until its next change
        await store.add_alias(1, "after", "after", "zorbic", 7)  # the triggers move it again
        assert await store.alias_version() > 0
    finally:
        await store.close()
