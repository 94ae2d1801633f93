"""PostgreSQL as small deployments meet it (tests/outsider/PLAN.md, round 11 lines U3, P3, W2):
a host that never answers, a role with a connection limit, an alias removed while an import
adds it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.dburl import without_password
from bot.storage import AddAliasStatus, AliasImport, AuditAction, Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import define, embed_of
from tests.multiprocess.test_shards import world
from tests.polling import eventually
from tests.resilience.test_shard_claims import answers_on, process_of

from .botproc import BotProcess, bot_env, glossary_bot
from .conftest import Scene


@contextlib.contextmanager
def blackholed_port() -> Iterator[int]:
    """A port whose connections never complete, as a host behind a firewall that drops them:
    a listening socket that never accepts, its one-place queue taken, so the kernel drops every
    later SYN and the client waits for its own timeout."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)):
            yield port


async def test_a_database_host_that_never_answers(scene: Scene, tmp_path: Path) -> None:
    """Plan line U3 (round 11), a blackholed host: the bot starts within its connect timeout,
    /define answers from the bundled glossary, `health` says the database is the trouble, and
    the log has one line naming DATABASE_URL and why. That line ended in "…/glossary: " (a
    timeout's message is empty)."""
    db = tmp_path / "unused.db"
    with blackholed_port() as port:
        url = f"postgresql://glossary:s3cret@127.0.0.1:{port}/glossary"
        heartbeat = tmp_path / "heartbeat"
        settings = {"DATABASE_URL": url, "HEARTBEAT_PATH": str(heartbeat)}
        env = bot_env(scene.fake, db, **settings)
        async with BotProcess(scene.fake, db, cwd=tmp_path, **settings) as bot:
            _, message = await define(scene.fake, scene.alice, "kv cache", scene.channel)
            assert embed_of(message)["title"] == "KV Cache"
            await eventually(heartbeat.exists, "the first heartbeat")
            status, said = await glossary_bot(env, tmp_path, "health")
            assert status == 1, said
            assert said.startswith("unhealthy: connected to Discord, but the database "), said
            assert f"(DATABASE_URL=postgresql://glossary@127.0.0.1:{port}/glossary)" in said
    named = [line for line in bot.lines if "ERROR" in line and "DATABASE_URL" in line]
    assert len(named) == 1, named
    assert named[0].endswith(
        f"DATABASE_URL=postgresql://glossary@127.0.0.1:{port}/glossary: cannot reach the "
        "database: no answer in time (a firewall dropping the connection, or the wrong host or "
        "port); answering without counts and aliases"
    ), named  # the URL once (left35)
    assert "s3cret" not in bot.output
    assert "Traceback" not in bot.output


@contextlib.asynccontextmanager
async def limited_database(limit: int) -> AsyncIterator[str]:
    """A new database of TEST_DATABASE_URL's server allowing `limit` connections (a small
    managed plan), dropped after: its URL."""
    name = f"ops_limit_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f"CREATE DATABASE {name} CONNECTION LIMIT {limit}")
        try:
            yield urlunsplit(urlsplit(TEST_DATABASE_URL)._replace(path=f"/{name}"))
        finally:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.mark.postgres
async def test_a_second_process_on_a_database_with_a_connection_limit(tmp_path: Path) -> None:
    """Plan line P3 (round 11), a second process: a database allowing two connections (a small
    managed plan), the first process's pool and shard claims take both. Each identify could not
    take its turn: a WARNING with a traceback each. The second process could not open the
    database (one ERROR, right) and then said "the database is not shared (set DATABASE_URL to
    PostgreSQL for every process)", which it was. Now: no traceback, and that line says what is
    so. Both processes answer /define on their shards."""
    async with world() as w, limited_database(2) as url:
        limited = replace(w, url=url)
        first = process_of(limited, [0, 1], tmp_path)
        second = process_of(limited, [2, 3], tmp_path)
        async with first:
            await answers_on(limited, [0, 1])
            async with second:
                await answers_on(limited, [2, 3])
    for process in (first, second):
        assert "Traceback" not in process.output, process.output
        assert "not shared" not in process.output, process.output
    turns = [line for line in first.lines if "cannot take turns to identify" in line]
    assert turns, first.output
    assert all('too many connections for database "ops_limit_' in line for line in turns), turns
    errors = [line for line in second.lines if "ERROR" in line]
    assert len(errors) == 1, second.output
    assert f"cannot open the database DATABASE_URL={without_password(url)}: " in errors[0]
    assert "too many connections" in errors[0], errors
    assert any(
        "SHARD_IDS 2,3: without its database this process does not check which shards" in line
        for line in second.lines
    ), second.output


