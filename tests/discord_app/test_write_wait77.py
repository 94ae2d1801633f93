"""product77: a moderator's change while the database hangs (WRITE_WAIT).

A PostgreSQL that accepts connections and never answers (SIGSTOP, a network dropping packets:
here a forwarder that stops passing bytes on) kept `/alias add` at "thinking…" for ~120 s
before "cannot be written"; a SQLite file another process holds locked, for its busy timeout
behind the count flush's own wait. Now the moderator is told within WRITE_WAIT that nothing was
changed, nothing is written (no alias, no audit row, even once the database answers again),
the bot's cache holds nothing of it, and /define answers meanwhile. Each test failed before
the bound: the answer came only after the test's outer bound (60 s), past which it gave up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.discord_app.cogs.moderators import NOT_IN_TIME
from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL
from tests.resilience.helpers import locked_by_another_process
from tests.storage.conftest import fresh_schema

from .conftest import Scene, StartBot
from .helpers import define, is_ephemeral

# Past the bound of 1 s by far, short of the ~120 s (PostgreSQL) or the 600 s busy timeout
# (SQLite) the change waited before: a test that reaches it failed.
OUTER = 60


async def alias_add(scene: Scene, alias: str, term: str) -> str:
    handle = await scene.fake.slash(
        scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
    )
    async with asyncio.timeout(OUTER):
        message = await handle.final_message()
    assert is_ephemeral(message)
    return str(message["content"])


async def carded(scene: Scene, term: str) -> str:
    async with asyncio.timeout(OUTER):
        _, message = await define(scene.fake, scene.alice, term, scene.channel)
    return str(message["embeds"][0]["title"])


@pytest.mark.busy_timeout(600)  # SQLite's own wait for the lock: longer than any test
async def test_a_change_while_sqlite_is_locked_is_told_nothing_was_changed_within_its_bound(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    store.write_wait = 1.0
    async with start_bot(store) as bot:
        async with locked_by_another_process(scene.db_path):
            # A lookup counted: the flush now waits for the lock too, holding the writer.
            assert await carded(scene, "kv cache") == "KV Cache"
            said = await alias_add(scene, "kv stash", "kv-cache")
            assert said == NOT_IN_TIME, said
            assert await carded(scene, "rag") == "Retrieval-Augmented Generation (RAG)"
        assert await store.list_aliases(scene.guild.id) == []
        assert await store.audit_log(scene.guild.id) == []
        local = await bot.state.servers.local(scene.guild.id)
        assert "kv stash" not in local.aliases.source
        said = await alias_add(scene, "kv stash", "kv-cache")
        assert said.startswith("Added"), said


class Forwarder:
    """A TCP forwarder to PostgreSQL that can freeze: connections stay open and every byte
    either way is held (as a stopped server or a network dropping packets) until `thaw`."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accepted, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    async def close(self) -> None:
        self.thaw()
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self._target)
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.ensure_future(self._pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while True:
                await self._flowing.wait()
                data = await source.read(65536)
                await self._flowing.wait()  # read before the freeze: held until the thaw
                if not data:
                    break
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            sink.close()


@contextlib.asynccontextmanager
async def through_forwarder(url: str) -> AsyncIterator[tuple[str, Forwarder]]:
    parts = urlsplit(url)
    forwarder = Forwarder(parts.hostname or "127.0.0.1", parts.port or 5432)
    await forwarder.start()
    auth = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    netloc = f"{auth}127.0.0.1:{forwarder.port}"
    try:
        yield urlunsplit(parts._replace(netloc=netloc)), forwarder
    finally:
        await forwarder.close()


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="TEST_DATABASE_URL is not set")
async def test_a_change_while_postgresql_hangs_is_told_nothing_was_changed_and_writes_nothing(
    scene: Scene, start_bot: StartBot
) -> None:
    async with (
        fresh_schema(TEST_DATABASE_URL, "p77") as direct,
        through_forwarder(direct) as (url, forwarder),
    ):
        store = await Store.open(url)
        store.write_wait = 1.0
        async with start_bot(store) as bot:
            forwarder.freeze()
            said = await alias_add(scene, "kv stash", "kv-cache")
            assert said == NOT_IN_TIME, said
            assert await carded(scene, "rag") == "Retrieval-Augmented Generation (RAG)"
            local = await bot.state.servers.local(scene.guild.id)
            assert "kv stash" not in local.aliases.source
            forwarder.thaw()  # what was held reaches the server now: never a COMMIT
            said = await alias_add(scene, "kv fridge", "kv-cache")
            assert said.startswith("Added"), said
        conn = await asyncpg.connect(direct)
        try:
            keys = await conn.fetch("SELECT key FROM aliases")
            audited = await conn.fetch("SELECT alias_key AS key FROM audit_log")
        finally:
            await conn.close()
        assert [r["key"] for r in keys] == ["kv fridge"]
        assert [r["key"] for r in audited] == ["kv fridge"]
