"""The scale-out and operations run as a self-hoster runs them: tests/outsider/PLAN.md,
"Operations round (ops69)". A PostgreSQL role lacking rights.

Needs a real PostgreSQL: TEST_DATABASE_URL. The role of the test's URL owns the schema each test
makes, and revokes some of its own rights on it (an owner may), as a DBA's grants leave them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import asyncpg
import pytest

from bot.storage import Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import define
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot
from tests.storage.conftest import fresh_schema

from .conftest import Scene

pytestmark = pytest.mark.postgres

ROLE = urlsplit(TEST_DATABASE_URL).username
PASSWORD = urlsplit(TEST_DATABASE_URL).password


@pytest.fixture
async def schema_url() -> AsyncIterator[str]:
    async with fresh_schema(TEST_DATABASE_URL, prefix="ops69") as url:
        yield url


async def as_owner(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def schema_of(url: str) -> str:
    return dict(parse_qsl(urlsplit(url).query))["search_path"]


async def one_line(url: str, tmp_path: Path) -> str:
    status, said = await glossary_bot({**CLI_ENV, "DATABASE_URL": url}, tmp_path, "stats")
    assert status == 1, said
    [line] = said.strip().splitlines()
    assert line.count("postgresql://") == 1, line  # the URL once, without its password
    assert f":{PASSWORD}@" not in line, line
    return line


async def test_a_role_that_may_not_create_the_tables_is_told_what_to_grant(
    scene: Scene, schema_url: str, tmp_path: Path
) -> None:
    """The bot's role without CREATE on the schema (PostgreSQL 15's `public` of a database
    another role owns): `run` said "cannot open the database DATABASE_URL=…: permission to the
    database was denied", not what was denied nor what to do. Now the server's own words
    (which schema) and the grant that fixes it."""
    schema = schema_of(schema_url)
    await as_owner(schema_url, f"REVOKE CREATE ON SCHEMA {schema} FROM {ROLE}")

    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, DATABASE_URL=schema_url) as bot:
        line = await bot.wait_for_output(r"cannot open the database")
        assert line.count("postgresql://") == 1, line
        assert f"permission denied for schema {schema}" in line, line
        assert f"GRANT CREATE ON SCHEMA {schema} TO {ROLE}" in line, line
        _, card = await define(scene.fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], card  # /define answers from the glossary meanwhile
        assert await bot.stop() == 0


async def test_a_table_the_role_may_not_read_is_named_with_the_database(
    schema_url: str, tmp_path: Path
) -> None:
    """The tables there, the role without SELECT on one: `stats` said only "glossary-bot:
    error: permission to the database was denied", naming neither the database nor the table.
    Now the URL, the table, and the grant."""
    store = await Store.open(schema_url, flush_interval=None, migrate=Migrate.UPGRADE)
    await store.close()
    await as_owner(schema_url, f"REVOKE SELECT ON {schema_of(schema_url)}.lookups FROM {ROLE}")

    line = await one_line(schema_url, tmp_path)
    assert "permission denied for table lookups" in line, line
    assert f"GRANT SELECT, INSERT, UPDATE, DELETE ON lookups TO {ROLE}" in line, line


async def test_a_schema_the_role_may_not_use_is_not_said_to_be_missing(
    schema_url: str, tmp_path: Path
) -> None:
    """The schema there, the role without USAGE on it: PostgreSQL's current_schema() is then
    NULL, and the line said "none of its search_path (…) exists (create it first: CREATE SCHEMA
    name)", which fails ("already exists"). Now it names the schema and the grant."""
    schema = schema_of(schema_url)
    await as_owner(schema_url, f"REVOKE USAGE ON SCHEMA {schema} FROM {ROLE}")

    line = await one_line(schema_url, tmp_path)
    assert "CREATE SCHEMA" not in line, line
    assert f"may not use schema {schema}" in line, line
    assert f"GRANT USAGE, CREATE ON SCHEMA {schema} TO {ROLE}" in line, line


async def test_health_says_so_while_lookup_counts_cannot_be_written(
    scene: Scene, schema_url: str, tmp_path: Path
) -> None:
    """A grant taken back while the bot runs (`REVOKE INSERT, UPDATE ON lookups`): every flush
    failed ("permission to the database was denied", kept in memory), yet `health` said
    healthy and `glossary_database_writable` 1, since their probe writes another table. Now
    both say so while the counts wait, and turn back once the grant is back, counts written.
    The flush's WARNING named the URL twice; now once."""
    schema = schema_of(schema_url)
    settings = {"DATABASE_URL": schema_url, "HEARTBEAT_INTERVAL": "0.5", "COOLDOWN_USES": "100"}
    settings["HEARTBEAT_PATH"] = str(tmp_path / "heartbeat")

    async def health() -> tuple[int, str]:
        return await glossary_bot(dict(bot.env), tmp_path, "health")

    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await eventually(lambda: _code(health(), 0), "healthy at start")
        await as_owner(schema_url, f"REVOKE INSERT, UPDATE ON {schema}.lookups FROM {ROLE}")
        for _ in range(3):
            _, card = await define(scene.fake, scene.alice, "rag", scene.channel)
            assert card["embeds"], card

        await eventually(lambda: _code(health(), 1), "unhealthy while counts cannot be written")
        _, said = await health()
        assert "permission denied for table lookups" in said, said
        assert "lookup counts" in said, said
        # The flush's own line: the URL once (it was said twice, the reason naming it again).
        line = await bot.wait_for_output(r"could not write lookup counts")
        assert line.count("postgresql://") == 1, line
        assert "permission denied for table lookups" in line, line

        await as_owner(schema_url, f"GRANT INSERT, UPDATE ON {schema}.lookups TO {ROLE}")
        await eventually(lambda: _code(health(), 0), "healthy again once they are written")
        store = await Store.open(schema_url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            assert await store.total_lookups(scene.guild.id) == 3
        finally:
            await store.close()
        assert await bot.stop() == 0


async def _code(health: object, wanted: int) -> bool:
    code, _ = await health  # type: ignore[misc]
    return bool(code == wanted)


async def test_a_read_only_database_is_named_by_the_command_line(
    schema_url: str, tmp_path: Path
) -> None:
    """Sessions that may only read (a standby after a failover; here the URL's own
    `default_transaction_read_only=on`, which asyncpg passes on): `aliases import` said only
    "glossary-bot: error: the database is read-only", not which. Now the URL, once."""
    store = await Store.open(schema_url, flush_interval=None, migrate=Migrate.UPGRADE)
    await store.close()
    read_only = f"{schema_url}&default_transaction_read_only=on"
    aliases = tmp_path / "aliases.json"
    aliases.write_text('[{"guild_id": 42, "alias": "qwzx", "entry_id": "rag"}]', "utf-8")
    env = {**CLI_ENV, "DATABASE_URL": read_only}
    status, said = await glossary_bot(env, tmp_path, "aliases", "import", str(aliases))
    assert status == 1, said
    [line] = said.strip().splitlines()
    assert line.count("postgresql://") == 1, line
    assert "is read-only" in line, line