@pytest.mark.postgres
async def test_alias_remove_racing_an_import_of_the_same_alias(tmp_path: Path) -> None:
    """Plan line W2 (round 11): `/alias remove` in the bot while an import adds the same alias
    on PostgreSQL, several times over: the import as `glossary-bot aliases import` makes it
    (`Store.import_aliases`, here on a pool of the test's own so that both start at the same
    moment; the command's process takes a second to start), then once through the command.
    Either order may win; whichever did, the answers are true and what is stored is what the
    audit log says last."""
    async with world() as w:
        process = process_of(w, [0, 1, 2, 3], tmp_path)
        guild, channel = w.guilds[1], w.channels[1]
        wanted = AliasImport(guild.id, "zorb race", "zorb race", "rag")
        document = tmp_path / "aliases.json"
        document.write_text(
            json.dumps([{"guild_id": guild.id, "alias": "zorb race", "entry_id": "rag"}]), "utf-8"
        )
        env = bot_env(w.fake, tmp_path / "unused.db", DATABASE_URL=w.url)

        async def moderator(command: str, options: dict[str, str]) -> str:
            handle = await w.fake.slash(w.moderator, command, options, channel=channel)
            return str((await handle.final_message())["content"])

        async def imported(importer: Store, through_the_command: bool) -> bool:
            """Whether the import added the alias (else it found it there)."""
            if through_the_command:
                status, said = await glossary_bot(env, tmp_path, "aliases", "import", str(document))
                assert status == 0, said
                assert "added 1," in said or "already present 1," in said, said
                return "added 1," in said
            [result] = await importer.import_aliases([wanted])
            assert result.status in (AddAliasStatus.ADDED, AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY)
            return result.status is AddAliasStatus.ADDED

        async def as_stored() -> tuple[dict[str, str], list[AuditAction]]:
            """The server's aliases and the audit log's last two words on the alias, newest
            first, read afresh."""
            store = await Store.open(w.url, flush_interval=None, migrate=Migrate.NEVER)
            try:
                audit = await store.audit_log(guild.id)
                return dict(await store.aliases(guild.id)), [
                    a.action for a in audit if a.alias_key == "zorb race"
                ][:2]
            finally:
                await store.close()

        async with process:
            importer = await Store.open(w.url, flush_interval=None, migrate=Migrate.NEVER)
            try:
                for through_the_command in (False,) * 8 + (True,):
                    said = await moderator("alias add", {"alias": "zorb race", "term": "rag"})
                    assert said.startswith("Added"), said
                    removed, added = await asyncio.gather(
                        moderator("alias remove", {"alias": "zorb race"}),
                        imported(importer, through_the_command),
                    )
                    assert removed.startswith("Removed"), removed
                    stored, last = await as_stored()
                    if added:  # the removal first, then the import: it stands
                        assert stored == {"zorb race": "rag"}, last
                        assert last == [AuditAction.ALIAS_IMPORT, AuditAction.ALIAS_REMOVE]
                        said = await moderator("alias remove", {"alias": "zorb race"})
                        assert said.startswith("Removed"), said
                    else:  # the import found it there, then the removal
                        assert stored == {}, last
                        assert last == [AuditAction.ALIAS_REMOVE, AuditAction.ALIAS_ADD]
            finally:
                await importer.close()
        assert "Traceback" not in process.output
